import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { DelayedError, type Job, type Queue, UnrecoverableError } from 'bullmq';
import Redis from 'ioredis';
import { type AppConfig, InjectAppConfig } from '@schedlab/config';
import { PrismaService } from '@schedlab/db';
import { QueueName, redisOptionsFromUrl, type RunJobData, runJobDataSchema } from '@schedlab/queues';
import { onChildFinished, prewarmEngineThread, RunExecutor } from '@schedlab/runs';
import { QueueWorker } from './queue-worker';

/** Retry delay after a transient failure: 2 s, 4 s, 8 s … at most a minute, with jitter. */
export function retryBackoffMs(attempt: number): number {
  const exponential = Math.min(2000 * 2 ** (attempt - 1), 60_000);
  return Math.round(exponential / 2 + (Math.random() * exponential) / 2);
}

/**
 * Consumes the runs queue (`simulations` in Redis), SCHEDLAB_WORKER_CONCURRENCY runs at a time, each on
 * its own engine thread (RunExecutor), so this process's event loop keeps renewing job locks. The
 * lock lasts WORKER_LOCK_DURATION_MS: if this process dies, its runs go back to the queue after
 * that long.
 */
@Injectable()
export class RunsWorker extends QueueWorker<RunJobData, string> {
  private readonly publisher: Redis;
  readonly executor: RunExecutor;
  constructor(
    private readonly prisma: PrismaService,
    @InjectAppConfig() config: AppConfig,
    /** Producer for sweep aggregations (QueuesModule's; Nest closes it on shutdown). */
    @InjectQueue(QueueName.Sweeps) private readonly sweeps: Queue,
  ) {
    super(QueueName.Runs, config);
    this.publisher = new Redis({
      ...redisOptionsFromUrl(config.redisUrl),
      lazyConnect: true,
      maxRetriesPerRequest: 2,
    });
    this.publisher.on('error', (error) => this.logger.warn(`progress publisher: ${error.message}`));
    this.sweeps.on('error', (error) => this.logger.warn(`sweeps queue: ${error.message}`));
    this.executor = new RunExecutor(prisma, this.publisher, {
      runTimeoutMs: config.worker.runTimeoutMs,
      maxAttempts: config.worker.runMaxAttempts,
      publicApiUrl: config.publicApiUrl,
      databaseUrl: config.databaseUrl,
    });
  }

  protected workerOptions() {
    const { lockDurationMs, concurrency } = this.config.worker;
    return {
      concurrency,
      lockDuration: lockDurationMs,
      stalledInterval: Math.max(1000, Math.floor(lockDurationMs / 2)),
      // Crash loops are bounded by the run's attempts in PostgreSQL, not by BullMQ's stall count.
      maxStalledCount: 1000,
    };
  }

  override onApplicationBootstrap(): void {
    // The first run would otherwise load the engine on its thread (~1 s); not under tests, which
    // start many short-lived workers.
    if (this.config.nodeEnv !== 'test') prewarmEngineThread();
    super.onApplicationBootstrap();
  }

  protected async process(job: Job<RunJobData>, token: string | undefined): Promise<string> {
    const { runId } = runJobDataSchema.parse(job.data);
    const outcome = await this.executor.execute(runId);
    if (outcome.kind === 'retry') {
      const delay = retryBackoffMs(outcome.attempt);
      this.logger.warn({
        msg: 'run failed transiently; retrying',
        runId,
        attempt: outcome.attempt,
        delayMs: delay,
        error: outcome.error.message,
      });
      await job.moveToDelayed(Date.now() + delay, token);
      throw new DelayedError();
    }
    if (outcome.kind === 'skipped') return 'skipped';
    this.logger.log({ msg: 'run finished', runId, status: outcome.status, pid: process.pid });
    if (outcome.run.parentId) await onChildFinished(this.prisma, this.sweeps, outcome.run.parentId);
    // A failed run is final in PostgreSQL; BullMQ must not retry it.
    if (outcome.status === 'failed') throw new UnrecoverableError(`run ${runId} failed`);
    return outcome.status;
  }

  override async onApplicationShutdown(): Promise<void> {
    this.executor.abortAll();
    await super.onApplicationShutdown();
    this.publisher.disconnect();
  }
}
