import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { parse as parseYaml } from 'yaml';
import { runAnalysis } from '@schedlab/analysis';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient, packSnapshotItems } from '@schedlab/db';
import { redisOptionsFromUrl } from '@schedlab/queues';
import { type KubeObject, parseKubernetesObjects, type Pod } from '@schedlab/k8s';
import {
  capacity,
  compare,
  type EngineOptions,
  type NodeTemplate,
  nodesNeeded,
  type Scenario,
} from '@schedlab/scenarios';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { RunExecutor } from './run-executor';

const examples = join(__dirname, '../../../examples');
const readExample = (file: string) => readFileSync(join(examples, file), 'utf8');

/** What the API receives as JSON options: the example files' documents, as a client would send them. */
const webPod = parseYaml(readExample('templates/web-pod.yaml')) as Pod;
const nodeTemplates = (
  parseYaml(readExample('templates/node-templates.yaml')) as { templates: NodeTemplate[] }
).templates;
const drainZone = parseYaml(readExample('scenarios/drain-zone.yaml')) as Scenario;
const binPacking = parseYaml(readExample('profiles/bin-packing.yaml')) as unknown;

/** A seed other than the default, so a run that ignored its seed would be caught where ties decide. */
const SEED = 7;

/**
 * A result as comparable after a JSON column: undefined fields dropped, and floats to 12
 * significant digits, because Prisma (client engine + adapter-pg) writes JSON numbers with the
 * last bit lost (0.39344262295081966 comes back as 0.3934426229508197).
 */
const comparable = (value: unknown) =>
  JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
    typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v,
  ) as unknown;

/**
 * Every analysis run type end to end through RunExecutor (real PostgreSQL, Redis and engine
 * threads): the stored RunResult.analysis is what the @schedlab/scenarios function gives for the
 * same snapshot, options and seed.
 */
