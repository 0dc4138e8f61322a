import { zoneOf, type Node } from '@schedlab/k8s';
import {
  claimDevicesOf,
  numFeasibleNodesToFind,
  type AttemptSummary,
  type PodSchedulingResult,
  type ResolvedProfile,
  type ScoredNode,
} from '@schedlab/scheduler';
import { formatClaimDevices } from './devices';
import { formatTable } from './table';

/** Everything `explain` needs to lay out one pod's scheduling decision. */
export interface ExplainInput {
  /** The pod's result with its full record (every node's verdict, every plugin's score). */
  result: PodSchedulingResult;
  /** Every node of the dump, in dump order. */
  nodes: readonly Node[];
  /** The profile that scheduled the pod (for score weights); absent if none matched. */
  profile?: ResolvedProfile;
  /** The global percentageOfNodesToScore of the configuration (a profile's own wins). */
  percentageOfNodesToScore?: number;
}

/** What to show beyond the summary: nothing, one node, or every node. */
export type ExplainDetail = { kind: 'summary' } | { kind: 'node'; node: string } | { kind: 'all-nodes' };

/** Node names listed per filter-failure group before "+N more". */
const NODES_NAMED_PER_GROUP = 3;

function nodeName(n: Node): string {
  return n.metadata?.name ?? '';
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One verdict per node: passed, rejected by a plugin (and why), or not evaluated. */
function verdictOf(attempt: AttemptSummary, name: string, feasible: ReadonlySet<string>): string[] {
  if (feasible.has(name)) return ['passed', '', ''];
  const reasons = attempt.filterReasons[name];
  if (reasons)
    return [attempt.filterCode[name] ?? 'rejected', attempt.filterPlugin[name] ?? '', reasons.join('; ')];
  // percentageOfNodesToScore stopped the search before this node, or PreFilter rejected them all.
  return ['not evaluated', '', ''];
}

/** One row per node: did it pass the filters, and if not which plugin said no and why. */
export function filterVerdictRows(attempt: AttemptSummary, nodes: readonly Node[]): string[][] {
  const feasible = new Set(attempt.feasible);
  return nodes.map((node) => [
    nodeName(node),
    zoneOf(node) ?? '',
    ...verdictOf(attempt, nodeName(node), feasible),
  ]);
}

/** Score lines for the given nodes, best first: raw plugin score, its weight, the weighted score, total. */
export function scoreLines(
  attempt: AttemptSummary,
  profile: ResolvedProfile | undefined,
  chosen: string | null,
  only?: readonly string[],
): string[] {
  const weights = new Map((profile?.plugins.score ?? []).map((p) => [p.name, p.weight ?? 1]));
  const plugins = Object.keys(attempt.pluginScores).sort();
  const top = new Set(attempt.maxScoreNodes);
  const nodes = [...(only ?? Object.keys(attempt.scores))].sort(
    (a, b) => attempt.scores[b] - attempt.scores[a] || byName(a, b),
  );
  const lines: string[] = [];
  for (const node of nodes) {
    const marks = [node === chosen ? 'chosen' : '', top.has(node) ? 'top score' : ''].filter(Boolean);
    lines.push(`  ${node}: total ${attempt.scores[node]}${marks.length ? ` (${marks.join(', ')})` : ''}`);
    const rows = plugins.map((plugin) => [
      plugin,
      String(attempt.rawScores[plugin]?.[node] ?? ''),
      String(weights.get(plugin) ?? ''),
      String(attempt.pluginScores[plugin]?.[node] ?? ''),
    ]);
    lines.push(...formatTable(['PLUGIN', 'RAW', 'WEIGHT', 'WEIGHTED'], rows, '    '));
  }
  return lines;
}

/** "node-a, node-b, node-c +12 more" for the nodes that failed one way. */
function namedNodes(names: string[]): string {
  const sorted = [...names].sort(byName);
  const shown = sorted.slice(0, NODES_NAMED_PER_GROUP).join(', ');
  return sorted.length > NODES_NAMED_PER_GROUP
    ? `${shown} +${sorted.length - NODES_NAMED_PER_GROUP} more`
    : shown;
}

/** The filter failures grouped as the compact explanation groups them, with example nodes. */
function failureGroupRows(attempt: AttemptSummary): string[][] {
  const nodesOf = new Map<string, string[]>();
  for (const [node, reasons] of Object.entries(attempt.filterReasons)) {
    const key = `${attempt.filterPlugin[node]}\u0000${attempt.filterCode[node]}\u0000${reasons.join('\u0000')}`;
    nodesOf.set(key, [...(nodesOf.get(key) ?? []), node]);
  }
  return (attempt.explanation?.filterFailures ?? []).map((g) => {
    const names = nodesOf.get(`${g.plugin}\u0000${g.code}\u0000${g.reasons.join('\u0000')}`) ?? [];
    return [String(g.nodes), g.plugin, g.code, g.reasons.join('; '), namedNodes(names)];
  });
}

/** How many nodes Filter looked at, and why not all of them. */
function searchLine(attempt: AttemptSummary, input: ExplainInput): string {
  const total = input.nodes.length;
  const e = attempt.explanation;
  if (!e) return `Nodes: ${total} in the cluster`;
  const pct = input.profile?.percentageOfNodesToScore ?? input.percentageOfNodesToScore ?? 0;
  const toFind = numFeasibleNodesToFind(pct, total);
  const why =
    e.nodesEvaluated < total
      ? `; the search stopped after ${toFind} feasible nodes (percentageOfNodesToScore ${pct === 0 ? 'adaptive' : `${pct}%`})`
      : '';
  return `Nodes: ${total} in the cluster, Filter ran on ${e.nodesEvaluated}, ${e.nodesFeasible} feasible${why}`;
}

/** Why the chosen node won, in the terms upstream decides it. */
function chosenLine(attempt: AttemptSummary, chosen: string): string {
  const e = attempt.explanation;
  if (!e || e.nodesFeasible <= 1)
    return `Chosen: ${chosen}, the only feasible node (upstream does not score a single node)`;
  const total = attempt.scores[chosen];
  if (e.maxScoreNodes > 1) {
    return `Chosen: ${chosen}, one of ${e.maxScoreNodes} nodes sharing the highest total ${total}; the tie-break (--tie-break, seeded) picked it`;
  }
  return `Chosen: ${chosen}, the highest total (${total}) of ${e.nodesFeasible} feasible nodes`;
}

function attemptLines(
  title: string,
  attempt: AttemptSummary,
  input: ExplainInput,
  chosen: string | null,
  failed: boolean,
  detail: ExplainDetail,
): string[] {
  const lines = [title];
  if (attempt.preFilterRejection) {
    lines.push(
      `  PreFilter plugin ${attempt.preFilterRejection.plugin} rejected the pod before any node was tried:`,
    );
    lines.push(`  ${attempt.preFilterRejection.message}`);
  } else {
    lines.push(`  ${searchLine(attempt, input)}`);
    const groups = failureGroupRows(attempt);
    if (groups.length) {
      lines.push('', '  Filter failures:');
      lines.push(...formatTable(['NODES', 'PLUGIN', 'CODE', 'REASON', 'e.g.'], groups, '  '));
    }
    if (detail.kind === 'all-nodes') {
      lines.push('', '  Every node:');
      lines.push(
        ...formatTable(
          ['NODE', 'ZONE', 'FILTER', 'PLUGIN', 'REASON'],
          filterVerdictRows(attempt, input.nodes),
          '  ',
        ),
      );
    } else if (detail.kind === 'node') {
      const node = input.nodes.find((n) => nodeName(n) === detail.node);
      lines.push('', `  Node ${detail.node}:`);
      if (node)
        lines.push(
          ...formatTable(
            ['NODE', 'ZONE', 'FILTER', 'PLUGIN', 'REASON'],
            filterVerdictRows(attempt, [node]),
            '  ',
          ),
        );
    }
  }
  // A scheduled pod's record keeps the FitError of its failed attempt; show it only where it applies.
  if (failed && attempt.message) lines.push('', `  ${attempt.message}`);
  const scored = Object.keys(attempt.scores);
  if (scored.length > 0) {
    const shown = scoredNodesToShow(attempt, chosen, detail);
    if (detail.kind === 'summary' && shown.length) {
      lines.push(
        '',
        `  Best-scored nodes (${shown.length} of ${scored.length}; per plugin: normalized score × weight [raw score], zeros left out):`,
      );
      lines.push(
        ...formatTable(['NODE', 'TOTAL', '', 'BREAKDOWN'], bestScoreRows(attempt, chosen, shown), '  '),
      );
    } else if (shown.length) {
      const which = detail.kind === 'all-nodes' ? 'every feasible node' : 'the node asked for';
      lines.push(
        '',
        `  Scores (${which}; RAW = Score before NormalizeScore, WEIGHTED = normalized × weight):`,
      );
      lines.push(...scoreLines(attempt, input.profile, chosen, shown));
    }
    if (chosen) lines.push('', `  ${chosenLine(attempt, chosen)}`);
  }
  return lines;
}

/** One line per best-scored node: total, marks, and each plugin's weighted [raw] score. */
function bestScoreRows(attempt: AttemptSummary, chosen: string | null, shown: readonly string[]): string[][] {
  const plugins = Object.keys(attempt.pluginScores).sort(
    (a, b) =>
      (attempt.pluginScores[b][chosen ?? shown[0]] ?? 0) -
        (attempt.pluginScores[a][chosen ?? shown[0]] ?? 0) || byName(a, b),
  );
  const top = new Set(attempt.maxScoreNodes);
  return [...shown]
    .sort((a, b) => attempt.scores[b] - attempt.scores[a] || byName(a, b))
    .map((node) => {
      const marks = [node === chosen ? 'chosen' : '', top.has(node) ? 'top score' : '']
        .filter(Boolean)
        .join(', ');
      const parts = plugins
        .filter(
          (p) => (attempt.pluginScores[p][node] ?? 0) !== 0 || (attempt.rawScores[p]?.[node] ?? 0) !== 0,
        )
        .map((p) => `${p} ${attempt.pluginScores[p][node]} [${attempt.rawScores[p]?.[node] ?? ''}]`);
      return [node, String(attempt.scores[node]), marks, parts.join(', ')];
    });
}

function scoredNodesToShow(attempt: AttemptSummary, chosen: string | null, detail: ExplainDetail): string[] {
  if (detail.kind === 'all-nodes') return Object.keys(attempt.scores);
  if (detail.kind === 'node') return detail.node in attempt.scores ? [detail.node] : [];
  const top: ScoredNode[] = attempt.explanation?.topScores ?? [];
  const names = top.map((s) => s.node);
  if (chosen && chosen in attempt.scores && !names.includes(chosen)) names.push(chosen);
  return names;
}

function preemptionLines(result: PodSchedulingResult): string[] {
  const p = result.preemption;
  if (!p) return [];
  const lines = [
    '',
    `Preemption: nominated node ${p.nominatedNode}, evicting ${p.victims.join(', ') || 'nothing'}`,
  ];
  if (p.candidates.length) {
    const rows = p.candidates.map((c) => [c.node, String(c.numPDBViolations), c.victims.join(', ')]);
    lines.push(...formatTable(['CANDIDATE', 'PDB VIOLATIONS', 'VICTIMS'], rows, '  '));
  }
  return lines;
}

/**
 * The pod's decision laid out as kube-scheduler reasons: a summary first (how many nodes were
 * searched, filter failures grouped by reason, the best-scored nodes, why the chosen one won),
 * then one node's or every node's detail when asked.
 */
export function formatExplanation(
  input: ExplainInput,
  detail: ExplainDetail = { kind: 'summary' },
): string[] {
  const r = input.result;
  const zone = r.node ? (zoneOf(input.nodes.find((n) => nodeName(n) === r.node)) ?? null) : null;
  const lines = [
    `Pod ${r.pod}  priority ${r.priority}  scheduler ${r.schedulerName}`,
    `Result: ${r.outcome}${r.node ? ` on ${r.node}${zone ? ` (${zone})` : ''}` : ''}${r.victims?.length ? ` after preempting ${r.victims.join(', ')}` : ''}`,
  ];
  if (r.error) lines.push(`Error: ${r.error}`);
  if (r.node) lines.push(...formatClaimDevices(claimDevicesOf(r.claims)));
  lines.push('');
  if (r.firstAttempt) {
    lines.push(...attemptLines('Attempt 1: filters', r.firstAttempt, input, null, true, detail));
    lines.push(...preemptionLines(r));
    const title = `Attempt ${r.attempts}: after preemption (upstream tries the nominated node first)`;
    lines.push('', ...attemptLines(title, r, input, r.node, r.outcome !== 'scheduled', detail));
  } else {
    lines.push(...attemptLines('Filters', r, input, r.node, r.outcome !== 'scheduled', detail));
    lines.push(...preemptionLines(r));
  }
  if (detail.kind === 'summary' && input.nodes.length > 1) {
    lines.push('', 'More: --node NAME for one node, --all-nodes for every node.');
  }
  return lines;
}

/** The machine-readable explanation: the pod's result, trimmed to the detail asked for. */
export function explanationDocument(input: ExplainInput, detail: ExplainDetail): Record<string, unknown> {
  const trim = (a: AttemptSummary): Record<string, unknown> => {
    const {
      feasible,
      scores,
      pluginScores,
      rawScores,
      maxScoreNodes,
      filterReasons,
      filterPlugin,
      filterCode,
      ...rest
    } = a;
    if (detail.kind === 'all-nodes') return { ...a };
    if (detail.kind === 'node') {
      const n = detail.node;
      return {
        ...rest,
        node: {
          name: n,
          feasible: feasible.includes(n),
          filterReasons: filterReasons[n],
          filterPlugin: filterPlugin[n],
          filterCode: filterCode[n],
          score: scores[n],
          pluginScores: Object.fromEntries(Object.entries(pluginScores).map(([p, m]) => [p, m[n]])),
          rawScores: Object.fromEntries(Object.entries(rawScores).map(([p, m]) => [p, m[n]])),
        },
      };
    }
    return rest;
  };
  const r = input.result;
  const doc: Record<string, unknown> = { ...trim(r) };
  if (r.firstAttempt) doc.firstAttempt = trim(r.firstAttempt);
  return doc;
}
