/**
 * PodTopologySpread: keeps matching pods spread over topology domains. DoNotSchedule constraints
 * filter (PreFilter counts, Filter checks skew); ScheduleAnyway constraints score.
 */
import type { Labels, Node, Pod, TopologySpreadConstraint } from '@schedlab/k8s';
import {
  ActionType,
  QueueingHint,
  asObjects,
  semanticallyEqual,
  type ClusterEventWithHint,
  type EnqueueExtensions,
} from '../../events';
import type { CycleState } from '../../cycle-state';
import type {
  FilterPlugin,
  Handle,
  NodeScore,
  PreFilterExtensions,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
} from '../../interface';
import { MaybeStatus, Status } from '../../status';
import { StateSlot } from '../helper/state-slot';
import type { NodeInfo, PodInfo } from '../../types';
import { PluginNames } from '../names';
import {
  DO_NOT_SCHEDULE,
  PodTopologySpreadArgs,
  SCHEDULE_ANYWAY,
  SYSTEM_DEFAULTING,
  SYSTEM_DEFAULT_CONSTRAINTS,
} from './args';
import { MatchingPodCounts, SpreadConstraint, SpreadOptions, constraintsForPod, nodeLabel } from './common';
import {
  PreFilterState,
  computePreFilterState,
  filterByPlan,
  filterPlanOf,
  updateStateWithPod,
} from './filtering';
import {
  PreScoreState,
  computePreScoreState,
  normalizeScores,
  scoreNode,
  scoreNodesByDomain,
} from './scoring';

export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;

export const PRE_FILTER_STATE_KEY = `PreFilter${PluginNames.PodTopologySpread}`;
export const PRE_SCORE_STATE_KEY = `PreScore${PluginNames.PodTopologySpread}`;

/** A pod on a node (or nominated to one) in the pending pod's namespace can change its counts. */
function involvedInTopologySpreading(incoming: Pod, podWithSpreading: Pod): boolean {
  if (!incoming.spec?.nodeName && !incoming.status?.nominatedNodeName) return false;
  return (incoming.metadata?.namespace ?? 'default') === (podWithSpreading.metadata?.namespace ?? 'default');
}

const nodeLabelsMatchSpreadConstraints = (
  labels: Labels | undefined,
  constraints: readonly SpreadConstraint[],
) => constraints.every((c) => nodeLabel(labels, c.topologyKey) !== undefined);

const topologyKeyLabelsChanged = (
  a: Labels | undefined,
  b: Labels | undefined,
  constraints: readonly SpreadConstraint[],
) => constraints.some((c) => nodeLabel(a, c.topologyKey) !== nodeLabel(b, c.topologyKey));

