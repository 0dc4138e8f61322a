import { createPrismaClient } from '@schedlab/db';
import Redis from 'ioredis';
import { enqueueRun, redisOptionsFromUrl, runProgressChannel } from '@schedlab/queues';
import { closedPort, createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import {
  addSnapshot,
  eventually,
  redisUrl,
  seedTenantWithSnapshot,
  runsQueue,
  workerEnv,
} from './run-fixtures';
import { type ServiceProcess, startService } from './service-process';

/**
 * A run long enough that a timeout, a SIGTERM and a kill land mid-run, and that /metrics is asked
 * during the writing phase, on an idle machine too: default options (compact explanations).
 * 2,000 × 6,000 took ~4 s when these tests were written and 1.4 s once the engine got faster, too
 * short for all three; this one took 2.7–2.8 s submit → succeeded on 2 idle cores.
 */
const SIZE = { nodes: 3000, pods: 15000 };
/** The worker's event loop must answer /metrics this fast throughout a run, writing included. */
const METRICS_MAX_MS = 1000;

/**
 * The worker's main thread never blocks for long during the biggest run: real worker processes,
 * PostgreSQL and Redis. Scheduling, building rows and writing them happen on the engine thread,
 * so RUN_TIMEOUT_MS and SIGTERM act within seconds and /metrics keeps answering.
 */
describe('worker responsiveness during a 3,000-node × 15,000-pod run', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  let owner: { tenantId: string; snapshotId: string };
  const workers: ServiceProcess[] = [];

  async function startWorker(prefix: string, extra: NodeJS.ProcessEnv = {}) {
    const port = await closedPort();
    const { service } = await startService(
      'worker',
      workerEnv(db.url, prefix, { WORKER_METRICS_PORT: String(port), ...extra }),
    );
    workers.push(service);
    return { service, metricsUrl: `http://127.0.0.1:${port}/metrics` };
  }

  /** Creates the run row, lets `beforeEnqueue` see its id, then queues it. */
  async function submit(prefix: string, beforeEnqueue?: (runId: string) => Promise<unknown>) {
    const run = await prisma.run.create({
      data: {
        tenantId: owner.tenantId,
        snapshotId: owner.snapshotId,
        type: 'simulate',
        profileName: 'default',
        profileVersion: 1,
      },
    });
    await beforeEnqueue?.(run.id);
    const queue = runsQueue(prefix);
    await enqueueRun(queue, run.id);
    await queue.close();
    return run.id;
  }

  /** Polls /metrics every 250 ms until stopped; the slowest answer, and how many failed. */
  function watchMetrics(url: string) {
    let slowest = 0;
    let failures = 0;
    let answered = 0;
    let lagMax = 0;
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        const started = Date.now();
        try {
          const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
          const text = await res.text();
          // prom-client's event-loop delay, reset at every scrape: the worst delay since the last.
          const lag = /^schedlab_nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text);
          if (lag) lagMax = Math.max(lagMax, Math.round(Number(lag[1]) * 1000));
          if (res.ok) answered++;
          else failures++;
        } catch {
          failures++;
        }
        slowest = Math.max(slowest, Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    return async () => {
      stopped = true;
      await loop;
      return { slowest, failures, answered, lagMax };
    };
  }

  const runRow = (id: string) => prisma.run.findUniqueOrThrow({ where: { id } });

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    owner = await seedTenantWithSnapshot(prisma, { nodes: 2, pods: 2 });
    owner.snapshotId = await addSnapshot(prisma, owner.tenantId, SIZE);
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('completes with one result set while /metrics answers within a second throughout (writing included)', async () => {
    const prefix = uniqueName('resp');
    const { metricsUrl } = await startWorker(prefix);
    const stopWatching = watchMetrics(metricsUrl);
    // The phases as published (what the api relays to watchers): each shows where it starts.
    const phases = new Set<string>();
    // Connected (ready check done) before it subscribes: ioredis's ready check sends INFO, which a
    // connection already in subscriber mode refuses, and the reconnect drops the subscription.
    const subscriber = new Redis({ ...redisOptionsFromUrl(redisUrl()), lazyConnect: true });
    await subscriber.connect();
    subscriber.on('message', (_channel, text: string) => phases.add(JSON.parse(text).phase));
    const id = await submit(prefix, (runId) => subscriber.subscribe(runProgressChannel(runId)));
    const run = await eventually(async () => {
      const row = await runRow(id);
      return ['succeeded', 'failed', 'cancelled'].includes(row.status) ? row : undefined;
    }, 100);
    const metrics = await stopWatching();
    subscriber.disconnect();
    console.log(
      `worker responsiveness: ${SIZE.nodes}x${SIZE.pods} run ${run.finishedAt!.getTime() - run.createdAt.getTime()} ms submit→succeeded; /metrics answered ${metrics.answered}×, slowest ${metrics.slowest} ms; event-loop delay max ${metrics.lagMax} ms`,
    );
    expect(run).toMatchObject({ status: 'succeeded', podsProcessed: SIZE.pods });
    expect(phases).toContain('writing');
    expect(await prisma.placement.count({ where: { runId: id, attempt: run.attempts } })).toBe(SIZE.pods);
    expect(await prisma.podExplanation.count({ where: { runId: id, attempt: run.attempts } })).toBe(
      SIZE.pods,
    );
    expect(metrics.failures).toBe(0);
    expect(metrics.answered).toBeGreaterThan(4);
    expect(metrics.slowest).toBeLessThan(METRICS_MAX_MS);
  }, 240_000);

  it('RUN_TIMEOUT_MS fails the run within seconds of the limit', async () => {
    const prefix = uniqueName('timeout');
    // Well under the run's length (~2.8 s on an idle machine), so the limit always strikes mid-run.
    const limitMs = 1000;
    const { metricsUrl } = await startWorker(prefix, { RUN_TIMEOUT_MS: String(limitMs) });
    const stopWatching = watchMetrics(metricsUrl);
    const id = await submit(prefix);
    const run = await eventually(async () => {
      const row = await runRow(id);
      return ['succeeded', 'failed', 'cancelled'].includes(row.status) ? row : undefined;
    }, 100);
    const metrics = await stopWatching();
    expect(run).toMatchObject({ status: 'failed', error: `timed out after ${limitMs} ms` });
    // startedAt is set just after the claim; the timer starts once the job is loaded.
    expect(run.finishedAt!.getTime() - run.startedAt!.getTime()).toBeLessThan(limitMs + 3000);
    expect(await prisma.placement.count({ where: { runId: id } })).toBe(0);
    expect(metrics.failures).toBe(0);
    expect(metrics.slowest).toBeLessThan(METRICS_MAX_MS);
  }, 120_000);

  it('a worker SIGKILLed halfway through writing rows: another completes the run with exactly one result set', async () => {
    const prefix = uniqueName('midwrite');
    const first = await startWorker(prefix);
    const id = await submit(prefix);
    // Kill once some of its rows are committed (the write has begun, and is not over).
    const partial = await eventually(async () => {
      const written = await prisma.placement.count({ where: { runId: id } });
      return written > 0 ? written : undefined;
    }, 20);
    first.service.child.kill('SIGKILL');
    expect(partial).toBeLessThan(SIZE.pods + 1);
    await startWorker(prefix);
    const run = await eventually(async () => {
      const row = await runRow(id);
      return ['succeeded', 'failed', 'cancelled'].includes(row.status) ? row : undefined;
    });
    expect(run).toMatchObject({ status: 'succeeded', podsProcessed: SIZE.pods });
    expect(run.attempts).toBeGreaterThanOrEqual(2);
    expect(await prisma.runResult.count({ where: { runId: id } })).toBe(1);
    // Only the finishing attempt's rows are left: the killed attempt's are gone.
    expect(await prisma.placement.count({ where: { runId: id } })).toBe(SIZE.pods);
    expect(await prisma.placement.count({ where: { runId: id, attempt: run.attempts } })).toBe(SIZE.pods);
    expect(await prisma.podExplanation.count({ where: { runId: id } })).toBe(SIZE.pods);
  }, 240_000);

  it('SIGTERM stops the worker within seconds mid-run; the run stays running for another worker', async () => {
    const prefix = uniqueName('sigterm');
    const { service } = await startWorker(prefix);
    const id = await submit(prefix);
    await eventually(async () => {
      const row = await runRow(id);
      return row.status === 'running' && row.podsProcessed > 0 ? row : undefined;
    }, 100);
    const exited = new Promise<number>((resolve) => service.child.once('exit', () => resolve(Date.now())));
    const signalled = Date.now();
    service.child.kill('SIGTERM');
    const exitAt = await exited;
    expect(exitAt - signalled).toBeLessThan(3000);
    expect(await runRow(id)).toMatchObject({ status: 'running' });
  }, 120_000);
});
