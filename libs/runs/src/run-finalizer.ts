/**
 * Every way a run ends goes through here, in ONE short transaction: the status flips from
 * `running` only if this execution still holds the claim (attempts = claim), the run's result
 * becomes visible (run_results, keyed by run id, and the placement and explanation rows the
 * engine thread already wrote under this claim; rows of any other attempt are deleted), and the
 * webhook event is recorded as deliveries. A retried or duplicated job therefore cannot write
 * twice: the second finds the status no longer `running` (or the claim moved on) and its
 * transaction rolls back, and its batches (result-writer) insert nothing once the flip is done.
 */
import type { Prisma } from '@schedlab/db';
import { recordWebhookEvent, type DbClient, type WebhookEventType } from '@schedlab/webhooks';
import type { EngineOutput } from './engine-job';

/** Rows per INSERT when the output still carries its rows (no thread wrote them). */
const INSERT_CHUNK = 2000;
/**
 * The final transaction writes one result row and the webhook deliveries, and deletes what a
 * lost attempt left: seconds at most. The limit only guards against a stuck connection.
 */
const RESULT_TRANSACTION_TIMEOUT_MS = 60_000;

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

export function runLinks(publicApiUrl: string, runId: string) {
  return {
    self: `${publicApiUrl}/v1/simulations/${runId}`,
    placements: `${publicApiUrl}/v1/simulations/${runId}/placements`,
  };
}

export function sweepLinks(publicApiUrl: string, sweepId: string) {
  return { self: `${publicApiUrl}/v1/sweeps/${sweepId}` };
}

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) out.push(rows.slice(i, i + INSERT_CHUNK));
  return out;
}

async function insertResult(
  tx: Prisma.TransactionClient,
  runId: string,
  attempt: number,
  output: EngineOutput,
): Promise<void> {
  // Raw SQL with the JSON already serialised: a summary carries per-node utilization (~1 MB at
  // 5,000 nodes), and Prisma's own JSON handling of it held the event loop for hundreds of ms.
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  await tx.$executeRaw`INSERT INTO run_results (run_id, summary, analysis, storage_summary)
    VALUES (${runId}::uuid, ${json(output.summary)}::jsonb, ${json(output.analysis)}::jsonb, ${json(output.storageSummary)}::jsonb)`;
  for (const rows of chunks(output.placements)) {
    await tx.placement.createMany({
      data: rows.map((p) => ({ ...p, runId, attempt, victims: p.victims ?? undefined })),
    });
  }
  for (const rows of chunks(output.explanations)) {
    await tx.podExplanation.createMany({
      data: rows.map((e) => ({
        runId,
        attempt,
        namespace: e.namespace,
        name: e.name,
        explanation: e.explanation as Prisma.InputJsonValue,
      })),
    });
  }
}

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
    await prisma.$transaction(
      async (tx) => {
        const { count } = await tx.simulationRun.updateMany({
          where: {
            id: run.id,
            status: { in: claim === null ? ['queued', 'running'] : ['running'] },
            ...(claim === null ? {} : { attempts: claim }),
          },
          data: {
            status: outcome.status,
            finishedAt: new Date(),
            error: outcome.error ?? null,
            phase: outcome.status === 'succeeded' ? 'done' : outcome.status,
            ...(outcome.status === 'succeeded' ? { percent: 100 } : {}),
            ...(outcome.output ? { engineVersion: outcome.output.engineVersion } : {}),
            // Progress writes are throttled; the final counts are exact.
            ...(pods ? { podsProcessed: pods, podsTotal: pods } : {}),
          },
        });
        if (count === 0) throw new ClaimLostError(run.id);
        // Only the finishing attempt's rows stay, and only if it succeeded.
        const kept = outcome.status === 'succeeded' && claim !== null ? { attempt: { not: claim } } : {};
        await tx.placement.deleteMany({ where: { runId: run.id, ...kept } });
        await tx.podExplanation.deleteMany({ where: { runId: run.id, ...kept } });
        if (outcome.output) await insertResult(tx, run.id, claim ?? 0, outcome.output);
        await recordWebhookEvent(tx, {
          tenantId: run.tenantId,
          type: outcome.event ?? EVENT_OF[outcome.status],
          data: {
            runId: run.id,
            type: run.type,
            status: outcome.status,
            ...(run.parentId ? { sweepId: run.parentId } : {}),
            summary: outcome.output?.summary ?? null,
            error: outcome.error ?? null,
            links:
              outcome.event === 'sweep.completed'
                ? sweepLinks(publicApiUrl, run.id)
                : runLinks(publicApiUrl, run.id),
          },
        });
      },
      { timeout: RESULT_TRANSACTION_TIMEOUT_MS, maxWait: 30_000 },
    );
    return true;
  } catch (error) {
    if (error instanceof ClaimLostError) return false;
    throw error;
  }
}
