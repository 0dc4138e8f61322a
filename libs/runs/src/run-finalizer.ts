/**
 * Every way a run ends goes through here, in ONE transaction: the status flips from `running`
 * only if this execution still holds the claim (attempts = claim), the result rows are inserted
 * (run_results is keyed by run id, placements by (run id, ordinal)), and the webhook event is
 * recorded as deliveries. A retried or duplicated job therefore cannot write twice: the second
 * finds the status no longer `running` (or the claim moved on) and its transaction rolls back.
 */
import type { Prisma } from '@schedlab/db';
import { recordWebhookEvent, type DbClient, type WebhookEventType } from '@schedlab/webhooks';
import type { EngineOutput } from './engine-job';

/** Rows per INSERT: large runs have tens of thousands of placements. */
const INSERT_CHUNK = 2000;
/** Writing a very large result can take a while; the default 5 s interactive limit is too short. */
const RESULT_TRANSACTION_TIMEOUT_MS = 10 * 60_000;

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

async function insertResult(tx: Prisma.TransactionClient, runId: string, output: EngineOutput): Promise<void> {
  await tx.runResult.create({
    data: {
      runId,
      summary: output.summary as Prisma.InputJsonValue,
      analysis: (output.analysis ?? undefined) as Prisma.InputJsonValue | undefined,
      storageSummary: (output.storageSummary ?? undefined) as Prisma.InputJsonValue | undefined,
    },
  });
  for (const rows of chunks(output.placements)) {
    await tx.placement.createMany({
      data: rows.map((p) => ({ ...p, runId, victims: p.victims ?? undefined })),
    });
  }
  for (const rows of chunks(output.explanations)) {
    await tx.podExplanation.createMany({
      data: rows.map((e) => ({ runId, namespace: e.namespace, name: e.name, explanation: e.explanation as Prisma.InputJsonValue })),
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
  try {
    await prisma.$transaction(
      async (tx) => {
        const { count } = await tx.simulationRun.updateMany({
          where: { id: run.id, status: { in: claim === null ? ['queued', 'running'] : ['running'] }, ...(claim === null ? {} : { attempts: claim }) },
          data: {
            status: outcome.status,
            finishedAt: new Date(),
            error: outcome.error ?? null,
            phase: outcome.status === 'succeeded' ? 'done' : outcome.status,
            ...(outcome.status === 'succeeded' ? { percent: 100 } : {}),
            ...(outcome.output ? { engineVersion: outcome.output.engineVersion } : {}),
            // Progress writes are throttled; the final counts are exact.
            ...(outcome.output?.placements.length
              ? { podsProcessed: outcome.output.placements.length, podsTotal: outcome.output.placements.length }
              : {}),
          },
        });
        if (count === 0) throw new ClaimLostError(run.id);
        if (outcome.output) await insertResult(tx, run.id, outcome.output);
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
            links: outcome.event === 'sweep.completed' ? sweepLinks(publicApiUrl, run.id) : runLinks(publicApiUrl, run.id),
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
