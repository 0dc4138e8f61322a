import { Injectable } from '@nestjs/common';
import type { Db } from '../database';

/** api_keys: a tenant's keys, stored as sha256 of the secret. */
@Injectable()
export class ApiKeyRepository {
  create(db: Db, data: { tenantId: string; name: string; prefix: string; hash: string; scopes: string[] }) {
    return db.apiKey.create({ data });
  }

  list(db: Db, tenantId: string) {
    return db.apiKey.findMany({ where: { tenantId }, orderBy: { createdAt: 'asc' } });
  }

  find(db: Db, tenantId: string, id: string) {
    return db.apiKey.findFirst({ where: { id, tenantId } });
  }

  revoke(db: Db, id: string, at: Date = new Date()) {
    return db.apiKey.update({ where: { id }, data: { revokedAt: at } });
  }

  /**
   * Live admin keys of the tenant other than `id`, counted with the tenant's keys locked, so two
   * concurrent revocations cannot both see "another admin left".
   */
  async countOtherLiveAdmins(db: Db, tenantId: string, id: string): Promise<number> {
    await db.$queryRaw`SELECT id FROM api_keys WHERE tenant_id = ${tenantId}::uuid FOR UPDATE`;
    return db.apiKey.count({
      where: { tenantId, revokedAt: null, scopes: { has: 'admin' }, id: { not: id } },
    });
  }

  /** Operator path used by authentication, before any tenant is known: the key by its hash. */
  findByHash(db: Db, hash: string) {
    return db.apiKey.findUnique({
      where: { hash },
      select: { id: true, tenantId: true, scopes: true, revokedAt: true, lastUsedAt: true },
    });
  }

  async touch(db: Db, id: string, at: Date = new Date()): Promise<void> {
    await db.apiKey.update({ where: { id }, data: { lastUsedAt: at } });
  }
}
