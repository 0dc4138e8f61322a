import {
  Pod,
  Taint,
  Toleration,
  findMatchingUntoleratedTaint,
  tolerationsTolerateTaint,
} from '@schedlab/k8s';
import type { Node } from '@schedlab/k8s';
import { CycleState, ImmutableState } from '../../cycle-state';
import {
  ActionType,
  QueueingHint,
  asObjects,
  type ClusterEventWithHint,
  type EnqueueExtensions,
} from '../../events';
import {
  MAX_NODE_SCORE,
  FilterPlugin,
  Handle,
  PreFilterPlugin,
  PreFilterResult,
  NodeScore,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
  UniformScore,
} from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { defaultNormalizeScore } from '../helper/normalize-score';
import { PluginNames } from '../names';

const PRE_SCORE_KEY = `PreScore${PluginNames.TaintToleration}`;

/** Score where no node has a taint: 0 intolerable taints, normalized (reversed) to MaxNodeScore. */
const UNTAINTED_SCORE: UniformScore = Object.freeze({ raw: 0, score: MAX_NODE_SCORE });

/** The Filter reason: from 1.34.2 upstream stopped naming the taint. */
export function untoleratedTaintReason(taint: Taint, withoutKeyValue = false): string {
  return withoutKeyValue
    ? 'node(s) had untolerated taint(s)'
    : `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

const isHardTaint = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

const TAINTED_FACT = 'spec.taints';
const isTainted = (node: Node): boolean => (node.spec?.taints?.length ?? 0) > 0;

/**
 * Filter: NoSchedule/NoExecute taints must be tolerated. Score: fewer untolerated
 * PreferNoSchedule taints is better (counts reversed in normalization).
 */
export class TaintToleration
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions
{
  readonly name = PluginNames.TaintToleration;

  constructor(
    private readonly reasonWithoutKeyValue = false,
    private readonly handle?: Handle,
  ) {}

  /** No node of the snapshot has a taint, of any effect. */
  private noNodeTainted(): boolean {
    return this.handle?.snapshot().anyNode?.(TAINTED_FACT, isTainted) === false;
  }

  /** Without taints anywhere every node passes: the Filter leaves the per-node loop. */
  filterPassesAllNodes(): boolean {
    return this.noNodeTainted();
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeTaint },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
      // Tolerations can only be added, so an added one may tolerate the taint that rejected the pod.
      {
        event: { resource: 'TargetPod', actionType: ActionType.UpdatePodToleration },
        queueingHintFn: () => QueueingHint.Queue,
      },
    ];
  }

  /** Queue when the node went from having a hard taint the pod does not tolerate to having none. */
  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Node>(oldObj, newObj);
    const tolerations = pod.spec?.tolerations ?? [];
    const wasUntolerated = original
      ? findMatchingUntoleratedTaint(original.spec?.taints, tolerations, isHardTaint) !== undefined
      : true;
    const isUntolerated =
      findMatchingUntoleratedTaint(modified.spec?.taints, tolerations, isHardTaint) !== undefined;
    return wasUntolerated && !isUntolerated ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  /** From 1.37 (skips only pods waiting on a deferred resize, which a pending pod never is). */
  preFilter(_state: CycleState, _pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    return { status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  /** The attempt (cycle state) Filter last ran in, and the last one it met a node with taints in. */
  private filteredIn?: CycleState;
  private taintsSeenIn?: CycleState;

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    // Runs for every node: stored once per cycle (a store of the young cycle into this old plugin
    // takes the write barrier's slow path), and nothing is allocated for untainted nodes.
    if (this.filteredIn !== state) this.filteredIn = state;
    const taints = nodeInfo.node.spec?.taints;
    if (taints === undefined || taints === null || taints.length === 0) return null;
    if (this.taintsSeenIn !== state) this.taintsSeenIn = state;
    const taint = findMatchingUntoleratedTaint(taints, pod.spec?.tolerations ?? [], isHardTaint);
    return taint ? Status.unresolvable(untoleratedTaintReason(taint, this.reasonWithoutKeyValue)) : null;
  }

  preScore(state: CycleState, pod: Pod): MaybeStatus {
    // An empty effect tolerates every effect, PreferNoSchedule included.
    const preferNoSchedule = (pod.spec?.tolerations ?? []).filter(
      (t) => !t.effect || t.effect === 'PreferNoSchedule',
    );
    state.write(PRE_SCORE_KEY, new ImmutableState<Toleration[]>(preferNoSchedule));
    return null;
  }

  score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    const tolerations = state.read<ImmutableState<Toleration[]>>(PRE_SCORE_KEY)?.value;
    if (!tolerations) return [0, Status.error(`reading "${PRE_SCORE_KEY}" from cycleState: not found`)];
    let intolerable = 0;
    for (const taint of nodeInfo.node.spec?.taints ?? []) {
      if (taint.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, taint)) intolerable++;
    }
    return [intolerable, null];
  }

  /**
   * The nodes scored in an attempt are the ones that passed its Filter, every plugin's (this one
   * is never skipped at PreFilter): when no node of the snapshot has a taint, or none of the nodes
   * Filter met in this attempt had one, each scores 0 intolerable taints, which normalizes to
   * MaxNodeScore everywhere.
   */
  uniformScore(state: CycleState): UniformScore | undefined {
    if (!state.read<ImmutableState<Toleration[]>>(PRE_SCORE_KEY)) return undefined;
    const untainted = this.noNodeTainted() || (this.filteredIn === state && this.taintsSeenIn !== state);
    return untainted ? UNTAINTED_SCORE : undefined;
  }

  scoreNodes(state: CycleState, _pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    const tolerations = state.read<ImmutableState<Toleration[]>>(PRE_SCORE_KEY)?.value;
    if (!tolerations) return Status.error(`reading "${PRE_SCORE_KEY}" from cycleState: not found`);
    for (let i = 0; i < nodes.length; i++) {
      let intolerable = 0;
      const taints = nodes[i].node.spec?.taints;
      if (taints) {
        for (const taint of taints) {
          if (taint.effect === 'PreferNoSchedule' && !tolerationsTolerateTaint(tolerations, taint))
            intolerable++;
        }
      }
      scores[i].score = intolerable;
    }
    return null;
  }

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): MaybeStatus {
    defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
    return null;
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.TaintToleration,
  create: (_args, handle) =>
    new TaintToleration(handle.features.behaviour.untoleratedTaintWithoutKeyValue, handle),
};
