/**
 * What LowNodeUtilization and HighNodeUtilization share (kubernetes-sigs/descheduler
 * pkg/framework/plugins/nodeutilization): node usage from pod requests, its percentage of the
 * node's allocatable, the classification of nodes against thresholds, and the eviction loop that
 * moves pods off source nodes while the destination nodes still have room.
 */
import { z } from 'zod';
import {
  podRequests,
  resourceListAmounts,
  tolerationsTolerateTaint,
  type Node,
  type Pod,
  type Taint,
} from '@schedlab/k8s';
import type { Evictor, EvictOptions, Handle } from '../../framework/types';
import { activePodsOnNode, sortPodsByPriorityLowToHigh, type PodPredicate } from '../../framework/pods';

export const MIN_RESOURCE_PERCENTAGE = 0;
export const MAX_RESOURCE_PERCENTAGE = 100;

/** Resource name → percentage of the node's allocatable, in [0, 100]. */
export const resourceThresholdsSchema = z.record(z.string(), z.number());
export type ResourceThresholds = Record<string, number>;

/**
 * A resource's entry, own entries only: a policy may name any resource, and a plain lookup of
 * one named "constructor" would find Object.prototype's.
 */
function entryOf(percentages: ResourceThresholds, name: string): number | undefined {
  return Object.hasOwn(percentages, name) ? percentages[name] : undefined;
}

/** Only `exclude` is supported: excluded namespaces still count towards usage but are not evicted. */
export const evictableNamespacesSchema = z
  .object({ include: z.array(z.string()).optional(), exclude: z.array(z.string()).optional() })
  .strict()
  .refine((n) => !n.include?.length, {
    message: 'only Exclude namespaces can be set, inclusion is not supported',
  });

/** Upstream's validateThresholds, as an error message or undefined. */
export function thresholdsError(thresholds: ResourceThresholds | undefined): string | undefined {
  const entries = Object.entries(thresholds ?? {});
  if (entries.length === 0) return 'no resource threshold is configured';
  for (const [name, percent] of entries)
    if (percent < MIN_RESOURCE_PERCENTAGE || percent > MAX_RESOURCE_PERCENTAGE)
      return `${name} threshold not in [${MIN_RESOURCE_PERCENTAGE}, ${MAX_RESOURCE_PERCENTAGE}] range`;
  return undefined;
}

/** Amounts in resourceAmount units: cpu in millicores, everything else in whole units. */
export type ResourceAmounts = Map<string, number>;

/** One node as the plugins see it once its usage is taken. */
export interface NodeUsage {
  node: Node;
  name: string;
  /** Requests of every active pod on the node, plus `pods` = their count. */
  usage: ResourceAmounts;
  /** The active pods whose requests make up `usage`, in the handle's order. */
  pods: Pod[];
  /** The node's allocatable capped at the upper threshold: how much the node may hold. */
  available: ResourceAmounts;
  /** Usage as percentages of allocatable when the node was classified. */
  percentages: ResourceThresholds;
}

/** `cpu 82%, pods 90%`: the thresholds' resources, rounded as upstream logs them. */
export function describePercentages(percentages: ResourceThresholds, resources: readonly string[]): string {
  return resources.map((r) => `${r} ${Math.round(entryOf(percentages, r) ?? 0)}%`).join(', ');
}

/** The thresholds' resources plus cpu, memory and pods, which usage always tracks. */
export function trackedResources(thresholds: ResourceThresholds): string[] {
  return [...new Set(['cpu', 'memory', 'pods', ...Object.keys(thresholds)])];
}

/** allocatable when the node reports any, its capacity otherwise. */
export function nodeCapacity(node: Node): ResourceAmounts {
  const allocatable = node.status?.allocatable;
  const list = allocatable && Object.keys(allocatable).length > 0 ? allocatable : node.status?.capacity;
  return resourceListAmounts(list as Record<string, string | number> | undefined);
}

/** A pod's requests as the scheduler counts them (init containers, sidecars, overhead). */
export function podUsage(pod: Pod, resources: readonly string[]): ResourceAmounts {
  const requests = podRequests(pod);
  const usage: ResourceAmounts = new Map();
  for (const name of resources) usage.set(name, name === 'pods' ? 1 : (requests.get(name) ?? 0));
  return usage;
}

