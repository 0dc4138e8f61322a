/**
 * The storage what-ifs as service runs (real PostgreSQL, Redis and engine threads): a simulate run
 * with a scenario stores the storage timeline and data-loss report in RunResult.analysis.storage
 * (what the API's run result and GraphQL `result { analysis }` return), equal to the pipeline's
 * report for the same snapshot, scenario and seed (docs/storage-what-ifs.md).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { parse as parseYaml } from 'yaml';
import { runAnalysis } from '@schedlab/analysis';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient, packSnapshotItems } from '@schedlab/db';
import { redisOptionsFromUrl } from '@schedlab/queues';
import { type KubeObject, parseKubernetesObjects } from '@schedlab/k8s';
import { storageReport, type Scenario, type StorageReport } from '@schedlab/scenarios';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { RunExecutor } from './run-executor';

const examples = join(__dirname, '../../../examples');
const readExample = (file: string) => readFileSync(join(examples, file), 'utf8');

describe('storage scenario runs store the storage report (real PostgreSQL and Redis)', () => {
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

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    redis = new Redis(redisOptionsFromUrl(process.env.REDIS_URL ?? 'redis://localhost:6379'));
    tenantId = (await createTenantWithAdminKey(prisma, uniqueName('storage'))).tenant.id;
    items = parseKubernetesObjects(readExample('storage-lifecycle.yaml'), {
      source: 'storage-lifecycle.yaml',
    }).objects;
    const { content, contentHash, sizeBytes } = packSnapshotItems(items);
    snapshotId = (
      await prisma.snapshot.create({
        data: {
          tenantId,
          name: 'storage-lifecycle',
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

  async function storedReport(scenario: Scenario): Promise<StorageReport> {
    const row = await prisma.scenario.create({
      data: { tenantId, snapshotId, name: scenario.name ?? 'storage', document: scenario as object },
    });
    const run = await prisma.run.create({
      data: {
        tenantId,
        snapshotId,
        scenarioId: row.id,
        type: 'simulate',
        profileName: 'default',
        profileVersion: 1,
        seed: 0,
        options: {},
      },
    });
    expect(await new RunExecutor(prisma, redis, settings).execute(run.id)).toMatchObject({
      kind: 'finished',
      status: 'succeeded',
    });
    const result = await prisma.runResult.findUniqueOrThrow({ where: { runId: run.id } });
    return (result.analysis as unknown as { storage: StorageReport }).storage;
  }

  it.each([
    ['storage-delete-namespace.yaml', { destroyed: 3, retained: 3, stranded: 0 }],
    ['storage-scale-down.yaml', { destroyed: 2, retained: 0, stranded: 0 }],
    ['storage-zone-outage.yaml', { destroyed: 0, retained: 0, stranded: 2 }],
  ])('%s: the stored report is the pipeline’s', async (file, counts) => {
    const scenario = parseYaml(readExample(`scenarios/${file}`)) as Scenario;
    const stored = await storedReport(scenario);
    const expected = storageReport(runAnalysis('scenario', items, { seed: 0 }, { scenario }).result.run)!;
    expect(stored).toEqual(JSON.parse(JSON.stringify(expected)));
    expect({
      destroyed: stored.dataLoss.destroyed.length,
      retained: stored.dataLoss.retained.length,
      stranded: stored.dataLoss.stranded.length,
    }).toEqual(counts);
  });
});
