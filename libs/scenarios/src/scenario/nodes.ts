/** Addressing nodes (names, kubectl-style label selectors) and making new ones. */
import {
  type KubeObject,
  LABEL_HOSTNAME,
  LABEL_TOPOLOGY_ZONE,
  Node,
  Selector,
  SelectorTextError,
  Taint,
  parseSelectorText,
} from '@schedlab/k8s';
import type { NodeSelection, NodeTemplate, StepArgs } from './schema';
import { World, nodeNameOf } from './world';

/** A problem with one field of a step's arguments, relative to the step (e.g. "nodes"). */
export class StepError extends Error {
  constructor(
    readonly field: string,
    readonly detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

/** Parses a selector in kubectl syntax (`k=v`, `k!=v`, `k in (a,b)` …), naming the step's field when it cannot. */
export function parseLabelSelector(text: string, field = 'selector'): Selector {
  try {
    return parseSelectorText(text);
  } catch (e) {
    if (e instanceof SelectorTextError) throw new StepError(field, e.detail);
    throw e;
  }
}

/** The nodes a selection names; an empty result or an unknown name is an error. */
export function selectNodes(world: World, selection: NodeSelection, field = 'nodes'): Node[] {
  const names = Array.isArray(selection) ? selection : selection.names;
  const selectorText = Array.isArray(selection) ? undefined : selection.selector;
  if (!names && selectorText === undefined) throw new StepError(field, 'give node names or a selector');
  const all = world.nodes();
  let picked = all;
  if (names) {
    const byName = new Map(all.map((n) => [nodeNameOf(n), n]));
    for (const n of names)
      if (!byName.has(n)) throw new StepError(field, `node "${n}" is not in the cluster`);
    picked = picked.filter((n) => names.includes(nodeNameOf(n)));
  }
  if (selectorText !== undefined) {
    const sel = parseLabelSelector(selectorText, `${field}.selector`);
    picked = picked.filter((n) => sel.matches(n.metadata?.labels));
    if (picked.length === 0) throw new StepError(field, `no node matches selector "${selectorText}"`);
  }
  return picked;
}

/** A fresh node of a template: labels (with hostname), taints, allocatable = capacity. */
export function nodeFromTemplate(
  name: string,
  template: Pick<NodeTemplate, 'labels' | 'taints' | 'allocatable'>,
): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { ...template.labels, [LABEL_HOSTNAME]: name } },
    spec: template.taints?.length ? { taints: template.taints.map((t) => ({ ...t })) as Taint[] } : {},
    status: {
      capacity: { ...template.allocatable } as Record<string, string>,
      allocatable: { ...template.allocatable } as Record<string, string>,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  } as Node;
}

/**
 * The CSINode the kubelet registers for a node made from a template: one entry per driver, with
 * the node's name as its node ID (what the kubelet reports for most drivers).
 */
export function csiNodeFromTemplate(
  name: string,
  drivers: NonNullable<NodeTemplate['csiDrivers']>,
): KubeObject {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSINode',
    metadata: { name },
    spec: {
      drivers: drivers.map((d) => ({
        name: d.name,
        nodeID: name,
        ...(d.topologyKeys ? { topologyKeys: [...d.topologyKeys] } : {}),
        ...(d.allocatableCount !== undefined ? { allocatable: { count: d.allocatableCount } } : {}),
      })),
    },
  };
}

/**
 * The CSINode of a node the step adds: the template's drivers, or a copy of the cloned node's
 * CSINode (same drivers and limits), so volume limits apply on new nodes as on the old ones.
 */
export function addedCsiNode(
  world: World,
  args: StepArgs['addNodes'],
  templates: readonly NodeTemplate[],
  name: string,
): KubeObject | undefined {
  if (args.template !== undefined) {
    const drivers = templates.find((t) => t.name === args.template)?.csiDrivers;
    return drivers?.length ? csiNodeFromTemplate(name, drivers) : undefined;
  }
  if (args.cloneOf === undefined) return undefined;
  const source = world.items.find((o) => o.kind === 'CSINode' && o.metadata?.name === args.cloneOf);
  if (!source) return undefined;
  const copy = structuredClone(source) as KubeObject & {
    spec?: { drivers?: { nodeID?: string }[] };
  };
  copy.metadata = { name };
  for (const d of copy.spec?.drivers ?? []) if (d.nodeID === args.cloneOf) d.nodeID = name;
  return copy;
}

/** A new node like an existing one: same labels (own hostname), taints, capacity; no images, schedulable. */
export function cloneNode(source: Node, name: string): Node {
  const node = structuredClone(source);
  node.metadata = {
    name,
    labels: { ...source.metadata?.labels, [LABEL_HOSTNAME]: name },
    annotations: source.metadata?.annotations,
  };
  if (node.spec) {
    delete node.spec.unschedulable;
    delete node.spec.providerID;
    delete node.spec.podCIDR;
    delete node.spec.podCIDRs;
  }
  if (node.status) {
    delete node.status.images;
    node.status.conditions = [{ type: 'Ready', status: 'True' }];
  }
  return node;
}

/** `count` names `<prefix>-<k>` not yet used, k from 0. */
export function freshNodeNames(world: World, prefix: string, count: number): string[] {
  const taken = new Set(world.nodes().map(nodeNameOf));
  const out: string[] = [];
  for (let k = 0; out.length < count; k++) if (!taken.has(`${prefix}-${k}`)) out.push(`${prefix}-${k}`);
  return out;
}

export function buildAddedNodes(
  world: World,
  args: StepArgs['addNodes'],
  templates: readonly NodeTemplate[],
): Node[] {
  let base: (name: string) => Node;
  if (args.template !== undefined && args.cloneOf !== undefined)
    throw new StepError('template', 'give either template or cloneOf, not both');
  if (args.template !== undefined) {
    const t = templates.find((x) => x.name === args.template);
    if (!t) throw new StepError('template', `no node template "${args.template}" in nodeTemplates`);
    base = (name) => nodeFromTemplate(name, t);
  } else if (args.cloneOf !== undefined) {
    const source = world.node(args.cloneOf);
    if (!source) throw new StepError('cloneOf', `node "${args.cloneOf}" is not in the cluster`);
    base = (name) => cloneNode(source, name);
  } else if (args.allocatable) {
    base = (name) => nodeFromTemplate(name, { allocatable: args.allocatable! });
  } else {
    throw new StepError('template', 'give a template, cloneOf or allocatable');
  }
  const prefix = args.namePrefix ?? args.template ?? (args.cloneOf ? `${args.cloneOf}-clone` : 'node');
  return freshNodeNames(world, prefix, args.count).map((name) => {
    const node = base(name);
    const labels = { ...node.metadata!.labels, ...args.labels };
    if (args.zone !== undefined) labels[LABEL_TOPOLOGY_ZONE] = args.zone;
    node.metadata!.labels = labels;
    if (args.taints)
      node.spec = { ...node.spec, taints: [...(node.spec?.taints ?? []), ...(args.taints as Taint[])] };
    if (args.allocatable && (args.template !== undefined || args.cloneOf !== undefined)) {
      (node as { status: Node['status'] }).status = {
        ...node.status,
        allocatable: { ...node.status?.allocatable, ...args.allocatable } as Record<string, string>,
        capacity: { ...node.status?.capacity, ...args.allocatable } as Record<string, string>,
      };
    }
    return node;
  });
}
