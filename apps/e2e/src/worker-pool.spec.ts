import { createPrismaClient } from '@schedlab/db';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import {
  addSnapshot,
  deleteQueueKeys,
  eventually,
  finishedBy,
  runsInStatus,
  seedTenantWithSnapshot,
  runsQueue,
  submitRun,
  workerEnv,
} from './run-fixtures';
import { type ServiceProcess, startService } from './service-process';

/**
 * Runs finish, once, whatever happens to a worker or to Redis: real PostgreSQL, real Redis and
 * real worker processes (apps/worker/src/main.ts, as `npm run up` starts them).
 */
describe('simulation worker pool (real PostgreSQL, Redis and worker processes)', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  const workers: ServiceProcess[] = [];

  async function startWorkers(count: number, prefix: string) {
    const started: ServiceProcess[] = [];
    for (let i = 0; i < count; i++)
      started.push((await startService('worker', workerEnv(db.url, prefix))).service);
    workers.push(...started);
    return started;
  }

  async function stopAll() {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }

  async function expectOneResultSet(runId: string, pods: number) {
    expect(await prisma.runResult.count({ where: { runId } })).toBe(1);
    // Every row is the finishing attempt's: a killed attempt's rows are gone.
    const { attempts } = await prisma.run.findUniqueOrThrow({ where: { id: runId } });
    expect(await prisma.placement.count({ where: { runId } })).toBe(pods);
    expect(await prisma.placement.count({ where: { runId, attempt: attempts } })).toBe(pods);
    expect(await prisma.podExplanation.count({ where: { runId, attempt: { not: attempts } } })).toBe(0);
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
  });

  afterEach(stopAll);

  afterAll(async () => {
    await stopAll();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('completes a run on another worker after the one running it is SIGKILLed, with one result set', async () => {
    const prefix = uniqueName('pool');
    const queue = runsQueue(prefix);
    try {
      // Long enough (several seconds) that it is still scheduling once the second worker is up.
      const size = { nodes: 400, pods: 8000 };
      const owner = await seedTenantWithSnapshot(prisma, size);
      const [first] = await startWorkers(1, prefix);
      const runId = await submitRun(prisma, queue, owner);
      // Kill it as soon as it has claimed the run: waiting for progress reports (throttled to one a
      // second) or for a second worker to start could let a fast machine finish the run first.
      await eventually(async () => {
        const run = await prisma.run.findUniqueOrThrow({ where: { id: runId } });
        return run.status === 'running' ? run : undefined;
      });
      first!.child.kill('SIGKILL');
      const [second] = await startWorkers(1, prefix);

      const run = await eventually(async () => {
        const row = await prisma.run.findUniqueOrThrow({ where: { id: runId } });
        return ['succeeded', 'failed', 'cancelled'].includes(row.status) ? row : undefined;
      });
      expect(run).toMatchObject({ status: 'succeeded', error: null, percent: 100 });
      expect(run.attempts).toBeGreaterThanOrEqual(2); // the killed execution counted too
      await expectOneResultSet(runId, size.pods);
      expect(finishedBy(second!.output()).get(runId)).toBe(second!.child.pid);
    } finally {
      await queue.close();
    }
  }, 240_000); // two executions of a deliberately long run on a possibly busy CI machine

  it('restores queued and running runs after the Redis keys are lost, and completes each once', async () => {
    const prefix = uniqueName('flush');
    const queue = runsQueue(prefix);
    try {
      // Long enough (seconds) to be running when the keys go, with the small runs queued behind it.
      const owner = await seedTenantWithSnapshot(prisma, { nodes: 400, pods: 8000 });
      const small = await addSnapshot(prisma, owner.tenantId, { nodes: 5, pods: 20 });
      await startWorkers(1, prefix);
      const long = await submitRun(prisma, queue, owner);
      const queued = [
        await submitRun(prisma, queue, { tenantId: owner.tenantId, snapshotId: small }, 1),
        await submitRun(prisma, queue, { tenantId: owner.tenantId, snapshotId: small }, 2),
      ];
      await eventually(async () => {
        const run = await prisma.run.findUniqueOrThrow({ where: { id: long } });
        return run.status === 'running' ? run : undefined;
      });
      expect(await runsInStatus(prisma, queued, 'queued')).toBe(2);
      expect(await deleteQueueKeys(prefix)).toBeGreaterThan(0);

      const all = [long, ...queued];
      await eventually(async () => ((await runsInStatus(prisma, all, 'succeeded')) === 3 ? true : undefined));
      await expectOneResultSet(long, 8000);
      for (const id of queued) await expectOneResultSet(id, 20);
    } finally {
      await queue.close();
    }
  }, 180_000);

  it.each([2, 3])(
    'shares a burst of runs among %i worker processes; every run completes once',
    async (count) => {
      const prefix = uniqueName(`burst${count}`);
      const queue = runsQueue(prefix);
      try {
        // Big enough that runs overlap, so every process is busy while the burst lasts.
        const owner = await seedTenantWithSnapshot(prisma, { nodes: 30, pods: 400 });
        const pool = await startWorkers(count, prefix);
        const ids: string[] = [];
        for (let i = 0; i < 6 * count; i++) ids.push(await submitRun(prisma, queue, owner, i));
        await eventually(async () =>
          (await runsInStatus(prisma, ids, 'succeeded')) === ids.length ? true : undefined,
        );
        for (const id of ids) await expectOneResultSet(id, 400);
        const finishers = new Map<string, number>();
        for (const worker of pool)
          for (const [runId, pid] of finishedBy(worker.output())) finishers.set(runId, pid);
        expect([...finishers.keys()].sort()).toEqual([...ids].sort());
        expect(new Set(finishers.values()).size).toBeGreaterThan(1); // more than one process did work
      } finally {
        await queue.close();
      }
    },
    180_000,
  );
});
