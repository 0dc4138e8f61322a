/**
 * RemovePodsViolatingTopologySpreadConstraint (kubernetes-sigs/descheduler): for every distinct
 * topology spread constraint of a namespace's pods, counts the matching pods per domain and, when
 * two domains differ by more than maxSkew, evicts from the largest domains just enough pods to
 * bring every domain within maxSkew of the average, as if the scheduler put them back evenly.
 */
import { z } from 'zod';
import {
  canonicalJson,
  findMatchingUntoleratedTaint,
  mergeSelectorsAnd,
  requiredNodeAffinityOf,
  selectorFromLabelSelector,
  selectorFromSet,
  type Node,
  type Pod,
  type RequiredNodeAffinity,
  type Selector,
  type Taint,
  type Toleration,
  type TopologySpreadConstraint,
} from '@schedlab/k8s';
import { podFilterArgsShape } from '../../api/schema';
import type { BalancePlugin, Handle } from '../../framework/types';
import { activePodsOnNode, isTerminatingPod, podFilterOf, type PodPredicate } from '../../framework/pods';

export const REMOVE_PODS_VIOLATING_TOPOLOGY_SPREAD_CONSTRAINT = 'RemovePodsViolatingTopologySpreadConstraint';

const whenUnsatisfiableSchema = z.enum(['DoNotSchedule', 'ScheduleAnyway'], {
  error: (issue) => `constraint ${String(issue.input)} is not one of map[DoNotSchedule:{} ScheduleAnyway:{}]`,
});

export const removePodsViolatingTopologySpreadConstraintArgsSchema = z.strictObject({
  ...podFilterArgsShape,
  // Upstream defaults an empty list to DoNotSchedule only.
  constraints: z
    .array(whenUnsatisfiableSchema)
    .optional()
    .transform((c) => (c && c.length > 0 ? c : ['DoNotSchedule' as const])),
  topologyBalanceNodeFit: z.boolean().default(true),
});

export type RemovePodsViolatingTopologySpreadConstraintArgs = z.infer<
  typeof removePodsViolatingTopologySpreadConstraintArgsSchema
>;

/** A pod's constraint with its selector built and its node inclusion policies resolved. */
interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  selector: Selector;
  /** Present when nodeAffinityPolicy is Honor (the default): only nodes the pod may run on count. */
  podNodeAffinity?: RequiredNodeAffinity;
  /** Present when nodeTaintsPolicy is Honor: only nodes whose taints the pod tolerates count. */
  podTolerations?: readonly Toleration[];
  /** Equal for constraints upstream would find identical. */
  identity: string;
}

/** One topology domain (a value of the constraint's key) and the matching pods in it. */
export interface Domain {
  value: string;
  pods: Pod[];
}

export function removePodsViolatingTopologySpreadConstraint(
  args: RemovePodsViolatingTopologySpreadConstraintArgs,
  handle: Handle,
): BalancePlugin {
  const { evictor } = handle;
  const isCandidate = podFilterOf({ namespaces: args.namespaces, labelSelector: args.labelSelector }, (pod) =>
    evictor.filter(pod),
  );
  const allowed = new Set<string>(args.constraints);

  return {
    name: REMOVE_PODS_VIOLATING_TOPOLOGY_SPREAD_CONSTRAINT,
    balance(nodes: readonly Node[]): void {
      const nodesByName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
      // Each pod to evict, with why: the first constraint that picked it.
      const toEvict = new Map<Pod, string>();

      for (const pods of podsByNamespace(nodes, handle, isCandidate).values()) {
        for (const constraint of namespaceConstraints(pods, allowed)) {
          const domains = countDomains(constraint, pods, nodes, nodesByName);
          if (isBalanced(domains, constraint.maxSkew)) continue;
          const matching = domains.reduce((sum, d) => sum + d.pods.length, 0);
          balanceDomains(handle, args.topologyBalanceNodeFit, toEvict, constraint, domains, matching, nodes);
        }
      }

      for (const [pod, detail] of toEvict) {
        const nodeName = pod.spec?.nodeName ?? '';
        if (evictor.nodeLimitExceeded(nodeName)) continue;
        if (!isCandidate(pod) || !evictor.preEvictionFilter(pod)) continue;
        // No reason of its own: the descheduler's event then names the strategy.
        if (
          evictor.evict(pod, {
            strategy: REMOVE_PODS_VIOLATING_TOPOLOGY_SPREAD_CONSTRAINT,
            reason: '',
            detail,
          })
        )
          continue;
        if (evictor.totalLimitExceeded()) return;
      }
    },
  };
}

