/**
 * RemoveDuplicates (kubernetes-sigs/descheduler pkg/framework/plugins/removeduplicates): pods of
 * one owner running the same images are spread evenly over the nodes they could run on, by
 * evicting the ones above the rounded-up average of their node.
 */
import { z } from 'zod';
import {
  canonicalJson,
  findMatchingUntoleratedTaint,
  requiredNodeAffinityOf,
  type Node,
  type NodeSelector,
  type Pod,
  type Taint,
  type Toleration,
} from '@schedlab/k8s';
import { namespacesSchema } from '../../api/schema';
import type { BalancePlugin, Handle } from '../../framework/types';
import { activePodsOnNode, podFilterOf, type PodPredicate } from '../../framework/pods';

export const REMOVE_DUPLICATES = 'RemoveDuplicates';

export const removeDuplicatesArgsSchema = z.strictObject({
  namespaces: namespacesSchema.optional(),
  excludeOwnerKinds: z.array(z.string()).optional(),
});

export type RemoveDuplicatesArgs = z.infer<typeof removeDuplicatesArgsSchema>;

/** The group a duplicate belongs to: one owner, one namespace, one sorted image list. */
interface OwnerGroup {
  key: string;
  /** e.g. `ReplicaSet dev/web-1234`, for the eviction's detail. */
  owner: string;
  /** nodeName → the pods beyond the first of their kind on that node, in listing order. */
  extraPodsByNode: Map<string, Pod[]>;
  /** How many feasible pods of the group run anywhere (the first on each node included). */
  occurrences: number;
}

export function removeDuplicates(args: RemoveDuplicatesArgs, handle: Handle): BalancePlugin {
  const { evictor } = handle;
  const excludedKinds = new Set(args.excludeOwnerKinds ?? []);
  const isCandidate = podFilterOf(
    { namespaces: args.namespaces },
    (pod) => evictor.filter(pod),
    (pod) => evictor.preEvictionFilter(pod),
  );

  return {
    name: REMOVE_DUPLICATES,
    balance(nodes: readonly Node[]): void {
      const groups = collectDuplicates(nodes, handle, isCandidate, excludedKinds);
      for (const group of groups.values()) {
        const duplicates = [...group.extraPodsByNode.values()].flat();
        const targetNodes = feasibleNodes(duplicates, nodes);
        // Fewer than two nodes to spread over: evicting would only bring the pod back.
        if (targetNodes < 2) continue;
        const upperAverage = Math.ceil(group.occurrences / targetNodes);
        for (const [nodeName, extras] of group.extraPodsByNode) {
          // extras excludes the node's first pod, so the node holds extras.length + 1.
          if (extras.length + 1 <= upperAverage) continue;
          const detail =
            `${extras.length + 1} pods of ${group.owner} with the same images on node ${nodeName}, ` +
            `more than ${upperAverage} (${group.occurrences} pods over ${targetNodes} feasible nodes)`;
          for (const pod of extras.slice(upperAverage - 1)) {
            // No reason of its own: the descheduler's event then names the strategy.
            if (evictor.evict(pod, { strategy: REMOVE_DUPLICATES, reason: '', detail })) continue;
            if (evictor.totalLimitExceeded()) return;
            if (evictor.nodeLimitExceeded(nodeName)) break;
          }
        }
      }
    },
  };
}

