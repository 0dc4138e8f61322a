import { Injectable } from '@nestjs/common';
import { generateApiKey } from '@schedlab/tenancy';
import { ApiKeyRepository } from '@schedlab/db';
import { ApiError } from '../common/api-error';
import { TenantData } from '../common/tenant-data';
import {
  type ApiKeyView,
  type CreateApiKeyInput,
  type CreatedApiKeyView,
  toApiKeyView,
} from './api-key.model';

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly data: TenantData,
    private readonly keys: ApiKeyRepository,
  ) {}

  async create(tenantId: string, input: CreateApiKeyInput): Promise<CreatedApiKeyView> {
    const key = generateApiKey();
    const row = await this.data.run(tenantId, (tx) =>
      this.keys.create(tx, {
        tenantId,
        name: input.name,
        prefix: key.prefix,
        hash: key.hash,
        scopes: input.scopes,
      }),
    );
    return { ...toApiKeyView(row), secret: key.secret };
  }

  async list(tenantId: string): Promise<ApiKeyView[]> {
    const rows = await this.data.run(tenantId, (tx) => this.keys.list(tx, tenantId));
    return rows.map(toApiKeyView);
  }

  /** Revoking is permanent and idempotent; the row stays so listings show when it happened. */
  async revoke(tenantId: string, id: string): Promise<ApiKeyView> {
    return this.data.run(tenantId, async (tx) => {
      const row = await this.keys.find(tx, tenantId, id);
      if (!row) throw ApiError.notFound('API key', id);
      if (row.revokedAt) return toApiKeyView(row);
      if (row.scopes.includes('admin')) {
        // Counted with the tenant's keys locked: two concurrent revocations cannot both see "another admin left".
        const otherAdmins = await this.keys.countOtherLiveAdmins(tx, tenantId, id);
        if (otherAdmins === 0) {
          throw ApiError.conflict(
            'last_admin_key',
            `API key ${id} is the tenant's last admin key; create another admin key before revoking it`,
            { id },
          );
        }
      }
      return toApiKeyView(await this.keys.revoke(tx, id));
    });
  }
}