function podsByNamespace(
  nodes: readonly Node[],
  handle: Handle,
  isCandidate: PodPredicate,
): Map<string, Pod[]> {
  const byNamespace = new Map<string, Pod[]>();
  for (const node of nodes)
    for (const pod of activePodsOnNode(handle, node.metadata?.name ?? '', isCandidate)) {
      const ns = pod.metadata?.namespace ?? '';
      const list = byNamespace.get(ns) ?? [];
      list.push(pod);
      byNamespace.set(ns, list);
    }
  return byNamespace;
}

/** The namespace's distinct constraints of the allowed kinds, in the order the pods declare them. */
function namespaceConstraints(pods: readonly Pod[], allowed: ReadonlySet<string>): SpreadConstraint[] {
  const constraints: SpreadConstraint[] = [];
  const seen = new Set<string>();
  for (const pod of pods)
    for (const declared of pod.spec?.topologySpreadConstraints ?? []) {
      if (!allowed.has(declared.whenUnsatisfiable)) continue;
      const constraint = spreadConstraintOf(declared, pod);
      if (!constraint || seen.has(constraint.identity)) continue;
      seen.add(constraint.identity);
      constraints.push(constraint);
    }
  return constraints;
}

function spreadConstraintOf(declared: TopologySpreadConstraint, pod: Pod): SpreadConstraint | undefined {
  let selector: Selector;
  try {
    selector = selectorFromLabelSelector(declared.labelSelector);
  } catch {
    return undefined;
  }
  // matchLabelKeys narrow the selector to the declaring pod's values for those keys.
  const labels = pod.metadata?.labels;
  const ownValues: Record<string, string> = {};
  if (labels)
    for (const key of declared.matchLabelKeys ?? []) if (key in labels) ownValues[key] = labels[key];
  if (Object.keys(ownValues).length > 0) selector = mergeSelectorsAnd([selectorFromSet(ownValues), selector]);

  const honourAffinity = (declared.nodeAffinityPolicy ?? 'Honor') === 'Honor';
  const honourTaints = (declared.nodeTaintsPolicy ?? 'Ignore') === 'Honor';
  const affinitySource = honourAffinity
    ? {
        nodeSelector: pod.spec?.nodeSelector ?? null,
        required: pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? null,
      }
    : null;
  const tolerations = honourTaints ? (pod.spec?.tolerations ?? []) : undefined;
  return {
    maxSkew: declared.maxSkew,
    topologyKey: declared.topologyKey,
    selector,
    podNodeAffinity: honourAffinity ? requiredNodeAffinityOf(pod) : undefined,
    podTolerations: tolerations,
    identity: canonicalJson([
      declared.maxSkew,
      declared.topologyKey,
      selector.toString(),
      honourAffinity,
      honourTaints,
      affinitySource,
      tolerations ?? null,
    ]),
  };
}

function isNoScheduleOrNoExecute(taint: Taint): boolean {
  return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}

/** Whether the node counts for the constraint under its node inclusion policies. */
function nodeIsIncluded(constraint: SpreadConstraint, node: Node): boolean {
  if (constraint.podNodeAffinity && !constraint.podNodeAffinity.match(node)) return false;
  if (
    constraint.podTolerations &&
    findMatchingUntoleratedTaint(node.spec?.taints, constraint.podTolerations, isNoScheduleOrNoExecute)
  )
    return false;
  return true;
}

