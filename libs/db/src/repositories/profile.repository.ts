import { Injectable } from '@nestjs/common';
import type { Db } from '../database';
import type { Prisma } from '../generated/prisma/client';

/** Rows a tenant may use: its own, operator-shared ones and built-ins (tenant_id NULL). */
function visibleTo(tenantId: string): Prisma.SchedulerProfileWhereInput {
  return { OR: [{ tenantId }, { shared: true }, { tenantId: null }] };
}

/** scheduler_profiles: immutable versions of KubeSchedulerConfigurations (built-ins have no tenant). */
@Injectable()
export class ProfileRepository {
  /** Visible versions of `name` (one version if given), newest first. */
  findVisible(db: Db, tenantId: string, name: string, version?: number) {
    return db.schedulerProfile.findMany({
      where: { AND: [visibleTo(tenantId), { name }, version ? { version } : {}] },
      orderBy: { version: 'desc' },
    });
  }

  /** Every visible version, by name, newest version first. */
  listVisible(db: Db, tenantId: string) {
    return db.schedulerProfile.findMany({
      where: visibleTo(tenantId),
      orderBy: [{ name: 'asc' }, { version: 'desc' }],
    });
  }

  findBuiltIn(db: Db, name: string) {
    return db.schedulerProfile.findFirst({ where: { tenantId: null, name } });
  }

  findLatestOwn(db: Db, tenantId: string, name: string) {
    return db.schedulerProfile.findFirst({ where: { tenantId, name }, orderBy: { version: 'desc' } });
  }

  create(
    db: Db,
    data: { tenantId: string; name: string; version: number; config: unknown; description?: string },
  ) {
    return db.schedulerProfile.create({ data: { ...data, config: data.config as Prisma.InputJsonValue } });
  }

  findById(db: Db, id: string) {
    return db.schedulerProfile.findUnique({ where: { id } });
  }

  setShared(db: Db, id: string, shared: boolean) {
    return db.schedulerProfile.update({ where: { id }, data: { shared } });
  }
}
