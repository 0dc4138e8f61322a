import { Injectable } from '@nestjs/common';
import type { Db } from '../database';

/** tenants (operator paths only: tenant-scoped code never lists or creates tenants). */
@Injectable()
export class TenantRepository {
  create(db: Db, name: string) {
    return db.tenant.create({ data: { name } });
  }
}
