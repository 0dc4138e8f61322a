/**
 * Service latency, end to end through real processes (a measurement, not a test):
 *   1. submit → result for a small run: sequential `POST /v1/runs` (simulate,
 *      examples/cluster-small.yaml), each polled with `GET /v1/runs/{id}` every 20 ms
 *      until it is final; p50/p90/max.
 *   2. the GraphQL placements page (first 50) of a finished run under steady open-loop load from
 *      a second Node process (requests scheduled by wall clock, not by responses, to 127.0.0.1
 *      only; bounded in count and time); achieved rate, p50/p99, errors.
 * Fresh PostgreSQL database, private queue prefix, api and one worker as their own processes.
 *
 *   node -r @swc-node/register bench/service-latency.ts [--runs 30] [--rate 50] [--seconds 20] [--json out.json]
 *   (SWC_NODE_PROJECT=tsconfig.base.json, as npm run bench sets it)
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  type BenchService,
  machineLine,
  percentile,
  sleep,
  startBenchService,
  submitAndWait,
} from './service-harness';

const root = path.resolve(__dirname, '..');
const LOAD_CHILD_FLAG = '--placements-load';
const POLL_MS = 20;
/** No single request or run may hang the bench: it stops with an error instead. */
const REQUEST_TIMEOUT_MS = 10_000;
const RUN_TIMEOUT_MS = 60_000;
const PLACEMENTS_QUERY =
  'query($id: ID!) { simulation(id: $id) { placements(first: 50) { edges { node { ordinal namespace name node zone status message } } pageInfo { endCursor } } } }';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const round1 = (n: number) => Math.round(n * 10) / 10;

interface LoadPlan {
  graphqlUrl: string;
  apiKey: string;
  runId: string;
  rate: number;
  seconds: number;
}
interface LoadResult {
  sent: number;
  ok: number;
  errors: number;
  firstError?: string;
  latenciesMs: number[];
  /** From the first scheduled send to one interval after the last actual send. */
  sendingSeconds: number;
}

/**
 * The second process: sends request i at start + i/rate (open loop, so a slow answer does not
 * delay the next request) and measures each from its scheduled time, so queueing in this client
 * counts too. Exactly rate × seconds requests, each with a timeout; then it reports and exits.
 */
