import {
  Pod,
  Taint,
  Toleration,
  findMatchingUntoleratedTaint,
  tolerationsTolerateTaint,
} from '@schedlab/k8s';
import { CycleState, ImmutableState } from '../../cycle-state';
import {
  MAX_NODE_SCORE,
  FilterPlugin,
  PreFilterPlugin,
  PreFilterResult,
  NodeScore,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
} from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { defaultNormalizeScore } from '../helper/normalize-score';
import { PluginNames } from '../names';

const PRE_SCORE_KEY = `PreScore${PluginNames.TaintToleration}`;

/** The Filter reason: from 1.34.2 upstream stopped naming the taint. */
export function untoleratedTaintReason(taint: Taint, withoutKeyValue = false): string {
  return withoutKeyValue
    ? 'node(s) had untolerated taint(s)'
    : `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

const isHardTaint = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

/**
 * Filter: NoSchedule/NoExecute taints must be tolerated. Score: fewer untolerated
 * PreferNoSchedule taints is better (counts reversed in normalization).
 */
export class TaintToleration
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions
{
  readonly name = PluginNames.TaintToleration;

  constructor(private readonly reasonWithoutKeyValue = false) {}

  /** From 1.37 (skips only pods waiting on a deferred resize, which a pending pod never is). */
  preFilter(_state: CycleState, _pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    return { status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const taint = findMatchingUntoleratedTaint(
      nodeInfo.node.spec?.taints ?? [],
      pod.spec?.tolerations ?? [],
      isHardTaint,
    );
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
  create: (_args, handle) => new TaintToleration(handle.features.behaviour.untoleratedTaintWithoutKeyValue),
};
