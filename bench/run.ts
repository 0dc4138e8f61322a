/**
 * Engine benchmark runner (in the spirit of upstream scheduler_perf): runs each workload in its
 * own child process (so each peak RSS is that workload's alone), prints a table, and with
 * `--json <file>` writes [{workload, nodes, pods, podsPerSecond, peakRssMiB}].
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/run.ts [options] [workload…]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BenchResult } from './measure';
import { WORKLOADS, workloadByName } from './workloads';

export interface RunOptions {
  workloads: string[];
  seed: number;
  explain: 'full' | 'compact' | 'summary';
  json?: string;
  maxPods?: number;
}

function parseArgs(argv: string[]): RunOptions {
  const opts: RunOptions = { workloads: [], seed: 1, explain: 'compact' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--json') opts.json = value();
    else if (a === '--seed') opts.seed = Number(value());
    else if (a === '--explain') {
      const v = value();
      if (v !== 'full' && v !== 'compact' && v !== 'summary') {
        throw new Error(`--explain must be full, compact or summary, got "${v}"`);
      }
      opts.explain = v;
    } else if (a === '--max-pods') opts.maxPods = Number(value());
    else if (a === '--list') {
      for (const w of WORKLOADS)
        console.log(`${w.name.padEnd(32)} ${w.nodes} nodes, ${w.pods} pods: ${w.description}`);
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else opts.workloads.push(workloadByName(a).name);
  }
  if (opts.workloads.length === 0) opts.workloads = WORKLOADS.map((w) => w.name);
  return opts;
}

/** One workload in a fresh Node process running measure.ts. */
function runChild(workload: string, opts: RunOptions): BenchResult {
  const root = path.resolve(__dirname, '..');
  const out = execFileSync(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      path.join(__dirname, 'measure.ts'),
      workload,
      String(opts.seed),
      opts.explain,
      String(opts.maxPods ?? ''),
    ],
    {
      cwd: root,
      env: { ...process.env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.base.json') },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 20,
    },
  );
  const line = out.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as BenchResult;
}

export function formatTable(results: readonly BenchResult[]): string {
  const header = ['workload', 'nodes', 'pods', 'pods/s', 'peak RSS MiB', 'scheduled', 'preempted', 'seconds'];
  const rows = results.map((r) => [
    r.workload,
    String(r.nodes),
    String(r.pods),
    String(r.podsPerSecond),
    String(r.peakRssMiB),
    String(r.scheduled),
    String(r.preempted),
    r.scheduleSeconds.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function runBenchmarks(opts: RunOptions, log: (s: string) => void = console.log): BenchResult[] {
  const results: BenchResult[] = [];
  for (const w of opts.workloads) {
    log(`running ${w} …`);
    results.push(runChild(w, opts));
  }
  log('');
  log(formatTable(results));
  if (opts.json) {
    const rows = results.map(({ workload, nodes, pods, podsPerSecond, peakRssMiB }) => ({
      workload,
      nodes,
      pods,
      podsPerSecond,
      peakRssMiB,
    }));
    writeFileSync(opts.json, `${JSON.stringify(rows, null, 2)}\n`);
    log(`\nwrote ${opts.json}`);
  }
  return results;
}

if (require.main === module) {
  try {
    runBenchmarks(parseArgs(process.argv.slice(2)));
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
}
