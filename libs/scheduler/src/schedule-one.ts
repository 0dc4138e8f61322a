/**
 * One scheduling attempt for one pod and what follows it (upstream schedule_one.go): PreFilter,
 * Filter over a rotating window of nodes, PreScore/Score, host selection, then either the
 * binding cycle or PostFilter (preemption). Every step is recorded for explanations.
 */
import { Pod, podPriority } from '@schedlab/k8s';
import type { Snapshot } from './backend/cache/snapshot';
import { numFeasibleNodesToFind } from './find-nodes';
import { CycleState } from './framework/cycle-state';
import { Diagnosis, compareStrings, fitErrorMessage } from './framework/fit-error';
import { NodeToStatusMap, type PostFilterResult } from './framework/interface';
import type { Framework, ScoreResult } from './framework/runtime/framework';
import { Code, MaybeStatus, Status, isSuccess } from './framework/status';
import type { NodeInfo } from './framework/types';
import { AttemptExplanation, countMaxScoreNodes, groupFilterFailures, topScoredNodes } from './explanation';
import type { SeededRandom } from './util/rng';

export type TieBreak = 'random' | 'lowest-node-name';

/**
 * How much of each attempt to record. Decisions are identical at every level.
 * - `compact` (default): the AttemptExplanation (filter failures grouped with counts, the best
 *   scored nodes with their plugin breakdown); every node's filter verdict only when no node was
 *   feasible (what an unschedulable pod and preemption are explained by).
 * - `full`: also every node's filter verdict and every plugin's scores for every feasible node
 *   (conformance, `explain --all-nodes`); costly on large clusters, so asked for per pod.
 * - `summary`: only what placements need (selected node and its total, FitError message,
 *   evaluated range, preemption).
 */
export type ExplainLevel = 'full' | 'compact' | 'summary';
export const DEFAULT_EXPLAIN_LEVEL: ExplainLevel = 'compact';

/** Which nodes the Filter loop looked at (for partial searches over large clusters). */
export interface EvaluatedRange {
  startIndex: number;
  count: number;
  first: string | null;
  last: string | null;
  nextStartIndex: number;
}

/** Everything one attempt decided, in the vocabulary of kube-scheduler. */
export interface AttemptRecord {
  feasible: string[];
  /** node → total weighted score. */
  scores: Record<string, number>;
  /** plugin → node → normalized score × weight. */
  pluginScores: Record<string, Record<string, number>>;
  /** plugin → node → raw score before normalization. */
  rawScores: Record<string, Record<string, number>>;
  maxScoreNodes: string[];
  /** node → reasons, for nodes that failed (only the first failing plugin is run). */
  filterReasons: Record<string, string[]>;
  filterPlugin: Record<string, string>;
  /** node → code name of the failure (Unschedulable / UnschedulableAndUnresolvable). */
  filterCode: Record<string, string>;
  selectedNode: string | null;
  /** FitError text when no node was feasible. */
  message?: string;
  /** Set when a PreFilter plugin rejected the pod before any node was tried. */
  preFilterRejection?: { plugin: string; message: string };
  /**
   * The PreFilter plugins whose node sets narrowed the search (upstream counts them among a failed
   * attempt's UnschedulablePlugins, for the scheduling queue).
   */
  narrowedBy?: readonly string[];
  evaluated?: EvaluatedRange;
  /** The compact explanation (levels `compact` and `full`). */
  explanation?: AttemptExplanation;
  /** Internal: per-node statuses and diagnosis, for PostFilter. */
  diagnosis: Diagnosis;
  state: CycleState;
  /** An internal error (a plugin returned Error); the pod is not scheduled. */
  error?: string;
}

export interface SchedulerAlgorithmOptions {
  tieBreak: TieBreak;
  rng: SeededRandom;
  /** Global percentageOfNodesToScore; a profile's own value wins. 0 = adaptive. */
  percentageOfNodesToScore: number;
  /** Default `compact`. */
  explain?: ExplainLevel;
}

