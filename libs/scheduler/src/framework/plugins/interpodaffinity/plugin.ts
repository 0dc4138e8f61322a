/** The InterPodAffinity plugin: required pod (anti-)affinity in Filter, preferred ones in Score. */
import type { Node, Pod } from '@schedlab/k8s';
import {
  ActionType,
  QueueingHint,
  asObjects,
  type ClusterEventWithHint,
  type EnqueueExtensions,
} from '../../events';
import type { CycleState } from '../../cycle-state';
import type {
  FilterPlugin,
  Handle,
  NodeInfoLister,
  NodeScore,
  PreFilterExtensions,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
} from '../../interface';
import { type MaybeStatus, Status } from '../../status';
import { StateSlot } from '../helper/state-slot';
import { type AffinityTerm, type NodeInfo, PodInfo, affinityTermMatches } from '../../types';
import { PluginNames } from '../names';
import type { InterPodAffinityArgs } from './args';
import { TermsSelectingPod } from './match-memo';
import { TermCountsIndex } from './term-counts-index';
import { LayeredCounts, type PairCounts } from './topology-counts';
import {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  type IncomingPod,
  PRE_FILTER_STATE_KEY,
  PreFilterState,
  existingAntiAffinityCounts,
  filterByPlan,
  filterPlanOf,
  incomingAffinityCounts,
  satisfiesExistingPodsAntiAffinity,
  satisfiesPodAffinity,
  satisfiesPodAntiAffinity,
} from './filtering';
import {
  PRE_SCORE_STATE_KEY,
  PreScoreState,
  computeTopologyScore,
  nodeScore,
  normalizeScores,
} from './scoring';
import {
  MATCH_LABEL_KEYS_GATE,
  effectivePodInfo,
  mergeTermNamespaces,
  podUsesLabelKeys,
  podWithLabelKeysFolded,
} from './terms';

/** A pod on a node or nominated to one; the others are not counted by anyone's terms yet. */
const placedOrNominated = (p: Pod) => Boolean(p.spec?.nodeName || p.status?.nominatedNodeName);

const matchesAll = (terms: readonly AffinityTerm[], pod: Pod) =>
  terms.length > 0 && terms.every((t) => affinityTermMatches(t, pod, undefined));

const matchesAny = (terms: readonly AffinityTerm[], pod: Pod) =>
  terms.some((t) => affinityTermMatches(t, pod, undefined));

