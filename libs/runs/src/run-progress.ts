/**
 * A run's progress: published to Redis (runProgressChannel) as the engine reports it, persisted
 * to PostgreSQL at the start of each phase and otherwise at most once a second. Writes are
 * conditioned on the execution's claim (attempts), so a superseded execution cannot overwrite its
 * successor's progress.
 */
import type { Redis } from 'ioredis';
import { type RunProgress, runProgressChannel } from '@schedlab/queues';
import { RunRepository } from '@schedlab/db';
import type { DbClient } from '@schedlab/webhooks';
import type { EngineProgress } from './engine-job';
import { ProgressThrottle } from './progress-throttle';

export const PROGRESS_PERSIST_INTERVAL_MS = 1000;

export function percentOf(progress: Pick<EngineProgress, 'podsProcessed' | 'podsTotal'>): number {
  return progress.podsTotal > 0 ? Math.min(100, (100 * progress.podsProcessed) / progress.podsTotal) : 0;
}

export async function publishProgress(redis: Redis, message: RunProgress): Promise<void> {
  await redis.publish(runProgressChannel(message.runId), JSON.stringify(message));
}

export class ProgressReporter {
  private readonly persistThrottle = new ProgressThrottle(PROGRESS_PERSIST_INTERVAL_MS);
  private pending: Promise<unknown> = Promise.resolve();
  private readonly runs = new RunRepository();

  constructor(
    private readonly prisma: DbClient,
    private readonly redis: Redis,
    private readonly runId: string,
    private readonly claim: number,
  ) {}

  report(progress: EngineProgress): void {
    const percent = percentOf(progress);
    const message: RunProgress = {
      runId: this.runId,
      status: 'running',
      phase: progress.phase,
      percent,
      podsProcessed: progress.podsProcessed,
      podsTotal: progress.podsTotal || null,
    };
    void publishProgress(this.redis, message).catch(() => undefined); // progress is best effort
    if (!this.persistThrottle.passes(progress, Date.now())) return;
    this.pending = this.pending
      .then(() =>
        this.runs.saveProgress(this.prisma, this.runId, this.claim, {
          phase: progress.phase,
          percent,
          podsProcessed: progress.podsProcessed,
          podsTotal: progress.podsTotal || null,
        }),
      )
      .catch(() => undefined);
  }

  /** Waits for queued progress writes, so none lands after the final status. */
  flush(): Promise<unknown> {
    return this.pending;
  }
}
