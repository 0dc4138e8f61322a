import { Injectable } from '@nestjs/common';
import { afterCreatedAt, type CreatedAtCursor, type Db, NEWEST_FIRST } from '../database';
import { type Prisma, RunStatus } from '../generated/prisma/client';

export interface NewRun {
  tenantId: string;
  type: string;
  snapshotId: string;
  scenarioId: string | null;
  profileId: string;
  profileName: string;
  profileVersion: number;
  seed?: number;
  options: unknown;
  parentId?: string;
  phase?: string;
}

/** The columns a worker needs to finish a run and announce it. */
const IDENTITY = { id: true, tenantId: true, type: true, parentId: true } as const;
const OPEN: RunStatus[] = [RunStatus.queued, RunStatus.running];

/** What the engine needs to execute (or replay) a run: snapshot content, pinned profile, options. */
const ENGINE_INPUTS = {
  id: true,
  type: true,
  seed: true,
  options: true,
  snapshot: { select: { content: true } },
  profile: { select: { config: true, name: true } },
  scenario: { select: { document: true } },
} as const;

/**
 * simulation_runs: one row per run (sweeps: a parent and its children). The row is the source of
 * truth for a run's state; `attempts` is the claim token of the execution holding it.
 */
@Injectable()
export class RunRepository {
  // ─── Tenant reads and writes (api) ───

  find(db: Db, tenantId: string, id: string) {
    return db.run.findFirst({ where: { id, tenantId } });
  }

  async exists(db: Db, tenantId: string, id: string): Promise<boolean> {
    return (await db.run.count({ where: { id, tenantId } })) > 0;
  }

  list(db: Db, tenantId: string, take: number, after?: CreatedAtCursor) {
    return db.run.findMany({
      where: { tenantId, ...afterCreatedAt(after) },
      orderBy: NEWEST_FIRST,
      take,
    });
  }

  create(db: Db, run: NewRun) {
    return db.run.create({ data: { ...run, options: run.options as Prisma.InputJsonValue } });
  }

  /** Submit could not enqueue the run: it ends failed at once. */
  async failUnqueued(db: Db, id: string, error: string): Promise<void> {
    await db.run.update({
      where: { id },
      data: { status: RunStatus.failed, error, finishedAt: new Date() },
    });
  }

  /** Cancels a run still queued (guarded on status: a worker may have just started it). */
  async cancelIfQueued(db: Db, id: string, at: Date): Promise<boolean> {
    const { count } = await db.run.updateMany({
      where: { id, status: RunStatus.queued },
      data: { status: RunStatus.cancelled, cancelRequestedAt: at, finishedAt: at },
    });
    return count > 0;
  }

  /** Asks the worker running it to stop (it polls cancelRequestedAt). */
  async requestCancel(db: Db, id: string, at: Date): Promise<void> {
    await db.run.updateMany({
      where: { id, cancelRequestedAt: null },
      data: { cancelRequestedAt: at },
    });
  }

  countUsingScenario(db: Db, scenarioId: string) {
    return db.run.count({ where: { scenarioId } });
  }

  /** A run with what a report draws: its snapshot's name and content. */
  findForReport(db: Db, tenantId: string, id: string) {
    return db.run.findFirst({
      where: { id, tenantId },
      select: {
        id: true,
        type: true,
        status: true,
        attempts: true,
        scenarioId: true,
        engineVersion: true,
        snapshot: { select: { name: true, content: true } },
      },
    });
  }

  /** Operator path (outside row-level security): which tenant owns a run. */
  async tenantOf(db: Db, id: string): Promise<string | null> {
    const row = await db.run.findUnique({ where: { id }, select: { tenantId: true } });
    return row?.tenantId ?? null;
  }

  // ─── Sweeps ───

  /** A sweep: a parent run that has children, with its result. */
  findSweep(db: Db, tenantId: string, id: string) {
    return db.run.findFirst({
      where: { id, tenantId, children: { some: {} } },
      include: { result: true },
    });
  }

