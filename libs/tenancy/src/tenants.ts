import {
  ApiKeyRepository,
  inTransaction,
  isUniqueViolation,
  type PrismaClient,
  TenantRepository,
} from '@schedlab/db';
import { type ApiKeyScope, generateApiKey, hashApiKey } from './api-keys';

const tenants = new TenantRepository();
const apiKeys = new ApiKeyRepository();

export class TenantNameTakenError extends Error {
  constructor(readonly tenantName: string) {
    super(`Tenant "${tenantName}" already exists`);
    this.name = 'TenantNameTakenError';
  }
}

export interface CreatedTenant {
  tenant: { id: string; name: string; createdAt: Date };
  apiKey: { id: string; name: string; prefix: string; scopes: string[]; secret: string };
}

/**
 * Operator path (bypasses tenant scoping): creates a tenant and its first admin key in one
 * transaction. The key's secret is returned once and never stored.
 */
export async function createTenantWithAdminKey(prisma: PrismaClient, name: string): Promise<CreatedTenant> {
  const key = generateApiKey();
  const scopes: ApiKeyScope[] = ['read', 'write', 'admin'];
  try {
    return await inTransaction(prisma, async (tx) => {
      const tenant = await tenants.create(tx, name);
      const row = await apiKeys.create(tx, {
        tenantId: tenant.id,
        name: 'initial admin key',
        prefix: key.prefix,
        hash: key.hash,
        scopes,
      });
      return {
        tenant: { id: tenant.id, name: tenant.name, createdAt: tenant.createdAt },
        apiKey: { id: row.id, name: row.name, prefix: row.prefix, scopes: row.scopes, secret: key.secret },
      };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new TenantNameTakenError(name);
    }
    throw error;
  }
}

export interface AuthenticatedKey {
  id: string;
  tenantId: string;
  scopes: string[];
  revokedAt: Date | null;
}

/**
 * Operator path used by authentication, before any tenant is known: the key row by the hash of
 * the presented secret. `lastUsedAt` is bumped at most once a minute to spare write traffic.
 */
export async function findApiKeyBySecret(
  prisma: PrismaClient,
  secret: string,
): Promise<AuthenticatedKey | null> {
  const row = await apiKeys.findByHash(prisma, hashApiKey(secret));
  if (!row) return null;
  if (!row.revokedAt && (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000)) {
    await apiKeys.touch(prisma, row.id);
  }
  return { id: row.id, tenantId: row.tenantId, scopes: row.scopes, revokedAt: row.revokedAt };
}
