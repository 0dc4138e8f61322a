/**
 * Executes one simulation run for a `simulate` job: claim the run in PostgreSQL, run the engine
 * on a worker thread, report progress, honour cancellation and the timeout, and finish the run
 * exactly once (run-finalizer). The BullMQ job only carries the run id; everything else is read
 * from the database, which is the source of truth.
 */
import type { Redis } from 'ioredis';
import { RunRepository } from '@schedlab/db';
import type { DbClient } from '@schedlab/webhooks';
import type { EngineJob, EngineOutput } from './engine-job';
import { type FinalStatus, finishRun, type RunIdentity } from './run-finalizer';
import { ProgressReporter, publishProgress } from './run-progress';
import { RELEASE_MEMORY_AFTER_PODS, releaseMemory } from './release-memory';
import { EngineAbortedError, EngineError, runEngineInThread } from './thread-runner';

export interface ExecutorSettings {
  runTimeoutMs: number;
  /** Executions of one run (crashes included) before it is failed. */
  maxAttempts: number;
  publicApiUrl: string;
  /**
   * The database the engine thread writes result rows to (the one `prisma` talks to); the thread
   * opens its own connection, so writing never runs on this process's event loop.
   */
  databaseUrl: string;
  /** How often a running execution checks for cancellation or a lost claim. */
  cancelPollMs?: number;
}

export type ExecutionOutcome =
  | { kind: 'finished'; status: FinalStatus; run: RunIdentity }
  /** Already final, or another execution holds it: nothing to do. */
  | { kind: 'skipped' }
  /** A transient failure with attempts left: the caller schedules a retry. */
  | { kind: 'retry'; error: Error; attempt: number };

class StopReason extends Error {
  constructor(
    readonly status: FinalStatus | 'superseded',
    message: string,
  ) {
    super(message);
  }
}

export class RunExecutor {
  private readonly running = new Set<AbortController>();
  private readonly runs = new RunRepository();

  constructor(
    private readonly prisma: DbClient,
    private readonly redis: Redis,
    private readonly settings: ExecutorSettings,
    /** Called after a run of RELEASE_MEMORY_AFTER_PODS pods or more (a spec observes it). */
    private readonly afterLargeRun: () => void = releaseMemory,
  ) {}

  async execute(runId: string): Promise<ExecutionOutcome> {
    // Claim: only a queued or running run; attempts counts executions and is the claim token.
    const row = await this.runs.claim(this.prisma, runId, 'starting', { clearError: true });
    if (!row) return { kind: 'skipped' };
    const run: RunIdentity = { id: row.id, tenantId: row.tenantId, type: row.type, parentId: row.parentId };
    const claim = row.attempts;
    if (!row.startedAt) await this.runs.markStarted(this.prisma, runId);
    if (row.cancelRequestedAt)
      return this.finish(run, claim, { status: 'cancelled', error: 'cancelled before it started' });
    if (claim > this.settings.maxAttempts) {
      return this.finish(run, claim, {
        status: 'failed',
        error: `gave up after ${this.settings.maxAttempts} attempts (the worker running it crashed or was lost each time)`,
      });
    }
    await publishProgress(this.redis, {
      runId,
      status: 'running',
      phase: 'starting',
      percent: 0,
      podsProcessed: 0,
      podsTotal: null,
    }).catch(() => undefined);

    let output: EngineOutput;
    const progress = new ProgressReporter(this.prisma, this.redis, runId, claim);
    try {
      const job = await this.loadJob(runId, claim);
      output = await this.runWithWatch(job, claim, progress);
    } catch (error) {
      await progress.flush();
      if (error instanceof EngineAbortedError && error.reason instanceof StopReason) {
        if (error.reason.status === 'superseded') return { kind: 'skipped' };
        return this.finish(run, claim, { status: error.reason.status, error: error.reason.message });
      }
      if (error instanceof EngineError && error.name === 'ClaimLostWhileWritingError')
        return { kind: 'skipped' };
      if (error instanceof EngineError && error.deterministic) {
        return this.finish(run, claim, { status: 'failed', error: `${error.name}: ${error.message}` });
      }
      const failure = error as Error;
      if (claim >= this.settings.maxAttempts) {
        return this.finish(run, claim, {
          status: 'failed',
          error: `${failure.message} (after ${claim} attempts)`,
        });
      }
      // Back to queued while it waits for the retry; the claim stays so a stale execution cannot finish it.
      await this.runs.requeueForRetry(this.prisma, runId, claim, failure.message);
      return { kind: 'retry', error: failure, attempt: claim };
    }
    await progress.flush();
    // The rows are written (by the thread); one short transaction makes them the run's result.
    const outcome = await this.finish(run, claim, { status: 'succeeded', output });
    if (podsOf(output) >= RELEASE_MEMORY_AFTER_PODS) setImmediate(this.afterLargeRun);
    return outcome;
  }

