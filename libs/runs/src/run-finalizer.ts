/**
 * Every way a run ends goes through here, in ONE short transaction: the status flips from
 * `running` only if this execution still holds the claim (attempts = claim), the run's result
 * becomes visible (run_results, keyed by run id, and the placement and explanation rows the
 * engine thread already wrote under this claim; rows of any other attempt are deleted), and the
 * webhook event is recorded as deliveries. A retried or duplicated job therefore cannot write
 * twice: the second finds the status no longer `running` (or the claim moved on) and its
 * transaction rolls back, and its batches (result-writer) insert nothing once the flip is done.
 */
import { inTransaction, RunRepository, RunResultRepository } from '@schedlab/db';
import { recordWebhookEvent, type DbClient, type WebhookEventType } from '@schedlab/webhooks';
import type { EngineOutput } from './engine-job';
import { runEventData } from './run-event';

/**
 * The final transaction writes one result row and the webhook deliveries, and deletes what a
 * lost attempt left: seconds at most. The limit only guards against a stuck connection.
 */
const RESULT_TRANSACTION_TIMEOUT_MS = 60_000;

const runs = new RunRepository();
const results = new RunResultRepository();

export type FinalStatus = 'succeeded' | 'failed' | 'cancelled';

export class ClaimLostError extends Error {
  constructor(runId: string) {
    super(`run ${runId} was finished or taken over by another execution; this one's result is discarded`);
    this.name = 'ClaimLostError';
  }
}

export interface RunIdentity {
  id: string;
  tenantId: string;
  type: string;
  parentId: string | null;
}

const EVENT_OF: Record<FinalStatus, WebhookEventType> = {
  succeeded: 'simulation.succeeded',
  failed: 'simulation.failed',
  cancelled: 'simulation.cancelled',
};

/**
 * Ends the run. `claim` is the attempts value this execution set when it claimed the run; null
 * finishes a run no execution holds (cancelled while queued, gave up after too many attempts).
 * Returns false when someone else already ended it.
 */
export async function finishRun(
  prisma: DbClient,
  run: RunIdentity,
  claim: number | null,
  outcome: { status: FinalStatus; error?: string; output?: EngineOutput; event?: WebhookEventType },
  publicApiUrl: string,
): Promise<boolean> {
  const pods = outcome.output?.written?.placements ?? outcome.output?.placements.length ?? 0;
  try {
    await inTransaction(
      prisma,
      async (tx) => {
        const flipped = await runs.finish(tx, run.id, claim, {
          status: outcome.status,
          error: outcome.error ?? null,
          phase: outcome.status === 'succeeded' ? 'done' : outcome.status,
          ...(outcome.status === 'succeeded' ? { percent: 100 } : {}),
          ...(outcome.output ? { engineVersion: outcome.output.engineVersion } : {}),
          // Progress writes are throttled; the final counts are exact.
          ...(pods ? { podsProcessed: pods, podsTotal: pods } : {}),
        });
        if (!flipped) throw new ClaimLostError(run.id);
        // Only the finishing attempt's rows stay, and only if it succeeded.
        await results.deleteRows(tx, run.id, outcome.status === 'succeeded' && claim !== null ? claim : null);
        if (outcome.output) await results.insert(tx, run.id, claim ?? 0, outcome.output);
        // The row as it now stands gives the event its timings (finishedAt was just set).
        const final = await runs.find(tx, run.tenantId, run.id);
        await recordWebhookEvent(tx, {
          tenantId: run.tenantId,
          type: outcome.event ?? EVENT_OF[outcome.status],
          data: runEventData(
            {
              id: run.id,
              type: run.type,
              parentId: run.parentId,
              createdAt: final?.createdAt ?? new Date(),
              startedAt: final?.startedAt ?? null,
              finishedAt: final?.finishedAt ?? null,
            },
            {
              status: outcome.status,
              error: outcome.error,
              summary: outcome.output?.summary ?? null,
              sweep: outcome.event === 'sweep.completed',
            },
            publicApiUrl,
          ),
        });
      },
      { timeoutMs: RESULT_TRANSACTION_TIMEOUT_MS, maxWaitMs: 30_000 },
    );
    return true;
  } catch (error) {
    if (error instanceof ClaimLostError) return false;
    throw error;
  }
}
