/**
 * Sweeps: one snapshot, several profiles and/or seeds. The parent run (type `compare`, options
 * {sweep}) fans out into child runs (full runs with parentId) through a BullMQ flow; when every
 * child is final the parent's `aggregate` job compares them: scheduled counts, utilization spread
 * and pods that moved relative to the first child (the baseline).
 */
import type { Queue } from 'bullmq';
import { enqueueSweepAggregation } from '@schedlab/jobs';
import type { DbClient } from '@schedlab/webhooks';
import { finishRun } from './run-finalizer';

/** Moved pods listed per child; the count is always complete. */
const MOVED_SAMPLE = 50;

/** After a child finishes: if it was the last one, make sure the parent's aggregation is queued. */
export async function onChildFinished(prisma: DbClient, sweeps: Queue, parentId: string): Promise<void> {
  const unfinished = await prisma.simulationRun.count({
    where: { parentId, status: { in: ['queued', 'running'] } },
  });
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
  const claimed = await prisma.simulationRun.updateManyAndReturn({
    where: { id: parentId, status: { in: ['queued', 'running'] } },
    data: { status: 'running', attempts: { increment: 1 }, phase: 'aggregating' },
    select: { id: true, tenantId: true, type: true, parentId: true, attempts: true },
  });
  const parent = claimed[0];
  if (!parent) return false;
  const children = await prisma.simulationRun.findMany({
    where: { parentId },
    orderBy: { createdAt: 'asc' },
    select: {
      id: true,
      status: true,
      error: true,
      seed: true,
      profileName: true,
      profileVersion: true,
      attempts: true,
      result: { select: { summary: true } },
    },
  });
  // A succeeded run's rows are those of the attempt that finished it (its final `attempts`).
  const placementsOf = async (child: { id: string; attempts: number }) =>
    new Map(
      (
        await prisma.placement.findMany({
          where: { runId: child.id, attempt: child.attempts },
          select: { podKey: true, node: true },
        })
      ).map((p) => [p.podKey, p.node]),
    );
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
    parent,
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
