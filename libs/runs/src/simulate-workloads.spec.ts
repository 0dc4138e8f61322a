import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Redis from 'ioredis';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient, packSnapshotItems } from '@schedlab/db';
import { redisOptionsFromUrl } from '@schedlab/queues';
import { parseKubernetesObjects } from '@schedlab/k8s';
import type { ClassStorage } from '@schedlab/storage';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { RunExecutor } from './run-executor';

const GI = 1024 ** 3;

/** Simulate runs on snapshots whose workloads have no pods yet, as `schedlab simulate` treats them. */
describe('simulate runs expand workloads and store storage (real PostgreSQL and Redis)', () => {
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

  /** Runs a simulate run on one of the repository's examples and returns its id once finished. */
  async function simulateExample(file: string): Promise<string> {
    const text = readFileSync(join(__dirname, '../../../examples', file), 'utf8');
    const { content, contentHash, sizeBytes } = packSnapshotItems(
      parseKubernetesObjects(text, { source: file }).objects,
    );
    const snapshot = await prisma.snapshot.create({
      data: { tenantId, name: file, counts: {}, contentHash, sizeBytes, content: new Uint8Array(content) },
    });
    const run = await prisma.run.create({
      data: {
        tenantId,
        snapshotId: snapshot.id,
        type: 'simulate',
        profileName: 'default',
        profileVersion: 1,
        options: { explain: 'summary' },
      },
    });
    expect(await new RunExecutor(prisma, redis, settings).execute(run.id)).toMatchObject({
      kind: 'finished',
      status: 'succeeded',
    });
    return run.id;
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    redis = new Redis(redisOptionsFromUrl(process.env.REDIS_URL ?? 'redis://localhost:6379'));
    tenantId = (await createTenantWithAdminKey(prisma, uniqueName('workloads'))).tenant.id;
  });

  afterAll(async () => {
    redis?.disconnect();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('schedules the pods of a Deployment-only snapshot and records the quota rejection', async () => {
    const id = await simulateExample('deployment-only.yaml');
    const placements = await prisma.placement.findMany({ where: { runId: id }, orderBy: { ordinal: 'asc' } });
    const scheduled = placements.filter((p) => p.status === 'scheduled');
    // The quota allows 4 CPUs of requests: four replicas are created and scheduled, the fifth is refused.
    expect(scheduled).toHaveLength(4);
    for (const p of scheduled) {
      expect(p).toMatchObject({
        namespace: 'shop',
        ownerKind: 'ReplicaSet',
        node: expect.stringMatching(/^node-[123]$/),
      });
      expect(p.ownerName).toMatch(/^api-/);
    }
    const rejected = placements.filter((p) => p.status === 'error');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ namespace: 'shop', node: null, ordinal: 4 });
    expect(rejected[0]!.name).toMatch(/^api-/);
    expect(rejected[0]!.message).toMatch(/^admission rejected: .*exceeded quota: compute/);

    const result = await prisma.runResult.findUniqueOrThrow({ where: { runId: id } });
    expect(result.summary).toMatchObject({
      scheduled: 4,
      rejected: [{ object: `Pod shop/${rejected[0]!.name}`, plugin: 'ResourceQuota' }],
    });
    expect(result.storageSummary).toBeNull(); // no claims, no classes
    expect(await prisma.run.findUniqueOrThrow({ where: { id } })).toMatchObject({
      podsProcessed: 5,
    });
  });

  it('stores the storage summary of a StatefulSet with WaitForFirstConsumer claims: one provisioned volume per zone', async () => {
    const id = await simulateExample('statefulset-wffc.yaml');
    const placements = await prisma.placement.findMany({ where: { runId: id }, orderBy: { ordinal: 'asc' } });
    expect(placements.map((p) => [p.name, p.status])).toEqual([
      ['ledger-0', 'scheduled'],
      ['ledger-1', 'scheduled'],
      ['ledger-2', 'scheduled'],
    ]);
    const zoneOfPod = new Map(placements.map((p) => [`payments/${p.name}`, p.zone]));

    const result = await prisma.runResult.findUniqueOrThrow({ where: { runId: id } });
    const classes = result.storageSummary as unknown as ClassStorage[];
    const zonal = classes.find((c) => c.storageClass === 'zonal-ssd')!;
    expect(zonal).toMatchObject({ volumeBindingMode: 'WaitForFirstConsumer', pendingClaims: [] });
    expect(zonal.zones.map((z) => z.zone).sort()).toEqual([
      'europe-west1-b',
      'europe-west1-c',
      'europe-west1-d',
    ]);
    for (const zone of zonal.zones) {
      expect(zone).toMatchObject({ claimedBytes: 20 * GI, provisionedBytes: 20 * GI });
      expect(zone.volumes).toHaveLength(1);
      // Each claim's volume is provisioned in the zone of the pod that mounts it.
      const [volume] = zone.volumes;
      expect(volume!.claim).toMatch(/^payments\/data-ledger-[012]$/);
      expect(volume!.pods.map((p) => zoneOfPod.get(p.pod))).toEqual([zone.zone]);
    }
    const standard = classes.find((c) => c.storageClass === 'standard')!;
    expect(standard.volumeBindingMode).toBe('Immediate');
    expect(standard.zones.every((z) => z.claimedBytes === 0 && z.provisionedBytes === 0)).toBe(true);
  });

  it('stores the storage summary of a snapshot whose pods exist already (no expansion): the provisioned and the pre-bound claims', async () => {
    const id = await simulateExample('storage-wffc.yaml');
    const classes = (await prisma.runResult.findUniqueOrThrow({ where: { runId: id } }))
      .storageSummary as unknown as ClassStorage[];
    const volumes = classes.flatMap((c) =>
      c.zones.flatMap((z) => z.volumes.map((v) => ({ ...v, storageClass: c.storageClass }))),
    );
    // The engine's PreBind wrote the provisioned volume into the objects the summary reads.
    expect(volumes.find((v) => v.claim === 'shop/data-orders-db-0')).toMatchObject({
      storageClass: 'gp3',
      volume: expect.stringMatching(/^pvc-/),
      pods: [{ pod: 'shop/orders-db-0', node: 'node-a' }],
    });
    expect(volumes.find((v) => v.claim === 'analytics/reports-archive')).toMatchObject({
      volume: 'pv-reports-archive',
      zone: 'eu-west-1c',
      pods: [{ pod: 'analytics/report-render', node: 'node-c' }],
    });
    const zones = classes.flatMap((c) => c.zones);
    expect(zones.reduce((n, z) => n + z.provisionedBytes, 0)).toBe(250 * GI);
    expect((await prisma.runResult.findUniqueOrThrow({ where: { runId: id } })).summary).not.toHaveProperty(
      'rejected',
    );
  });
});
