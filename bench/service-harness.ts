/**
 * What every service benchmark does around its own measurement: a fresh PostgreSQL database with
 * one tenant, the compiled api and workers as their own processes on a private queue prefix
 * (apps/e2e/src/service-process.ts), REST calls with the tenant's key, submitting a run and
 * polling it until it is final, the run's phases as the worker publishes them, peak RSS and
 * percentiles. Used by bench/service-row.ts, bench/service-runs.ts and bench/service-latency.ts.
 * The api and worker must be built (`npm run build`, or scripts/build.cjs --stale apps/api apps/worker).
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { Redis } from 'ioredis';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient } from '@schedlab/db';
import { loadConfig } from '@schedlab/config';
import { runProgressChannel } from '@schedlab/queues';
import { createTestDatabase, uniqueName } from '@schedlab/testing';
import { type ServiceProcess, startService } from '../apps/e2e/src/service-process';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `--name value` of this process's arguments. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** Nearest-rank percentile of ascending values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Peak resident set of a process (VmHWM, its threads included), MiB; Linux only. */
export function peakRssMiB(pid: number | undefined): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system, all threads) a live process has used so far; Linux only. */
export function cpuSeconds(pid: number | undefined): number | null {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return null;
  }
}

export function machineLine(): string {
  return `${os.cpus().length} × ${os.cpus()[0]?.model}, load average ${os.loadavg()[0].toFixed(1)}, node ${process.version}`;
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

/** Why the service cannot run here (PostgreSQL or Redis down), or undefined. */
export async function serviceUnavailable(): Promise<string | undefined> {
  const config = loadConfig();
  if (!(await reachable(config.databaseUrl, 5432)))
    return `PostgreSQL is not reachable at DATABASE_URL (${new URL(config.databaseUrl).host})`;
  if (!(await reachable(config.redisUrl, 6379)))
    return `Redis is not reachable at REDIS_URL (${new URL(config.redisUrl).host})`;
  return undefined;
}

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any -- REST answers, read loosely

export interface BenchService {
  /** http://127.0.0.1:port of the api (whatever host name it announces). */
  baseUrl: string;
  graphqlUrl: string;
  /** The tenant's admin key. */
  apiKey: string;
  databaseUrl: string;
  api: ServiceProcess;
  /** The workers started so far, in order. */
  workers: ServiceProcess[];
  /** The environment the api and workers got. */
  env: Record<string, string>;
  /** Starts one more worker with `extra` on top of the shared environment. */
  startWorker: (extra?: Record<string, string>) => Promise<ServiceProcess>;
  /** A REST call with the tenant's key; a 4xx or 5xx answer throws with its body. */
  call: (method: string, url: string, body?: string, contentType?: string) => Promise<Json>;
  /** Stops every process, drops the database. */
  stop: () => Promise<void>;
}

export interface BenchServiceOptions {
  /** Prefix of the private queue name. */
  queue: string;
  /** Workers started with the api (default 1). */
  workers?: number;
  /** On top of the defaults (warn logs, any free port, no rate limit in practice). */
  env?: Record<string, string>;
  /** Per REST call (default 120 s). */
  requestTimeoutMs?: number;
}

/** A fresh database, one tenant, the api and `workers` workers. */
export async function startBenchService(options: BenchServiceOptions): Promise<BenchService> {
  const db = await createTestDatabase({ migrated: true });
  const prisma = createPrismaClient(db.url);
  const processes: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await prisma.$disconnect();
    await db.drop();
  };
  try {
    const { apiKey } = await createTenantWithAdminKey(prisma, uniqueName('bench'));
    const env: Record<string, string> = {
      DATABASE_URL: db.url,
      QUEUE_PREFIX: uniqueName(options.queue),
      LOG_LEVEL: 'warn',
      API_PORT: '0',
      WORKER_METRICS_PORT: '0', // other processes on this host may hold the default port
      // Polling (and any load a bench adds) exceed the default 600/min for one tenant.
      API_RATE_LIMIT_PER_MINUTE: '1000000',
      ...options.env,
    };
    const api = await startService<{ type: string; endpoints: { graphql: string } }>('api', env);
    processes.push(api.service);
    const workers: ServiceProcess[] = [];
    const startWorker = async (extra: Record<string, string> = {}) => {
      const worker = (await startService('worker', { ...env, ...extra })).service;
      processes.push(worker);
      workers.push(worker);
      return worker;
    };
    for (let i = 0; i < (options.workers ?? 1); i++) await startWorker();
    const graphqlUrl = new URL(api.ready.endpoints.graphql);
    graphqlUrl.hostname = '127.0.0.1';
    const baseUrl = graphqlUrl.origin;
    const timeoutMs = options.requestTimeoutMs ?? 120_000;
    const call = async (method: string, url: string, body?: string, contentType = 'application/json') => {
      const res = await fetch(`${baseUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${apiKey.secret}`,
          ...(body === undefined ? {} : { 'content-type': contentType }),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const json = (await res.json()) as Json;
      if (res.status >= 400)
        throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
      return json;
    };
    return {
      baseUrl,
      graphqlUrl: graphqlUrl.href,
      apiKey: apiKey.secret,
      databaseUrl: db.url,
      api: api.service,
      workers,
      env,
      startWorker,
      call,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const FINAL = ['succeeded', 'failed', 'cancelled'];

export interface PollOptions {
  pollMs: number;
  /** The run must be final by then, or this throws. */
  limitMs: number;
  /** Called with every answer of the poll. */
  onPoll?: (run: Json) => void;
  /**
   * The run's progress on Redis: the next poll goes out as soon as the worker publishes the
   * final status, so a long pollMs (which keeps the api, sharing the cores, nearly idle) costs
   * no precision.
   */
  phases?: PhaseWatch;
}

/**
 * `POST /v1/runs` with `body`, then `GET /v1/runs/{id}` every pollMs until the run
 * is final. `ms` is the POST to the first GET that saw it final (so up to one poll interval
 * late); throws unless it succeeded.
 */
export async function submitAndWait(
  service: BenchService,
  body: Record<string, unknown>,
  poll: PollOptions,
): Promise<{ run: Json; ms: number; submittedAt: number }> {
  const submittedAt = Date.now();
  const started = performance.now();
  const submitted = await service.call('POST', '/v1/runs', JSON.stringify(body));
  for (;;) {
    const run = await service.call('GET', `/v1/runs/${String(submitted.id)}`);
    poll.onPoll?.(run);
    if (FINAL.includes(String(run.status))) {
      const ms = performance.now() - started;
      if (run.status !== 'succeeded')
        throw new Error(`run ${String(run.id)} ${String(run.status)}: ${JSON.stringify(run.error)}`);
      return { run, ms, submittedAt };
    }
    if (performance.now() - started > poll.limitMs)
      throw new Error(`run ${String(submitted.id)} not final after ${poll.limitMs} ms`);
    await Promise.race([sleep(poll.pollMs), poll.phases?.final(String(submitted.id))]);
  }
}

/** Milliseconds from the submit to each phase's first progress message, and to the final one. */
export type PhaseTimeline = { phase: string; atMs: number }[];

/**
 * Listens to every run's progress on the service's Redis (the messages the worker publishes:
 * starting, loading, scheduling, writing, done…), so a run's time can be split by phase. Start it
 * before the submit; `timeline(runId, submittedAt)` gives the first message of each phase change.
 */
export interface PhaseWatch {
  timeline: (runId: string, submittedAt: number) => PhaseTimeline;
  /** Resolves once the run's final status (succeeded, failed, cancelled) is published. */
  final: (runId: string) => Promise<void>;
  stop: () => Promise<void>;
}

export async function watchPhases(): Promise<PhaseWatch> {
  const redis = new Redis(loadConfig().redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const seen = new Map<string, { phase: string; at: number }[]>();
  const finished = new Set<string>();
  const waiting = new Map<string, (() => void)[]>();
  redis.on('pmessage', (_pattern: string, _channel: string, text: string) => {
    const at = Date.now();
    let message: { runId: string; status: string; phase: string };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return; // not a progress message
    }
    const list = seen.get(message.runId) ?? [];
    if (list.at(-1)?.phase !== message.phase) list.push({ phase: message.phase, at });
    seen.set(message.runId, list);
    if (FINAL.includes(message.status)) {
      finished.add(message.runId);
      for (const wake of waiting.get(message.runId) ?? []) wake();
      waiting.delete(message.runId);
    }
  });
  await redis.psubscribe(runProgressChannel('*'));
  return {
    timeline: (runId, submittedAt) =>
      (seen.get(runId) ?? []).map((m) => ({ phase: m.phase, atMs: m.at - submittedAt })),
    final: (runId) =>
      finished.has(runId)
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.set(runId, [...(waiting.get(runId) ?? []), resolve])),
    stop: async () => {
      redis.disconnect();
    },
  };
}

/** "starting +0.1 s, loading +0.2 s, …" */
export function formatTimeline(timeline: PhaseTimeline): string {
  return timeline.map((p) => `${p.phase} +${(p.atMs / 1000).toFixed(2)} s`).join(', ');
}
