import { createPrismaClient, type PrismaClient, withTenant } from '@schedlab/db';
import { createTestDatabase, type TestDatabase } from '@schedlab/testing';
import { findApiKeyBySecret, createTenantWithAdminKey, TenantNameTakenError } from './tenants';

describe('tenant scope and row-level security (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('creates a tenant with an admin key whose secret authenticates and is not stored', async () => {
    const created = await createTenantWithAdminKey(prisma, 'acme');
    expect(created.apiKey.secret).toMatch(/^sl_[A-Za-z0-9_-]{43}$/);
    expect(created.apiKey.secret.startsWith(created.apiKey.prefix)).toBe(true);
    const stored = await prisma.apiKey.findMany();
    expect(JSON.stringify(stored)).not.toContain(created.apiKey.secret);
    expect(await findApiKeyBySecret(prisma, created.apiKey.secret)).toMatchObject({
      tenantId: created.tenant.id,
      scopes: ['read', 'write', 'admin'],
    });
    expect(await findApiKeyBySecret(prisma, `${created.apiKey.secret.slice(0, -1)}x`)).toBeNull();
    await expect(createTenantWithAdminKey(prisma, 'acme')).rejects.toBeInstanceOf(TenantNameTakenError);
  });

  it('hides other tenants rows even from a query that does not filter by tenant', async () => {
    const a = await createTenantWithAdminKey(prisma, 'rls-a');
    const b = await createTenantWithAdminKey(prisma, 'rls-b');
    await prisma.scenario.create({ data: { tenantId: a.tenant.id, name: 'only-a', document: {} } });
    const seenByB = await withTenant(prisma, b.tenant.id, (tx) => tx.scenario.findMany());
    const seenByA = await withTenant(prisma, a.tenant.id, (tx) => tx.scenario.findMany());
    expect(seenByB).toEqual([]);
    expect(seenByA.map((s) => s.name)).toEqual(['only-a']);
    // Built-in profiles stay visible to everyone.
    const profiles = await withTenant(prisma, b.tenant.id, (tx) => tx.schedulerProfile.findMany());
    expect(profiles.map((p) => p.name).sort()).toEqual(['bin-packing', 'default', 'spread']);
  });

  it('refuses to write a row for another tenant inside a tenant transaction', async () => {
    const a = await createTenantWithAdminKey(prisma, 'rls-c');
    const b = await createTenantWithAdminKey(prisma, 'rls-d');
    await expect(
      withTenant(prisma, b.tenant.id, (tx) =>
        tx.scenario.create({ data: { tenantId: a.tenant.id, name: 'sneaky', document: {} } }),
      ),
    ).rejects.toThrow(/row-level security/);
    expect(await prisma.scenario.count({ where: { name: 'sneaky' } })).toBe(0);
  });
});
