import type { FlowProducer, Queue } from 'bullmq';
import { z } from 'zod';
import { QueueName } from './queues';

/**
 * The run job contract between the api (producer) and the worker (consumer).
 * The run's row (simulation_runs) is written before the job is enqueued and is the source of truth;
 * the job carries only the run id, and the job id IS the run id, so enqueueing the same run
 * twice (a retry after a lost reply, a re-drive) is a no-op in BullMQ.
 */
export const RUNS_QUEUE = QueueName.Runs;
export const RUN_JOB = 'simulate';
export const SWEEPS_QUEUE = QueueName.Sweeps;
export const AGGREGATE_JOB = 'aggregate';
/** Finished jobs kept in Redis for inspection (PostgreSQL keeps the runs). */
const KEEP = { removeOnComplete: 1000, removeOnFail: 5000 } as const;

export const runJobDataSchema = z.object({ runId: z.string().uuid() }).strict();
export type RunJobData = z.infer<typeof runJobDataSchema>;

/** Redis pub/sub channel on which a worker publishes a run's progress (any api instance relays it). */
export function runProgressChannel(runId: string): string {
  return `run-progress:${runId}`;
}

/** The message published on runProgressChannel(runId). */
export const runProgressSchema = z.object({
  runId: z.string().uuid(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  phase: z.string().nullable().optional(),
  percent: z.number().min(0).max(100),
  podsProcessed: z.number().int().min(0),
  podsTotal: z.number().int().min(0).nullable().optional(),
});
export type RunProgress = z.infer<typeof runProgressSchema>;

/** Enqueue a run that already has its row. Idempotent: jobId = runId. */
export async function enqueueRun(queue: Queue, runId: string): Promise<void> {
  const data: RunJobData = runJobDataSchema.parse({ runId });
  await queue.add(RUN_JOB, data, { jobId: runId, ...KEEP });
}

/** Adds a sweep's aggregation job unless it exists (jobId = the sweep's parent run id). */
export async function enqueueSweepAggregation(sweeps: Queue, parentId: string): Promise<void> {
  const data: RunJobData = runJobDataSchema.parse({ runId: parentId });
  await sweeps.add(AGGREGATE_JOB, data, { jobId: parentId, ...KEEP });
}

/** Enqueues a whole sweep as one BullMQ flow: the parent's aggregation waits for its children. */
export async function enqueueSweep(
  flows: FlowProducer,
  parentId: string,
  childIds: readonly string[],
): Promise<void> {
  await flows.add({
    name: AGGREGATE_JOB,
    queueName: SWEEPS_QUEUE,
    data: runJobDataSchema.parse({ runId: parentId }),
    opts: { jobId: parentId, ...KEEP },
    children: childIds.map((id) => ({
      name: RUN_JOB,
      queueName: RUNS_QUEUE,
      data: runJobDataSchema.parse({ runId: id }),
      opts: { jobId: id, ...KEEP, ignoreDependencyOnFailure: true },
    })),
  });
}
