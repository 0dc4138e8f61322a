import type { PrismaClient } from '@schedlab/db';

/** The transaction client Prisma hands to an interactive transaction. */
export type TenantTx = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

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
