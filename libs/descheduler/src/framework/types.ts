/**
 * The descheduler's framework as kubernetes-sigs/descheduler shapes it (pkg/framework/types):
 * plugins see the cluster through a handle, and every eviction goes through the evictor, which
 * applies the DefaultEvictor's filters, the eviction limits and PodDisruptionBudgets.
 */
import type { KubeObject, Node, Pod } from '@schedlab/k8s';

/** Why a pod was evicted, in the descheduler's words, and by which plugin. */
export interface EvictOptions {
  /** The plugin asking, e.g. `RemovePodsViolatingNodeTaints`. */
  strategy: string;
  /** The descheduler's reason, e.g. `NodeTaint`, as in its eviction event. */
  reason: string;
}

export interface Evictor {
  /** DefaultEvictor's Filter: may this pod be evicted at all. */
  filter(pod: Pod): boolean;
  /** DefaultEvictor's PreEvictionFilter (nodeFit, namespaces). */
  preEvictionFilter(pod: Pod): boolean;
  /**
   * Evicts the pod unless a limit (per node, per namespace, total) or a PodDisruptionBudget stops
   * it; returns whether it was evicted. Evicted pods leave the handle's view at once.
   */
  evict(pod: Pod, options: EvictOptions): boolean;
  /** True once maxNoOfPodsToEvictPerNode is reached for the node. */
  nodeLimitExceeded(nodeName: string): boolean;
}

/** What a plugin sees of the cluster. */
export interface Handle {
  evictor: Evictor;
  /** Pods bound to the node that have not been evicted and are not terminating. */
  podsOnNode(nodeName: string): readonly Pod[];
  /** Every object of the snapshot (owners, PDBs, namespaces …). */
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