  /**
   * Shutdown: terminate every engine thread now. The runs stay `running` with their claim; their
   * jobs' locks expire and another worker (or the reconciler) takes them over.
   */
  abortAll(): void {
    for (const stop of this.running) stop.abort(new StopReason('superseded', 'worker shutting down'));
  }

  /** Ends a run nobody is executing (e.g. cancelled while queued). */
  async finishIdle(runId: string, status: FinalStatus, error: string): Promise<boolean> {
    const row = await this.runs.findIdentity(this.prisma, runId);
    if (!row) return false;
    const done = await finishRun(this.prisma, row, null, { status, error }, this.settings.publicApiUrl);
    if (done) await this.publishFinal(row.id, status);
    return done;
  }

  private async finish(
    run: RunIdentity,
    claim: number,
    outcome: { status: FinalStatus; error?: string; output?: EngineOutput },
  ): Promise<ExecutionOutcome> {
    const done = await finishRun(this.prisma, run, claim, outcome, this.settings.publicApiUrl);
    if (!done) return { kind: 'skipped' };
    await this.publishFinal(run.id, outcome.status, outcome.output);
    return { kind: 'finished', status: outcome.status, run };
  }

  private async publishFinal(runId: string, status: FinalStatus, output?: EngineOutput): Promise<void> {
    const pods = output ? podsOf(output) : 0;
    await publishProgress(this.redis, {
      runId,
      status,
      phase: status === 'succeeded' ? 'done' : status,
      percent: status === 'succeeded' ? 100 : 0,
      podsProcessed: pods,
      podsTotal: pods || null,
    }).catch(() => undefined);
  }

  private async loadJob(runId: string, claim: number): Promise<EngineJob> {
    const run = await this.runs.engineInputs(this.prisma, runId);
    return {
      runId,
      type: run.type as EngineJob['type'],
      content: run.snapshot.content,
      schedulerConfiguration: run.profile?.config ?? undefined,
      scenario: run.scenario?.document ?? undefined,
      seed: run.seed,
      options: (run.options ?? {}) as Record<string, unknown>,
      write: { databaseUrl: this.settings.databaseUrl, claim },
    };
  }

  /**
   * Runs the engine thread while the event loop watches the run: cancellation requested, the
   * claim taken over (a duplicate execution), or the timeout passed — each terminates the thread.
   */
  private async runWithWatch(
    job: EngineJob,
    claim: number,
    progress: ProgressReporter,
  ): Promise<EngineOutput> {
    const stop = new AbortController();
    this.running.add(stop);
    const timeout = setTimeout(
      () => stop.abort(new StopReason('failed', `timed out after ${this.settings.runTimeoutMs} ms`)),
      this.settings.runTimeoutMs,
    );
    const watch = setInterval(() => {
      this.runs
        .findClaimState(this.prisma, job.runId)
        .then((row) => {
          if (!row || row.status !== 'running' || row.attempts !== claim) {
            stop.abort(new StopReason('superseded', 'another execution took the run over'));
          } else if (row.cancelRequestedAt) {
            stop.abort(new StopReason('cancelled', 'cancelled on request'));
          }
        })
        .catch(() => undefined); // a missed poll is retried on the next tick
    }, this.settings.cancelPollMs ?? 500);
    try {
      return await runEngineInThread(job, { onProgress: (p) => progress.report(p), signal: stop.signal });
    } finally {
      clearTimeout(timeout);
      clearInterval(watch);
      this.running.delete(stop);
    }
  }
}

/** Pods of a run's result: the rows the thread wrote, or the placements it returned. */
function podsOf(output: EngineOutput): number {
  return output.written?.placements ?? output.placements.length;
}
