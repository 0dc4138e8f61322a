/**
 * Side by side with upstream (issue #22): the same generated dumps as the whole-process rows,
 * given to the `schedlab` bin with default options and to the oracle program (tools/oracle,
 * `oracle bench`), which runs upstream kube-scheduler as a library at a pinned release:
 *
 * - the real scheduler: `scheduler.New` over a fake clientset, default options (parallelism 16),
 *   nodes and running pods loaded first, timed from the first pending pod's creation to the last
 *   binding;
 * - the framework loop at parallelism 1 (the golden files' replay engine: default profile,
 *   adaptive percentageOfNodesToScore, lowest-node-name tie-break, preemption on).
 *
 * Each shape also runs `schedlab simulate --tie-break lowest-node-name -o json` and compares the
 * sorted "ns/name=node" lines (unscheduled: empty node) with the loop's; a disagreement prints
 * the first differing pod (in scheduling order) and makes this script exit 1. Without `go` on
 * PATH it says so and prints Schedlab alone.
 *
 *   node -r @swc-node/register bench/upstream.ts [--runs N] [--upstream-runs N]
 *     [--release 1.37.2] [--check-only] [--json FILE] [shape…]
 *
 * --check-only runs only the placement comparison (the CI smoke test uses it on SmokeBasic).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeWorkloadDump } from './dump';
import { median, timed } from './whole-process';
import { CAPACITY, CAPACITY_POD, workloadByName } from './workloads';

const oracle = require('../scripts/oracle.cjs') as {
  ensureBinary(release: string, log?: (s: string) => void): string;
  haveGo(): boolean;
};

export const UPSTREAM_SHAPES = ['SchedulingBasic', 'Running40k', 'Realistic', 'Capacity'] as const;
/** Schedlab's default compatibility version is 1.37: compare with the newest pinned 1.37 patch. */
export const DEFAULT_RELEASE = '1.37.2';

export interface OracleResult {
  mode: 'loop' | 'scheduler' | 'capacity';
  release: string;
  nodes: number;
  pods: number;
  scheduled: number;
  seconds: number;
  podsPerSecond: number;
  peakRssMiB: number;
  placementsChecksum?: string;
}

export interface Agreement {
  agree: boolean;
  schedlabChecksum: string;
  upstreamChecksum: string;
  schedlabScheduled: number;
  upstreamScheduled: number;
  /** The first pod, in Schedlab's scheduling order, placed differently. */
  firstDifference?: { pod: string; schedlab: string; upstream: string };
}

export interface UpstreamRow {
  shape: string;
  nodes: number;
  pending: number;
  schedlab?: { podsPerSecond: number; seconds: number; peakRssMiB: number | null; scheduled: number };
  scheduler?: OracleResult;
  loop?: OracleResult;
  agreement?: Agreement;
}

