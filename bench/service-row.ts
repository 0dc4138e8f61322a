/**
 * The service row of the side by side with upstream (issue #22): one shape's dump (default
 * SchedulingBasic) run through the service as users run it. The compiled api and one worker
 * (apps/e2e/src/service-process.ts, `WORKER_CONCURRENCY=1`) start on a fresh PostgreSQL database
 * with a private queue prefix; the dump is imported once over REST (`POST /v1/snapshots`, timed on
 * its own), then `reps` times `POST /v1/runs` (type simulate, default options) is polled
 * with `GET /v1/runs/{id}` every 50 ms until it is final. Figures: submit → succeeded
 * (median), pending pods ÷ that, and the worker's peak RSS (VmHWM, threads included) and the
 * api's. Prints one JSON line last; without PostgreSQL or Redis it prints {"skipped": why}.
 *
 *   node -r @swc-node/register bench/service-row.ts [--shape SchedulingBasic] [--reps 3] [--long 15]
 *   (a first run of --long seconds or more is not repeated)
 *   (SWC_NODE_PROJECT=tsconfig.base.json; the api and worker must be built: scripts/build.cjs
 *   --stale apps/api apps/worker, which bench/upstream.ts runs first)
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { createTenantWithAdminKey } from '@schedlab/data';
import { createPrismaClient } from '@schedlab/db';
import { loadConfig } from '@schedlab/config';
import { createTestDatabase, uniqueName } from '@schedlab/testing';
import { type ServiceProcess, startService } from '../apps/e2e/src/service-process';
import { workloadByName } from './workloads';

const POLL_MS = 50;
const RUN_LIMIT_MS = 15 * 60_000;

export interface ServiceRowResult {
  shape: string;
  nodes: number;
  pending: number;
  reps: number;
  importSeconds: number;
  /** Median submit → succeeded. */
  seconds: number;
  allSeconds: number[];
  podsPerSecond: number;
  scheduled: number;
  workerPeakRssMiB: number | null;
  apiPeakRssMiB: number | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Peak resident set of a process (VmHWM), MiB; Linux only. */
function peakRssMiB(pid: number | undefined): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Whether host:port accepts a TCP connection within a second. */
function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function call(baseUrl: string, key: string, method: string, url: string, body?: string) {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body,
    signal: AbortSignal.timeout(300_000),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 400)
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
  return json;
}

export async function serviceRow(
  shape: string,
  reps: number,
  longSeconds = Infinity,
): Promise<ServiceRowResult | { skipped: string }> {
  const config = loadConfig();
  if (!(await reachable(config.databaseUrl, 5432)))
    return { skipped: `PostgreSQL is not reachable at DATABASE_URL (${new URL(config.databaseUrl).host})` };
  if (!(await reachable(config.redisUrl, 6379)))
    return { skipped: `Redis is not reachable at REDIS_URL (${new URL(config.redisUrl).host})` };
  const w = workloadByName(shape);
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: w.build(1) });
  const db = await createTestDatabase({ migrated: true });
  const prisma = createPrismaClient(db.url);
  const services: ServiceProcess[] = [];
  try {
    const { apiKey } = await createTenantWithAdminKey(prisma, uniqueName('bench'));
    const env = {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: uniqueName('runs'),
      LOG_LEVEL: 'warn',
      API_PORT: '0',
      API_RATE_LIMIT_PER_MINUTE: '1000000',
      WORKER_CONCURRENCY: '1',
      WORKER_METRICS_PORT: String(20000 + Math.floor(Math.random() * 20000)),
    };
    const api = await startService<{ type: string; endpoints: { graphql: string } }>('api', env);
    services.push(api.service);
    const worker = (await startService('worker', env)).service;
    services.push(worker);
    const url = new URL(api.ready.endpoints.graphql);
    url.hostname = '127.0.0.1';
    const baseUrl = url.origin;
    const key = apiKey.secret;

    const importStarted = performance.now();
    const snapshot = await call(baseUrl, key, 'POST', `/v1/snapshots?name=${w.name}`, body);
    const importSeconds = (performance.now() - importStarted) / 1000;
    const all: number[] = [];
    let scheduled = 0;
    for (let i = 0; i < reps && (i === 0 || all[0] < longSeconds); i++) {
      const started = performance.now();
      const submitted = await call(
        baseUrl,
        key,
        'POST',
        '/v1/runs',
        JSON.stringify({ type: 'simulate', snapshotId: snapshot.id }),
      );
      let run: Record<string, unknown>;
      for (;;) {
        run = await call(baseUrl, key, 'GET', `/v1/runs/${String(submitted.id)}`);
        if (['succeeded', 'failed', 'cancelled'].includes(String(run.status))) break;
        if (performance.now() - started > RUN_LIMIT_MS)
          throw new Error(`run ${String(submitted.id)} not final after ${RUN_LIMIT_MS} ms`);
        await sleep(POLL_MS);
      }
      const seconds = (performance.now() - started) / 1000;
      if (run.status !== 'succeeded')
        throw new Error(`run ${String(run.id)} ${String(run.status)}: ${String(run.error)}`);
      all.push(seconds);
      const result = await call(baseUrl, key, 'GET', `/v1/runs/${String(submitted.id)}/result`);
      scheduled = (result.summary as { scheduled?: number } | undefined)?.scheduled ?? scheduled;
      console.error(`service: ${w.name}: run ${i + 1}/${reps} submit → succeeded ${seconds.toFixed(2)} s`);
    }
    const sorted = [...all].sort((a, b) => a - b);
    const seconds = sorted[Math.floor(sorted.length / 2)];
    return {
      shape: w.name,
      nodes: w.nodes,
      pending: w.pods,
      reps: all.length,
      importSeconds,
      seconds,
      allSeconds: all,
      podsPerSecond: w.pods / seconds,
      scheduled,
      workerPeakRssMiB: peakRssMiB(worker.child.pid),
      apiPeakRssMiB: peakRssMiB(api.service.child.pid),
    };
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await prisma.$disconnect();
    await db.drop();
  }
}

if (require.main === module) {
  serviceRow(
    arg('shape') ?? 'SchedulingBasic',
    Number(arg('reps') ?? 3),
    Number(arg('long') ?? Infinity),
  ).then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
