import { RunStatus } from './generated/prisma/client';
import { createPrismaClient } from './prisma.service';
import { createTestDatabase, type TestDatabase } from '@schedlab/testing';

describe('Prisma client through adapter-pg (real PostgreSQL)', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('writes and reads a tenant with a scenario, defaults applied by the database', async () => {
    const tenant = await prisma.tenant.create({ data: { name: 'acme' } });
    const scenario = await prisma.scenario.create({
      data: { tenantId: tenant.id, name: 's', document: { steps: [] } },
    });
    expect(scenario.snapshotId).toBeNull();
    expect(scenario.createdAt).toBeInstanceOf(Date);
    const again = await prisma.scenario.findUniqueOrThrow({
      where: { id: scenario.id },
      include: { tenant: true },
    });
    expect(again.document).toEqual({ steps: [] });
    expect(again.tenant.name).toBe('acme');
    expect(RunStatus.queued).toBe('queued');
  });

  it('enforces unique tenant names', async () => {
    await expect(prisma.tenant.create({ data: { name: 'acme' } })).rejects.toMatchObject({ code: 'P2002' });
  });

  it('deletes a tenant together with its rows', async () => {
    const tenant = await prisma.tenant.create({ data: { name: 'short-lived' } });
    await prisma.scenario.create({ data: { tenantId: tenant.id, name: 'x', document: {} } });
    await prisma.tenant.delete({ where: { id: tenant.id } });
    expect(await prisma.scenario.count({ where: { tenantId: tenant.id } })).toBe(0);
  });
});