export class InterPodAffinity
  implements
    PreFilterPlugin,
    PreFilterExtensions,
    FilterPlugin,
    PreScorePlugin,
    ScorePlugin,
    ScoreExtensions,
    EnqueueExtensions
{
  readonly name = PluginNames.InterPodAffinity;

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
      // Any label change of the pending pod may satisfy existing pods' terms about it.
      {
        event: { resource: 'TargetPod', actionType: ActionType.UpdatePodLabel },
        queueingHintFn: () => QueueingHint.Queue,
      },
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
    ];
  }

  /**
   * A placed pod now matching all the pending pod's affinity terms, or no longer matching one of
   * its anti-affinity terms; a deleted pod its anti-affinity matched, or whose own anti-affinity
   * matched the pending pod.
   */
  isSchedulableAfterAssignedPodChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Pod>(oldObj, newObj);
    if ((modified && !placedOrNominated(modified)) || (original && !placedOrNominated(original)))
      return QueueingHint.QueueSkip;
    const info = new PodInfo(pod);
    const terms = info.requiredAffinityTerms;
    const antiTerms = info.requiredAntiAffinityTerms;
    if (modified && original) {
      if (!matchesAll(terms, original) && matchesAll(terms, modified)) return QueueingHint.Queue;
      if (matchesAny(antiTerms, original) && !matchesAny(antiTerms, modified)) return QueueingHint.Queue;
      return QueueingHint.QueueSkip;
    }
    if (modified) return matchesAll(terms, modified) ? QueueingHint.Queue : QueueingHint.QueueSkip;
    if (matchesAny(antiTerms, original!)) return QueueingHint.Queue;
    return matchesAny(new PodInfo(original!).requiredAntiAffinityTerms, pod)
      ? QueueingHint.Queue
      : QueueingHint.QueueSkip;
  }

  /** A node gaining (or changing) an affinity term's topology key, or losing (or changing) an anti-affinity one. */
  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Node>(oldObj, newObj);
    const info = new PodInfo(pod);
    const labelOf = (n: Node | undefined, key: string) =>
      n?.metadata?.labels && Object.prototype.hasOwnProperty.call(n.metadata.labels, key)
        ? n.metadata.labels[key]
        : undefined;
    for (const term of info.requiredAffinityTerms) {
      const now = labelOf(modified, term.topologyKey);
      if (!original) {
        if (now !== undefined) return QueueingHint.Queue;
        continue;
      }
      const before = labelOf(original, term.topologyKey);
      if (before === undefined && now !== undefined) return QueueingHint.Queue;
      if (before !== undefined && now !== undefined && before !== now) return QueueingHint.Queue;
    }
    for (const term of info.requiredAntiAffinityTerms) {
      if (!original) return QueueingHint.Queue;
      const before = labelOf(original, term.topologyKey);
      const now = labelOf(modified, term.topologyKey);
      if (before !== undefined && now === undefined) return QueueingHint.Queue;
      if (before !== undefined && now !== undefined && before !== now) return QueueingHint.Queue;
    }
    return QueueingHint.QueueSkip;
  }
  private readonly labelKeysEnabled: boolean;
  /** Bound once so hot loops pass it without allocating a closure per call. */
  private readonly effective: (pi: PodInfo) => PodInfo;

  constructor(
    readonly args: InterPodAffinityArgs,
    private readonly handle: Handle,
  ) {
    this.labelKeysEnabled = handle.features.enabled(MATCH_LABEL_KEYS_GATE);
    const enabled = this.labelKeysEnabled;
    this.effective = (pi) => effectivePodInfo(pi, enabled);
  }

  /** The incoming pod parsed with label keys folded in (gate on); throws on an invalid selector. */
  private parse(pod: Pod): PodInfo {
    return new PodInfo(this.labelKeysEnabled && podUsesLabelKeys(pod) ? podWithLabelKeysFolded(pod) : pod);
  }

  private namespaceLabels(pod: Pod) {
    return this.handle.objects.namespaceLabels(pod.metadata?.namespace ?? 'default');
  }

  // ---- PreFilter ----

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    let pi: PodInfo;
    try {
      pi = this.parse(pod);
    } catch (err) {
      return { status: Status.unresolvable(`parsing pod: ${(err as Error).message}`) };
    }
    const objects = this.handle.objects;
    const incoming: IncomingPod = {
      pod,
      requiredAffinityTerms: pi.requiredAffinityTerms.map((t) => mergeTermNamespaces(t, objects)),
      requiredAntiAffinityTerms: pi.requiredAntiAffinityTerms.map((t) => mergeTermNamespaces(t, objects)),
      namespaceLabels: this.namespaceLabels(pod),
    };
    const { existing, affinity, antiAffinity } = this.preFilterCounts(incoming, pi);
    if (
      this.handle.features.behaviour.interPodAffinityPreFilterSkips &&
      !existing.hasPairs() &&
      incoming.requiredAffinityTerms.length === 0 &&
      incoming.requiredAntiAffinityTerms.length === 0
    ) {
      return { status: Status.skip() };
    }
    this.preFilterState.write(state, new PreFilterState(incoming, existing, affinity, antiAffinity));
    return { status: null };
  }

  /**
   * The three counts of the PreFilter state. With a snapshot that logs its pod changes (the
   * simulator's), summed from per-term counts kept across attempts; otherwise, and for what those
   * cannot answer (an incoming term whose namespaceSelector was merged into a new term, or
   * several required affinity terms, which count only pods matching all of them), by visiting
   * the pods as upstream does.
   */
  private preFilterCounts(
    incoming: IncomingPod,
    parsed: PodInfo,
  ): { existing: PairCounts; affinity: PairCounts; antiAffinity: PairCounts } {
    const lister = this.handle.snapshot();
    const index = this.termCounts(lister);
    if (!index) {
      const existing = existingAntiAffinityCounts(
        incoming,
        lister.havePodsWithRequiredAntiAffinityList(),
        this.effective,
      );
      return { existing, ...incomingAffinityCounts(incoming, lister.list()) };
    }
    index.sync();
    const selecting = new TermsSelectingPod(incoming.pod, incoming.namespaceLabels);
    const existing = new LayeredCounts(
      index.existingSelecting((t) => selecting.matches(t)),
      index,
    );
    // mergeTermNamespaces keeps a term without namespaceSelector as the interned object.
    const anti = incoming.requiredAntiAffinityTerms;
    const antiKept = anti.every((t, i) => t === parsed.requiredAntiAffinityTerms[i]);
    const aff = incoming.requiredAffinityTerms;
    const affKept = aff.length === 0 || (aff.length === 1 && aff[0] === parsed.requiredAffinityTerms[0]);
    const visited = incomingAffinityCounts(incoming, lister.list(), {
      affinity: !affKept,
      antiAffinity: !antiKept,
    });
    return {
      existing,
      affinity: affKept
        ? new LayeredCounts(
            aff.map((t) => index.matchedBy(t)),
            index,
          )
        : visited.affinity,
      antiAffinity: antiKept
        ? new LayeredCounts(
            anti.map((t) => index.matchedBy(t)),
            index,
          )
        : visited.antiAffinity,
    };
  }

  /** Kept per snapshot: a new snapshot (a rebuilt simulator) starts a new index. */
  private termCountsIndex?: TermCountsIndex;

  private termCounts(lister: NodeInfoLister): TermCountsIndex | undefined {
    if (!lister.podChangeLog) return undefined;
    const current = this.termCountsIndex;
    if (current && current.lister === lister) return current;
    const logging = lister as Required<Pick<NodeInfoLister, 'list' | 'podChangeLog'>>;
    return (this.termCountsIndex = new TermCountsIndex(logging, this.effective));
  }

  preFilterExtensions(): PreFilterExtensions {
    return this;
  }

  addPod(state: CycleState, _podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): MaybeStatus {
    return this.updateState(state, podInfoToAdd, nodeInfo, 1);
  }

  removePod(
    state: CycleState,
    _podToSchedule: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus {
    return this.updateState(state, podInfoToRemove, nodeInfo, -1);
  }

  private updateState(state: CycleState, pi: PodInfo, nodeInfo: NodeInfo, multiplier: 1 | -1): MaybeStatus {
    const s = state.read<PreFilterState>(PRE_FILTER_STATE_KEY);
    if (!s) {
      // A PreFilter that skipped has nothing to update (upstream's runtime does not call it then).
      if (state.skipFilterPlugins.has(this.name)) return null;
      return Status.error(`reading "${PRE_FILTER_STATE_KEY}" from cycleState: not found`);
    }
    s.updateWithPod(this.effective(pi), nodeInfo.node, multiplier);
    return null;
  }

  // ---- Filter ----

  private readonly preFilterState = new StateSlot<PreFilterState>(PRE_FILTER_STATE_KEY);
  /**
   * The Filter rejections, allocated once per plugin: a cycle at 100 % of nodes may reject
   * thousands of nodes, and a Status is never changed after the framework names this plugin in it.
   */
  private readonly affinityNotMatch = Status.unresolvable(ERR_REASON_AFFINITY_RULES_NOT_MATCH);
  private readonly antiAffinityNotMatch = Status.unschedulable(ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH);
  private readonly existingAntiAffinityNotMatch = Status.unschedulable(
    ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH,
  );

  /** Order as upstream: the pod's affinity (unresolvable), its anti-affinity, then existing pods' anti-affinity. */
  filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const s = this.preFilterState.read(state);
    if (!s) return Status.error(`reading "${PRE_FILTER_STATE_KEY}" from cycleState: not found`);
    if (nodeInfo.index >= 0) {
      let plan = s.filterPlan;
      if (plan === undefined) {
        const lister = this.handle.snapshot();
        plan = s.filterPlan = filterPlanOf(
          s,
          lister.topologyDomains && ((key) => lister.topologyDomains!(key)),
        );
      }
      if (plan !== null) {
        switch (filterByPlan(plan, nodeInfo.index)) {
          case 0:
            return null;
          case 1:
            return this.affinityNotMatch;
          case 2:
            return this.antiAffinityNotMatch;
          case 3:
            return this.existingAntiAffinityNotMatch;
        }
      }
    }
    const labels = nodeInfo.node.metadata?.labels;
    if (!satisfiesPodAffinity(s, labels)) return this.affinityNotMatch;
    if (!satisfiesPodAntiAffinity(s, labels)) return this.antiAffinityNotMatch;
    if (!satisfiesExistingPodsAntiAffinity(s, labels)) {
      return this.existingAntiAffinityNotMatch;
    }
    return null;
  }

  // ---- Score ----

  preScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): MaybeStatus {
    const skips = this.handle.features.behaviour.interPodAffinityPreScoreSkips;
    if (nodes.length === 0) return skips ? Status.skip() : null;
    const aff = pod.spec?.affinity;
    const hasPreferred =
      (aff?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0 ||
      (aff?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
    if (this.args.ignorePreferredTermsOfExistingPods && !hasPreferred) {
      if (skips) return Status.skip();
      state.write(PRE_SCORE_STATE_KEY, new PreScoreState(new Map()));
      return null;
    }
    let pi: PodInfo;
    try {
      pi = this.parse(pod);
    } catch (err) {
      return Status.error(`failed to parse pod: ${(err as Error).message}`);
    }
    const objects = this.handle.objects;
    const lister = this.handle.snapshot();
    // Without preferred terms of its own, only pods with affinity can contribute (symmetry).
    const scanNodes = hasPreferred
      ? lister.list()
      : (lister.havePodsWithScoringAffinityList?.() ?? lister.havePodsWithAffinityList());
    const topologyScore = computeTopologyScore(
      {
        pod,
        preferredAffinityTerms: pi.preferredAffinityTerms.map((t) => mergeTermNamespaces(t, objects)),
        preferredAntiAffinityTerms: pi.preferredAntiAffinityTerms.map((t) => mergeTermNamespaces(t, objects)),
        namespaceLabels: this.namespaceLabels(pod),
      },
      scanNodes,
      hasPreferred,
      this.args.hardPodAffinityWeight,
      this.effective,
    );
    if (topologyScore.size === 0 && skips) return Status.skip();
    state.write(PRE_SCORE_STATE_KEY, new PreScoreState(topologyScore));
    return null;
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    const s = state.read<PreScoreState>(PRE_SCORE_STATE_KEY);
    if (!s) return [0, Status.error(`reading "${PRE_SCORE_STATE_KEY}" from cycleState: not found`)];
    return [nodeScore(s.topologyScore, nodeInfo.node.metadata?.labels), null];
  }

  scoreNodes(state: CycleState, _pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    const s = state.read<PreScoreState>(PRE_SCORE_STATE_KEY);
    if (!s) return Status.error(`reading "${PRE_SCORE_STATE_KEY}" from cycleState: not found`);
    const topologyScore = s.topologyScore;
    if (topologyScore.size === 0) {
      for (let i = 0; i < nodes.length; i++) scores[i].score = 0;
      return null;
    }
    for (let i = 0; i < nodes.length; i++)
      scores[i].score = nodeScore(topologyScore, nodes[i].node.metadata?.labels);
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  /** With nothing scored anywhere the raw zeros stay; otherwise min–max scaled to 0..100. */
  normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): MaybeStatus {
    const s = state.read<PreScoreState>(PRE_SCORE_STATE_KEY);
    if (!s) return Status.error(`reading "${PRE_SCORE_STATE_KEY}" from cycleState: not found`);
    if (s.topologyScore.size === 0) return null;
    normalizeScores(scores);
    return null;
  }
}
