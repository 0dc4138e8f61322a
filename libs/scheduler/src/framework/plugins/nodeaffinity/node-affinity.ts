import {
  Node,
  Pod,
  compileNodeSelector,
  compilePreferredSchedulingTerms,
  requiredNodeAffinityOf,
} from '@schedlab/k8s';
import { CycleState, ImmutableState } from '../../cycle-state';
import {
  ActionType,
  QueueingHint,
  asObjects,
  type ClusterEventWithHint,
  type EnqueueExtensions,
} from '../../events';
import {
  FilterPlugin,
  Handle,
  MAX_NODE_SCORE,
  NodeScore,
  PreFilterPlugin,
  PreFilterResult,
  PreScorePlugin,
  ScoreExtensions,
  ScorePlugin,
} from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { NodeScoreCache } from '../helper/node-score-cache';
import { defaultNormalizeScore } from '../helper/normalize-score';
import { PluginNames } from '../names';
import { NodeAffinityArgs, defaultNodeAffinityArgs, validateNodeAffinityArgs } from './args';

export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

const PRE_FILTER_KEY = `PreFilter${PluginNames.NodeAffinity}`;
const PRE_SCORE_KEY = `PreScore${PluginNames.NodeAffinity}`;

type Matcher = { match(node: Node): boolean };
type Scorer = { score(node: Node): number };

/**
 * Names of the nodes a pod's required terms pin it to through `matchFields metadata.name In`;
 * undefined when some term does not pin (terms are ORed, so then every node is possible).
 */
export function nodeNamesFromRequiredTerms(pod: Pod): Set<string> | undefined {
  const terms =
    pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms || terms.length === 0) return undefined;
  let union: Set<string> | undefined;
  for (const t of terms) {
    let termNames: Set<string> | undefined;
    for (const f of t.matchFields ?? []) {
      if (f.key !== 'metadata.name' || f.operator !== 'In') continue;
      const values = new Set<string>(f.values ?? []);
      // Requirements within a term are ANDed: intersect.
      termNames = termNames ? new Set([...termNames].filter((n) => values.has(n))) : values;
    }
    if (!termNames) return undefined;
    union = new Set<string>([...(union ?? []), ...termNames]);
  }
  return union;
}

export class NodeAffinity
  implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions
{
  readonly name = PluginNames.NodeAffinity;
  private readonly addedNodeSelector?: Matcher;
  private readonly addedPreferred?: Scorer;

