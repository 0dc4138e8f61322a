/**
 * What a full-explanation replay fast-forwards with (libs/runs replayPodExplanation): the run's
 * placements up to the pod, in scheduling order (each pod's node, nominated node and victims: the
 * effects of its cycle on the cluster), and the replay cursor stored with the pod's compact
 * explanation. Runs stored before cursors were recorded have none: those replay in full.
 */
import { type Db, RunResultRepository } from '@schedlab/db';
import type { RecordedAttempt, ReplayCursor } from '@schedlab/scheduler';

const results = new RunResultRepository();

export interface ReplayRecords {
  attempts: RecordedAttempt[];
  cursor: ReplayCursor;
}

function cursorOf(explanation: unknown): ReplayCursor | undefined {
  const c = (explanation as { replayCursor?: Partial<ReplayCursor> } | null)?.replayCursor;
  if (!c || !Number.isInteger(c.rng) || !Number.isInteger(c.nextStartNodeIndex)) return undefined;
  return { rng: c.rng!, nextStartNodeIndex: c.nextStartNodeIndex! };
}

/** The records, or undefined when the run has none for the pod (the replay then runs in full). */
export async function replayRecords(
  tx: Db,
  runId: string,
  attempt: number,
  namespace: string,
  name: string,
): Promise<ReplayRecords | undefined> {
  const row = await results.findExplanation(tx, runId, attempt, namespace, name);
  const ordinal = await results.placementOrdinal(tx, runId, attempt, namespace, name);
  const cursor = cursorOf(row?.explanation);
  if (!cursor || ordinal === null) return undefined;
  const rows = await results.placementsUpTo(tx, runId, attempt, ordinal);
  return {
    attempts: rows.map((r) => ({
      pod: r.podKey,
      node: r.node,
      nominatedNode: r.nominatedNode,
      victims: Array.isArray(r.victims) ? (r.victims as string[]) : null,
    })),
    cursor,
  };
}

/** The stored compact record as served: the replay cursor is the replay's, not the reader's. */
export function servedExplanation(explanation: unknown): unknown {
  if (explanation === null || typeof explanation !== 'object' || !('replayCursor' in explanation)) {
    return explanation;
  }
  const { replayCursor: _cursor, ...rest } = explanation as Record<string, unknown>;
  return rest;
}