export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/** The rotating-window node search state kept between attempts (upstream nextStartNodeIndex). */
export class ScheduleAlgorithm {
  nextStartNodeIndex = 0;

  constructor(
    private readonly snapshot: Snapshot,
    private readonly opts: SchedulerAlgorithmOptions,
  ) {}

  /** One attempt; `level` overrides the algorithm's explain level for this pod. */
  schedulePod(
    fwk: Framework,
    pod: Pod,
    level: ExplainLevel = this.opts.explain ?? DEFAULT_EXPLAIN_LEVEL,
  ): AttemptRecord {
    const state = new CycleState();
    const record: AttemptRecord = {
      ...emptyAttemptFields(),
      selectedNode: null,
      diagnosis: { nodeToStatusMap: new NodeToStatusMap() },
      state,
    };
    if (this.snapshot.size === 0) {
      record.error = NO_NODES_AVAILABLE;
      record.message = NO_NODES_AVAILABLE;
      return record;
    }
    const full = level === 'full';
    const explained = level !== 'summary';
    const feasible = this.findNodesThatFitPod(fwk, pod, state, record);
    if (record.error) return record;
    if (explained) {
      record.explanation = {
        nodesEvaluated: feasible.length + record.diagnosis.nodeToStatusMap.size,
        nodesFeasible: feasible.length,
        filterFailures: record.preFilterRejection
          ? []
          : groupFilterFailures(record.diagnosis.nodeToStatusMap),
        topScores: [],
        maxScoreNodes: 0,
      };
    }
    // Every node's verdict is what explains an unschedulable pod, so compact keeps it then.
    if (full || (explained && feasible.length === 0)) this.recordFilterStatuses(record);
    if (feasible.length === 0) {
      record.message = fitErrorMessage(this.snapshot.size, record.diagnosis);
      return record;
    }
    if (full) record.feasible = feasible.map((n) => n.name).sort(compareStrings);
    // Upstream skips scoring with one feasible node; the scores are still computed for explanation.
    const scored = this.prioritizeNodes(fwk, pod, state, feasible, explained);
    if (!scored) {
      record.error = this.scoreError;
      return record;
    }
    const selectedIndex = feasible.length === 1 ? 0 : this.selectHostIndex(scored.totals);
    const selected = scored.totals[selectedIndex];
    record.selectedNode = selected.name;
    if (full) this.recordScores(record, scored);
    else record.scores[selected.name] = selected.score;
    if (record.explanation) {
      record.explanation.topScores = topScoredNodes(scored, record.selectedNode, undefined, feasible);
      record.explanation.maxScoreNodes = countMaxScoreNodes(scored);
    }
    return record;
  }

  private findNodesThatFitPod(
    fwk: Framework,
    pod: Pod,
    state: CycleState,
    record: AttemptRecord,
  ): NodeInfo[] {
    const diagnosis = record.diagnosis;
    const allNodes = this.snapshot.list();
    const pre = fwk.runPreFilterPlugins(state, pod);
    if (!isSuccess(pre.status)) {
      const s = pre.status!;
      if (s.code === Code.Error) {
        record.error = s.message();
        return [];
      }
      // From 1.27 every node carries the PreFilter status (so preemption skips them all); in
      // 1.26 the map stays empty and preemption tries every node. Either way the message has
      // no per-node histogram.
      if (fwk.features.behaviour.preFilterRejectionMarksAllNodesUnresolvable) {
        for (const n of allNodes) diagnosis.nodeToStatusMap.add(n.name, s);
      }
      diagnosis.preFilterMsg = s.message();
      record.preFilterRejection = { plugin: s.plugin, message: s.message() };
      if (pre.narrowedBy?.length) record.narrowedBy = pre.narrowedBy;
      return [];
    }

    const nominated = pod.status?.nominatedNodeName;
    if (nominated) {
      const ni = this.snapshot.get(nominated);
      if (ni) {
        const fits = this.findNodesThatPassFilters(fwk, pod, state, diagnosis, [ni], false, record);
        if (record.error) return [];
        if (fits.length > 0) return fits;
      }
    }

    let nodes = allNodes;
    if (pre.result?.nodeNames) {
      const wanted = pre.result.nodeNames;
      if (pre.narrowedBy?.length) record.narrowedBy = pre.narrowedBy;
      // From 1.32 the nodes left out carry a status of their own and count in the FitError.
      if (fwk.features.behaviour.nodeToStatusCountsAbsentNodes) {
        diagnosis.nodeToStatusMap.absentNodesStatus = Status.unresolvable(
          `node(s) didn't satisfy plugin(s) [${(pre.narrowedBy ?? []).join(' ')}]`,
        );
      }
      // Kept in node-tree order (upstream iterates a map here; this is the deterministic choice).
      nodes = allNodes.filter((n) => wanted.has(n.name));
    }
    return this.findNodesThatPassFilters(fwk, pod, state, diagnosis, nodes, true, record);
  }

