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

const PER_NODE_FIELDS: ReadonlySet<string> = new Set([
  'feasible',
  'pluginScores',
  'rawScores',
  'maxScoreNodes',
  'filterReasons',
  'filterPlugin',
  'filterCode',
]);
/** Left out, with their count in `nodeVerdictsOmitted`, past STORED_NODE_VERDICTS_MAX verdicts. */
const NODE_VERDICT_FIELDS: ReadonlySet<string> = new Set(['filterReasons', 'filterPlugin', 'filterCode']);

function isEmpty(value: unknown): boolean {
  if (value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/**
 * The attempt's fields in their order, but the ones left out. Built by copying, not by deleting
 * from a copy: an object that loses properties becomes a hash table in V8, ~800 bytes for each of
 * a run's explanations, all kept until the run's rows are written.
 */
function compactAttempt(attempt: Record<string, unknown>): Record<string, unknown> {
  const verdicts = Object.keys((attempt.filterReasons as object | undefined) ?? {}).length;
  const omitVerdicts = verdicts > STORED_NODE_VERDICTS_MAX;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(attempt)) {
    const value = attempt[key];
    if (omitVerdicts && NODE_VERDICT_FIELDS.has(key)) continue;
    if (PER_NODE_FIELDS.has(key) && isEmpty(value)) continue;
    out[key] = value;
  }
  if (omitVerdicts) out.nodeVerdictsOmitted = verdicts;
  return out;
}

export function storedExplanation(result: PodSchedulingResult): Record<string, unknown> {
  const out = compactAttempt(result as unknown as Record<string, unknown>);
  if (result.firstAttempt)
    out.firstAttempt = compactAttempt(result.firstAttempt as unknown as Record<string, unknown>);
  return out;
}
