/**
 * Sweeps: one snapshot, several profiles and/or seeds. The parent run (type `compare`, options
 * {sweep}) fans out into child runs (full runs with parentId) through a BullMQ flow; when every
 * child is final the parent's `aggregate` job compares them: scheduled counts, utilization spread
 * and pods that moved relative to the first child (the baseline).
 */
import type { Queue } from 'bullmq';
import { enqueueSweepAggregation } from '@schedlab/queues';
import { RunRepository, RunResultRepository } from '@schedlab/db';
import type { DbClient } from '@schedlab/webhooks';
import { finishRun } from './run-finalizer';

/** Moved pods listed per child; the count is always complete. */
const MOVED_SAMPLE = 50;

const runs = new RunRepository();
const results = new RunResultRepository();

/** After a child finishes: if it was the last one, make sure the parent's aggregation is queued. */
export async function onChildFinished(prisma: DbClient, sweeps: Queue, parentId: string): Promise<void> {
  const unfinished = await runs.countUnfinishedChildren(prisma, parentId);
  if (unfinished === 0) await enqueueSweepAggregation(sweeps, parentId);
}

interface ChildSummary {
  runId: string;
  profile: string;
  seed: number;
  status: string;
  error: string | null;
  scheduled: number | null;
  unschedulable: number | null;
  cpuStdDev: number | null;
  memoryStdDev: number | null;
  movedFromBaseline: number | null;
  movedSample: { pod: string; from: string | null; to: string | null }[];
}

type Utilization = { stdDev?: { cpu?: number; memory?: number } };

/** Compares the children and finishes the parent; returns false if the parent was already final. */
export async function aggregateSweep(
  prisma: DbClient,
  parentId: string,
  publicApiUrl: string,
): Promise<boolean> {
  const parent = await runs.claim(prisma, parentId, 'aggregating');
  if (!parent) return false;
  const children = await runs.childrenForAggregation(prisma, parentId);
  // A succeeded run's rows are those of the attempt that finished it (its final `attempts`).
  const placementsOf = (child: { id: string; attempts: number }) =>
    results.nodesByPod(prisma, child.id, child.attempts);
  const baselineChild = children.find((c) => c.status === 'succeeded');
  const baseline = baselineChild ? await placementsOf(baselineChild) : undefined;
  const summaries: ChildSummary[] = [];
  for (const child of children) {
    const summary = (child.result?.summary ?? null) as {
      scheduled?: number;
      unschedulable?: number;
      utilization?: Utilization;
    } | null;
    let moved: ChildSummary['movedSample'] = [];
    let movedCount: number | null = null;
    if (baseline && child.status === 'succeeded') {
      const mine = child.id === baselineChild!.id ? baseline : await placementsOf(child);
      for (const [pod, node] of mine) {
        const was = baseline.get(pod) ?? null;
        if (was !== node) moved.push({ pod, from: was, to: node });
      }
      movedCount = moved.length;
      moved = moved.slice(0, MOVED_SAMPLE);
    }
    summaries.push({
      runId: child.id,
      profile: `${child.profileName}@${child.profileVersion}`,
      seed: child.seed,
      status: child.status,
      error: child.error,
      scheduled: summary?.scheduled ?? null,
      unschedulable: summary?.unschedulable ?? null,
      cpuStdDev: summary?.utilization?.stdDev?.cpu ?? null,
      memoryStdDev: summary?.utilization?.stdDev?.memory ?? null,
      movedFromBaseline: movedCount,
      movedSample: moved,
    });
  }
  const scheduled = summaries.map((s) => s.scheduled).filter((n): n is number => n !== null);
  const succeeded = summaries.filter((s) => s.status === 'succeeded').length;
  const sweepSummary = {
    children: summaries.length,
    succeeded,
    failed: summaries.filter((s) => s.status === 'failed').length,
    cancelled: summaries.filter((s) => s.status === 'cancelled').length,
    baselineRunId: baselineChild?.id ?? null,
    scheduledMin: scheduled.length ? Math.min(...scheduled) : null,
    scheduledMax: scheduled.length ? Math.max(...scheduled) : null,
  };
  return finishRun(
    prisma,
    { id: parent.id, tenantId: parent.tenantId, type: parent.type, parentId: parent.parentId },
    parent.attempts,
    {
      status: succeeded > 0 ? 'succeeded' : 'failed',
      ...(succeeded > 0 ? {} : { error: 'no child run succeeded' }),
      output: {
        engineVersion: 'sweep',
        summary: sweepSummary,
        analysis: { runs: summaries },
        storageSummary: null,
        placements: [],
        explanations: [],
      },
      event: 'sweep.completed',
    },
    publicApiUrl,
  );
}
