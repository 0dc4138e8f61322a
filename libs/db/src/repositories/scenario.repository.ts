import { Injectable } from '@nestjs/common';
import { afterCreatedAt, type CreatedAtCursor, type Db, NEWEST_FIRST } from '../database';
import type { Prisma } from '../generated/prisma/client';

/** scenarios: named what-if documents, optionally tied to a snapshot. */
@Injectable()
export class ScenarioRepository {
  find(db: Db, tenantId: string, id: string) {
    return db.scenario.findFirst({ where: { id, tenantId } });
  }

  findMany(db: Db, tenantId: string, ids: readonly string[]) {
    return db.scenario.findMany({ where: { tenantId, id: { in: [...ids] } } });
  }

  list(db: Db, tenantId: string, take: number, after?: CreatedAtCursor) {
    return db.scenario.findMany({
      where: { tenantId, ...afterCreatedAt(after) },
      orderBy: NEWEST_FIRST,
      take,
    });
  }

  create(db: Db, data: { tenantId: string; name: string; snapshotId: string | null; document: unknown }) {
    return db.scenario.create({ data: { ...data, document: data.document as Prisma.InputJsonValue } });
  }

  async delete(db: Db, id: string): Promise<void> {
    await db.scenario.delete({ where: { id } });
  }
}
