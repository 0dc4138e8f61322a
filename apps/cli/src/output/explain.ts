import type { Node } from '@schedlab/k8s';
import type { AttemptSummary, PodSchedulingResult, ResolvedProfile } from '@schedlab/scheduler';
import { zoneOfNode } from './placements';
import { formatTable } from './table';

/** Everything `explain` needs to lay out one pod's scheduling decision. */
export interface ExplainInput {
  result: PodSchedulingResult;
  /** Every node of the dump, in dump order. */
  nodes: readonly Node[];
  /** The profile that scheduled the pod (for score weights); absent if none matched. */
  profile?: ResolvedProfile;
}

function nodeName(n: Node): string {
  return n.metadata?.name ?? '';
}

/** One row per node: did it pass the filters, and if not which plugin said no and why. */
export function filterVerdictRows(attempt: AttemptSummary, nodes: readonly Node[]): string[][] {
  const feasible = new Set(attempt.feasible);
  return nodes.map((node) => {
    const name = nodeName(node);
    const zone = zoneOfNode(node) ?? '';
    if (feasible.has(name)) return [name, zone, 'passed', '', ''];
    const reasons = attempt.filterReasons[name];
    if (reasons) return [name, zone, attempt.filterCode[name] ?? 'rejected', attempt.filterPlugin[name] ?? '', reasons.join('; ')];
    // percentageOfNodesToScore stopped the search before this node, or PreFilter rejected them all.
    return [name, zone, 'not evaluated', '', ''];
  });
}

/** Score lines per feasible node, best first: raw plugin score, its weight, the weighted score, total. */
export function scoreLines(attempt: AttemptSummary, profile: ResolvedProfile | undefined, chosen: string | null): string[] {
  const weights = new Map((profile?.plugins.score ?? []).map((p) => [p.name, p.weight ?? 1]));
  const plugins = Object.keys(attempt.pluginScores).sort();
  const nodes = Object.keys(attempt.scores).sort((a, b) => attempt.scores[b] - attempt.scores[a] || (a < b ? -1 : a > b ? 1 : 0));
  const lines: string[] = [];
  for (const node of nodes) {
    const marks = [node === chosen ? 'chosen' : '', attempt.maxScoreNodes.includes(node) ? 'top score' : ''].filter(Boolean);
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

function attemptLines(title: string, attempt: AttemptSummary, input: ExplainInput, chosen: string | null, failed: boolean): string[] {
  const lines = [title];
  if (attempt.preFilterRejection) {
    lines.push(`  PreFilter plugin ${attempt.preFilterRejection.plugin} rejected the pod before any node was tried:`);
    lines.push(`  ${attempt.preFilterRejection.message}`);
  } else {
    lines.push(...formatTable(['NODE', 'ZONE', 'FILTER', 'PLUGIN', 'REASON'], filterVerdictRows(attempt, input.nodes), '  '));
  }
  // A scheduled pod's record keeps the FitError of its failed attempt; show it only where it applies.
  if (failed && attempt.message) lines.push('', `  ${attempt.message}`);
  if (Object.keys(attempt.scores).length > 0) {
    lines.push('', '  Scores (feasible nodes, best first; RAW = Score before NormalizeScore, WEIGHTED = normalized × weight):');
    lines.push(...scoreLines(attempt, input.profile, chosen));
  }
  return lines;
}

function preemptionLines(result: PodSchedulingResult): string[] {
  const p = result.preemption;
  if (!p) return [];
  const lines = ['', `Preemption: nominated node ${p.nominatedNode}, evicting ${p.victims.join(', ') || 'nothing'}`];
  if (p.candidates.length) {
    const rows = p.candidates.map((c) => [c.node, String(c.numPDBViolations), c.victims.join(', ')]);
    lines.push(...formatTable(['CANDIDATE', 'PDB VIOLATIONS', 'VICTIMS'], rows, '  '));
  }
  return lines;
}

/** The pod's decision laid out as kube-scheduler reasons: filters per node, scores, preemption. */
export function formatExplanation(input: ExplainInput): string[] {
  const r = input.result;
  const lines = [
    `Pod ${r.pod}  priority ${r.priority}  scheduler ${r.schedulerName}`,
    `Result: ${r.outcome}${r.node ? ` on ${r.node}` : ''}${r.victims?.length ? ` after preempting ${r.victims.join(', ')}` : ''}`,
  ];
  if (r.error) lines.push(`Error: ${r.error}`);
  lines.push('');
  if (r.firstAttempt) {
    lines.push(...attemptLines('Attempt 1: filters', r.firstAttempt, input, null, true));
    lines.push(...preemptionLines(r));
    const title = `Attempt ${r.attempts}: after preemption (upstream tries the nominated node first)`;
    lines.push('', ...attemptLines(title, r, input, r.node, r.outcome !== 'scheduled'));
  } else {
    lines.push(...attemptLines('Filters', r, input, r.node, r.outcome !== 'scheduled'));
    lines.push(...preemptionLines(r));
  }
  return lines;
}
