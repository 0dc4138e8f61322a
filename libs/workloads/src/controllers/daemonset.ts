/**
 * DaemonSet: one pod per node that should run it (upstream NodeShouldRunDaemonPod: node name,
 * nodeSelector/required node affinity, and NoSchedule/NoExecute taints against the pod's
 * tolerations, including those the controller adds), pinned with a matchFields node affinity.
 */
import { findMatchingUntoleratedTaint, requiredNodeAffinityOf } from '@schedlab/k8s';
import type { Affinity, DaemonSet, Node, NodeSelectorRequirement, Pod, Toleration } from '@schedlab/k8s';
import type { RandomInt } from '@schedlab/k8s';
import {
  PodTemplate,
  controllerRef,
  nameOf,
  namespaceOf,
  podFromTemplate,
  requireTemplate,
  withUid,
} from './common';
import { computeHash } from './hash';
import { CONTROLLER_REVISION_HASH_LABEL } from './statefulset';

export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

/** Tolerations the DaemonSet controller adds to every daemon pod (util.AddOrUpdateDaemonPodTolerations). */
export function daemonPodTolerations(hostNetwork: boolean): Toleration[] {
  const exists = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect });
  const out = [
    exists('node.kubernetes.io/not-ready', 'NoExecute'),
    exists('node.kubernetes.io/unreachable', 'NoExecute'),
    exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
  ];
  if (hostNetwork) out.push(exists('node.kubernetes.io/network-unavailable', 'NoSchedule'));
  return out;
}

function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? 'Equal') === (b.operator ?? 'Equal') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '') &&
    a.tolerationSeconds === b.tolerationSeconds
  );
}

/** Appends each toleration the pod does not already have. */
export function addTolerations(
  existing: readonly Toleration[] | undefined,
  added: readonly Toleration[],
): Toleration[] {
  const out = [...(existing ?? [])];
  for (const t of added) if (!out.some((e) => sameToleration(e, t))) out.push(t);
  return out;
}

/**
 * util.ReplaceDaemonSetPodNodeNameNodeAffinity: every required term's matchFields becomes
 * metadata.name In [node] (a single such term when there were none); preferred terms stay.
 */
export function pinToNode(affinity: Affinity | undefined, nodeName: string): Affinity {
  const field: NodeSelectorRequirement = { key: 'metadata.name', operator: 'In', values: [nodeName] };
  const out = structuredClone(affinity ?? {});
  out.nodeAffinity ??= {};
  const required = out.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required || required.nodeSelectorTerms.length === 0) {
    out.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
      nodeSelectorTerms: [{ matchFields: [field] }],
    };
  } else {
    for (const term of required.nodeSelectorTerms) term.matchFields = [{ ...field, values: [nodeName] }];
  }
  return out;
}

export interface NodeVerdict {
  /** The controller creates a daemon pod here. */
  shouldRun: boolean;
  /** An existing daemon pod stays (only NoExecute taints evict). */
  shouldContinueRunning: boolean;
}

function templatePod(ds: DaemonSet): Pod {
  const template = requireTemplate({ ...ds, kind: 'DaemonSet' }, ds.spec?.template) as PodTemplate;
  const spec = structuredClone(template.spec!);
  spec.tolerations = addTolerations(spec.tolerations, daemonPodTolerations(spec.hostNetwork === true));
  return { metadata: { ...structuredClone(template.metadata ?? {}), namespace: namespaceOf(ds) }, spec };
}

export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): NodeVerdict {
  const pod = templatePod(ds);
  const nodeName = node.metadata?.name ?? '';
  const fitsName = !pod.spec?.nodeName || pod.spec.nodeName === nodeName;
  const fitsAffinity = requiredNodeAffinityOf(pod).match(node);
  const taints = node.spec?.taints ?? [];
  const untolerated = findMatchingUntoleratedTaint(
    taints,
    pod.spec?.tolerations,
    (t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute',
  );
  const untoleratedNoExecute = findMatchingUntoleratedTaint(
    taints,
    pod.spec?.tolerations,
    (t) => t.effect === 'NoExecute',
  );
  if (!fitsName || !fitsAffinity) return { shouldRun: false, shouldContinueRunning: false };
  return { shouldRun: untolerated === undefined, shouldContinueRunning: untoleratedNoExecute === undefined };
}

export interface DaemonSetReconcile {
  create: Pod[];
  /** Existing daemon pods whose node is gone or no longer eligible. */
  delete: Pod[];
}

function daemonNodeOf(pod: Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const t of terms)
    for (const f of t.matchFields ?? [])
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
  return undefined;
}

/**
 * The controller's sync against the current nodes: a pod for each eligible node without one, and
 * deletions for pods on removed nodes or nodes the pod may no longer run on.
 */
export function reconcileDaemonSet(
  ds: DaemonSet,
  nodes: readonly Node[],
  existing: readonly Pod[],
  random: RandomInt,
): DaemonSetReconcile {
  const owner = withUid({ ...ds, kind: 'DaemonSet' as const });
  const base = templatePod(owner);
  const ref = controllerRef(owner, 'apps/v1');
  const revisionHash = computeHash(ds.spec?.template);
  const generation = String(ds.metadata?.generation ?? 1);
  const byNode = new Map<string, Pod>();
  const out: DaemonSetReconcile = { create: [], delete: [] };
  for (const p of existing) {
    const n = daemonNodeOf(p);
    if (n === undefined || byNode.has(n)) out.delete.push(p);
    else byNode.set(n, p);
  }
  const nodeNames = new Set<string>();
  for (const node of nodes) {
    const nodeName = node.metadata?.name ?? '';
    nodeNames.add(nodeName);
    const verdict = nodeShouldRunDaemonPod(node, owner);
    const current = byNode.get(nodeName);
    if (current && !verdict.shouldContinueRunning) out.delete.push(current);
    if (!current && verdict.shouldRun) {
      const pod = podFromTemplate(
        { metadata: base.metadata, spec: base.spec },
        {
          namespace: namespaceOf(owner),
          owner: ref,
          generateNamePrefix: `${nameOf(owner)}-`,
          extraLabels: {
            [CONTROLLER_REVISION_HASH_LABEL]: revisionHash,
            [POD_TEMPLATE_GENERATION_LABEL]: generation,
          },
          random,
        },
      );
      pod.spec!.affinity = pinToNode(pod.spec!.affinity, nodeName);
      out.create.push(pod);
    }
  }
  for (const [n, p] of byNode) if (!nodeNames.has(n)) out.delete.push(p);
  return out;
}

export function daemonSetPods(ds: DaemonSet, nodes: readonly Node[], random: RandomInt): Pod[] {
  return reconcileDaemonSet(ds, nodes, [], random).create;
}