  listChildren(db: Db, tenantId: string, parentId: string) {
    return db.run.findMany({ where: { parentId, tenantId }, orderBy: { createdAt: 'asc' } });
  }

  countUnfinishedChildren(db: Db, parentId: string) {
    return db.run.count({ where: { parentId, status: { in: OPEN } } });
  }

  /** The children with what the aggregation compares, oldest first. */
  childrenForAggregation(db: Db, parentId: string) {
    return db.run.findMany({
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
  }

  // ─── Execution (worker) ───

  /**
   * Claims an open run for one execution: status `running`, attempts + 1 (the claim token).
   * `phase` names what the execution starts with. null when the run is final.
   */
  async claim(db: Db, id: string, phase: string, options: { clearError?: boolean } = {}) {
    const rows = await db.run.updateManyAndReturn({
      where: { id, status: { in: OPEN } },
      data: {
        status: RunStatus.running,
        attempts: { increment: 1 },
        phase,
        ...(options.clearError ? { error: null } : {}),
      },
      select: { ...IDENTITY, attempts: true, cancelRequestedAt: true, startedAt: true },
    });
    return rows[0] ?? null;
  }

  async markStarted(db: Db, id: string, at: Date = new Date()): Promise<void> {
    await db.run.update({ where: { id }, data: { startedAt: at } });
  }

  /** A transient failure: back to queued for the retry, keeping the claim. */
  async requeueForRetry(db: Db, id: string, claim: number, error: string): Promise<void> {
    await db.run.updateMany({
      where: { id, status: RunStatus.running, attempts: claim },
      data: { status: RunStatus.queued, phase: 'retrying', error },
    });
  }

  findIdentity(db: Db, id: string) {
    return db.run.findUnique({ where: { id }, select: IDENTITY });
  }

  /** What the execution watches: cancellation requested, or its claim taken over. */
  findClaimState(db: Db, id: string) {
    return db.run.findUnique({
      where: { id },
      select: { status: true, attempts: true, cancelRequestedAt: true },
    });
  }

  engineInputs(db: Db, id: string) {
    return db.run.findUniqueOrThrow({ where: { id }, select: ENGINE_INPUTS });
  }

  /** The tenant's run as the engine replays it. */
  engineInputsOf(db: Db, tenantId: string, id: string) {
    return db.run.findFirstOrThrow({ where: { id, tenantId }, select: ENGINE_INPUTS });
  }

  /** Progress of the execution holding `claim` (a superseded one writes nothing). */
  async saveProgress(
    db: Db,
    id: string,
    claim: number,
    progress: { phase: string; percent: number; podsProcessed: number; podsTotal: number | null },
  ): Promise<void> {
    await db.run.updateMany({
      where: { id, status: RunStatus.running, attempts: claim },
      data: progress,
    });
  }

  /**
   * The final status flip: only from `running` under `claim` (or, claim null, from any open
   * status). False when the run was already final or taken over.
   */
  async finish(
    db: Db,
    id: string,
    claim: number | null,
    data: {
      status: 'succeeded' | 'failed' | 'cancelled';
      error: string | null;
      phase: string;
      percent?: number;
      engineVersion?: string;
      podsProcessed?: number;
      podsTotal?: number;
    },
  ): Promise<boolean> {
    const { count } = await db.run.updateMany({
      where: {
        id,
        status: { in: claim === null ? OPEN : [RunStatus.running] },
        ...(claim === null ? {} : { attempts: claim }),
      },
      data: { ...data, finishedAt: new Date() },
    });
    return count > 0;
  }

  /** Open runs, oldest first, with how many children each has (sweep parents have some). */
  listOpen(db: Db) {
    return db.run.findMany({
      where: { status: { in: OPEN } },
      select: { id: true, _count: { select: { children: true } } },
      orderBy: { createdAt: 'asc' },
    });
  }
}
