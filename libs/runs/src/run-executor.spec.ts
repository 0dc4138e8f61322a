import Redis from 'ioredis';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient, packSnapshotItems } from '@schedlab/db';
import { redisOptionsFromUrl, runProgressChannel } from '@schedlab/queues';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { RELEASE_MEMORY_AFTER_PODS } from './release-memory';
import { RunExecutor } from './run-executor';
import { ProgressReporter } from './run-progress';
import { syntheticCluster } from './synthetic-cluster';

/** RunExecutor against real PostgreSQL and Redis (the engine on real worker threads). */
describe('RunExecutor (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  let redis: Redis;
  let tenantId: string;
  const snapshots = new Map<string, string>();
  const settings = {
    runTimeoutMs: 60_000,
    maxAttempts: 3,
    publicApiUrl: 'https://schedlab.example',
    cancelPollMs: 100,
    get databaseUrl() {
      return db.url;
    },
  };

  async function snapshotOf(nodes: number, pods: number) {
    const key = `${nodes}x${pods}`;
    if (!snapshots.has(key)) {
      const { content, contentHash, sizeBytes } = packSnapshotItems(syntheticCluster({ nodes, pods }).items);
      const row = await prisma.snapshot.create({
        data: { tenantId, name: key, counts: {}, contentHash, sizeBytes, content: new Uint8Array(content) },
      });
      snapshots.set(key, row.id);
    }
    return snapshots.get(key)!;
  }

  async function newRun(size: [number, number], extra: { type?: string; options?: object } = {}) {
    const run = await prisma.run.create({
      data: {
        tenantId,
        snapshotId: await snapshotOf(...size),
        type: extra.type ?? 'simulate',
        profileName: 'default',
        profileVersion: 1,
        options: { explain: 'summary', ...extra.options },
      },
    });
    return run.id;
  }

  const row = (id: string) => prisma.run.findUniqueOrThrow({ where: { id } });

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    redis = new Redis(redisOptionsFromUrl(process.env.REDIS_URL ?? 'redis://localhost:6379'));
    tenantId = (await createTenantWithAdminKey(prisma, uniqueName('exec'))).tenant.id;
  });

  afterAll(async () => {
    redis?.disconnect();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('succeeds once, publishing progress; a duplicate execution afterwards changes nothing', async () => {
    const id = await newRun([5, 30]);
    // Connected before it subscribes: ioredis's ready check (INFO) fails on a subscribed connection.
    const subscriber = new Redis({
      ...redisOptionsFromUrl(process.env.REDIS_URL ?? 'redis://localhost:6379'),
      lazyConnect: true,
    });
    await subscriber.connect();
    const messages: { status: string; percent: number; phase?: string }[] = [];
    await subscriber.subscribe(runProgressChannel(id));
    subscriber.on('message', (_channel, text: string) => messages.push(JSON.parse(text)));
    try {
      const executor = new RunExecutor(prisma, redis, settings);
      expect(await executor.execute(id)).toMatchObject({ kind: 'finished', status: 'succeeded' });
      expect(await executor.execute(id)).toEqual({ kind: 'skipped' });
      expect(await row(id)).toMatchObject({
        status: 'succeeded',
        attempts: 1,
        percent: 100,
        podsProcessed: 30,
      });
      expect(await prisma.placement.count({ where: { runId: id } })).toBe(30);
      expect(await prisma.runResult.count({ where: { runId: id } })).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 100)); // let the last published message arrive
      expect(messages.at(-1)).toMatchObject({ status: 'succeeded', percent: 100 });
      expect(messages.some((m) => m.status === 'running')).toBe(true);
      // Every phase shows, each once where it starts, however short: writing 60 rows takes a few ms.
      const phases = messages.filter((m) => m.status === 'running').map((m) => m.phase);
      expect(phases.filter((phase, i) => phase !== phases[i - 1])).toEqual([
        'starting',
        'loading',
        'workloads',
        'scheduling',
        'writing',
      ]);
    } finally {
      subscriber.disconnect();
    }
  });

  it('releases memory after a run of many pods, not after a small one', async () => {
    const release = jest.fn();
    const executor = new RunExecutor(prisma, redis, settings, release);
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    await executor.execute(await newRun([5, 30]));
    await settled();
    expect(release).not.toHaveBeenCalled();
    await executor.execute(await newRun([20, RELEASE_MEMORY_AFTER_PODS]));
    await settled();
    expect(release).toHaveBeenCalledTimes(1);
  });

  it("persists the start of each phase at once, however soon after the last write, under the execution's claim", async () => {
    const id = await newRun([5, 30]);
    await prisma.run.update({ where: { id }, data: { status: 'running', attempts: 1 } });
    const reporter = new ProgressReporter(prisma, redis, id, 1);
    reporter.report({ phase: 'scheduling', podsProcessed: 1, podsTotal: 30 });
    reporter.report({ phase: 'scheduling', podsProcessed: 2, podsTotal: 30 });
    await reporter.flush();
    expect(await row(id)).toMatchObject({ phase: 'scheduling', podsProcessed: 1 });
    reporter.report({ phase: 'writing', podsProcessed: 0, podsTotal: 60 });
    await reporter.flush();
    expect(await row(id)).toMatchObject({ phase: 'writing', podsProcessed: 0, podsTotal: 60 });
    // A superseded execution's reports change nothing.
    const stale = new ProgressReporter(prisma, redis, id, 0);
    stale.report({ phase: 'loading', podsProcessed: 0, podsTotal: 0 });
    await stale.flush();
    expect(await row(id)).toMatchObject({ phase: 'writing' });
  });

  it('stops a running run soon after cancellation is requested, terminating the engine thread', async () => {
    const id = await newRun([200, 20_000]);
    const executor = new RunExecutor(prisma, redis, settings);
    const execution = executor.execute(id);
    // Ask for cancellation once the engine is visibly scheduling.
    for (;;) {
      const current = await row(id);
      if (current.podsProcessed > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await prisma.run.update({ where: { id }, data: { cancelRequestedAt: new Date() } });
    expect(await execution).toMatchObject({ kind: 'finished', status: 'cancelled' });
    const final = await row(id);
    expect(final).toMatchObject({ status: 'cancelled', error: 'cancelled on request' });
    expect(final.podsProcessed).toBeLessThan(20_000);
    expect(await prisma.runResult.count({ where: { runId: id } })).toBe(0);
  });

  it('fails a run with bad input once, with the engine error, instead of retrying', async () => {
    const id = await newRun([2, 2], { type: 'capacity' }); // no podTemplate
    const executor = new RunExecutor(prisma, redis, settings);
    expect(await executor.execute(id)).toMatchObject({ kind: 'finished', status: 'failed' });
    expect(await row(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      error: 'RunInputError: options.podTemplate: required for a capacity run',
    });
  });

  it('fails a run that outlives its timeout', async () => {
    const id = await newRun([200, 20_000]);
    const executor = new RunExecutor(prisma, redis, { ...settings, runTimeoutMs: 1500 });
    expect(await executor.execute(id)).toMatchObject({ kind: 'finished', status: 'failed' });
    expect((await row(id)).error).toBe('timed out after 1500 ms');
  });

  it('gives up on a run whose executions keep dying, after the attempt limit', async () => {
    const id = await newRun([2, 2]);
    await prisma.run.update({
      where: { id },
      data: { status: 'running', attempts: settings.maxAttempts },
    });
    const executor = new RunExecutor(prisma, redis, settings);
    expect(await executor.execute(id)).toMatchObject({ kind: 'finished', status: 'failed' });
    expect((await row(id)).error).toMatch(/gave up after 3 attempts/);
  });

  it('records the run event as a webhook delivery in the same transaction as the result', async () => {
    const endpoint = await prisma.webhookEndpoint.create({
      data: {
        tenantId,
        url: 'http://127.0.0.1:9/',
        eventTypes: ['simulation.succeeded'],
        secret: 'whsec_dGVzdA==',
      },
    });
    const id = await newRun([3, 5]);
    await new RunExecutor(prisma, redis, settings).execute(id);
    const deliveries = await prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      eventType: 'simulation.succeeded',
      status: 'pending',
      payload: {
        type: 'simulation.succeeded',
        data: {
          runId: id,
          status: 'succeeded',
          links: { self: `https://schedlab.example/v1/runs/${id}` },
        },
      },
    });
    expect(deliveries[0]!.id).toMatch(/^msg_/);
  });
});
