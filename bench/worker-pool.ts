/**
 * Worker-pool figures: runs per minute for small simulations with 1, 2 and 3 worker processes,
 * and the time from SIGKILLing the worker running a simulation to that run completing elsewhere.
 * Real PostgreSQL (a fresh database), real Redis (a private queue prefix), real worker processes.
 *
 *   node -r @swc-node/register bench/worker-pool.ts [--runs 30] [--concurrency 1]
 *   (SWC_NODE_PROJECT=tsconfig.base.json, as npm run bench sets it)
 */
import os from 'node:os';
import { createPrismaClient } from '@schedlab/db';
import { createTestDatabase, uniqueName } from '@schedlab/testing';
import {
  addSnapshot,
  seedTenantWithSnapshot,
  runsQueue,
  submitRun,
  workerEnv,
} from '../apps/e2e/src/run-fixtures';
import { type ServiceProcess, startService } from '../apps/e2e/src/service-process';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('runs', 30);
const CONCURRENCY = arg('concurrency', 1);
/** Several workers on one host: each metrics listener on an ephemeral port. */
const BENCH_ENV = { LOG_LEVEL: 'warn', WORKER_METRICS_PORT: '0' };
const SMALL = { nodes: 10, pods: 50 };
const MEDIUM = { nodes: 200, pods: 4000 };

type Db = ReturnType<typeof createPrismaClient>;
const FINAL: ('succeeded' | 'failed' | 'cancelled')[] = ['succeeded', 'failed', 'cancelled'];
const isFinal = (status: string): boolean => (FINAL as string[]).includes(status);

/** A figure from failed runs would be meaningless: stop with their errors instead. */
async function expectAllSucceeded(prisma: Db, ids: string[]) {
  const failed = await prisma.run.findMany({
    where: { id: { in: ids }, status: { not: 'succeeded' } },
    select: { id: true, error: true },
  });
  if (failed.length > 0) throw new Error(`runs did not succeed: ${JSON.stringify(failed.slice(0, 3))}`);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await sleep(50);
  }
}

async function throughput(
  prisma: Db,
  dbUrl: string,
  owner: { tenantId: string; snapshotId: string },
  workers: number,
) {
  const prefix = uniqueName('bench');
  const env = workerEnv(dbUrl, prefix, { ...BENCH_ENV, WORKER_CONCURRENCY: String(CONCURRENCY) });
  const pool: ServiceProcess[] = [];
  for (let i = 0; i < workers; i++) pool.push((await startService('worker', env)).service);
  const queue = runsQueue(prefix);
  try {
    const started = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < RUNS; i++) ids.push(await submitRun(prisma, queue, owner, i));
    await until(async () =>
      (await prisma.run.count({ where: { id: { in: ids }, status: { in: FINAL } } })) === ids.length
        ? true
        : undefined,
    );
    const seconds = (Date.now() - started) / 1000;
    await expectAllSucceeded(prisma, ids);
    return { workers, runs: RUNS, seconds, runsPerMinute: (RUNS / seconds) * 60 };
  } finally {
    await queue.close();
    await Promise.all(pool.map((w) => w.stop()));
  }
}

async function crashRecovery(
  prisma: Db,
  dbUrl: string,
  owner: { tenantId: string; snapshotId: string },
  lockMs: number,
) {
  const prefix = uniqueName('crash');
  const env = workerEnv(dbUrl, prefix, {
    ...BENCH_ENV,
    WORKER_LOCK_DURATION_MS: String(lockMs),
    RECONCILE_INTERVAL_MS: '30000',
  });
  const first = (await startService('worker', env)).service;
  const queue = runsQueue(prefix);
  let second: ServiceProcess | undefined;
  try {
    const id = await submitRun(prisma, queue, owner);
    await until(async () => {
      const run = await prisma.run.findUniqueOrThrow({ where: { id } });
      return run.podsProcessed > 0 ? run : undefined;
    });
    second = (await startService('worker', env)).service;
    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    const run = await until(async () => {
      const row = await prisma.run.findUniqueOrThrow({ where: { id } });
      return isFinal(row.status) ? row : undefined;
    });
    await expectAllSucceeded(prisma, [id]);
    return {
      lockMs,
      crashToCompletionSeconds: (run.finishedAt!.getTime() - killedAt) / 1000,
      attempts: run.attempts,
    };
  } finally {
    await queue.close();
    await Promise.all([first.stop(), second?.stop()]);
  }
}

async function main() {
  const db = await createTestDatabase({ migrated: true });
  const prisma = createPrismaClient(db.url);
  try {
    const owner = await seedTenantWithSnapshot(prisma, SMALL);
    const medium = {
      tenantId: owner.tenantId,
      snapshotId: await addSnapshot(prisma, owner.tenantId, MEDIUM),
    };
    // Time of one uninterrupted medium run, to subtract from crash-to-completion.
    const baseline = await throughputOne(prisma, db.url, medium);
    console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model}, node ${process.version}`);
    console.log(
      `small simulation: ${SMALL.nodes} nodes, ${SMALL.pods} pending pods; ${RUNS} runs; WORKER_CONCURRENCY=${CONCURRENCY}`,
    );
    console.log('workers | seconds | runs/min');
    for (const workers of [1, 2, 3]) {
      const r = await throughput(prisma, db.url, owner, workers);
      console.log(
        `${String(workers).padStart(7)} | ${r.seconds.toFixed(1).padStart(7)} | ${r.runsPerMinute.toFixed(0).padStart(8)}`,
      );
    }
    console.log(
      `\ncrash recovery: ${MEDIUM.nodes} nodes, ${MEDIUM.pods} pods (an uninterrupted run takes ${baseline.toFixed(1)} s)`,
    );
    console.log('lock duration | SIGKILL → run succeeded (s) | executions');
    for (const lockMs of [30_000, 5_000]) {
      const r = await crashRecovery(prisma, db.url, medium, lockMs);
      console.log(
        `${`${lockMs / 1000} s`.padStart(13)} | ${r.crashToCompletionSeconds.toFixed(1).padStart(27)} | ${r.attempts}`,
      );
    }
  } finally {
    await prisma.$disconnect();
    await db.drop();
  }
}

/** Seconds for one run on one worker from submit to success. */
async function throughputOne(
  prisma: Db,
  dbUrl: string,
  owner: { tenantId: string; snapshotId: string },
): Promise<number> {
  const prefix = uniqueName('base');
  const worker = (await startService('worker', workerEnv(dbUrl, prefix, BENCH_ENV))).service;
  const queue = runsQueue(prefix);
  try {
    const started = Date.now();
    const id = await submitRun(prisma, queue, owner);
    await until(async () =>
      isFinal((await prisma.run.findUniqueOrThrow({ where: { id } })).status) ? true : undefined,
    );
    await expectAllSucceeded(prisma, [id]);
    return (Date.now() - started) / 1000;
  } finally {
    await queue.close();
    await worker.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
