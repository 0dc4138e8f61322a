import { JobStatus } from './generated/prisma/client';
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

  it('writes and reads a tenant with a ping job, defaults applied by the database', async () => {
    const tenant = await prisma.tenant.create({ data: { name: 'acme' } });
    const job = await prisma.pingJob.create({ data: { tenantId: tenant.id, payload: { message: 'hi' } } });
    expect(job.status).toBe(JobStatus.QUEUED);
    expect(job.result).toBeNull();
    const again = await prisma.pingJob.findUniqueOrThrow({
      where: { id: job.id },
      include: { tenant: true },
    });
    expect(again.payload).toEqual({ message: 'hi' });
    expect(again.tenant.name).toBe('acme');
  });

  it('enforces unique tenant names', async () => {
    await expect(prisma.tenant.create({ data: { name: 'acme' } })).rejects.toMatchObject({ code: 'P2002' });
  });

  it('deletes a tenant together with its jobs', async () => {
    const tenant = await prisma.tenant.create({ data: { name: 'short-lived' } });
    await prisma.pingJob.create({ data: { tenantId: tenant.id, payload: { message: 'x' } } });
    await prisma.tenant.delete({ where: { id: tenant.id } });
    expect(await prisma.pingJob.count({ where: { tenantId: tenant.id } })).toBe(0);
  });
});
