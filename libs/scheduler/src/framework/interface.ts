/**
 * Extension-point contracts of the scheduling framework (upstream framework/interface.go).
 * A plugin implements any subset; the runtime discovers which by the methods present.
 */
import type { Node, Pod } from '@schedlab/k8s';
import type { CycleState } from './cycle-state';
import type { MaybeStatus } from './status';
import { NodeToStatusMap } from './node-to-status';
import type { NodeInfo, PodInfo } from './types';
import type { ClusterObjects } from '../backend/cache/cluster-objects';
import type { TopologyDomains } from '../backend/cache/topology-domains';
import type { FeatureSet } from '../features';

export const MAX_NODE_SCORE = 100;
export const MIN_NODE_SCORE = 0;
export const MAX_TOTAL_SCORE = 2 ** 63 - 1;

export interface NodeScore {
  name: string;
  score: number;
}

export { NodeToStatusMap };

/** Nodes a PreFilter narrowed the search to; undefined node set means "all nodes". */
export interface PreFilterResult {
  nodeNames?: Set<string>;
}

/** A node preemption could free for the pod, with the pods it would evict there. */
export interface PreemptionCandidate {
  nodeName: string;
  victims: Pod[];
  numPDBViolations: number;
}

export interface PostFilterResult {
  nominatedNodeName?: string;
  /** Pods to evict so the pod fits on the nominated node (the simulation removes them). */
  victims?: Pod[];
  /** Every candidate considered, for explanations. */
  candidates?: PreemptionCandidate[];
}

export interface Plugin {
  readonly name: string;
}

export interface QueueSortPlugin extends Plugin {
  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean;
}

export interface PreEnqueuePlugin extends Plugin {
  preEnqueue(pod: Pod): MaybeStatus;
}

/** Incremental updates of PreFilter state when preemption adds or removes pods on a node. */
export interface PreFilterExtensions {
  addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus;
  removePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): MaybeStatus;
}

export interface PreFilterPlugin extends Plugin {
  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus };
  preFilterExtensions?(): PreFilterExtensions | undefined;
}

export interface FilterPlugin extends Plugin {
  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus;
  /**
   * Optional, asked once per attempt after PreFilter: true when `filter` would return Success on
   * every node whatever pods run there, judging only by the pod and PreFilter state that adding or
   * removing pods never changes (e.g. the pod has no volumes). The framework then leaves the
   * plugin out of the per-node loop; verdicts are unchanged.
   */
  filterPassesAllNodes?(state: CycleState, pod: Pod): boolean;
}

export interface PostFilterPlugin extends Plugin {
  postFilter(
    state: CycleState,
    pod: Pod,
    filteredNodeStatusMap: NodeToStatusMap,
  ): { result?: PostFilterResult; status: MaybeStatus };
}

export interface PreScorePlugin extends Plugin {
  preScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): MaybeStatus;
}

export interface ScoreExtensions {
  normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): MaybeStatus;
}

/** See ScorePlugin.uniformScore. */
export interface UniformScore {
  raw: number;
  score: number;
}

export interface ScorePlugin extends Plugin {
  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus];
  /**
   * Optional batch form of `score`: writes `scores[i].score` for `nodes[i]`, the same numbers
   * `score` would give one node at a time. Lets a plugin read its cycle state and the pod's
   * inputs once per attempt instead of once per node (thousands of nodes per pod).
   */
  scoreNodes?(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus;
  /**
   * Optional: when every node given to Score in this attempt would get the same score from this
   * plugin, that score before (`raw`) and after normalization (`score`); otherwise undefined. Lets
   * the framework skip the per-node passes of a plugin that cannot tell the nodes apart.
   */
  uniformScore?(state: CycleState, pod: Pod): UniformScore | undefined;
  scoreExtensions?(): ScoreExtensions | undefined;
}

export interface ReservePlugin extends Plugin {
  reserve(state: CycleState, pod: Pod, nodeName: string): MaybeStatus;
  unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

export interface PermitPlugin extends Plugin {
  permit(state: CycleState, pod: Pod, nodeName: string): { status: MaybeStatus; timeoutSeconds?: number };
}

export interface PreBindPlugin extends Plugin {
  preBind(state: CycleState, pod: Pod, nodeName: string): MaybeStatus;
}

export interface BindPlugin extends Plugin {
  bind(state: CycleState, pod: Pod, nodeName: string): MaybeStatus;
}

export interface PostBindPlugin extends Plugin {
  postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/** A pod waiting in the scheduling queue. */
export interface QueuedPodInfo {
  podInfo: PodInfo;
  /** Monotonic enqueue sequence; stands in for upstream's enqueue timestamp. */
  timestamp: number;
  attempts: number;
}

/** Read access to the snapshot's nodes (upstream NodeInfoLister). */
export interface NodeInfoLister {
  list(): NodeInfo[];
  havePodsWithAffinityList(): NodeInfo[];
  havePodsWithRequiredAntiAffinityList(): NodeInfo[];
  /**
   * Optional narrowing of havePodsWithAffinityList: only nodes hosting pods with terms that score
   * (PodInfo.hasScoringAffinityTerms); the pods it leaves out contribute nothing to PreScore.
   */
  havePodsWithScoringAffinityList?(): NodeInfo[];
  get(nodeName: string): NodeInfo | undefined;
  /**
   * Every pod added to or removed from a node of list() so far, in order (append-only), so that
   * plugins can keep counts up to date from the changes instead of recounting. Optional: a lister
   * without it gets counted afresh.
   */
  podChangeLog?(): readonly PodChange[];
  /**
   * Optional: a label key's values numbered per node of list() (by NodeInfo.index), for plugins
   * that look a topology value up on every node. The nodes' labels must not change while the
   * lister lives.
   */
  topologyDomains?(key: string): TopologyDomains;
  /**
   * Optional: false when no node of list() reports any image (their imageStates are all empty and
   * stay so while the lister lives), so ImageLocality scores every node alike without visiting them.
   */
  anyNodeImages?(): boolean;
  /**
   * Optional: whether any node of list() meets `test`, worked out once per `fact` (the test's
   * name) while the lister lives, as its nodes do not change. A Filter plugin that can reject
   * only nodes that meet a test leaves the per-node loop where no node meets it.
   */
  anyNode?(fact: string, test: (node: Node) => boolean): boolean;
}

/** One pod bound to (delta 1) or removed from (delta -1) a node of the snapshot. */
export interface PodChange {
  pod: PodInfo;
  node: NodeInfo;
  delta: 1 | -1;
}

/** What plugins may use from the framework (upstream framework.Handle). */
export interface Handle {
  snapshot(): NodeInfoLister;
  /** Non-pod, non-node objects of the simulated cluster (services, volumes, namespaces, …). */
  readonly objects: ClusterObjects;
  readonly features: FeatureSet;
  /** Seeded uniform integer in [0, n) for plugins' random choices (preemption's candidate offset). */
  randomInt?(n: number): number;
  /** The simulation's clock in ms (the run's start time base), for time-dependent checks. */
  now?(): number;
  /** Used by preemption: Filter plugins over a node, as the framework would run them. */
  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus;
  runPreFilterExtensionAddPod(
    state: CycleState,
    pod: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus;
  runPreFilterExtensionRemovePod(
    state: CycleState,
    pod: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus;
}

/** Builds a plugin from its (already defaulted and validated) args. */
export type PluginFactory = (args: unknown, handle: Handle) => Plugin;