/**
 * The constraint's domains with the namespace's matching pods in each. Every included node's
 * domain is there, even empty; a pod on a node outside the policies still counts in its domain.
 */
function countDomains(
  constraint: SpreadConstraint,
  pods: readonly Pod[],
  nodes: readonly Node[],
  nodesByName: ReadonlyMap<string, Node>,
): Domain[] {
  const domains = new Map<string, Domain>();
  const domainOf = (value: string): Domain => {
    let domain = domains.get(value);
    if (!domain) domains.set(value, (domain = { value, pods: [] }));
    return domain;
  };
  for (const node of nodes) {
    const value = node.metadata?.labels?.[constraint.topologyKey];
    if (value !== undefined && nodeIsIncluded(constraint, node)) domainOf(value);
  }
  for (const pod of pods) {
    if (isTerminatingPod(pod) || !constraint.selector.matches(pod.metadata?.labels)) continue;
    const node = nodesByName.get(pod.spec?.nodeName ?? '');
    const value = node?.metadata?.labels?.[constraint.topologyKey];
    if (value === undefined) continue;
    domainOf(value).pods.push(pod);
  }
  return [...domains.values()];
}

function isBalanced(domains: readonly Domain[], maxSkew: number): boolean {
  if (domains.length === 0) return true;
  const sizes = domains.map((d) => d.pods.length);
  return Math.max(...sizes) - Math.min(...sizes) <= maxSkew;
}

/**
 * Pairs the smallest domain with the largest and moves pods from the large one: at most half the
 * excess skew, and never taking the large domain below the average nor the small one above it.
 * Moved pods count in the small domain afterwards, as if rescheduled there.
 */
function balanceDomains(
  handle: Handle,
  topologyBalanceNodeFit: boolean,
  toEvict: Map<Pod, string>,
  constraint: SpreadConstraint,
  domains: Domain[],
  matchingPods: number,
  nodes: readonly Node[],
): void {
  const idealAverage = matchingPods / domains.length;
  const sorted = sortDomains(domains, (pod) => handle.evictor.filter(pod));
  const eligibleNodes = nodes.filter((n) => nodeIsIncluded(constraint, n));
  const nodesBelowAverage = nodesOfSmallDomains(eligibleNodes, sorted, constraint.topologyKey, idealAverage);
  // The nodes asked about do not change during this pass, so each pod's answer is asked once.
  const fitCache = new Map<Pod, boolean>();
  const fitsElsewhere = (pod: Pod): boolean => {
    let fits = fitCache.get(pod);
    if (fits === undefined) {
      fits = nodesBelowAverage.some(
        (n) => n.metadata?.name !== pod.spec?.nodeName && handle.podFitsNode(pod, n),
      );
      fitCache.set(pod, fits);
    }
    return fits;
  };

  let i = 0;
  let j = sorted.length - 1;
  while (i < j) {
    // The large domain has nothing more to give without dropping below the average.
    if (sorted[j].pods.length <= idealAverage) j--;
    const skew = sorted[j].pods.length - sorted[i].pods.length;
    if (skew <= constraint.maxSkew) {
      i++;
      continue;
    }
    const aboveAverage = Math.ceil(sorted[j].pods.length - idealAverage);
    const belowAverage = Math.ceil(idealAverage - sorted[i].pods.length);
    const halfSkew = Math.ceil((skew - constraint.maxSkew) / 2);
    const movePods = Math.trunc(Math.min(aboveAverage, belowAverage, halfSkew));
    if (movePods <= 0) {
      i++;
      continue;
    }
    // Pods that fit a node of a small domain go last, where the moved pods are taken from.
    const fits = new Map(sorted[j].pods.map((p) => [p, fitsElsewhere(p)]));
    sorted[j].pods = [
      ...sorted[j].pods.filter((p) => !fits.get(p)),
      ...sorted[j].pods.filter((p) => fits.get(p)),
    ];
    const moved = sorted[j].pods.slice(sorted[j].pods.length - movePods);
    const detail =
      `topology spread constraint ${constraint.topologyKey} (maxSkew ${constraint.maxSkew}): ` +
      `domain ${sorted[j].value} holds ${sorted[j].pods.length} matching pods, ` +
      `domain ${sorted[i].value} ${sorted[i].pods.length} (average ${Math.round(idealAverage * 100) / 100})`;
    for (const pod of moved) {
      // A pod that fits nowhere else would come straight back; it still counts as moved.
      if (topologyBalanceNodeFit && !fits.get(pod)) continue;
      if (!toEvict.has(pod)) toEvict.set(pod, detail);
    }
    sorted[j].pods = sorted[j].pods.slice(0, sorted[j].pods.length - movePods);
    sorted[i].pods = [...sorted[i].pods, ...moved];
  }
}

