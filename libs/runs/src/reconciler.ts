/**
 * PostgreSQL is the source of truth: every run that is `queued` or `running` must have a live job.
 * The reconciler (at worker start and periodically, in every worker; it is idempotent) re-enqueues
 * runs whose job is missing (Redis flushed or lost), finished without finishing the run, or active
 * without a lock (its worker died and the lock expired). Sweep parents whose children are all
 * final get their aggregation job back.
 */
import { type Queue } from 'bullmq';
import { enqueueRun } from '@schedlab/queues';
import { RunRepository } from '@schedlab/db';
import type { DbClient } from '@schedlab/webhooks';

export interface ReconcileReport {
  checked: number;
  requeued: string[];
}

/** Job states in which BullMQ will still run (or is running) the job. */
const LIVE_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

export class RunReconciler {
  private readonly runs = new RunRepository();

  constructor(
    private readonly prisma: DbClient,
    private readonly simulations: Queue,
    private readonly enqueueSweepAggregation: (parentRunId: string) => Promise<void>,
  ) {}

  async reconcile(): Promise<ReconcileReport> {
    const open = await this.runs.listOpen(this.prisma);
    const requeued: string[] = [];
    for (const run of open) {
      if (run._count.children > 0) {
        if (await this.reviveSweep(run.id)) requeued.push(run.id);
      } else if (await this.reviveRun(run.id)) {
        requeued.push(run.id);
      }
    }
    return { checked: open.length, requeued };
  }

  /** True when the run had no live job and was enqueued again. */
  private async reviveRun(runId: string): Promise<boolean> {
    const state = await this.simulations.getJobState(runId);
    if (LIVE_STATES.has(state)) return false;
    if (state === 'active') {
      if (await this.isLocked(runId)) return false;
    }
    if (state !== 'unknown') {
      // A finished (or dead active) job with this id would make the add below a no-op.
      const job = await this.simulations.getJob(runId);
      await job?.remove().catch(() => undefined); // raced with a worker taking it: it is live then
      if ((await this.simulations.getJobState(runId)) !== 'unknown') return false;
    }
    await enqueueRun(this.simulations, runId);
    return true;
  }

  private async isLocked(runId: string): Promise<boolean> {
    const client = (await this.simulations.client) as unknown as { exists(key: string): Promise<number> };
    return (
      (await client.exists(
        `${this.simulations.opts.prefix ?? 'bull'}:${this.simulations.name}:${runId}:lock`,
      )) === 1
    );
  }

  private async reviveSweep(parentId: string): Promise<boolean> {
    const unfinished = await this.runs.countUnfinishedChildren(this.prisma, parentId);
    if (unfinished > 0) return false; // the children are reconciled on their own; the last one triggers the parent
    await this.enqueueSweepAggregation(parentId);
    return true;
  }
}
