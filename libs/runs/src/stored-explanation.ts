/**
 * The explanation row a run stores per pod: the engine's compact record (see
 * @schedlab/scheduler's explanation.ts), without the per-node fields that are empty at the compact
 * level, and without per-node filter verdicts of large clusters (the failures stay grouped with
 * counts in `explanation.filterFailures`). Everything per node is served on demand by replay
 * (`GET …/explanation?detail=full` or `?node=NAME`).
 */
import type { PodSchedulingResult } from '@schedlab/scheduler';

/**
 * An unschedulable attempt keeps every node's filter verdict up to this many nodes (small
 * clusters: the HTML report lists them); beyond, only the grouped failures are stored and
 * `nodeVerdictsOmitted` says how many verdicts the replay has.
 */
export const STORED_NODE_VERDICTS_MAX = 100;

const PER_NODE_FIELDS = [
  'feasible',
  'pluginScores',
  'rawScores',
  'maxScoreNodes',
  'filterReasons',
  'filterPlugin',
  'filterCode',
] as const;

function isEmpty(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

function compactAttempt(attempt: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...attempt };
  const verdicts = Object.keys((attempt.filterReasons as object | undefined) ?? {}).length;
  if (verdicts > STORED_NODE_VERDICTS_MAX) {
    delete out.filterReasons;
    delete out.filterPlugin;
    delete out.filterCode;
    out.nodeVerdictsOmitted = verdicts;
  }
  for (const field of PER_NODE_FIELDS) if (isEmpty(out[field])) delete out[field];
  return out;
}

export function storedExplanation(result: PodSchedulingResult): Record<string, unknown> {
  const out = compactAttempt(result as unknown as Record<string, unknown>);
  if (result.firstAttempt)
    out.firstAttempt = compactAttempt(result.firstAttempt as unknown as Record<string, unknown>);
  return out;
}