  /**
   * Filters nodes from the rotating start index until enough feasible nodes are found. As in
   * upstream with parallelism 1: the node after the last wanted feasible one is examined too,
   * found feasible, and dropped; nodes failing on the way are counted.
   */
  private findNodesThatPassFilters(
    fwk: Framework,
    pod: Pod,
    state: CycleState,
    diagnosis: Diagnosis,
    nodes: NodeInfo[],
    rotate: boolean,
    record: AttemptRecord,
  ): NodeInfo[] {
    const numAll = nodes.length;
    if (numAll === 0) return [];
    const start = rotate ? this.nextStartNodeIndex % numAll : 0;
    const toFind = numFeasibleNodesToFind(
      fwk.percentageOfNodesToScore ?? this.opts.percentageOfNodesToScore,
      numAll,
    );
    // Collected in a buffer kept across attempts (never truncated: V8 would free its storage) and
    // copied out once at its final length: growing a fresh array node by node reallocates it over
    // and over on large clusters.
    const buffer = this.feasibleBuffer;
    let found = 0;
    // Each node is examined once per call, so a failure is a new entry unless an earlier call of
    // this attempt (the nominated node's) left some: then a node's entry is replaced, as upstream's
    // NodeToStatus.Set does.
    const statuses = diagnosis.nodeToStatusMap;
    const firstCall = statuses.size === 0;

    let first: string | null = null;
    let last: string | null = null;
    for (let i = 0; i < numAll; i++) {
      const ni = nodes[(start + i) % numAll];

      first ??= ni.name;
      const s = fwk.runFilterPluginsWithNominatedPods(state, pod, ni);
      if (s !== null && s.code === Code.Error) {
        record.error = s.message();
        return [];
      }
      if (isSuccess(s)) {
        if (found >= toFind) break;
        if (found < buffer.length) buffer[found] = ni;
        else buffer.push(ni);
        found++;
      } else {
        if (firstCall) statuses.add(ni.name, s!);
        else statuses.set(ni.name, s!);
      }
      // The feasible node that ends the search is dropped, so it is not the last one counted.
      last = ni.name;
    }
    if (rotate) {
      const processed = found + diagnosis.nodeToStatusMap.size;
      const next = (this.nextStartNodeIndex + processed) % numAll;
      record.evaluated = { startIndex: start, count: processed, first, last, nextStartIndex: next };
      this.nextStartNodeIndex = next;
    }
    return buffer.slice(0, found);
  }

  private readonly feasibleBuffer: NodeInfo[] = [];

  /** Set when prioritizeNodes returns undefined: the failing plugin's error. */
  private scoreError = '';

  private prioritizeNodes(
    fwk: Framework,
    pod: Pod,
    state: CycleState,
    nodes: NodeInfo[],
    breakdown: boolean,
  ): ScoreResult | undefined {
    if (fwk.scorePlugins.length === 0) {
      return { totals: nodes.map((n) => ({ name: n.name, score: 1 })), plugins: [] };
    }
    const pre = fwk.runPreScorePlugins(state, pod, nodes);
    if (!isSuccess(pre)) {
      this.scoreError = pre!.message();
      return undefined;
    }
    const { result, status } = fwk.runScorePlugins(state, pod, nodes, breakdown);
    if (!isSuccess(status)) {
      this.scoreError = status!.message();
      return undefined;
    }
    return result;
  }

