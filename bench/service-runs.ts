/**
 * Large runs through the service, end to end (a measurement, not a test): the compiled api and
 * one worker as their own processes on a fresh PostgreSQL database, default run options
 * (compact explanations). Per run size:
 *   1. submit → succeeded: `POST /v1/runs`, polled with `GET /v1/runs/{id}` every
 *      100 ms; also the run's own durationMs (claim → final flip, the write included), the time
 *      spent in phase `writing`, the worker's peak RSS, and its slowest /metrics answer and worst
 *      event-loop delay (prom-client's, read from /metrics) during the run (polled every 250 ms).
 *   2. stored size: the run's placement and explanation rows (pg_column_size, i.e. as stored,
 *      TOAST-compressed) and the explanations' JSON text.
 *   3. explanation latency over REST: the stored compact view (random pods), and the full view
 *      replayed on demand (`?detail=full`) for distinct pods (every one a cache miss), the run's
 *      last pod (the worst case: the replay schedules every pod before it) among them.
 * Sizes: 100 nodes × 1,000 and 300 nodes × 6,000 pending pods (libs/runs syntheticCluster: zone
 * spread, 100m/128Mi), and 5,000 nodes × 10,000 pending pods (bench/workloads.ts SchedulingBasic,
 * 1,000 running).
 *
 *   node -r @swc-node/register bench/service-runs.ts [--only 100x1000|300x6000|5000x10000] [--full 10] [--json out.json]
 *   (SWC_NODE_PROJECT=tsconfig.base.json, as npm run bench sets it; `npm run build` first)
 */
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import type { KubeObject } from '@schedlab/k8s';
import { syntheticCluster } from '@schedlab/runs';
import type { ServiceProcess } from '../apps/e2e/src/service-process';
import {
  argValue,
  type BenchService,
  type Json,
  machineLine,
  peakRssMiB,
  percentile,
  sleep,
  startBenchService,
  submitAndWait,
} from './service-harness';
import { workloadByName } from './workloads';

const POLL_MS = 100;
const RUN_LIMIT_MS = 15 * 60_000;

interface Size {
  label: string;
  nodes: number;
  pods: number;
  build: () => KubeObject[];
}

const SIZES: Size[] = [
  {
    label: '100x1000',
    nodes: 100,
    pods: 1000,
    build: () => syntheticCluster({ nodes: 100, pods: 1000 }).items as KubeObject[],
  },
  {
    label: '300x6000',
    nodes: 300,
    pods: 6000,
    build: () => syntheticCluster({ nodes: 300, pods: 6000 }).items as KubeObject[],
  },
  {
    label: '5000x10000',
    nodes: 5000,
    pods: 10000,
    build: () => workloadByName('SchedulingBasic').build(1),
  },
];

const round = (n: number) => Math.round(n);
function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? NaN),
  };
}
const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

function watchMetrics(url: string) {
  let slowest = 0;
  let failures = 0;
  let lagMax = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        const text = await res.text();
        if (!res.ok) failures++;
        // prom-client's event-loop delay histogram, reset at every scrape: the worst delay since the last.
        const lag = /^schedlab_nodejs_eventloop_lag_max_seconds(?:\{[^}]*\})? (\S+)$/m.exec(text);
        if (lag) lagMax = Math.max(lagMax, Number(lag[1]) * 1000);
      } catch {
        failures++;
      }
      slowest = Math.max(slowest, performance.now() - started);
      await sleep(250);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return { slowestMs: round(slowest), failures, eventLoopLagMaxMs: round(lagMax) };
  };
}

