import { Prisma, type PrismaClient } from './generated/prisma/client';

/**
 * What repositories query through: the root client or a transaction. Services hold one of these
 * as an opaque handle (from `withTenant` or `inTransaction`) and pass it to repositories; they
 * never call a Prisma delegate themselves (repository-boundary.spec.ts and the lint rule check).
 */
export type Db = Prisma.TransactionClient;

/** The transaction client Prisma hands to an interactive transaction. */
export type TenantTx = Db;

/**
 * Runs `work` in one transaction confined to a tenant twice over: every repository query names
 * the tenant, and the transaction switches to the non-owner role `schedlab_app` with
 * `app.tenant_id` set, so PostgreSQL's row-level-security policies (see the service_api
 * migration) hide every other tenant's rows even from a query that forgot to filter.
 * One write request = one call = one transaction.
 */
export async function withTenant<T>(
  prisma: PrismaClient,
  tenantId: string,
  work: (tx: TenantTx) => Promise<T>,
  options: { timeoutMs?: number } = {},
): Promise<T> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT set_config('app.tenant_id', ${tenantId}, true)`;
      await tx.$executeRawUnsafe('SET LOCAL ROLE schedlab_app');
      return work(tx);
    },
    { timeout: options.timeoutMs ?? 60_000, maxWait: 10_000 },
  );
}

/** One transaction as the schema owner (operator and worker paths: no tenant scoping). */
export async function inTransaction<T>(
  prisma: PrismaClient,
  work: (tx: Db) => Promise<T>,
  options: { timeoutMs?: number; maxWaitMs?: number } = {},
): Promise<T> {
  return prisma.$transaction(work, {
    timeout: options.timeoutMs ?? 60_000,
    maxWait: options.maxWaitMs ?? 10_000,
  });
}

/** A unique constraint refused the write (e.g. the same content imported concurrently). */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/** Newest-first lists are ordered by (createdAt desc, id desc); a page starts after this row. */
export interface CreatedAtCursor {
  createdAt: Date;
  id: string;
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

export function afterCreatedAt(cursor: CreatedAtCursor | undefined) {
  if (!cursor) return {};
  const { createdAt, id } = cursor;
  return { OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: id } }] };
}
