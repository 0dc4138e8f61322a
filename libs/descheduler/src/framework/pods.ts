/**
 * What the descheduler asks of pods and nodes (upstream's pkg/utils and pkg/descheduler/{pod,node}),
 * shared by the evictor and every plugin.
 */
import {
  type LabelSelector,
  type Node,
  type Pod,
  type QosClass,
  namespaceOf,
  podQosClass,
  selectorFromLabelSelector,
} from '@schedlab/k8s';
import { CONFIG_SOURCE_ANNOTATION, isMirrorPod } from '@schedlab/workloads';
import type { Handle } from './types';

/** Include or exclude namespaces (upstream's api.Namespaces): at most one of the two is set. */
export interface NamespaceFilter {
  include?: readonly string[];
  exclude?: readonly string[];
}

/** The pod filter every plugin builds from its args (upstream's podutil.Options). */
export interface PodFilterArgs {
  namespaces?: NamespaceFilter;
  labelSelector?: LabelSelector;
}

export type PodPredicate = (pod: Pod) => boolean;

/** Namespaces, then labelSelector, then the extra checks, all ANDed. */
export function podFilterOf(args: PodFilterArgs, ...extra: PodPredicate[]): PodPredicate {
  const include = new Set(args.namespaces?.include ?? []);
  const exclude = new Set(args.namespaces?.exclude ?? []);
  const selector = args.labelSelector ? selectorFromLabelSelector(args.labelSelector) : undefined;
  return (pod) => {
    const ns = namespaceOf(pod);
    if (include.size > 0 && !include.has(ns)) return false;
    if (exclude.has(ns)) return false;
    if (selector && !selector.matches(pod.metadata?.labels)) return false;
    return extra.every((check) => check(pod));
  };
}

export function isTerminalPod(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** The node's pods that have not finished (upstream's ListPodsOnANode), optionally filtered. */
export function activePodsOnNode(handle: Handle, nodeName: string, filter?: PodPredicate): Pod[] {
  return handle.podsOnNode(nodeName).filter((p) => !isTerminalPod(p) && (!filter || filter(p)));
}

/** Every pod bound to the node (upstream's ListAllPodsOnANode), optionally filtered. */
export function allPodsOnNode(handle: Handle, nodeName: string, filter?: PodPredicate): Pod[] {
  return handle.podsOnNode(nodeName).filter((p) => !filter || filter(p));
}

/** Forces eviction past the DefaultEvictor's checks. */
export const EVICT_POD_ANNOTATION = 'descheduler.alpha.kubernetes.io/evict';
export const PREFER_NO_EVICTION_ANNOTATION = 'descheduler.alpha.kubernetes.io/prefer-no-eviction';
/** system-cluster-critical's value: pods at or above it are system critical. */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

const annotation = (pod: Pod, key: string): string | undefined => pod.metadata?.annotations?.[key];

export { isMirrorPod };
/** A static pod says where the kubelet read it from; API pods say `api` or nothing. */
export function isStaticPod(pod: Pod): boolean {
  const source = annotation(pod, CONFIG_SOURCE_ANNOTATION);
  return source !== undefined && source !== 'api';
}
export const isTerminatingPod = (pod: Pod): boolean => !!pod.metadata?.deletionTimestamp;
export const hasEvictAnnotation = (pod: Pod): boolean => annotation(pod, EVICT_POD_ANNOTATION) !== undefined;
export const hasNoEvictionAnnotation = (pod: Pod): boolean =>
  annotation(pod, PREFER_NO_EVICTION_ANNOTATION) !== undefined;
/** Only a priority the pod carries counts: an unresolved pod is not critical. */
export const isCriticalPriorityPod = (pod: Pod): boolean =>
  pod.spec?.priority !== undefined &&
  pod.spec.priority !== null &&
  pod.spec.priority >= SYSTEM_CRITICAL_PRIORITY;
export const ownerReferencesOf = (pod: Pod) => pod.metadata?.ownerReferences ?? [];
export const isDaemonSetPod = (pod: Pod): boolean =>
  ownerReferencesOf(pod).some((o) => o.kind === 'DaemonSet');
export const hasLocalStorage = (pod: Pod): boolean =>
  (pod.spec?.volumes ?? []).some((v) => v.hostPath !== undefined || v.emptyDir !== undefined);
export const hasPersistentVolumeClaim = (pod: Pod): boolean =>
  (pod.spec?.volumes ?? []).some((v) => v.persistentVolumeClaim !== undefined);
export const hasResourceClaims = (pod: Pod): boolean =>
  ((pod.spec as { resourceClaims?: unknown[] } | undefined)?.resourceClaims?.length ?? 0) > 0;

const QOS_RANK: Record<QosClass, number> = { BestEffort: 0, Burstable: 1, Guaranteed: 2 };

/**
 * Orders pods for eviction, lowest first: no priority before any priority, then by priority;
 * at equal priority BestEffort, Burstable, Guaranteed, and pods without the prefer-no-eviction
 * annotation before those with it. Stable, so ties keep their order.
 */
export function sortPodsByPriorityLowToHigh(pods: Pod[]): Pod[] {
  const priorityOf = (p: Pod) => p.spec?.priority ?? undefined;
  // Each pod's class once, not per comparison (it parses the pod's quantities).
  const ranks = new Map<Pod, number>();
  const qosRank = (p: Pod) => {
    let rank = ranks.get(p);
    if (rank === undefined) ranks.set(p, (rank = QOS_RANK[podQosClass(p)]));
    return rank;
  };
  return pods.sort((a, b) => {
    const pa = priorityOf(a);
    const pb = priorityOf(b);
    if (pa === undefined && pb !== undefined) return -1;
    if (pb === undefined && pa !== undefined) return 1;
    if (pa !== undefined && pb !== undefined && pa !== pb) return pa - pb;
    const qa = qosRank(a);
    const qb = qosRank(b);
    if (qa !== qb) return qa - qb;
    return Number(hasNoEvictionAnnotation(a)) - Number(hasNoEvictionAnnotation(b));
  });
}

const creationTimeOf = (pod: Pod): number => Date.parse(pod.metadata?.creationTimestamp ?? '') || 0;

/** Oldest first (upstream's SortPodsBasedOnAge); stable for equal creation times. */
export function sortPodsByAge(pods: Pod[]): Pod[] {
  return pods.sort((a, b) => creationTimeOf(a) - creationTimeOf(b));
}

export { creationTimeOf };

/** The descheduler's readiness: only a Ready condition that is not True makes a node not ready. */
export function isNodeReady(node: Node): boolean {
  return !(node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status !== 'True');
}