function collectDuplicates(
  nodes: readonly Node[],
  handle: Handle,
  isCandidate: PodPredicate,
  excludedKinds: ReadonlySet<string>,
): Map<string, OwnerGroup> {
  const groups = new Map<string, OwnerGroup>();
  const groupOf = (key: string, owner: string): OwnerGroup => {
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, owner, extraPodsByNode: new Map(), occurrences: 0 }));
    return group;
  };
  // Groups only enter `groups` once a duplicate is seen, but every pod counts as an occurrence.
  const occurrences = new Map<string, number>();

  for (const node of nodes) {
    const nodeName = node.metadata?.name ?? '';
    // Pods already seen on this node, by their sorted owner/image keys.
    const seenOnNode = new Set<string>();
    for (const pod of activePodsOnNode(handle, nodeName, isCandidate)) {
      const owners = pod.metadata?.ownerReferences ?? [];
      if (owners.length === 0 || owners.some((o) => excludedKinds.has(o.kind))) continue;
      const namespace = pod.metadata?.namespace ?? '';
      const images = (pod.spec?.containers ?? []).map((c) => c.image ?? '').sort();
      if (images.length === 0) continue;
      const imagesHash = images.join('#');
      const ownerKeys = owners.map((o) => `${namespace}/${o.kind}/${o.name}/${imagesHash}`);
      for (const key of ownerKeys) occurrences.set(key, (occurrences.get(key) ?? 0) + 1);

      // A duplicate shares every owner and every image with an earlier pod on the same node.
      const containerKeys = owners
        .flatMap((o) => images.map((image) => `${namespace}/${o.kind}/${o.name}/${image}`))
        .sort();
      const signature = JSON.stringify(containerKeys);
      if (!seenOnNode.has(signature)) {
        seenOnNode.add(signature);
        continue;
      }
      for (const [i, key] of ownerKeys.entries()) {
        const group = groupOf(key, `${owners[i].kind} ${namespace}/${owners[i].name}`);
        const extras = group.extraPodsByNode.get(nodeName) ?? [];
        extras.push(pod);
        group.extraPodsByNode.set(nodeName, extras);
      }
    }
  }
  for (const group of groups.values()) group.occurrences = occurrences.get(group.key) ?? 0;
  return groups;
}

/**
 * How many nodes the group could land on: each distinct scheduling shape (tolerations, required
 * node affinity, nodeSelector) contributes the nodes it matches, when it matches more than one.
 */
function feasibleNodes(pods: readonly Pod[], nodes: readonly Node[]): number {
  const shapes = new Map<string, Pod>();
  for (const pod of pods) {
    const shape = schedulingShapeOf(pod);
    if (!shapes.has(shape)) shapes.set(shape, pod);
  }
  const targets = new Set<string>();
  for (const pod of shapes.values()) {
    const affinity = requiredNodeAffinityOf(pod);
    const matching = nodes.filter(
      (node) =>
        !findMatchingUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, isNoScheduleOrNoExecute) &&
        // An unparsable selector does not rule the node out, as upstream treats the error.
        (affinity.errors.length > 0 || affinity.match(node)),
    );
    if (matching.length > 1) for (const node of matching) targets.add(node.metadata?.name ?? '');
  }
  return targets.size;
}

function isNoScheduleOrNoExecute(taint: Taint): boolean {
  return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}

/** Equal for pods whose tolerations (as sets), required node affinity and nodeSelector agree. */
function schedulingShapeOf(pod: Pod): string {
  return canonicalJson([
    normalisedTolerations(pod.spec?.tolerations ?? []),
    normalisedNodeSelector(pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution),
    pod.spec?.nodeSelector ?? null,
  ]);
}

/** Tolerations compared as upstream does: key, operator, value and effect; order and repeats ignored. */
function normalisedTolerations(tolerations: readonly Toleration[]): string[] {
  const keys = tolerations.map((t) =>
    JSON.stringify([t.key ?? '', t.value ?? '', t.effect ?? '', t.operator ?? '']),
  );
  return [...new Set(keys)].sort();
}

/** Each term's requirements sorted with their values deduplicated; repeated adjacent terms once. */
function normalisedNodeSelector(selector: NodeSelector | undefined): unknown {
  if (!selector) return null;
  const terms = (selector.nodeSelectorTerms ?? []).map((term) => ({
    matchExpressions: term.matchExpressions && normalisedRequirements(term.matchExpressions),
    matchFields: term.matchFields && normalisedRequirements(term.matchFields),
  }));
  const unique: unknown[] = [];
  let last = '';
  for (const term of terms) {
    const rendered = canonicalJson(term);
    if (unique.length > 0 && rendered === last) continue;
    unique.push(term);
    last = rendered;
  }
  return unique;
}

function normalisedRequirements(
  requirements: readonly { key: string; operator: string; values?: string[] }[],
): string[] {
  const rendered = requirements.map((r) =>
    JSON.stringify([r.key, r.operator, [...new Set(r.values ?? [])].sort()]),
  );
  return [...new Set(rendered)].sort();
}
