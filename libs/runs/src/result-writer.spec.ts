import Redis from 'ioredis';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient, packSnapshotItems } from '@schedlab/db';
import { redisOptionsFromUrl } from '@schedlab/queues';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { executeEngineJob } from './engine-task';
import { ClaimLostWhileWritingError, writeResultRows } from './result-writer';
import { RunExecutor } from './run-executor';
import { STORED_NODE_VERDICTS_MAX } from './stored-explanation';
import { syntheticCluster } from './synthetic-cluster';

/**
 * The batched write path against real PostgreSQL: rows tagged with the claim, written outside
 * any long transaction by the engine thread, visible as one result set; a lost attempt's rows
 * are removed and a stale execution cannot add any.
 */
describe('result rows written in batches per attempt (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  let redis: Redis;
  let tenantId: string;
  const settings = {
    runTimeoutMs: 60_000,
    maxAttempts: 3,
    publicApiUrl: 'https://schedlab.example',
    cancelPollMs: 100,
    get databaseUrl() {
      return db.url;
    },
  };

  async function newRun(nodes: number, pods: number, options: object = {}) {
    const items = syntheticCluster({ nodes, pods }).items;
    const { content, contentHash, sizeBytes } = packSnapshotItems(items);
    const snapshot = await prisma.snapshot.create({
      data: {
        tenantId,
        name: `${nodes}x${pods}`,
        counts: {},
        contentHash,
        sizeBytes,
        content: new Uint8Array(content),
      },
    });
    const run = await prisma.run.create({
      data: {
        tenantId,
        snapshotId: snapshot.id,
        type: 'simulate',
        profileName: 'default',
        profileVersion: 1,
        options,
      },
    });
    return { id: run.id, content: new Uint8Array(content) };
  }

  const rowsOf = async (runId: string) => ({
    placements: await prisma.placement.groupBy({ by: ['attempt'], where: { runId }, _count: true }),
    explanations: await prisma.podExplanation.groupBy({ by: ['attempt'], where: { runId }, _count: true }),
  });

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    redis = new Redis(redisOptionsFromUrl(process.env.REDIS_URL ?? 'redis://localhost:6379'));
    tenantId = (await createTenantWithAdminKey(prisma, uniqueName('writer'))).tenant.id;
  });

  afterAll(async () => {
    redis?.disconnect();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('stores one compact explanation and one placement per pod, all tagged with the finishing attempt', async () => {
    const run = await newRun(150, 2500);
    const started = Date.now();
    expect(await new RunExecutor(prisma, redis, settings).execute(run.id)).toMatchObject({
      status: 'succeeded',
    });
    const final = await prisma.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(final).toMatchObject({ status: 'succeeded', attempts: 1, podsProcessed: 2500, podsTotal: 2500 });
    // finishedAt comes after the rows were written, so durationMs includes the write.
    expect(final.finishedAt!.getTime()).toBeGreaterThanOrEqual(started);
    expect(await rowsOf(run.id)).toEqual({
      placements: [{ attempt: 1, _count: 2500 }],
      explanations: [{ attempt: 1, _count: 2500 }],
    });
    const stored = await prisma.podExplanation.findFirstOrThrow({
      where: { runId: run.id, name: 'pod-2499' },
    });
    const explanation = stored.explanation as Record<string, unknown>;
    expect(explanation).toMatchObject({ pod: 'default/pod-2499', outcome: 'scheduled' });
    expect(explanation.explanation).toMatchObject({ nodesFeasible: expect.any(Number) });
    expect((explanation.explanation as { topScores: unknown[] }).topScores.length).toBeLessThanOrEqual(11);
    // The per-node fields are empty at the compact level: not stored at all.
    for (const field of ['feasible', 'pluginScores', 'rawScores', 'filterReasons'])
      expect(explanation).not.toHaveProperty(field);
  });

  it('a run whose previous attempt died mid-write ends with exactly the new attempt’s rows', async () => {
    const run = await newRun(20, 300);
    // Attempt 1 claimed the run, wrote part of its rows and died (no final flip).
    await prisma.run.update({ where: { id: run.id }, data: { status: 'running', attempts: 1 } });
    const output = executeEngineJob(
      { runId: run.id, type: 'simulate', content: run.content, seed: 0, options: {} },
      () => undefined,
    );
    await writeResultRows(
      run.id,
      { placements: output.placements.slice(0, 120), explanations: output.explanations.slice(0, 40) },
      { databaseUrl: db.url, claim: 1 },
      () => undefined,
    );
    expect(await rowsOf(run.id)).toEqual({
      placements: [{ attempt: 1, _count: 120 }],
      explanations: [{ attempt: 1, _count: 40 }],
    });
    // The placements a reader would page through are none yet: the run is not succeeded.
    expect(await new RunExecutor(prisma, redis, settings).execute(run.id)).toMatchObject({
      status: 'succeeded',
    });
    expect(await rowsOf(run.id)).toEqual({
      placements: [{ attempt: 2, _count: 300 }],
      explanations: [{ attempt: 2, _count: 300 }],
    });
    // The dead attempt's process comes back to life: its batches insert nothing any more.
    await expect(
      writeResultRows(
        run.id,
        { placements: output.placements, explanations: output.explanations },
        { databaseUrl: db.url, claim: 1 },
        () => undefined,
      ),
    ).rejects.toBeInstanceOf(ClaimLostWhileWritingError);
    expect(await rowsOf(run.id)).toEqual({
      placements: [{ attempt: 2, _count: 300 }],
      explanations: [{ attempt: 2, _count: 300 }],
    });
  });

  it('a batch racing the final flip either commits before it (and is cleaned up) or inserts nothing', async () => {
    const run = await newRun(10, 50);
    await prisma.run.update({ where: { id: run.id }, data: { status: 'running', attempts: 2 } });
    const output = executeEngineJob(
      { runId: run.id, type: 'simulate', content: run.content, seed: 0, options: {} },
      () => undefined,
    );
    // A stale attempt (1) writes while attempt 2 finishes: whatever the interleaving, only 2's rows stay.
    const stale = writeResultRows(run.id, output, { databaseUrl: db.url, claim: 1 }, () => undefined).catch(
      (e) => e,
    );
    await writeResultRows(run.id, output, { databaseUrl: db.url, claim: 2 }, () => undefined);
    const finished = await new RunExecutor(prisma, redis, settings).finishIdle(run.id, 'failed', 'test');
    expect(finished).toBe(true);
    expect(await stale).toBeInstanceOf(ClaimLostWhileWritingError);
    // A run that did not succeed keeps no rows at all.
    expect(await rowsOf(run.id)).toEqual({ placements: [], explanations: [] });
  });

  it('keeps per-node filter verdicts of an unschedulable pod only on small clusters', async () => {
    const small = executeEngineJob(
      {
        runId: 'x',
        type: 'simulate',
        content: new Uint8Array(
          packSnapshotItems(syntheticCluster({ nodes: 5, pods: 1, podCpuMillis: 64_000 }).items).content,
        ),
        seed: 0,
        options: {},
      },
      () => undefined,
    );
    expect(Object.keys(small.explanations[0].explanation.filterReasons as object)).toHaveLength(5);
    const large = executeEngineJob(
      {
        runId: 'x',
        type: 'simulate',
        content: new Uint8Array(
          packSnapshotItems(
            syntheticCluster({ nodes: STORED_NODE_VERDICTS_MAX + 1, pods: 1, podCpuMillis: 64_000 }).items,
          ).content,
        ),
        seed: 0,
        options: {},
      },
      () => undefined,
    );
    const stored = large.explanations[0].explanation;
    expect(stored).not.toHaveProperty('filterReasons');
    expect(stored.nodeVerdictsOmitted).toBe(STORED_NODE_VERDICTS_MAX + 1);
    expect((stored.explanation as { filterFailures: { nodes: number }[] }).filterFailures[0].nodes).toBe(
      STORED_NODE_VERDICTS_MAX + 1,
    );
  });
});
