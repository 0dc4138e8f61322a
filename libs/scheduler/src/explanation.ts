/**
 * The compact explanation of one scheduling attempt: what a person reads first, cheap enough to
 * keep for every pod of a 10,000-pod run. Filter failures are grouped by plugin, code and reasons
 * (what the FitError message summarises anyway), and only the best-scored nodes keep their
 * per-plugin breakdown. Every node's verdict and score is recomputed on demand by replaying the
 * run with `explainPods` (see SimulatorOptions).
 */
import { compareStrings } from './framework/fit-error';
import type { NodeToStatusMap } from './framework/interface';
import type { ScoreResult } from './framework/runtime/framework';
import { Code } from './framework/status';

/** Scored nodes whose per-plugin breakdown a compact explanation keeps (the chosen node always). */
export const TOP_SCORED_NODES = 10;

/** Nodes that failed Filter for the same plugin, code and reasons. */
export interface FilterFailureGroup {
  plugin: string;
  /** Unschedulable (preemption may help) or UnschedulableAndUnresolvable. */
  code: string;
  reasons: string[];
  /** How many nodes failed this way. */
  nodes: number;
}

export interface PluginScore {
  plugin: string;
  /** Score before NormalizeScore. */
  raw: number;
  /** Normalized score × weight. */
  weighted: number;
}

export interface ScoredNode {
  node: string;
  total: number;
  plugins: PluginScore[];
}

export interface AttemptExplanation {
  /** Nodes Filter ran on (percentageOfNodesToScore can stop the search early). */
  nodesEvaluated: number;
  /** Nodes that passed every Filter plugin (and were scored). */
  nodesFeasible: number;
  /** Most nodes first; ties by plugin, then reasons. */
  filterFailures: FilterFailureGroup[];
  /** The best-scored nodes, best first (ties by name), with the chosen node always among them. */
  topScores: ScoredNode[];
  /** How many feasible nodes shared the highest total (more than 1: the tie-break decided). */
  maxScoreNodes: number;
}

/** Groups the failed nodes of an attempt; statuses of one plugin usually share few reason lists. */
export function groupFilterFailures(statuses: NodeToStatusMap): FilterFailureGroup[] {
  // plugin → code → reasons (joined) → group; nested maps spare building a key string per node.
  const byPlugin = new Map<string, Map<Code, Map<string, FilterFailureGroup>>>();
  const groups: FilterFailureGroup[] = [];
  for (const s of statuses.values()) {
    let byCode = byPlugin.get(s.plugin);
    if (byCode === undefined) byPlugin.set(s.plugin, (byCode = new Map()));
    let byReasons = byCode.get(s.code);
    if (byReasons === undefined) byCode.set(s.code, (byReasons = new Map()));
    const reasons = s.reasons.length === 1 ? s.reasons[0] : s.reasons.join('\u0000');
    const group = byReasons.get(reasons);
    if (group !== undefined) group.nodes++;
    else {
      const created = { plugin: s.plugin, code: Code[s.code], reasons: [...s.reasons], nodes: 1 };
      byReasons.set(reasons, created);
      groups.push(created);
    }
  }
  return groups.sort(
    (a, b) =>
      b.nodes - a.nodes ||
      compareStrings(a.plugin, b.plugin) ||
      compareStrings(a.reasons.join(', '), b.reasons.join(', ')),
  );
}

/** Whether total `a` ranks before total `b`: higher score first, then the smaller name. */
function ranksBefore(a: { name: string; score: number }, b: { name: string; score: number }): boolean {
  return a.score > b.score || (a.score === b.score && a.name < b.name);
}

/** Whether `i` ranks before `j` by node ranks (nameRank): higher score first, then the smaller name. */
function rankedBefore(
  totals: readonly { score: number }[],
  ranks: readonly { nameRank: number }[],
  i: number,
  j: number,
): boolean {
  const a = totals[i].score;
  const b = totals[j].score;
  return a > b || (a === b && ranks[i].nameRank < ranks[j].nameRank);
}

/**
 * The `count` best totals (ties by name), plus `chosen` when it is not among them. `nodes`, when
 * given, are the scored nodes in the order of `result.totals`, with their name ranks: ties are then
 * broken by rank instead of comparing names (the same order).
 */
export function topScoredNodes(
  result: ScoreResult,
  chosen: string | null,
  count = TOP_SCORED_NODES,
  nodes?: readonly { nameRank: number }[],
): ScoredNode[] {
  const { totals } = result;
  const byRank = nodes !== undefined && nodes.length === totals.length && nodes.every((n) => n.nameRank >= 0);
  const before = byRank
    ? (i: number, j: number) => rankedBefore(totals, nodes, i, j)
    : (i: number, j: number) => ranksBefore(totals[i], totals[j]);
  // Insertion into a short sorted list: one pass over the feasible nodes, no full sort. Once the
  // list is full, a total below its last one is passed over on the number alone.
  const picked: number[] = [];
  let floor = -Infinity;
  for (let i = 0; i < totals.length; i++) {
    if (picked.length === count) {
      if (totals[i].score < floor) continue;
      if (!before(i, picked[count - 1])) continue;
    }
    let at = picked.length < count ? picked.length : count - 1;
    while (at > 0 && before(i, picked[at - 1])) {
      if (at < count) picked[at] = picked[at - 1];
      at--;
    }
    picked[at] = i;
    if (picked.length === count) floor = totals[picked[count - 1]].score;
  }
  if (chosen !== null && !picked.some((i) => totals[i].name === chosen)) {
    const at = totals.findIndex((t) => t.name === chosen);
    if (at >= 0) picked.push(at);
  }
  return picked.map((i) => ({
    node: totals[i].name,
    total: asKept(totals[i].score),
    plugins: result.plugins.map((p) => ({
      plugin: p.plugin,
      raw: asKept(p.raw[i]),
      weighted: asKept(p.weighted[i]),
    })),
  }));
}

/**
 * A score as it is kept in an explanation: the same number, as a small integer where it is one.
 * Scores come from Float64Arrays, and V8 boxes every double stored in an object field (16 bytes
 * each); a run keeping the top nodes of 10,000 pods held 1.4 million such boxes (22 MiB).
 */
function asKept(score: number): number {
  return (score | 0) === score && !Object.is(score, -0) ? score | 0 : score;
}

/** How many totals equal the highest one. */
export function countMaxScoreNodes(result: ScoreResult): number {
  let max = -Infinity;
  let count = 0;
  for (const t of result.totals) {
    if (t.score > max) {
      max = t.score;
      count = 1;
    } else if (t.score === max) count++;
  }
  return count;
}