  constructor(
    args: NodeAffinityArgs,
    private readonly handle: Handle,
  ) {
    const added = args.addedAffinity;
    if (added?.requiredDuringSchedulingIgnoredDuringExecution) {
      this.addedNodeSelector = compileNodeSelector(added.requiredDuringSchedulingIgnoredDuringExecution);
    }
    if (added?.preferredDuringSchedulingIgnoredDuringExecution?.length) {
      this.addedPreferred = compilePreferredSchedulingTerms(
        added.preferredDuringSchedulingIgnoredDuringExecution,
      );
    }
  }

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
    ];
  }

  /** Queue when the node matches the pod's required affinity (and the enforced one) and did not before. */
  isSchedulableAfterNodeChange(pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Node>(oldObj, newObj);
    if (this.addedNodeSelector && !this.addedNodeSelector.match(modified)) return QueueingHint.QueueSkip;
    const required = requiredNodeAffinityOf(pod);
    // A term that does not parse is an error upstream, and an error queues the pod.
    if (required.errors.length > 0) return QueueingHint.Queue;
    if (!required.match(modified)) return QueueingHint.QueueSkip;
    if (!original) return QueueingHint.Queue;
    return required.match(original) ? QueueingHint.QueueSkip : QueueingHint.Queue;
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    state.write(PRE_FILTER_KEY, new ImmutableState<Matcher>(requiredNodeAffinityOf(pod)));
    const names = nodeNamesFromRequiredTerms(pod);
    if (!names) return { status: null };
    if (names.size === 0) return { status: Status.unresolvable(ERR_REASON_CONFLICT) };
    return { result: { nodeNames: names }, status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  /** No enforced selector, no nodeSelector and no required node affinity: every node matches. */
  filterPassesAllNodes(_state: CycleState, pod: Pod): boolean {
    if (this.addedNodeSelector) return false;
    const selector = pod.spec?.nodeSelector;
    if (selector && Object.keys(selector).length > 0) return false;
    return !pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const node = nodeInfo.node;
    if (this.addedNodeSelector && !this.addedNodeSelector.match(node))
      return Status.unresolvable(ERR_REASON_ENFORCED);
    // Without PreFilter state (PreFilter disabled), compute the requirement here.
    const required =
      state.read<ImmutableState<Matcher>>(PRE_FILTER_KEY)?.value ?? requiredNodeAffinityOf(pod);
    return required.match(node) ? null : Status.unresolvable(ERR_REASON_POD);
  }

  preScore(state: CycleState, pod: Pod): MaybeStatus {
    const preferred = this.preferredTermsOf(pod);
    if (!preferred && !this.addedPreferred && this.handle.features.behaviour.nodeAffinityPreScoreSkips) {
      return Status.skip();
    }
    state.write(PRE_SCORE_KEY, new ImmutableState<PreferredTerms | undefined>(preferred));
    return null;
  }

  /** The last pod's preferred terms, compiled: the next pods of a workload have the same terms. */
  private lastPreferred?: PreferredTerms;

  /** The pod's preferred terms compiled, reusing the last pod's when their JSON is the same. */
  private preferredTermsOf(pod: Pod): PreferredTerms | undefined {
    const terms = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
    if (!terms || terms.length === 0) return undefined;
    const key = JSON.stringify(terms);
    if (this.lastPreferred?.key !== key) {
      this.lastPreferred = { key, scorer: compilePreferredSchedulingTerms(terms) };
    }
    return this.lastPreferred;
  }

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    let count = this.addedPreferred?.score(nodeInfo.node) ?? 0;
    const st = state.read<ImmutableState<PreferredTerms | undefined>>(PRE_SCORE_KEY);
    const preferred = st ? st.value : this.preferredTermsOf(pod);
    if (preferred) count += preferred.scorer.score(nodeInfo.node);
    return [count, null];
  }

  scoreNodes(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    const st = state.read<ImmutableState<PreferredTerms | undefined>>(PRE_SCORE_KEY);
    const preferred = st ? st.value : this.preferredTermsOf(pod);
    const scorer = preferred?.scorer;
    const added = this.addedPreferred;
    // A node's score depends only on its Node (labels and name) and the pod's preferred terms, so
    // it is kept per node and reused for the next pods with the same terms, while the Node is the same.
    const cache = this.scoreCache;
    cache.begin(preferred ? preferred.key : '', nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      const ni = nodes[i];
      const node = ni.node;
      const hit = cache.get(ni.index, node, 0);
      if (hit !== undefined) {
        scores[i].score = hit;
        continue;
      }
      let count = added ? added.score(node) : 0;
      if (scorer) count += scorer.score(node);
      scores[i].score = count;
      cache.set(ni.index, node, 0, count);
    }
    return null;
  }

  private readonly scoreCache = new NodeScoreCache();

  scoreExtensions(): ScoreExtensions {
    return this;
  }

  normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): MaybeStatus {
    defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
    return null;
  }
}

/** A pod's preferred terms compiled, with their JSON: the key of the compiled terms and of the score cache. */
interface PreferredTerms {
  readonly key: string;
  readonly scorer: Scorer;
}

export const descriptor: PluginDescriptor<NodeAffinityArgs> = {
  name: PluginNames.NodeAffinity,
  argsKind: 'NodeAffinityArgs',
  defaultArgs: (raw) => defaultNodeAffinityArgs(raw),
  validateArgs: (args) => validateNodeAffinityArgs(args),
  create: (args, handle) => new NodeAffinity(args, handle),
};