export class PodTopologySpread
  implements
    PreFilterPlugin,
    FilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    PreFilterExtensions,
    ScoreExtensions,
    EnqueueExtensions
{
  readonly name = PluginNames.PodTopologySpread;
  /**
   * The two Filter rejections, allocated once per plugin: at 100 % of nodes a cycle rejects
   * thousands of nodes, and a Status is never changed after the framework names this plugin in it.
   */
  private readonly labelNotMatch = Status.unresolvable(ERR_REASON_NODE_LABEL_NOT_MATCH);
  private readonly constraintsNotMatch = Status.unschedulable(ERR_REASON_CONSTRAINTS_NOT_MATCH);
  private readonly defaultConstraints: readonly TopologySpreadConstraint[];
  /** System defaults let nodes without a zone label still be scored for hostname spreading. */
  private readonly systemDefaulted: boolean;
  private readonly opts: SpreadOptions;
  private readonly skipsWithoutConstraints: boolean;
  /** Matching-pod counts per node, shared by PreFilter and PreScore across scheduling cycles. */
  private countsCache: MatchingPodCounts | undefined | null = null;

  constructor(
    args: PodTopologySpreadArgs,
    private readonly handle: Handle,
  ) {
    this.systemDefaulted = args.defaultingType === SYSTEM_DEFAULTING;
    this.defaultConstraints = this.systemDefaulted ? SYSTEM_DEFAULT_CONSTRAINTS : args.defaultConstraints;
    const f = handle.features;
    this.opts = {
      minDomains: f.enabled('MinDomainsInPodTopologySpread'),
      nodeInclusionPolicy: f.enabled('NodeInclusionPolicyInPodTopologySpread'),
      matchLabelKeys: f.enabled('MatchLabelKeysInPodTopologySpread'),
      emptySelectorCountsNothing: f.behaviour.spreadEmptySelectorCountsNothing,
      matchLabelKeysKeepsNilSelector: f.behaviour.spreadMatchLabelKeysKeepNilSelector,
    };
    this.skipsWithoutConstraints = f.behaviour.spreadSkipsWithoutConstraints;
  }

  /** Remembered counts, when the snapshot logs its pod changes (the simulator's does). */
  private get counts(): MatchingPodCounts | undefined {
    if (this.countsCache === null) {
      const lister = this.handle.snapshot();
      this.countsCache = lister.podChangeLog
        ? new MatchingPodCounts(this.opts, {
            list: () => lister.list(),
            podChangeLog: () => lister.podChangeLog!(),
            topologyDomains: lister.topologyDomains && ((key) => lister.topologyDomains!(key)),
          })
        : undefined;
    }
    return this.countsCache;
  }

  private constraints(pod: Pod, action: string): SpreadConstraint[] {
    return constraintsForPod(pod, action, this.defaultConstraints, this.handle.objects, this.opts);
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: {
          resource: 'AssignedPod',
          actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete,
        },
        queueingHintFn: (pod, oldObj, newObj) =>
          this.isSchedulableAfterAssignedPodChange(pod, oldObj, newObj),
      },
      {
        event: {
          resource: 'TargetPod',
          actionType: ActionType.UpdatePodToleration | ActionType.UpdatePodLabel,
        },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterTargetPodChange(pod, oldObj, newObj),
      },
      {
        event: {
          resource: 'Node',
          actionType:
            ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint,
        },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
    ];
  }

  /** The pending pod's tolerations matter with nodeTaintsPolicy Honor; its labels, to its selectors. */
  isSchedulableAfterTargetPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Pod>(oldObj, newObj);
    if (!original || !modified) throw new Error('a pod update needs the old and the new pod');
    const constraints = this.constraints(pod, DO_NOT_SCHEDULE);
    if (
      !semanticallyEqual(modified.spec?.tolerations ?? [], original.spec?.tolerations ?? []) &&
      constraints.some((c) => c.honorNodeTaints)
    )
      return QueueingHint.Queue;
    return this.isSchedulableAfterPodLabelChange(original, modified, constraints);
  }

  /** A pod placed, relabelled or deleted in the namespace changes the counts of the selectors it matches. */
  isSchedulableAfterAssignedPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Pod>(oldObj, newObj);
    if (
      (modified && !involvedInTopologySpreading(modified, pod)) ||
      (original && !involvedInTopologySpreading(original, pod))
    )
      return QueueingHint.QueueSkip;
    const constraints = this.constraints(pod, DO_NOT_SCHEDULE);
    if (modified && original) return this.isSchedulableAfterPodLabelChange(original, modified, constraints);
    const changed = (modified ?? original)!;
    return constraints.some((c) => c.selector.matches(changed.metadata?.labels))
      ? QueueingHint.Queue
      : QueueingHint.QueueSkip;
  }

  private isSchedulableAfterPodLabelChange(
    original: Pod,
    modified: Pod,
    constraints: readonly SpreadConstraint[],
  ): QueueingHint {
    if (semanticallyEqual(modified.metadata?.labels ?? {}, original.metadata?.labels ?? {}))
      return QueueingHint.QueueSkip;
    for (const c of constraints) {
      if (c.selector.matches(original.metadata?.labels) !== c.selector.matches(modified.metadata?.labels))
        return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }

  /** A node that has (or had) every topology key, added, removed, or with those labels or its taints changed. */
  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Node>(oldObj, newObj);
    const constraints = this.constraints(pod, DO_NOT_SCHEDULE);
    const originalMatching = original
      ? nodeLabelsMatchSpreadConstraints(original.metadata?.labels, constraints)
      : false;
    const modifiedMatching = modified
      ? nodeLabelsMatchSpreadConstraints(modified.metadata?.labels, constraints)
      : false;
    if (original && modified) {
      if (originalMatching !== modifiedMatching) return QueueingHint.Queue;
      if (
        modifiedMatching &&
        (topologyKeyLabelsChanged(original.metadata?.labels, modified.metadata?.labels, constraints) ||
          !semanticallyEqual(original.spec?.taints ?? [], modified.spec?.taints ?? []))
      )
        return QueueingHint.Queue;
      return QueueingHint.QueueSkip;
    }
    if (modified) return modifiedMatching ? QueueingHint.Queue : QueueingHint.QueueSkip;
    return originalMatching ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    let constraints: SpreadConstraint[];
    try {
      constraints = this.constraints(pod, DO_NOT_SCHEDULE);
    } catch (e) {
      const what = pod.spec?.topologySpreadConstraints?.length
        ? "obtaining pod's hard"
        : 'setting default hard';
      return { status: Status.error(`${what} topology spread constraints: ${(e as Error).message}`) };
    }
    const s = computePreFilterState(pod, constraints, this.handle.snapshot().list(), this.opts, this.counts);
    // Written even when skipping, so PreFilter extensions find a state whatever the runtime does.
    this.preFilterState.write(state, s);
    if (constraints.length === 0 && this.skipsWithoutConstraints) return { status: Status.skip() };
    return { status: null };
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return this.updateWithPod(state, podToSchedule, podInfoToAdd, nodeInfo, 1);
  }

  removePod(
    state: CycleState,
    podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus {
    return this.updateWithPod(state, podToSchedule, podInfoToRemove, nodeInfo, -1);
  }

  private updateWithPod(
    state: CycleState,
    preemptor: Pod,
    pi: PodInfo,
    nodeInfo: NodeInfo,
    delta: 1 | -1,
  ): MaybeStatus {
    const s = state.read<PreFilterState>(PRE_FILTER_STATE_KEY);
    if (s === undefined) return Status.error(`reading "${PRE_FILTER_STATE_KEY}" from cycleState: not found`);
    updateStateWithPod(s, pi.pod, preemptor, nodeInfo.node, delta, this.opts);
    return null;
  }

  /** No hard constraints (they come from the pod alone; adding pods changes only counts). */
  filterPassesAllNodes(state: CycleState): boolean {
    const s = state.read<PreFilterState>(PRE_FILTER_STATE_KEY);
    return s !== undefined && s.constraints.length === 0;
  }

  private readonly preFilterState = new StateSlot<PreFilterState>(PRE_FILTER_STATE_KEY);

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = this.preFilterState.read(state);
    if (s === undefined) return Status.error(`reading "${PRE_FILTER_STATE_KEY}" from cycleState: not found`);
    if (s.constraints.length === 0) return null;
    if (nodeInfo.index >= 0) {
      let plan = s.filterPlan;
      if (plan === undefined) {
        const lister = this.handle.snapshot();
        plan = s.filterPlan = filterPlanOf(
          s,
          pod,
          lister.topologyDomains && ((key) => lister.topologyDomains!(key)),
          this.opts.minDomains,
        );
      }
      if (plan !== null) {
        const verdict = filterByPlan(plan, nodeInfo.index);
        if (verdict === 0) return null;
        return verdict === 1 ? this.labelNotMatch : this.constraintsNotMatch;
      }
    }
    const nodeLabels = nodeInfo.node.metadata?.labels;
    const podLabels = pod.metadata?.labels;
    for (const c of s.constraints) {
      const value = nodeLabel(nodeLabels, c.topologyKey);
      if (value === undefined) return this.labelNotMatch;
      const min = s.minMatchNum(c.topologyKey, c.minDomains, this.opts.minDomains);
      // No data for the key (no node counted): upstream logs and skips the constraint.
      if (min === undefined) continue;
      const selfMatch = c.selector.matches(podLabels) ? 1 : 0;
      const matchNum = s.tpPairToMatchNum.get(c.topologyKey)?.get(value) ?? 0;
      if (matchNum + selfMatch - min > c.maxSkew) return this.constraintsNotMatch;
    }
    return null;
  }

  preScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): MaybeStatus {
    const lister = this.handle.snapshot();
    const allNodes = lister.list();
    if (nodes.length === 0 || allNodes.length === 0)
      return this.skipsWithoutConstraints ? Status.skip() : null;
    let constraints: SpreadConstraint[];
    try {
      constraints = this.constraints(pod, SCHEDULE_ANYWAY);
    } catch (e) {
      const what = pod.spec?.topologySpreadConstraints?.length
        ? "obtaining pod's soft"
        : 'setting default soft';
      return Status.error(
        `calculating preScoreState: ${what} topology spread constraints: ${(e as Error).message}`,
      );
    }
    if (constraints.length === 0) {
      if (this.skipsWithoutConstraints) return Status.skip();
      // v1.26/1.27: every node scores 0 raw, which normalizes to MaxNodeScore.
      state.write(PRE_SCORE_STATE_KEY, new PreScoreState([], new Set(), new Map(), []));
      return null;
    }
    const requireAllTopologies =
      (pod.spec?.topologySpreadConstraints?.length ?? 0) > 0 || !this.systemDefaulted;
    state.write(
      PRE_SCORE_STATE_KEY,
      computePreScoreState(
        pod,
        constraints,
        nodes,
        allNodes,
        requireAllTopologies,
        this.opts,
        this.counts,
        lister.topologyDomains && ((key) => lister.topologyDomains!(key)),
      ),
    );
    return null;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    const s = state.read<PreScoreState>(PRE_SCORE_STATE_KEY);
    if (s === undefined)
      return [0, Status.error(`error reading "${PRE_SCORE_STATE_KEY}" from cycleState: not found`)];
    return [scoreNode(s, pod, nodeInfo, this.opts), null];
  }

  scoreNodes(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    const s = state.read<PreScoreState>(PRE_SCORE_STATE_KEY);
    if (s === undefined)
      return Status.error(`error reading "${PRE_SCORE_STATE_KEY}" from cycleState: not found`);
    const lister = this.handle.snapshot();
    if (lister.topologyDomains && scoreNodesByDomain(s, nodes, scores, (key) => lister.topologyDomains!(key)))
      return null;
    for (let i = 0; i < nodes.length; i++) scores[i].score = scoreNode(s, pod, nodes[i], this.opts);
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): MaybeStatus {
    const s = state.read<PreScoreState>(PRE_SCORE_STATE_KEY);
    if (s === undefined)
      return Status.error(`error reading "${PRE_SCORE_STATE_KEY}" from cycleState: not found`);
    normalizeScores(s, scores);
    return null;
  }
}