/** The requested usage of every node, taken once so usage and pod lists agree. */
export function takeUsageSnapshot(
  nodes: readonly Node[],
  handle: Handle,
  resources: readonly string[],
): Map<string, { node: Node; usage: ResourceAmounts; pods: Pod[] }> {
  const snapshot = new Map<string, { node: Node; usage: ResourceAmounts; pods: Pod[] }>();
  for (const node of nodes) {
    const name = node.metadata?.name ?? '';
    const pods = activePodsOnNode(handle, name);
    const usage: ResourceAmounts = new Map(resources.map((r) => [r, 0]));
    for (const pod of pods)
      for (const [r, amount] of podUsage(pod, resources)) usage.set(r, (usage.get(r) ?? 0) + amount);
    snapshot.set(name, { node, usage, pods });
  }
  return snapshot;
}

/** Usage as percentages of capacity; a resource the node does not report is left out. */
export function usagePercentages(usage: ResourceAmounts, capacity: ResourceAmounts): ResourceThresholds {
  const percentages: ResourceThresholds = {};
  for (const [name, used] of usage) {
    const total = capacity.get(name);
    if (total === undefined) continue;
    percentages[name] = total > 0 ? (used / total) * 100 : 0;
  }
  return percentages;
}

/**
 * Upstream's early exits, shared by both plugins: nothing is underutilized, no more nodes are
 * than numberOfNodes, every node is, or no node stands on the other side.
 */
export function worthBalancing(
  underutilized: number,
  numberOfNodes: number,
  allNodes: number,
  otherSide: number,
): boolean {
  return underutilized > 0 && underutilized > numberOfNodes && underutilized !== allNodes && otherSide > 0;
}

/** Every threshold resource at or below its threshold. */
export function isBelowThresholds(usage: ResourceThresholds, thresholds: ResourceThresholds): boolean {
  return Object.entries(thresholds).every(([name, limit]) => (entryOf(usage, name) ?? 0) <= limit);
}

/** Some threshold resource above its threshold. */
export function isAboveThresholds(usage: ResourceThresholds, thresholds: ResourceThresholds): boolean {
  return Object.entries(thresholds).some(([name, limit]) => (entryOf(usage, name) ?? 0) > limit);
}

/**
 * The node's capacity for each tracked resource, capped at its threshold percentage where one is
 * set (truncated like upstream's int64 conversion); a resource the node lacks has none.
 */
export function capacityCappedAt(
  node: Node,
  thresholds: ResourceThresholds,
  resources: readonly string[],
): ResourceAmounts {
  const capacity = nodeCapacity(node);
  const capped: ResourceAmounts = new Map();
  for (const name of resources) {
    const total = capacity.get(name);
    const threshold = entryOf(thresholds, name);
    if (total === undefined) capped.set(name, 0);
    else if (threshold === undefined) capped.set(name, total);
    else capped.set(name, Math.trunc(threshold * 0.01 * total));
  }
  return capped;
}

/** Each resource's mean percentage over the nodes that report it. */
export function averageUsage(usages: readonly ResourceThresholds[]): ResourceThresholds {
  // Maps: an object's lookup of a resource named "constructor" would find Object.prototype's.
  const sums = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const usage of usages)
    for (const [name, value] of Object.entries(usage)) {
      sums.set(name, (sums.get(name) ?? 0) + value);
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  return Object.fromEntries([...sums].map(([name, sum]) => [name, sum / counts.get(name)!]));
}

/** average ± deviation per resource of `deviation`, clamped to [0, 100]. */
export function deviatedThresholds(
  average: ResourceThresholds,
  deviation: ResourceThresholds,
  sign: 1 | -1,
): ResourceThresholds {
  const out: ResourceThresholds = {};
  for (const [name, value] of Object.entries(average))
    out[name] = Math.min(
      MAX_RESOURCE_PERCENTAGE,
      Math.max(MIN_RESOURCE_PERCENTAGE, value + sign * (entryOf(deviation, name) ?? 0)),
    );
  return out;
}

/**
 * Orders nodes by the plain sum of their usage amounts (millicores, bytes and pod count added
 * together, as upstream does); stable, so equal sums keep the input order.
 */
