/**
 * Helpers for the worker-pool tests: tenants, snapshots of generated clusters and run rows written
 * straight to PostgreSQL (as the api would), queues under the test's own prefix, and waiting on
 * the database until a condition holds (bounded by Jest's timeout, never asserted on time).
 */
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { packSnapshotItems } from '@schedlab/db';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import type { createPrismaClient } from '@schedlab/db';
import { enqueueRun, redisOptionsFromUrl, RUNS_QUEUE } from '@schedlab/queues';
import { syntheticCluster } from '@schedlab/runs';
import { uniqueName } from '@schedlab/testing';

type Db = ReturnType<typeof createPrismaClient>;

export const redisUrl = () => process.env.REDIS_URL ?? 'redis://localhost:6379';

export async function seedTenantWithSnapshot(prisma: Db, size: { nodes: number; pods: number }) {
  const { tenant, apiKey } = await createTenantWithAdminKey(prisma, uniqueName('tenant'));
  return {
    tenantId: tenant.id,
    apiKey: apiKey.secret,
    snapshotId: await addSnapshot(prisma, tenant.id, size),
  };
}

export async function addSnapshot(prisma: Db, tenantId: string, size: { nodes: number; pods: number }) {
  const { content, contentHash, sizeBytes } = packSnapshotItems(syntheticCluster(size).items);
  const snapshot = await prisma.snapshot.create({
    data: {
      tenantId,
      name: `generated-${size.nodes}x${size.pods}`,
      counts: { Node: size.nodes, Pod: size.pods },
      contentHash,
      sizeBytes,
      content: new Uint8Array(content),
    },
  });
  return snapshot.id;
}

/** A queued run row (written before its job, as the api does), then its job. */
export async function submitRun(
  prisma: Db,
  queue: Queue,
  owner: { tenantId: string; snapshotId: string },
  seed = 0,
) {
  const run = await prisma.run.create({
    data: {
      tenantId: owner.tenantId,
      snapshotId: owner.snapshotId,
      type: 'simulate',
      profileName: 'default',
      profileVersion: 1,
      seed,
      options: { explain: 'summary' },
    },
  });
  await enqueueRun(queue, run.id);
  return run.id;
}

export function runsQueue(prefix: string): Queue {
  return new Queue(RUNS_QUEUE, {
    connection: { ...redisOptionsFromUrl(redisUrl()), maxRetriesPerRequest: null },
    prefix,
  });
}

/** Polls until `check` returns a value (not undefined). */
export async function eventually<T>(check: () => Promise<T | undefined>, pollMs = 200): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

export async function runsInStatus(prisma: Db, ids: string[], status: string) {
  return prisma.run.count({ where: { id: { in: ids }, status: status as 'succeeded' } });
}

/** What losing Redis does to this test: every key under its queue prefix deleted. */
export async function deleteQueueKeys(prefix: string): Promise<number> {
  const redis = new Redis(redisOptionsFromUrl(redisUrl()));
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

export function workerEnv(
  databaseUrl: string,
  prefix: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'info',
    WORKER_CONCURRENCY: '1',
    WORKER_LOCK_DURATION_MS: '3000',
    RECONCILE_INTERVAL_MS: '1000',
    WEBHOOK_POLL_INTERVAL_MS: '200',
    ...extra,
  };
}

/** Pids of the worker processes that finished runs, from their JSON log lines. */
export function finishedBy(output: string): Map<string, number> {
  const byRun = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.includes('"run finished"')) continue;
    try {
      const entry = JSON.parse(line) as { runId?: string; pid?: number };
      if (entry.runId && entry.pid) byRun.set(entry.runId, entry.pid);
    } catch {
      // not a JSON log line
    }
  }
  return byRun;
}