/** The eligible nodes of every domain holding fewer pods than the average, smallest domain first. */
function nodesOfSmallDomains(
  nodes: readonly Node[],
  sortedDomains: readonly Domain[],
  topologyKey: string,
  idealAverage: number,
): Node[] {
  const nodesByValue = new Map<string, Node[]>();
  for (const node of nodes) {
    const value = node.metadata?.labels?.[topologyKey];
    if (value === undefined) continue;
    nodesByValue.set(value, [...(nodesByValue.get(value) ?? []), node]);
  }
  return sortedDomains
    .filter((d) => d.pods.length < idealAverage)
    .flatMap((d) => nodesByValue.get(d.value) ?? []);
}

/**
 * Domains by ascending size, each domain's pods ordered so the ones to move come last:
 * non-evictable pods first, then pods with a nodeSelector or node affinity, then the rest, each
 * part by ascending priority (no priority lowest).
 */
export function sortDomains(domains: readonly Domain[], isEvictable: PodPredicate): Domain[] {
  for (const domain of domains) insertionSort(domain.pods, (a, b) => podGoesFirst(a, b, isEvictable));
  return [...domains].sort((a, b) => a.pods.length - b.pods.length);
}

/**
 * Upstream's pod ordering as a less-than. It is not strict (equal priorities answer true both
 * ways), so the order of ties depends on the sort; insertion sort is what Go's sort uses for
 * lists of up to twelve, which reverses ties of equal set priorities and keeps ties without one.
 */
function podGoesFirst(a: Pod, b: Pod, isEvictable: PodPredicate): boolean {
  const evictableA = isEvictable(a);
  const evictableB = isEvictable(b);
  if (!evictableA || !evictableB) return !(evictableA && !evictableB);
  const pinnedA = hasSelectorOrAffinity(a);
  const pinnedB = hasSelectorOrAffinity(b);
  if (pinnedA !== pinnedB) return pinnedA;
  const priorityA = a.spec?.priority ?? undefined;
  const priorityB = b.spec?.priority ?? undefined;
  if (priorityA !== undefined && priorityB !== undefined) return priorityA <= priorityB;
  if (priorityA !== undefined) return false;
  return priorityB !== undefined;
}

function insertionSort<T>(items: T[], less: (a: T, b: T) => boolean): void {
  for (let i = 1; i < items.length; i++)
    for (let k = i; k > 0 && less(items[k], items[k - 1]); k--)
      [items[k], items[k - 1]] = [items[k - 1], items[k]];
}

function hasSelectorOrAffinity(pod: Pod): boolean {
  return (
    (pod.spec?.nodeSelector !== undefined && pod.spec.nodeSelector !== null) ||
    !!pod.spec?.affinity?.nodeAffinity
  );
}
