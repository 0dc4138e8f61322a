/**
 * Runs ONE workload in this process and prints its figures as a JSON line on stdout. The runner
 * starts one process per workload so each peak RSS belongs to that workload alone.
 */
import {
  buildClusterState,
  createSimulator,
  schedulePending,
  setupEngine,
  summarize,
} from '@schedlab/scheduler';
import { workloadByName } from './workloads';

export interface BenchResult {
  workload: string;
  nodes: number;
  pods: number;
  podsPerSecond: number;
  peakRssMiB: number;
  scheduled: number;
  unschedulable: number;
  preempted: number;
  errors: number;
  setupSeconds: number;
  scheduleSeconds: number;
}

export interface MeasureOptions {
  seed: number;
  explain?: 'full' | 'compact' | 'summary';
  compatibilityVersion?: string;
  /** Schedules only the first N pending pods (quick runs, profiling). */
  maxPods?: number;
}

export function measure(name: string, opts: MeasureOptions): BenchResult {
  const w = workloadByName(name);
  let peakRss = process.memoryUsage().rss;
  const sample = (): void => {
    const rss = process.memoryUsage().rss;
    if (rss > peakRss) peakRss = rss;
  };
  const t0 = process.hrtime.bigint();
  const cluster = buildClusterState(w.build(opts.seed));
  // The release a user gets by default, unless the caller names one.
  const setup = setupEngine({ compatibilityVersion: opts.compatibilityVersion });
  const sim = createSimulator(cluster, setup, {
    seed: opts.seed,
    ...(opts.explain ? { explain: opts.explain } : {}),
  });
  const t1 = process.hrtime.bigint();
  sample();
  if (opts.maxPods !== undefined)
    cluster.pendingPods.length = Math.min(cluster.pendingPods.length, opts.maxPods);
  const results = schedulePending(sim, cluster.pendingPods, (done) => {
    if (done % 500 === 0) sample();
  });
  const t2 = process.hrtime.bigint();
  sample();
  // The kernel's high-water mark also catches peaks between samples.
  const maxRss = Math.max(peakRss, process.resourceUsage().maxRSS * 1024);
  const s = summarize(results);
  const scheduleSeconds = Number(t2 - t1) / 1e9;
  return {
    workload: w.name,
    nodes: w.nodes,
    pods: cluster.pendingPods.length,
    podsPerSecond: Math.round(cluster.pendingPods.length / scheduleSeconds),
    peakRssMiB: Math.round(maxRss / (1024 * 1024)),
    scheduled: s.scheduled,
    unschedulable: s.unschedulable,
    preempted: s.preempted,
    errors: s.errors,
    setupSeconds: Number(t1 - t0) / 1e9,
    scheduleSeconds,
  };
}

if (require.main === module) {
  const [name, seed, explain, maxPods] = process.argv.slice(2);
  const r = measure(name, {
    seed: Number(seed ?? 1),
    explain: explain ? (explain as MeasureOptions['explain']) : undefined,
    maxPods: maxPods ? Number(maxPods) : undefined,
  });
  process.stdout.write(`${JSON.stringify(r)}\n`);
}