  private recordScores(record: AttemptRecord, result: ScoreResult): void {
    let max = -Infinity;
    for (const t of result.totals) {
      record.scores[t.name] = t.score;
      if (t.score > max) max = t.score;
    }
    record.maxScoreNodes = result.totals
      .filter((t) => t.score === max)
      .map((t) => t.name)
      .sort(compareStrings);
    for (const p of result.plugins) {
      const weighted: Record<string, number> = {};
      const raw: Record<string, number> = {};
      result.totals.forEach((t, i) => {
        weighted[t.name] = p.weighted[i];
        raw[t.name] = p.raw[i];
      });
      record.pluginScores[p.plugin] = weighted;
      record.rawScores[p.plugin] = raw;
    }
  }

  private recordFilterStatuses(record: AttemptRecord): void {
    if (record.preFilterRejection) return;
    for (const [node, s] of record.diagnosis.nodeToStatusMap) {
      record.filterReasons[node] = [...s.reasons];
      record.filterPlugin[node] = s.plugin;
      record.filterCode[node] = Code[s.code];
    }
  }

  /**
   * Highest total wins. Ties: upstream samples uniformly (reservoir sampling over the score
   * list); `lowest-node-name` takes the byte-wise smallest name instead.
   */
  selectHost(totals: { name: string; score: number }[]): string {
    return totals[this.selectHostIndex(totals)].name;
  }

  /** selectHost as the index of the chosen entry, so the caller reads its total without a search. */
  selectHostIndex(totals: { name: string; score: number }[]): number {
    if (this.opts.tieBreak === 'lowest-node-name') {
      let best = 0;
      for (let i = 1; i < totals.length; i++) {
        const t = totals[i];
        const b = totals[best];
        if (t.score > b.score || (t.score === b.score && t.name < b.name)) best = i;
      }
      return best;
    }
    let selected = 0;
    let maxScore = totals[0].score;
    let count = 1;
    for (let i = 1; i < totals.length; i++) {
      const t = totals[i];
      if (t.score > maxScore) {
        maxScore = t.score;
        selected = i;
        count = 1;
      } else if (t.score === maxScore) {
        count++;
        if (this.opts.rng.intn(count) === 0) selected = i;
      }
    }
    return selected;
  }
}

/** PostFilter outcome in simulation terms. */
export interface PreemptionOutcome {
  result?: PostFilterResult;
  status: MaybeStatus;
}

export function runPostFilter(fwk: Framework, record: AttemptRecord, pod: Pod): PreemptionOutcome {
  const statuses: NodeToStatusMap = record.diagnosis.nodeToStatusMap;
  record.diagnosis.postFilterMsgWithoutPeriod = fwk.features.behaviour.postFilterMessageWithoutPeriod;
  const outcome = fwk.runPostFilterPlugins(record.state, pod, statuses);
  // A successful PostFilter that explains itself (1.37 preemption) is part of the failed attempt's FitError.
  if (outcome.status && isSuccess(outcome.status) && outcome.status.message()) {
    record.diagnosis.postFilterMsg = outcome.status.message();
    record.message = fitErrorMessage(fwk.snapshot().list().length, record.diagnosis);
  }
  return outcome;
}

export function priorityOf(pod: Pod): number {
  return podPriority(pod);
}

export { Status };

/** The per-node fields of an attempt, empty: what an attempt records before any node is tried. */
export function emptyAttemptFields(): Pick<
  AttemptRecord,
  | 'feasible'
  | 'scores'
  | 'pluginScores'
  | 'rawScores'
  | 'maxScoreNodes'
  | 'filterReasons'
  | 'filterPlugin'
  | 'filterCode'
> {
  return {
    feasible: [],
    scores: {},
    pluginScores: {},
    rawScores: {},
    maxScoreNodes: [],
    filterReasons: {},
    filterPlugin: {},
    filterCode: {},
  };
}