describe('analysis runs store the library result (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  let redis: Redis;
  let tenantId: string;
  let snapshotId: string;
  let items: KubeObject[];
  const settings = {
    runTimeoutMs: 120_000,
    maxAttempts: 3,
    publicApiUrl: 'https://schedlab.example',
    cancelPollMs: 100,
    get databaseUrl() {
      return db.url;
    },
  };
  const engine: EngineOptions = { seed: SEED };

  /** Executes one run of `type` on cluster-small.yaml and returns its single stored result. */
  async function executeRun(type: string, options: Record<string, unknown>, scenario?: Scenario) {
    const scenarioRow = scenario
      ? await prisma.scenario.create({
          data: { tenantId, snapshotId, name: scenario.name ?? type, document: scenario as object },
        })
      : undefined;
    const run = await prisma.run.create({
      data: {
        tenantId,
        snapshotId,
        scenarioId: scenarioRow?.id ?? null,
        type,
        profileName: 'default',
        profileVersion: 1,
        seed: SEED,
        options: options as object,
      },
    });
    expect(await new RunExecutor(prisma, redis, settings).execute(run.id)).toMatchObject({
      kind: 'finished',
      status: 'succeeded',
    });
    expect(await prisma.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: 'succeeded',
      error: null,
      attempts: 1,
    });
    expect(await prisma.runResult.count({ where: { runId: run.id } })).toBe(1);
    // Analyses report no per-pod placements; the typed result is the analysis column.
    expect(await prisma.placement.count({ where: { runId: run.id } })).toBe(0);
    return prisma.runResult.findUniqueOrThrow({ where: { runId: run.id } });
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    redis = new Redis(redisOptionsFromUrl(process.env.REDIS_URL ?? 'redis://localhost:6379'));
    tenantId = (await createTenantWithAdminKey(prisma, uniqueName('analyses'))).tenant.id;
    // Stored as the API's snapshot import stores it: parsed objects, packed.
    items = parseKubernetesObjects(readExample('cluster-small.yaml'), {
      source: 'cluster-small.yaml',
    }).objects;
    const { content, contentHash, sizeBytes } = packSnapshotItems(items);
    snapshotId = (
      await prisma.snapshot.create({
        data: {
          tenantId,
          name: 'cluster-small',
          counts: {},
          contentHash,
          sizeBytes,
          content: new Uint8Array(content),
        },
      })
    ).id;
  });

  afterAll(async () => {
    redis?.disconnect();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('timeline: the 09:00 burst example stores the library result and a summary with the percentiles', async () => {
    const timeline = parseYaml(readExample('timeline/burst-0900.yaml')) as Record<string, unknown>;
    const result = await executeRun('timeline', { timeline });
    const expected = runAnalysis('timeline', items, engine, { timeline }).result;
    expect(expected.summary.pods).toBeGreaterThan(300);
    expect(comparable(result.analysis)).toEqual(comparable(expected));
    expect(result.summary).toMatchObject({
      pods: expected.summary.pods,
      timeToSchedule: { p90: expected.summary.timeToSchedule.p90 },
      preemptions: expected.preemptions.length,
      endSeconds: 10_800,
    });
  });

  it('capacity: 7 web pods fit (node-a2 3, node-b1 2, node-c1 2), as the library and the CLI docs say', async () => {
    const result = await executeRun('capacity', { podTemplate: webPod, maxReplicas: 50 });
    const expected = capacity(items, { podTemplate: webPod, maxReplicas: 50 }, engine);
    expect(expected).toMatchObject({ replicas: 7, perNode: { 'node-a2': 3, 'node-b1': 2, 'node-c1': 2 } });
    expect(comparable(result.analysis)).toEqual(comparable(expected));
    expect(result.summary).toEqual({ replicas: 7, stopReason: expected.stopReason });
    expect(expected.stopReason).toMatch(/^0\/9 nodes are available: .*Insufficient cpu/);
  });

  it('nodes-needed: one m5-xlarge and one g4dn-2xlarge for 0.944 per hour', async () => {
    const result = await executeRun('nodes-needed', { templates: nodeTemplates });
    const expected = nodesNeeded(items, nodeTemplates, engine, {});
    expect(expected.add).toEqual({ 'm5-xlarge': 1, 'g4dn-2xlarge': 1 });
    expect(expected.hourlyCost).toBeCloseTo(0.944, 6);
    expect(expected.scheduled).toEqual(['ml/trainer-run-42', 'shop/cache-3']);
    expect(Object.keys(expected.unhostable)).toEqual(['db/postgres-1']);
    expect(comparable(result.analysis)).toEqual(comparable(expected));
    expect(result.summary).toEqual({
      add: expected.add,
      hourlyCost: expected.hourlyCost,
      scheduled: 2,
      limited: false,
    });
  });

  it("resilience by zone: every zone critical, with the library's per-zone figures", async () => {
    const result = await executeRun('resilience', { by: 'zone' });
    // As the CLI: zones are lost from the cluster once the scheduler placed its pending pods.
    const expected = runAnalysis('resilience', items, engine, { by: 'zone' }).result.result;
    expect(expected.domains.map((d) => d.domain).sort()).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
    // Every zone's loss strands a pod in this small cluster.
    expect(expected.critical).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
    expect(expected.domains.map((d) => d.allRescheduled)).toEqual([false, false, false]);
    expect(comparable(result.analysis)).toEqual(comparable(expected));
    expect(result.summary).toEqual({ by: 'zone', critical: expected.critical });
  });

  it('compare with a scenario: draining zone eu-west-1b moves its web replica to an added node', async () => {
    const result = await executeRun('compare', {}, drainZone);
    const expected = compare(items, { scenario: drainZone, after: {} }, engine);
    // The drained web replica lands on a node the scenario added in eu-west-1c.
    expect(expected.moved).toEqual([
      { pod: 'shop/web-7d9f8b6c5-m2hvd', from: 'node-b1', to: 'node-c-extra-1' },
    ]);
    expect(comparable(result.analysis)).toEqual(comparable(expected));
    expect(result.summary).toMatchObject({
      moved: expected.moved.length,
      newlyScheduled: expected.newlyScheduled.length,
    });
  });

  it('compare with an "after" profile: default vs bin packing, as the API stores a resolved afterProfile', async () => {
    const after = { schedulerConfiguration: binPacking };
    const result = await executeRun('compare', { afterProfile: 'bin-packing@1', after });
    const expected = compare(items, { after: after as EngineOptions }, engine);
    expect(expected.moved).toEqual([{ pod: 'monitoring/metrics-exporter', from: 'node-b1', to: 'node-a1' }]);
    expect(comparable(result.analysis)).toEqual(comparable(expected));
    expect(result.summary).toMatchObject({ moved: 1 });
  });
});
