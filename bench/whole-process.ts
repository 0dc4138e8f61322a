/**
 * Whole-process rows: what a user runs, timed from outside. Each shape is written as a cluster
 * dump and given to the `schedlab` bin with default options (`simulate --cluster F -o json`, and
 * `explain --pod <last pending pod>`), several times; the median wall time and peak RSS are
 * printed next to the in-process engine figure of the same input (bench/measure.ts, default
 * options), so the cost of everything around the engine is visible as a ratio.
 *
 *   node -r @swc-node/register bench/whole-process.ts [--runs N] [shape…]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeWorkloadDump } from './dump';
import type { BenchResult } from './measure';
import { workloadByName } from './workloads';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'apps', 'cli', 'bin', 'schedlab.js');
/** GNU time gives the child's own peak RSS; without it only wall time is reported. */
const GNU_TIME = '/usr/bin/time';

export const WHOLE_PROCESS_SHAPES = ['SchedulingBasic', 'Running40k', 'Realistic'] as const;

export interface WholeProcessRow {
  shape: string;
  nodes: number;
  pending: number;
  simulateSeconds: number;
  podsPerSecond: number;
  peakRssMiB: number | null;
  explainSeconds: number;
  explainPeakRssMiB: number | null;
  enginePodsPerSecond: number;
}

export interface Timed {
  seconds: number;
  peakRssMiB: number | null;
  stdout: string;
}

/**
 * The bin run as npm runs it, the file itself (its shell line starts Node with its V8 flags), on
 * the `node` this script runs on, first on PATH as npm puts the project's own.
 */
export function timed(args: string[]): Timed {
  const useTime = existsSync(GNU_TIME);
  const command = useTime ? GNU_TIME : BIN;
  const timeFile = path.join(os.tmpdir(), `schedlab-bench-time-${process.pid}.txt`);
  const argv = useTime ? ['-f', '%e %M', '-o', timeFile, BIN, ...args] : args;
  const env = {
    ...process.env,
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
  };
  const start = process.hrtime.bigint();
  const r = spawnSync(command, argv, { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0) throw new Error(`schedlab ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const m = useTime ? /^([\d.]+) (\d+)$/m.exec(readFileSync(timeFile, 'utf8')) : null;
  return {
    seconds: m ? Number(m[1]) : seconds,
    peakRssMiB: m ? Math.round(Number(m[2]) / 1024) : null,
    stdout: r.stdout,
  };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function medianOrNull(values: (number | null)[]): number | null {
  return values.some((v) => v === null) ? null : median(values as number[]);
}

function engineFigure(shape: string): BenchResult {
  const out = execFileSync(
    process.execPath,
    ['-r', '@swc-node/register', path.join(__dirname, 'measure.ts'), shape, '1', 'compact', ''],
    {
      cwd: ROOT,
      env: { ...process.env, SWC_NODE_PROJECT: path.join(ROOT, 'tsconfig.base.json') },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as BenchResult;
}

export function measureShape(shape: string, runs: number, dir: string): WholeProcessRow {
  const workload = workloadByName(shape);
  const file = path.join(dir, `${workload.name}.json`);
  if (!existsSync(file)) writeWorkloadDump(workload.name, file);
  const simulate: Timed[] = [];
  const explain: Timed[] = [];
  let lastPod = '';
  for (let i = 0; i < runs; i++) {
    const s = timed(['simulate', '--cluster', file, '-o', 'json']);
    simulate.push(s);
    if (!lastPod) {
      const placements = JSON.parse(s.stdout).placements as { pod: string }[];
      lastPod = placements[placements.length - 1].pod;
    }
    explain.push(timed(['explain', '--cluster', file, '--pod', lastPod]));
  }
  const seconds = median(simulate.map((t) => t.seconds));
  return {
    shape: workload.name,
    nodes: workload.nodes,
    pending: workload.pods,
    simulateSeconds: seconds,
    podsPerSecond: Math.round(workload.pods / seconds),
    peakRssMiB: medianOrNull(simulate.map((t) => t.peakRssMiB)),
    explainSeconds: median(explain.map((t) => t.seconds)),
    explainPeakRssMiB: medianOrNull(explain.map((t) => t.peakRssMiB)),
    enginePodsPerSecond: engineFigure(workload.name).podsPerSecond,
  };
}

export function formatWholeProcess(rows: readonly WholeProcessRow[]): string {
  const header = [
    'shape',
    'nodes',
    'pending',
    'simulate s',
    'pods/s',
    'RSS MiB',
    'engine pods/s',
    'engine ÷ whole',
    'explain s',
    'RSS MiB',
  ];
  const body = rows.map((r) => [
    r.shape,
    String(r.nodes),
    String(r.pending),
    r.simulateSeconds.toFixed(2),
    String(r.podsPerSecond),
    r.peakRssMiB === null ? 'n/a' : String(r.peakRssMiB),
    String(r.enginePodsPerSecond),
    (r.enginePodsPerSecond / r.podsPerSecond).toFixed(2),
    r.explainSeconds.toFixed(2),
    r.explainPeakRssMiB === null ? 'n/a' : String(r.explainPeakRssMiB),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function runWholeProcess(
  shapes: readonly string[],
  runs: number,
  log: (s: string) => void = console.log,
): WholeProcessRow[] {
  const dir = path.join(os.tmpdir(), 'schedlab-bench');
  mkdirSync(dir, { recursive: true });
  const rows: WholeProcessRow[] = [];
  for (const shape of shapes) {
    log(`whole process: ${shape} (${runs} runs of simulate and explain) …`);
    rows.push(measureShape(shape, runs, dir));
  }
  log('');
  log(`Whole process, default options (median of ${runs}; dumps in ${dir}):`);
  log(formatWholeProcess(rows));
  return rows;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args.splice(at, 2)[1]) : 3;
  runWholeProcess(args.length ? args : WHOLE_PROCESS_SHAPES, runs);
}