interface SimulateJson {
  compatibilityVersion: string;
  summary: { pods: number; scheduled: number };
  placements: { pod: string; outcome: string; node?: string }[];
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The sorted "ns/name=node" lines and their checksum, as the oracle computes them. */
export function placementLines(entries: Iterable<[string, string]>): { lines: string[]; checksum: string } {
  const lines = [...entries].map(([pod, node]) => `${pod}=${node}`).sort();
  return { lines, checksum: sha256(lines.join('\n') + '\n') };
}

function simulatePlacements(out: SimulateJson): [string, string][] {
  return out.placements.map((p) => [p.pod, p.outcome === 'scheduled' ? (p.node ?? '') : '']);
}

function runOracle(
  bin: string,
  mode: OracleResult['mode'],
  file: string,
  placements?: string,
  extra: string[] = [],
): OracleResult {
  const args = [
    'bench',
    '--in',
    file,
    '--mode',
    mode,
    ...(placements ? ['--placements', placements] : []),
    ...extra,
  ];
  const r = spawnSync(bin, args, { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 60 * 60_000 });
  if (r.status !== 0) throw new Error(`oracle ${args.join(' ')} exited ${r.status ?? r.signal}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as OracleResult;
}

/** Compares Schedlab's deterministic placements with the upstream loop's. */
export function comparePlacements(
  schedlab: SimulateJson,
  upstreamLines: string[],
  upstream: OracleResult,
): Agreement {
  return compareEntries(simulatePlacements(schedlab), schedlab.summary.scheduled, upstreamLines, upstream);
}

/**
 * Compares "key=value" entries (Schedlab's, in its order) with the oracle's sorted lines: pods and
 * their nodes, or for capacity nodes and their copies.
 */
export function compareEntries(
  ours: [string, string][],
  ourScheduled: number,
  upstreamLines: string[],
  upstream: OracleResult,
): Agreement {
  const { checksum } = placementLines(ours);
  const theirs = new Map<string, string>();
  for (const line of upstreamLines) {
    const at = line.indexOf('=');
    theirs.set(line.slice(0, at), line.slice(at + 1));
  }
  const agreement: Agreement = {
    agree: checksum === upstream.placementsChecksum && ourScheduled === upstream.scheduled,
    schedlabChecksum: checksum,
    upstreamChecksum: upstream.placementsChecksum ?? '',
    schedlabScheduled: ourScheduled,
    upstreamScheduled: upstream.scheduled,
  };
  if (!agreement.agree) {
    const seen = new Set<string>();
    for (const [pod, node] of ours) {
      seen.add(pod);
      const other = theirs.get(pod);
      if (other !== node) {
        agreement.firstDifference = { pod, schedlab: node, upstream: other ?? '(not in upstream’s list)' };
        break;
      }
    }
    if (!agreement.firstDifference) {
      const missing = [...theirs.keys()].find((k) => !seen.has(k));
      if (missing)
        agreement.firstDifference = {
          pod: missing,
          schedlab: '(not in Schedlab’s list)',
          upstream: theirs.get(missing) ?? '',
        };
    }
  }
  return agreement;
}

interface CapacityJson {
  compatibilityVersion: string;
  replicas: number;
  perNode: { node: string; replicas: number }[];
  stopReason: string;
}

/**
 * The capacity row: `schedlab capacity` (default options, then lowest-node-name) against the
 * oracle's capacity loop (copies one at a time, no preemption, parallelism 1). Upstream's real
 * scheduler has no capacity mode (cluster-capacity drives it through an API server).
 */
function capacityRow(
  bin: string | undefined,
  file: string,
  dir: string,
  opts: UpstreamOptions,
  log: (s: string) => void,
): UpstreamRow {
  const w = CAPACITY;
  const podFile = path.join(dir, 'capacity-pod.json');
  writeFileSync(podFile, JSON.stringify(CAPACITY_POD));
  const row: UpstreamRow = { shape: w.name, nodes: w.nodes, pending: w.pods };
  const args = [
    'capacity',
    '--cluster',
    file,
    '--pod',
    podFile,
    '--max-replicas',
    String(w.pods),
    '-o',
    'json',
  ];
  if (!opts.checkOnly) {
    log(`upstream: ${w.name}: schedlab capacity, default options (${opts.runs} runs) …`);
    const runs = Array.from({ length: opts.runs }, () => timed(args));
    const seconds = median(runs.map((t) => t.seconds));
    const rss = runs.map((t) => t.peakRssMiB);
    const replicas = (JSON.parse(runs[0].stdout) as CapacityJson).replicas;
    row.schedlab = {
      seconds,
      podsPerSecond: replicas / seconds,
      peakRssMiB: rss.some((v) => v === null) ? null : median(rss as number[]),
      scheduled: replicas,
    };
  }
  if (!bin) return row;
  log(
    `upstream: ${w.name}: schedlab capacity --tie-break lowest-node-name vs the v${opts.release} capacity loop …`,
  );
  const out = JSON.parse(timed([...args, '--tie-break', 'lowest-node-name']).stdout) as CapacityJson;
  const linesFile = path.join(dir, `${w.name}.per-node`);
  const loops: OracleResult[] = [];
  for (let i = 0; i < (opts.checkOnly ? 1 : opts.upstreamRuns); i++) {
    const extra = ['--pod', podFile, '--max-replicas', String(w.pods)];
    loops.push(runOracle(bin, 'capacity', file, i === 0 ? linesFile : undefined, extra));
  }
  row.loop = medianRun(loops);
  const ours = out.perNode.map((n): [string, string] => [n.node, String(n.replicas)]);
  const upstreamLines = readFileSync(linesFile, 'utf8').split('\n').filter(Boolean);
  row.agreement = compareEntries(ours, out.replicas, upstreamLines, loops[0]);
  return row;
}

export interface UpstreamOptions {
  runs: number;
  upstreamRuns: number;
  release: string;
  checkOnly: boolean;
  log?: (s: string) => void;
}

export function runUpstream(
  shapes: readonly string[],
  opts: UpstreamOptions,
): { rows: UpstreamRow[]; ok: boolean } {
  const log = opts.log ?? console.log;
  const withGo = oracle.haveGo();
  let bin: string | undefined;
  if (!withGo) {
    log('upstream: `go` is not on PATH, so the oracle (tools/oracle) cannot run: Schedlab alone.');
  } else {
    bin = oracle.ensureBinary(opts.release, log);
  }
  const minor = opts.release.split('.').slice(0, 2).join('.');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'schedlab-bench-upstream-'));
  const rows: UpstreamRow[] = [];
  let ok = true;
  try {
    for (const shape of shapes) {
      const w = workloadByName(shape);
      const file = path.join(dir, `${w.name}.json`);
      writeWorkloadDump(w.name, file);
      if (w.name === CAPACITY.name) {
        const row = capacityRow(bin, file, dir, opts, log);
        rows.push(row);
        if (row.agreement) ok = reportAgreement(row, log) && ok;
        continue;
      }
      const row: UpstreamRow = { shape: w.name, nodes: w.nodes, pending: w.pods };
      rows.push(row);
      if (!opts.checkOnly) {
        log(`upstream: ${w.name}: schedlab simulate, default options (${opts.runs} runs) …`);
        const runs = Array.from({ length: opts.runs }, () =>
          timed(['simulate', '--cluster', file, '-o', 'json']),
        );
        const seconds = median(runs.map((t) => t.seconds));
        const rss = runs.map((t) => t.peakRssMiB);
        row.schedlab = {
          seconds,
          podsPerSecond: w.pods / seconds,
          peakRssMiB: rss.some((v) => v === null) ? null : median(rss as number[]),
          scheduled: (JSON.parse(runs[0].stdout) as SimulateJson).summary.scheduled,
        };
      }
      if (!bin) continue;
      log(
        `upstream: ${w.name}: schedlab simulate --tie-break lowest-node-name vs the v${opts.release} loop …`,
      );
      const sim = timed(['simulate', '--cluster', file, '--tie-break', 'lowest-node-name', '-o', 'json']);
      const out = JSON.parse(sim.stdout) as SimulateJson;
      if (out.compatibilityVersion !== minor)
        log(
          `upstream: warning: schedlab reproduces ${out.compatibilityVersion}, the oracle is v${opts.release}`,
        );
      const loops: OracleResult[] = [];
      const placementsFile = path.join(dir, `${w.name}.placements`);
      for (let i = 0; i < (opts.checkOnly ? 1 : opts.upstreamRuns); i++)
        loops.push(runOracle(bin, 'loop', file, i === 0 ? placementsFile : undefined));
      row.loop = medianRun(loops);
      const upstreamLines = readFileSync(placementsFile, 'utf8').split('\n').filter(Boolean);
      row.agreement = comparePlacements(out, upstreamLines, loops[0]);
      ok = reportAgreement(row, log) && ok;
      if (opts.checkOnly) continue;
      const oracleBin = bin;
      log(`upstream: ${w.name}: the real scheduler (${opts.upstreamRuns} runs) …`);
      row.scheduler = medianRun(
        Array.from({ length: opts.upstreamRuns }, () => runOracle(oracleBin, 'scheduler', file)),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  log('');
  if (!opts.checkOnly) {
    log(
      `Side by side with upstream v${opts.release} (Schedlab: median of ${opts.runs}; upstream: median of ${opts.upstreamRuns}):`,
    );
    log(formatUpstream(rows));
  }
  return { rows, ok };
}

/** Prints the row's placement comparison; false when they differ. */
function reportAgreement(row: UpstreamRow, log: (s: string) => void): boolean {
  const a = row.agreement;
  if (!a) return true;
  const what = row.shape === CAPACITY.name ? 'copies per node' : 'placements';
  if (a.agree) {
    log(
      `upstream: ${row.shape}: ${what} agree (${a.schedlabScheduled} of ${row.pending} scheduled, sha256 ${a.schedlabChecksum.slice(0, 16)}…)`,
    );
    return true;
  }
  const d = a.firstDifference;
  log(
    `upstream: ${row.shape}: ${what.toUpperCase()} DIFFER (Schedlab ${a.schedlabScheduled} scheduled, upstream ${a.upstreamScheduled})` +
      (d ? `; first difference ${d.pod}: Schedlab "${d.schedlab}", upstream "${d.upstream}"` : ''),
  );
  return false;
}

function medianRun(runs: OracleResult[]): OracleResult {
  const sorted = [...runs].sort((a, b) => a.podsPerSecond - b.podsPerSecond);
  return { ...sorted[Math.floor(sorted.length / 2)], peakRssMiB: median(runs.map((r) => r.peakRssMiB)) };
}

const num = (v: number | null | undefined, digits = 0): string =>
  v === null || v === undefined
    ? 'n/a'
    : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (a: number | null | undefined, b: number | null | undefined): string =>
  a === null || a === undefined || b === null || b === undefined || b === 0
    ? 'n/a'
    : `${(a / b).toFixed(2)}×`;

export function formatUpstream(rows: readonly UpstreamRow[]): string {
  const header = [
    'shape',
    'pending',
    'Schedlab pods/s',
    'RSS MiB',
    'scheduler pods/s',
    'RSS MiB',
    'loop p=1 pods/s',
    'RSS MiB',
    '÷ scheduler',
    '÷ loop',
    'RSS ÷ scheduler',
    'placements vs loop',
  ];
  const body = rows.map((r) => [
    r.shape,
    num(r.pending),
    num(r.schedlab?.podsPerSecond),
    num(r.schedlab?.peakRssMiB),
    r.scheduler ? `${num(r.scheduler.podsPerSecond)}` : 'n/a',
    num(r.scheduler?.peakRssMiB),
    num(r.loop?.podsPerSecond),
    num(r.loop?.peakRssMiB),
    ratio(r.schedlab?.podsPerSecond, r.scheduler?.podsPerSecond),
    ratio(r.schedlab?.podsPerSecond, r.loop?.podsPerSecond),
    ratio(r.schedlab?.peakRssMiB, r.scheduler?.peakRssMiB),
    r.agreement ? (r.agreement.agree ? `agree (${num(r.agreement.schedlabScheduled)})` : 'DIFFER') : 'n/a',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const take = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const runs = Number(take('--runs') ?? 3);
  const upstreamRuns = Number(take('--upstream-runs') ?? 1);
  const release = (take('--release') ?? DEFAULT_RELEASE).replace(/^v/, '');
  const json = take('--json');
  const checkOnly = args.includes('--check-only');
  const shapes = args.filter((a) => a !== '--check-only');
  const { rows, ok } = runUpstream(shapes.length ? shapes : UPSTREAM_SHAPES, {
    runs,
    upstreamRuns,
    release,
    checkOnly,
  });
  if (json) writeFileSync(json, JSON.stringify({ date: new Date().toISOString(), release, rows }, null, 2));
  process.exit(ok ? 0 : 1);
}
