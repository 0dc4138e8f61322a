/**
 * Projects an engine result onto the fields a golden result records, so that the comparison
 * sees exactly what upstream reported and nothing the engine adds for explanations.
 */
import type { AttemptSummary, PodSchedulingResult } from '@schedlab/scheduler';
import type { Family } from './case';

type Json = Record<string, unknown>;

function nonEmpty<T extends object>(o: T): T | undefined {
  return Object.keys(o).length > 0 ? o : undefined;
}

function attemptFields(a: AttemptSummary, family: Family): Json {
  const out: Json = {};
  if (family !== 'scale') {
    out.feasible = a.feasible;
    out.pluginScores = a.pluginScores;
  }
  out.scores = a.scores;
  if (family === 'scale') {
    const failed: Record<string, string[]> = {};
    for (const [node, reasons] of Object.entries(a.filterReasons)) {
      const key = `${a.filterPlugin[node]}: ${reasons.join(', ')}`;
      (failed[key] ??= []).push(node);
    }
    for (const list of Object.values(failed)) list.sort();
    if (Object.keys(failed).length) out.failedNodes = failed;
    if (a.evaluated) out.evaluated = a.evaluated;
  } else {
    const reasons = nonEmpty(a.filterReasons);
    if (reasons) {
      out.filterReasons = reasons;
      out.filterPlugin = a.filterPlugin;
    }
  }
  return out;
}

export function projectResult(r: PodSchedulingResult, family: Family): Json {
  const out: Json = { pod: r.pod, priority: r.priority, node: r.node, ...attemptFields(r, family) };
  if (r.node === null) out.message = r.message ?? r.error;
  else out.maxScoreNodes = r.maxScoreNodes;
  if (r.nominatedNode) {
    out.nominatedNode = r.nominatedNode;
    out.victims = r.victims;
    if (r.firstAttempt) {
      const fa: Json = {
        feasible: r.firstAttempt.feasible,
        scores: r.firstAttempt.scores,
        pluginScores: r.firstAttempt.pluginScores,
      };
      const reasons = nonEmpty(r.firstAttempt.filterReasons);
      if (reasons) {
        fa.filterReasons = reasons;
        fa.filterPlugin = r.firstAttempt.filterPlugin;
      }
      fa.message = r.firstAttempt.message;
      out.firstAttempt = fa;
    }
  }
  out.attempts = r.attempts;
  if (r.volumes) out.volumes = r.volumes;
  if (r.claims) out.claims = r.claims;
  return out;
}
