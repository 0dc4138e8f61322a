import { Injectable } from '@nestjs/common';
import { afterCreatedAt, type CreatedAtCursor, type Db, NEWEST_FIRST } from '../database';

/** Every column but the content: listings and lookups never load the (large) dump. */
export const SNAPSHOT_SUMMARY = {
  id: true,
  tenantId: true,
  name: true,
  labels: true,
  contentHash: true,
  counts: true,
  warnings: true,
  sizeBytes: true,
  deletedAt: true,
  createdAt: true,
} as const;

export interface NewSnapshot {
  tenantId: string;
  name: string;
  labels: Record<string, string>;
  contentHash: string;
  counts: Record<string, number>;
  warnings: { kind: string; count: number; message: string }[];
  sizeBytes: number;
  content: Uint8Array<ArrayBuffer>;
}

/** snapshots: imported cluster dumps (content stored gzipped, soft-deleted by default). */
@Injectable()
export class SnapshotRepository {
  findByHash(db: Db, tenantId: string, contentHash: string) {
    return db.snapshot.findUnique({
      where: { tenantId_contentHash: { tenantId, contentHash } },
      select: SNAPSHOT_SUMMARY,
    });
  }

  /** The tenant's snapshot (live only unless includeDeleted), without its content. */
  find(db: Db, tenantId: string, id: string, options: { includeDeleted?: boolean } = {}) {
    return db.snapshot.findFirst({
      where: { id, tenantId, ...(options.includeDeleted ? {} : { deletedAt: null }) },
      select: SNAPSHOT_SUMMARY,
    });
  }

  findMany(db: Db, tenantId: string, ids: readonly string[]) {
    return db.snapshot.findMany({ where: { tenantId, id: { in: [...ids] } }, select: SNAPSHOT_SUMMARY });
  }

  /** Live snapshots, newest first, `take` rows after the cursor. */
  list(db: Db, tenantId: string, take: number, after?: CreatedAtCursor) {
    return db.snapshot.findMany({
      where: { tenantId, deletedAt: null, ...afterCreatedAt(after) },
      orderBy: NEWEST_FIRST,
      take,
      select: SNAPSHOT_SUMMARY,
    });
  }

  create(db: Db, data: NewSnapshot) {
    return db.snapshot.create({ data, select: SNAPSHOT_SUMMARY });
  }

  async restore(db: Db, id: string): Promise<void> {
    await db.snapshot.update({ where: { id }, data: { deletedAt: null } });
  }

  async softDelete(db: Db, id: string, at: Date = new Date()): Promise<void> {
    await db.snapshot.update({ where: { id }, data: { deletedAt: at } });
  }

  async delete(db: Db, id: string): Promise<void> {
    await db.snapshot.delete({ where: { id } });
  }

  /** Runs and scenarios that refer to the snapshot (a hard delete is refused while any do). */
  async uses(db: Db, id: string): Promise<{ runs: number; scenarios: number }> {
    const [runs, scenarios] = await Promise.all([
      db.run.count({ where: { snapshotId: id } }),
      db.scenario.count({ where: { snapshotId: id } }),
    ]);
    return { runs, scenarios };
  }
}