export function sortNodesByUsage(nodes: NodeUsage[], ascending: boolean): NodeUsage[] {
  const total = (n: NodeUsage) => [...n.usage.values()].reduce((a, b) => a + b, 0);
  return nodes.sort((a, b) => (ascending ? total(a) - total(b) : total(b) - total(a)));
}

/** Is any tracked resource of the node above what it may hold. */
export function isAboveAvailable(node: NodeUsage): boolean {
  for (const [name, used] of node.usage) if ((node.available.get(name) ?? 0) < used) return true;
  return false;
}

/**
 * Whether the pod tolerates every taint of at least one destination node (all effects; a pod
 * with fewer tolerations than the node has taints is taken not to).
 */
function toleratesSomeDestination(pod: Pod, destinationTaints: readonly (readonly Taint[])[]): boolean {
  const tolerations = pod.spec?.tolerations ?? [];
  return destinationTaints.some(
    (taints) =>
      tolerations.length >= taints.length && taints.every((t) => tolerationsTolerateTaint(tolerations, t)),
  );
}

export interface EvictionRun {
  handle: Handle;
  sources: readonly NodeUsage[];
  destinations: readonly NodeUsage[];
  resources: readonly string[];
  /** Which pods may move at all (the evictor's filter and the plugin's own conditions). */
  isRemovable: PodPredicate;
  excludedNamespaces: ReadonlySet<string>;
  /** Whether to keep evicting from this node given what the destinations can still take. */
  shouldContinue(node: NodeUsage, totalAvailable: ResourceAmounts): boolean;
  options: EvictOptions;
  /** Why the node gives up pods, for people (EvictOptions.detail). */
  detailOf(node: NodeUsage): string;
  /** LowNodeUtilization's evictionLimits.node: evictions per source node for this plugin. */
  maxEvictionsPerNode?: number;
}

/**
 * Evicts from each source node in turn, lowest priority (then QoS) first, until the node is within
 * its bounds or the destinations are out of room; each eviction moves the pod's requests from the
 * node's usage and from the destinations' free room.
 */
export function evictFromSourceNodes(run: EvictionRun): void {
  const { evictor } = run.handle;
  const totalAvailable: ResourceAmounts = new Map(run.resources.map((r) => [r, 0]));
  for (const destination of run.destinations)
    for (const r of run.resources)
      totalAvailable.set(
        r,
        (totalAvailable.get(r) ?? 0) + (destination.available.get(r) ?? 0) - (destination.usage.get(r) ?? 0),
      );
  const destinationTaints = run.destinations.map((d) => d.node.spec?.taints ?? []);

  for (const source of run.sources) {
    const removable = sortPodsByPriorityLowToHigh(source.pods.filter(run.isRemovable));
    if (removable.length === 0) continue;
    evictFromNode(run, evictor, source, removable, totalAvailable, destinationTaints);
    if (evictor.totalLimitExceeded()) return;
  }
}

function evictFromNode(
  run: EvictionRun,
  evictor: Evictor,
  source: NodeUsage,
  removable: readonly Pod[],
  totalAvailable: ResourceAmounts,
  destinationTaints: readonly (readonly Taint[])[],
): void {
  if (!run.shouldContinue(source, totalAvailable)) return;
  let evicted = 0;
  for (const pod of removable) {
    if (run.maxEvictionsPerNode !== undefined && evicted >= run.maxEvictionsPerNode) return;
    if (!toleratesSomeDestination(pod, destinationTaints)) continue;
    if (run.excludedNamespaces.has(pod.metadata?.namespace ?? '') || !evictor.preEvictionFilter(pod))
      continue;
    if (!evictor.evict(pod, { ...run.options, detail: run.detailOf(source) })) {
      if (evictor.nodeLimitExceeded(source.name) || evictor.totalLimitExceeded()) return;
      continue;
    }
    evicted++;
    for (const [r, amount] of podUsage(pod, run.resources)) {
      source.usage.set(r, (source.usage.get(r) ?? 0) - amount);
      totalAvailable.set(r, (totalAvailable.get(r) ?? 0) - amount);
    }
    if (!run.shouldContinue(source, totalAvailable)) return;
  }
}

/** The destinations together still have room for every tracked resource (none at zero or below). */
export function hasRoomLeft(totalAvailable: ResourceAmounts): boolean {
  for (const amount of totalAvailable.values()) if (amount <= 0) return false;
  return true;
}