async function storedSize(databaseUrl: string, runId: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT
         (SELECT count(*) FROM placements WHERE run_id = $1)::int AS placements,
         (SELECT coalesce(sum(pg_column_size(p.*)), 0) FROM placements p WHERE run_id = $1)::bigint AS placement_bytes,
         (SELECT count(*) FROM pod_explanations WHERE run_id = $1)::int AS explanations,
         (SELECT coalesce(sum(pg_column_size(e.*)), 0) FROM pod_explanations e WHERE run_id = $1)::bigint AS explanation_bytes,
         (SELECT coalesce(sum(octet_length(explanation::text)), 0) FROM pod_explanations WHERE run_id = $1)::bigint AS explanation_json_bytes,
         (SELECT coalesce(max(octet_length(explanation::text)), 0) FROM pod_explanations WHERE run_id = $1)::bigint AS largest_json_bytes,
         (SELECT pg_column_size(r.*) FROM run_results r WHERE run_id = $1)::bigint AS result_bytes`,
      [runId],
    );
    const r = rows[0];
    return {
      placements: r.placements,
      placementsMiB: mib(Number(r.placement_bytes)),
      explanations: r.explanations,
      explanationsMiB: mib(Number(r.explanation_bytes)),
      explanationJsonMiB: mib(Number(r.explanation_json_bytes)),
      bytesPerExplanation: Math.round(Number(r.explanation_bytes) / Math.max(1, r.explanations)),
      largestExplanationJsonBytes: Number(r.largest_json_bytes),
      runResultKiB: Math.round(Number(r.result_bytes) / 1024),
    };
  } finally {
    await client.end();
  }
}

async function measure(
  size: Size,
  service: BenchService,
  worker: ServiceProcess,
  metricsUrl: string,
  fullSamples: number,
) {
  const items = size.build();
  const snapshot = await service.call(
    'POST',
    `/v1/snapshots?name=${size.label}`,
    JSON.stringify({ apiVersion: 'v1', kind: 'List', items }),
  );
  const stopWatching = watchMetrics(metricsUrl);
  let writingSeenAt: number | undefined;
  const { run, ms } = await submitAndWait(
    service,
    { type: 'simulate', snapshotId: snapshot.id },
    {
      pollMs: POLL_MS,
      limitMs: RUN_LIMIT_MS,
      onPoll: (current) => {
        if (current.phase === 'writing') writingSeenAt ??= performance.now();
      },
    },
  );
  const submitToSucceededMs = round(ms);
  // From the first poll that saw phase `writing` (so up to one poll late) to the one that saw succeeded.
  const writingMs = writingSeenAt === undefined ? null : round(performance.now() - writingSeenAt);
  const metrics = await stopWatching();
  const stored = await storedSize(service.databaseUrl, run.id);
  console.log(
    `${size.label}: submit → succeeded ${submitToSucceededMs} ms, durationMs ${run.durationMs}, stored ${JSON.stringify(stored)}`,
  );

  // Pods in the run's order; the last one is the replay's worst case.
  const pods: string[] = [];
  for (let cursor: string | null = null; ;) {
    const page: Json = await service.call(
      'GET',
      `/v1/runs/${run.id}/placements?limit=1000${cursor ? `&cursor=${cursor}` : ''}`,
    );
    pods.push(...page.items.map((p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`));
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  const explanationUrl = (pod: string, query = '') => {
    const [ns, name] = pod.split('/');
    return `/v1/runs/${run.id}/pods/${ns}/${name}/explanation${query}`;
  };
  const timed = async (url: string) => {
    const t = performance.now();
    await service.call('GET', url);
    return performance.now() - t;
  };
  let seed = 12345;
  const randomPod = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return pods[seed % pods.length];
  };
  const compact: number[] = [];
  for (let i = 0; i < 200; i++) compact.push(await timed(explanationUrl(randomPod())));
  // Distinct pods, so every replay is a cache miss; the last pod first and alone.
  const lastPod = pods[pods.length - 1];
  const lastPodMs = round(await timed(explanationUrl(lastPod, '?detail=full')));
  const cachedMs = round(await timed(explanationUrl(lastPod, '?detail=full')));
  const sample = new Set<string>();
  while (sample.size < Math.min(fullSamples, pods.length - 1)) {
    const pod = randomPod();
    if (pod !== lastPod) sample.add(pod);
  }
  const full: number[] = [lastPodMs];
  for (const pod of sample) full.push(await timed(explanationUrl(pod, '?detail=full')));

  return {
    size: size.label,
    nodes: size.nodes,
    pendingPods: size.pods,
    submitToSucceededMs,
    runDurationMs: run.durationMs,
    writingMs,
    workerPeakRssMiB: peakRssMiB(worker.child.pid),
    workerMetricsSlowestMs: metrics.slowestMs,
    workerMetricsFailures: metrics.failures,
    workerEventLoopLagMaxMs: metrics.eventLoopLagMaxMs,
    stored,
    explanation: {
      compact: stats(compact),
      full: stats(full),
      fullLastPodMs: lastPodMs,
      fullCachedMs: cachedMs,
    },
  };
}

async function main() {
  const only = argValue('only');
  const fullSamples = Number(argValue('full') ?? 10);
  const jsonPath = argValue('json');
  const service = await startBenchService({ queue: 'runs', workers: 0, env: { WORKER_CONCURRENCY: '1' } });
  const results = [];
  try {
    for (const size of SIZES.filter((s) => !only || s.label === only)) {
      // A fresh worker per size, so its peak RSS is this run's.
      const metricsPort = String(20000 + Math.floor(Math.random() * 20000));
      const worker = await service.startWorker({ WORKER_METRICS_PORT: metricsPort });
      const result = await measure(
        size,
        service,
        worker,
        `http://127.0.0.1:${metricsPort}/metrics`,
        fullSamples,
      );
      results.push(result);
      console.log(JSON.stringify(result));
      await worker.stop();
    }
    const machine = machineLine();
    console.log(`machine: ${machine}`);
    const row = (...cells: string[]) =>
      console.log(cells.map((c, i) => (i === 0 ? c.padEnd(34) : c.padStart(12))).join(' | '));
    row('figure', ...results.map((r) => r.size));
    row('submit → succeeded (ms)', ...results.map((r) => String(r.submitToSucceededMs)));
    row('run durationMs (write included)', ...results.map((r) => String(r.runDurationMs)));
    row('of which writing rows (ms)', ...results.map((r) => String(r.writingMs)));
    row('worker peak RSS (MiB)', ...results.map((r) => String(r.workerPeakRssMiB)));
    row('worker /metrics slowest (ms)', ...results.map((r) => String(r.workerMetricsSlowestMs)));
    row('worker event-loop delay max (ms)', ...results.map((r) => String(r.workerEventLoopLagMaxMs)));
    row('explanations stored (MiB)', ...results.map((r) => String(r.stored.explanationsMiB)));
    row('bytes per explanation (stored)', ...results.map((r) => String(r.stored.bytesPerExplanation)));
    row('explanation JSON (MiB)', ...results.map((r) => String(r.stored.explanationJsonMiB)));
    row('placements stored (MiB)', ...results.map((r) => String(r.stored.placementsMiB)));
    row(
      'compact explanation p50/p99 (ms)',
      ...results.map((r) => `${r.explanation.compact.p50Ms}/${r.explanation.compact.p99Ms}`),
    );
    row(
      'full (replay) p50/p99 (ms)',
      ...results.map((r) => `${r.explanation.full.p50Ms}/${r.explanation.full.p99Ms}`),
    );
    row('full, last pod (ms)', ...results.map((r) => String(r.explanation.fullLastPodMs)));
    row('full, cached (ms)', ...results.map((r) => String(r.explanation.fullCachedMs)));
    if (jsonPath) writeFileSync(jsonPath, `${JSON.stringify({ machine, results }, null, 2)}\n`);
  } finally {
    await service.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
