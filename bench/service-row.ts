/**
 * The service row of the side by side with upstream (issue #22): one shape's dump (default
 * SchedulingBasic) run through the service as users run it. The compiled api and one worker
 * (apps/e2e/src/service-process.ts, `WORKER_CONCURRENCY=1`) start on a fresh PostgreSQL database
 * with a private queue prefix; the dump is imported once over REST (`POST /v1/snapshots`, timed on
 * its own), then `reps` times `POST /v1/runs` (type simulate, default options) is polled
 * with `GET /v1/runs/{id}` every second, and at once when the worker publishes the final status
 * (bench/service-harness.ts), so polling does not take CPU from the run.
 * Figures: submit → succeeded (median), pending pods ÷ that, the worker's peak RSS (VmHWM, threads
 * included) and the api's, and per run when the worker reported each phase (starting, loading,
 * scheduling, writing, done), from the progress it publishes on Redis. Prints one JSON line last;
 * without PostgreSQL or Redis it prints {"skipped": why}.
 *
 *   node -r @swc-node/register bench/service-row.ts [--shape SchedulingBasic] [--reps 3] [--long 15]
 *   (a first run of --long seconds or more is not repeated)
 *   (SWC_NODE_PROJECT=tsconfig.base.json; the api and worker must be built: scripts/build.cjs
 *   --stale apps/api apps/worker, which bench/upstream.ts runs first)
 */
import { workloadByName } from './workloads';
import {
  cpuSeconds,
  formatTimeline,
  type PhaseTimeline,
  peakRssMiB,
  serviceUnavailable,
  startBenchService,
  submitAndWait,
  watchPhases,
  argValue,
} from './service-harness';

/** Polls are few (the api shares the cores with the worker); the final status wakes the last one. */
const POLL_MS = 1000;
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
  /** Per run: when the worker reported each phase, from the submit. */
  phases: PhaseTimeline[];
  /** Per run: CPU seconds the worker (its engine thread included) and the api used during it. */
  cpuSeconds: { worker: number | null; api: number | null }[];
}

export async function serviceRow(
  shape: string,
  reps: number,
  longSeconds = Infinity,
): Promise<ServiceRowResult | { skipped: string }> {
  const unavailable = await serviceUnavailable();
  if (unavailable) return { skipped: unavailable };
  const w = workloadByName(shape);
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: w.build(1) });
  const service = await startBenchService({
    queue: 'runs',
    env: { WORKER_CONCURRENCY: '1' },
    requestTimeoutMs: 300_000,
  });
  const phases = await watchPhases();
  try {
    const importStarted = performance.now();
    const snapshot = await service.call('POST', `/v1/snapshots?name=${w.name}`, body);
    const importSeconds = (performance.now() - importStarted) / 1000;
    const all: number[] = [];
    const timelines: PhaseTimeline[] = [];
    const cpu: ServiceRowResult['cpuSeconds'] = [];
    const worker = service.workers[0];
    const cpuOf = () => ({ worker: cpuSeconds(worker.child.pid), api: cpuSeconds(service.api.child.pid) });
    const used = (before: number | null, after: number | null) =>
      before === null || after === null ? null : Math.round((after - before) * 100) / 100;
    let scheduled = 0;
    for (let i = 0; i < reps && (i === 0 || all[0] < longSeconds); i++) {
      const cpuBefore = cpuOf();
      const { run, ms, submittedAt } = await submitAndWait(
        service,
        { type: 'simulate', snapshotId: snapshot.id },
        { pollMs: POLL_MS, limitMs: RUN_LIMIT_MS, phases },
      );
      const cpuAfter = cpuOf();
      const runCpu = {
        worker: used(cpuBefore.worker, cpuAfter.worker),
        api: used(cpuBefore.api, cpuAfter.api),
      };
      cpu.push(runCpu);
      const seconds = ms / 1000;
      all.push(seconds);
      const timeline = phases.timeline(String(run.id), submittedAt);
      timelines.push(timeline);
      const result = await service.call('GET', `/v1/runs/${String(run.id)}/result`);
      scheduled = (result.summary as { scheduled?: number } | undefined)?.scheduled ?? scheduled;
      console.error(
        `service: ${w.name}: run ${i + 1}/${reps} submit → succeeded ${seconds.toFixed(2)} s (${formatTimeline(timeline)}; CPU s worker ${runCpu.worker}, api ${runCpu.api})`,
      );
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
      apiPeakRssMiB: peakRssMiB(service.api.child.pid),
      phases: timelines,
      cpuSeconds: cpu,
    };
  } finally {
    await phases.stop();
    await service.stop();
  }
}

if (require.main === module) {
  serviceRow(
    argValue('shape') ?? 'SchedulingBasic',
    Number(argValue('reps') ?? 3),
    Number(argValue('long') ?? Infinity),
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