async function placementsLoad(plan: LoadPlan): Promise<LoadResult> {
  const total = Math.round(plan.rate * plan.seconds);
  const intervalMs = 1000 / plan.rate;
  const body = JSON.stringify({ query: PLACEMENTS_QUERY, variables: { id: plan.runId } });
  const headers = { authorization: `Bearer ${plan.apiKey}`, 'content-type': 'application/json' };
  const latenciesMs: number[] = [];
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const fail = (why: string) => {
    errors++;
    firstError ??= why;
  };
  const one = async (scheduledAt: number) => {
    try {
      const res = await fetch(plan.graphqlUrl, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = (await res.json()) as {
        errors?: unknown;
        data?: { simulation?: { placements?: { edges?: unknown[] } } };
      };
      if (res.status !== 200 || json.errors || !json.data?.simulation?.placements?.edges?.length) {
        return fail(`${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      }
      latenciesMs.push(performance.now() - scheduledAt);
      ok++;
    } catch (error) {
      fail(String(error));
    }
  };
  const start = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const scheduledAt = start + i * intervalMs;
    const wait = scheduledAt - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(one(scheduledAt));
  }
  const sendingSeconds = (performance.now() - start + intervalMs) / 1000; // a lagging client shows as a lower rate
  await Promise.all(inFlight);
  return { sent: total, ok, errors, firstError, latenciesMs, sendingSeconds };
}

function runLoadInChild(plan: LoadPlan): Promise<LoadResult> {
  const child = fork(__filename, [LOAD_CHILD_FLAG], {
    cwd: root,
    env: { ...process.env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.base.json') },
    execArgv: ['-r', '@swc-node/register'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let result: LoadResult | undefined;
    child.on('message', (m) => {
      const message = m as { type: 'ready' | 'result'; result?: LoadResult };
      if (message.type === 'ready') child.send(plan);
      else result = message.result;
    });
    child.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`load process exited with ${code} without a result`)),
    );
  });
}

/** Milliseconds from POST to the GET that first sees the run final; throws unless it succeeded. */
async function submitToResult(service: BenchService, snapshotId: string, seed: number) {
  const { run, ms } = await submitAndWait(
    service,
    { type: 'simulate', snapshotId, seed },
    { pollMs: POLL_MS, limitMs: RUN_TIMEOUT_MS },
  );
  return { id: String(run.id), ms };
}

async function main() {
  const runs = arg('runs', 30);
  const rate = arg('rate', 50);
  const seconds = arg('seconds', 20);
  const jsonIndex = process.argv.indexOf('--json');
  const jsonPath = jsonIndex >= 0 ? process.argv[jsonIndex + 1] : undefined;

  const service = await startBenchService({ queue: 'latency', requestTimeoutMs: REQUEST_TIMEOUT_MS });
  try {
    const yaml = readFileSync(path.join(root, 'examples/cluster-small.yaml'), 'utf8');
    const snapshot = await service.call('POST', '/v1/snapshots?name=cluster-small', yaml, 'application/yaml');

    // One untimed run first: the worker's engine thread starts on its first run.
    const warmup = await submitToResult(service, snapshot.id, 0);
    const latencies: number[] = [];
    for (let i = 1; i <= runs; i++) latencies.push((await submitToResult(service, snapshot.id, i)).ms);
    latencies.sort((a, b) => a - b);
    const submit = {
      runs,
      warmupMs: round1(warmup.ms),
      p50Ms: round1(percentile(latencies, 50)),
      p90Ms: round1(percentile(latencies, 90)),
      maxMs: round1(latencies.at(-1)!),
    };

    const load = await runLoadInChild({
      graphqlUrl: service.graphqlUrl,
      apiKey: service.apiKey,
      runId: warmup.id,
      rate,
      seconds,
    });
    const pageLatencies = [...load.latenciesMs].sort((a, b) => a - b);
    const placements = {
      targetRate: rate,
      seconds,
      sent: load.sent,
      ok: load.ok,
      errors: load.errors,
      achievedRate: round1(load.ok / load.sendingSeconds),
      p50Ms: round1(percentile(pageLatencies, 50)),
      p99Ms: round1(percentile(pageLatencies, 99)),
      maxMs: round1(pageLatencies.at(-1) ?? NaN),
      ...(load.firstError ? { firstError: load.firstError } : {}),
    };

    const machine = machineLine();
    console.log(`machine: ${machine}`);
    console.log(
      `snapshot: examples/cluster-small.yaml (${JSON.stringify(snapshot.counts)}); poll every ${POLL_MS} ms`,
    );
    const row = (figure: string, p50: string, tail: string, max: string) =>
      console.log(`${figure.padEnd(46)} | ${p50.padStart(7)} | ${tail.padStart(11)} | ${max.padStart(7)}`);
    row('figure', 'p50 ms', 'p90/p99 ms', 'max ms');
    row(
      `submit → succeeded, ${runs} sequential runs`,
      String(submit.p50Ms),
      `p90 ${submit.p90Ms}`,
      String(submit.maxMs),
    );
    row(
      `GraphQL placements(first: 50) at ${placements.achievedRate}/s`,
      String(placements.p50Ms),
      `p99 ${placements.p99Ms}`,
      String(placements.maxMs),
    );
    console.log(
      `placements load: ${load.sent} sent at ${rate}/s for ${seconds} s, ${load.ok} ok, ${load.errors} errors${load.firstError ? ` (first: ${load.firstError})` : ''}`,
    );
    if (jsonPath)
      writeFileSync(
        jsonPath,
        `${JSON.stringify({ machine, submitToResult: submit, graphqlPlacements: placements }, null, 2)}\n`,
      );
  } finally {
    await service.stop();
  }
}

if (process.argv.includes(LOAD_CHILD_FLAG)) {
  process.once('message', (plan) => {
    placementsLoad(plan as LoadPlan).then(
      (result) => process.send!({ type: 'result', result }, () => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  process.send!({ type: 'ready' });
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
