/**
 * The descheduler's framework as kubernetes-sigs/descheduler shapes it (pkg/framework/types):
 * plugins see the cluster through a handle, and every eviction goes through the evictor, which
 * applies the eviction limits and PodDisruptionBudgets. The DefaultEvictor's checks are the
 * evictor's `filter` and `preEvictionFilter`; as upstream, `evict` itself does not run them, so a
 * plugin filters first (upstream's plugins all do).
 */
import type { KubeObject, Node, Pod } from '@schedlab/k8s';

/** Why a pod was evicted, in the descheduler's words, and by which plugin. */
export interface EvictOptions {
  /** The plugin asking, e.g. `RemovePodsViolatingNodeTaints`. */
  strategy: string;
  /**
   * The descheduler's reason, as in its eviction event. Upstream's deschedule plugins pass none,
   * and the event then carries the strategy's name; pass '' to get that.
   */
  reason: string;
  /** What the plugin saw, for people (e.g. the taint not tolerated); not part of upstream's event. */
  detail?: string;
}

/** Why an eviction was refused, as the descheduler's errors name it. */
export type EvictionRefusal =
  | 'node-limit'
  | 'namespace-limit'
  | 'total-limit'
  | 'pod-disruption-budget'
  | 'multiple-pod-disruption-budgets';

export interface Evictor {
  /** The profile's filter plugins (DefaultEvictor's Filter): may this pod be evicted at all. */
  filter(pod: Pod): boolean;
  /** The profile's preEvictionFilter plugins (DefaultEvictor's nodeFit, namespaceLabelSelector). */
  preEvictionFilter(pod: Pod): boolean;
  /**
   * Evicts the pod unless a limit (per node, per namespace, total) or a PodDisruptionBudget stops
   * it; returns whether it was evicted (`lastRefusal()` says why not). Evicted pods leave the
   * handle's view at once.
   */
  evict(pod: Pod, options: EvictOptions): boolean;
  /** Why the last `evict` call refused, undefined when it evicted. */
  lastRefusal(): EvictionRefusal | undefined;
  /** True once maxNoOfPodsToEvictPerNode is reached for the node. */
  nodeLimitExceeded(nodeName: string): boolean;
  /** True once maxNoOfPodsToEvictTotal is reached: upstream's plugins stop at that. */
  totalLimitExceeded(): boolean;
}

/** What a plugin sees of the cluster. */
export interface Handle {
  evictor: Evictor;
  /**
   * Every pod bound to the node that has not been evicted, whatever its phase (upstream's pod
   * indexer by spec.nodeName). Upstream's ListPodsOnANode, which leaves out Succeeded and Failed
   * pods, is `activePodsOnNode` in framework/pods.ts.
   */
  podsOnNode(nodeName: string): readonly Pod[];
  /** Every object of the snapshot (owners, PDBs, namespaces, PriorityClasses …). */
  objects: readonly KubeObject[];
  /** Milliseconds since the epoch: the snapshot's clock, never the machine's. */
  now(): number;
  /**
   * Would the pod fit on the node, by the scheduler's own filters (the descheduler's NodeFit,
   * answered by the engine so both agree).
   */
  podFitsNode(pod: Pod, node: Node): boolean;
}

export interface DeschedulePlugin {
  readonly name: string;
  deschedule(nodes: readonly Node[]): void;
}

export interface BalancePlugin {
  readonly name: string;
  balance(nodes: readonly Node[]): void;
}

/** Builds a plugin from its validated `pluginConfig` args. */
export type PluginFactory<Args> = (args: Args, handle: Handle) => DeschedulePlugin | BalancePlugin;
