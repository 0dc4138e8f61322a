/**
 * Side by side with upstream (issue #22): the same generated dumps given to the `schedlab` bin with
 * default options and to the oracle program (tools/oracle, `oracle bench`), which runs upstream
 * kube-scheduler as a library at a pinned release:
 *
 * - the real scheduler: `scheduler.New` over a fake clientset, default options (parallelism 16),
 *   nodes and running pods loaded first, timed from the first pending pod's creation to the last
 *   binding;
 * - the framework loop at parallelism 1 (the golden files' replay engine: default profile,
 *   lowest-node-name tie-break, preemption on; its node search starts at index 0 and rotates as
 *   upstream's nextStartNodeIndex does, so it is deterministic at any percentageOfNodesToScore).
 *
 * Every shape runs at the adaptive percentageOfNodesToScore (the default) and at 100 %
 * (`--profile` with `percentageOfNodesToScore: 100` for Schedlab, `--percentage 100` for the
 * oracle); a 100 % row may keep only the first pending pods (`maxPending`) so upstream finishes in
 * reasonable time. Each row also runs `schedlab simulate --tie-break lowest-node-name -o json` and
 * compares the sorted "ns/name=node" lines (unscheduled: empty node) with the loop's; a
 * disagreement prints the first differing pod (in scheduling order) and makes this script exit 1.
 * The service row runs SchedulingBasic through the compiled api and a worker (bench/service-row.ts)
 * and is compared with SchedulingBasic's upstream figures. Without `go` on PATH it says so and
 * prints Schedlab alone.
 *
 *   node -r @swc-node/register bench/upstream.ts [--reps N] [--long S] [--percentage adaptive|100|both]
 *     [--release 1.37.2] [--check-only] [--no-service] [--json FILE] [shape…]
 *   node -r @swc-node/register bench/upstream.ts --markdown FILE.json   (docs/benchmarks.md's tables)
 *
 * --reps N (default 3): each side of a row runs N times and the median is shown, unless its first
 * run took --long seconds or more (default 15), then once. --check-only runs only the placement
 * comparison (the CI smoke test uses it on SmokeBasic). A shape named on the command line that has
 * no default rows runs at the adaptive percentage (and at 100 % with --percentage 100|both).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { writeWorkloadDump } from './dump';
import type { ServiceRowResult } from './service-row';
import { median, timed, type Timed } from './whole-process';
import { CAPACITY, CAPACITY_POD, workloadByName } from './workloads';

const oracle = require('../scripts/oracle.cjs') as {
  ensureBinary(release: string, log?: (s: string) => void): string;
  haveGo(): boolean;
};

const ROOT = path.resolve(__dirname, '..');

/** Schedlab's default compatibility version is 1.37: compare with the newest pinned 1.37 patch. */
export const DEFAULT_RELEASE = '1.37.2';

/** One row: a shape at one percentageOfNodesToScore. */
export interface RowSpec {
  shape: string;
  /** percentageOfNodesToScore; undefined: the adaptive default. */
  percentage?: number;
  /** Keep only the first N pending pods of the shape. */
  maxPending?: number;
  /** The service row: the shape through the api and a worker. */
  service?: boolean;
}

/**
 * The default rows. 100 % rows keep fewer pending pods where upstream's loop would take minutes
 * (every node filtered and scored for every pod: 10× the adaptive 10 % at 5,000 nodes).
 */
export const DEFAULT_ROWS: readonly RowSpec[] = [
  // scheduler_perf's shapes first, then the 100 % rows, then the larger shapes and capacity.
  { shape: 'SchedulingBasic' },
  { shape: 'SchedulingBasic', service: true },
  { shape: 'SchedulingPodAntiAffinity_5000Nodes' },
  { shape: 'SchedulingPreferredNodeAffinity_5000Nodes' },
  { shape: 'TopologySpreading_5000Nodes' },
  { shape: 'SchedulingCSIPVs_5000Nodes' },
  { shape: 'SchedulingBasic', percentage: 100, maxPending: 500 },
  { shape: 'SchedulingPodAntiAffinity_5000Nodes', percentage: 100, maxPending: 100 },
  { shape: 'SchedulingPreferredNodeAffinity_5000Nodes', percentage: 100, maxPending: 200 },
  { shape: 'TopologySpreading_5000Nodes', percentage: 100, maxPending: 200 },
  { shape: 'SchedulingCSIPVs_5000Nodes', percentage: 100, maxPending: 100 },
  { shape: 'Running40k' },
  { shape: 'Realistic' },
  { shape: 'Capacity' },
  { shape: 'Running40k', percentage: 100, maxPending: 500 },
  { shape: 'Realistic', percentage: 100, maxPending: 250 },
];

export interface OracleResult {
  mode: 'loop' | 'scheduler' | 'capacity';
  release: string;
  nodes: number;
  pods: number;
  scheduled: number;
  seconds: number;
  podsPerSecond: number;
  peakRssMiB: number;
  percentageOfNodesToScore?: number;
  placementsChecksum?: string;
  failedAttempts?: number;
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

export interface Side {
  podsPerSecond: number;
  seconds: number;
  peakRssMiB: number | null;
  scheduled: number;
  reps: number;
}

export interface UpstreamRow {
  row: string;
  shape: string;
  percentage: number | 'adaptive';
  nodes: number;
  pending: number;
  schedlab?: Side & { what: string };
  scheduler?: Side;
  loop?: Side;
  agreement?: Agreement;
  /** 1-minute load average at the row's start and end. */
  load: [number, number];
  targets?: string;
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

export interface UpstreamOptions {
  /** Repetitions of each side of a row (median shown) unless its first run is long. */
  reps: number;
  /** A first run of this many seconds or more is not repeated. */
  longSeconds: number;
  release: string;
  checkOnly: boolean;
  service: boolean;
  log?: (s: string) => void;
  /** Called after every row with the rows so far (the JSON file is rewritten each time). */
  onRow?: (rows: readonly UpstreamRow[]) => void;
}

/** Runs `run` once, then again up to `reps` times in all while the first run was short. */
function repeat<T>(opts: UpstreamOptions, run: () => T, seconds: (t: T) => number): T[] {
  const out = [run()];
  const reps = opts.checkOnly ? 1 : opts.reps;
  while (out.length < reps && seconds(out[0]) < opts.longSeconds) out.push(run());
  return out;
}

function schedlabSide(runs: Timed[], count: (t: Timed) => number, what: string): Side & { what: string } {
  const seconds = median(runs.map((t) => t.seconds));
  const rss = runs.map((t) => t.peakRssMiB);
  const scheduled = count(runs[0]);
  return {
    what,
    seconds,
    podsPerSecond: scheduled / seconds,
    peakRssMiB: rss.some((v) => v === null) ? null : median(rss as number[]),
    scheduled,
    reps: runs.length,
  };
}

function oracleSide(runs: OracleResult[]): Side {
  const sorted = [...runs].sort((a, b) => a.podsPerSecond - b.podsPerSecond);
  const mid = sorted[Math.floor(sorted.length / 2)];
  return {
    podsPerSecond: mid.podsPerSecond,
    seconds: mid.seconds,
    peakRssMiB: median(runs.map((r) => r.peakRssMiB)),
    scheduled: mid.scheduled,
    reps: runs.length,
  };
}

const load1 = (): number => Math.round(os.loadavg()[0] * 10) / 10;

function rowLabel(spec: RowSpec): string {
  if (spec.service) return `${spec.shape} (service)`;
  return spec.percentage === undefined ? spec.shape : `${spec.shape} @${spec.percentage}%`;
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
  const row: UpstreamRow = {
    row: w.name,
    shape: w.name,
    percentage: 'adaptive',
    nodes: w.nodes,
    pending: w.pods,
    load: [load1(), 0],
  };
  const args = [
    'capacity',
    '--cluster',
    file,
    '--pod-template',
    podFile,
    '--max-replicas',
    String(w.pods),
    '-o',
    'json',
  ];
  if (!opts.checkOnly) {
    log(`upstream: ${w.name}: schedlab capacity, default options …`);
    const runs = repeat(
      opts,
      () => timed(args),
      (t) => t.seconds,
    );
    row.schedlab = schedlabSide(
      runs,
      (t) => (JSON.parse(t.stdout) as CapacityJson).replicas,
      'schedlab capacity (copies/s)',
    );
  }
  if (bin) {
    log(
      `upstream: ${w.name}: schedlab capacity --tie-break lowest-node-name vs the v${opts.release} capacity loop …`,
    );
    const out = JSON.parse(timed([...args, '--tie-break', 'lowest-node-name']).stdout) as CapacityJson;
    const linesFile = path.join(dir, `${w.name}.per-node`);
    const extra = ['--pod', podFile, '--max-replicas', String(w.pods)];
    let first = true;
    const loops = repeat(
      opts,
      () => {
        const r = runOracle(bin, 'capacity', file, first ? linesFile : undefined, extra);
        first = false;
        return r;
      },
      (r) => r.seconds,
    );
    row.loop = oracleSide(loops);
    const ours = out.perNode.map((n): [string, string] => [n.node, String(n.replicas)]);
    const upstreamLines = readFileSync(linesFile, 'utf8').split('\n').filter(Boolean);
    row.agreement = compareEntries(ours, out.replicas, upstreamLines, loops[0]);
  }
  row.load[1] = load1();
  return row;
}

/** One shape at one percentage: Schedlab default, Schedlab deterministic vs the loop, the scheduler. */
function shapeRow(
  spec: RowSpec,
  bin: string | undefined,
  dir: string,
  opts: UpstreamOptions,
  log: (s: string) => void,
): UpstreamRow {
  const w = workloadByName(spec.shape);
  const label = rowLabel(spec);
  const file = path.join(
    dir,
    `${w.name}${spec.maxPending === undefined ? '' : `-first${spec.maxPending}`}.json`,
  );
  writeWorkloadDump(w.name, file, 1, spec.maxPending);
  const pending = Math.min(w.pods, spec.maxPending ?? w.pods);
  const minor = opts.release.split('.').slice(0, 2).join('.');
  const row: UpstreamRow = {
    row: label,
    shape: w.name,
    percentage: spec.percentage ?? 'adaptive',
    nodes: w.nodes,
    pending,
    load: [load1(), 0],
  };
  const profileArgs: string[] = [];
  const oracleArgs: string[] = [];
  if (spec.percentage !== undefined) {
    const profile = path.join(dir, `percentage-${spec.percentage}.json`);
    writeFileSync(
      profile,
      JSON.stringify({
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'KubeSchedulerConfiguration',
        percentageOfNodesToScore: spec.percentage,
      }),
    );
    profileArgs.push('--config', profile);
    oracleArgs.push('--percentage', String(spec.percentage));
  }
  if (!opts.checkOnly) {
    log(`upstream: ${label}: schedlab simulate${profileArgs.length ? ' --config (percentage)' : ''} …`);
    const runs = repeat(
      opts,
      () => timed(['simulate', '--cluster', file, ...profileArgs, '-o', 'json']),
      (t) => t.seconds,
    );
    row.schedlab = schedlabSide(
      runs,
      (t) => (JSON.parse(t.stdout) as SimulateJson).summary.scheduled,
      'schedlab simulate',
    );
  }
  if (!bin) {
    row.load[1] = load1();
    return row;
  }
  log(`upstream: ${label}: schedlab simulate --tie-break lowest-node-name vs the v${opts.release} loop …`);
  const sim = timed([
    'simulate',
    '--cluster',
    file,
    ...profileArgs,
    '--tie-break',
    'lowest-node-name',
    '-o',
    'json',
  ]);
  const out = JSON.parse(sim.stdout) as SimulateJson;
  if (out.compatibilityVersion !== minor)
    log(`upstream: warning: schedlab reproduces ${out.compatibilityVersion}, the oracle is v${opts.release}`);
  const placementsFile = path.join(dir, `${w.name}.placements`);
  let first = true;
  const loops = repeat(
    opts,
    () => {
      const r = runOracle(bin, 'loop', file, first ? placementsFile : undefined, oracleArgs);
      first = false;
      return r;
    },
    (r) => r.seconds,
  );
  row.loop = oracleSide(loops);
  const upstreamLines = readFileSync(placementsFile, 'utf8').split('\n').filter(Boolean);
  row.agreement = comparePlacements(out, upstreamLines, loops[0]);
  if (!opts.checkOnly) {
    log(`upstream: ${label}: the real scheduler …`);
    row.scheduler = oracleSide(
      repeat(
        opts,
        () => runOracle(bin, 'scheduler', file, undefined, oracleArgs),
        (r) => r.seconds,
      ),
    );
  }
  row.load[1] = load1();
  return row;
}

/** The service row: SchedulingBasic through the compiled api and a worker (bench/service-row.ts). */
function serviceRow(spec: RowSpec, opts: UpstreamOptions, log: (s: string) => void): UpstreamRow | undefined {
  const w = workloadByName(spec.shape);
  const row: UpstreamRow = {
    row: rowLabel(spec),
    shape: w.name,
    percentage: 'adaptive',
    nodes: w.nodes,
    pending: w.pods,
    load: [load1(), 0],
  };
  log(`upstream: ${row.row}: building the api and worker (stale only) …`);
  const built = spawnSync(process.execPath, ['scripts/build.cjs', '--stale', 'apps/api', 'apps/worker'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0) {
    log(`upstream: ${row.row}: the build failed; no service row`);
    return undefined;
  }
  log(`upstream: ${row.row}: api + worker on PostgreSQL/Redis, submit → succeeded …`);
  const r = spawnSync(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      path.join(__dirname, 'service-row.ts'),
      '--shape',
      w.name,
      '--reps',
      String(opts.reps),
      '--long',
      String(opts.longSeconds),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, SWC_NODE_PROJECT: path.join(ROOT, 'tsconfig.base.json') },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    },
  );
  const last = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !last.startsWith('{')) {
    log(`upstream: ${row.row}: failed (exit ${r.status ?? r.signal}); no service row`);
    return undefined;
  }
  const result = JSON.parse(last) as ServiceRowResult | { skipped: string };
  if ('skipped' in result) {
    log(`upstream: ${row.row}: skipped: ${result.skipped}`);
    return undefined;
  }
  log(
    `upstream: ${row.row}: snapshot import ${result.importSeconds.toFixed(2)} s (not counted); submit → succeeded ${result.allSeconds.map((s) => s.toFixed(2)).join(', ')} s; worker peak RSS ${result.workerPeakRssMiB} MiB, api ${result.apiPeakRssMiB} MiB`,
  );
  row.schedlab = {
    what: 'api + worker, submit → succeeded',
    seconds: result.seconds,
    podsPerSecond: result.podsPerSecond,
    peakRssMiB: result.workerPeakRssMiB,
    scheduled: result.scheduled,
    reps: result.reps,
  };
  row.load[1] = load1();
  return row;
}

/** Issue #22's targets: ≥ 4× the real scheduler, ≥ 2× the loop, less memory than upstream. */
export function targets(row: UpstreamRow): string | undefined {
  const s = row.schedlab;
  if (!s || (!row.scheduler && !row.loop)) return undefined;
  const missed: string[] = [];
  if (row.scheduler && s.podsPerSecond < 4 * row.scheduler.podsPerSecond)
    missed.push(`÷ scheduler ${(s.podsPerSecond / row.scheduler.podsPerSecond).toFixed(2)}× < 4×`);
  if (row.loop && s.podsPerSecond < 2 * row.loop.podsPerSecond)
    missed.push(`÷ loop ${(s.podsPerSecond / row.loop.podsPerSecond).toFixed(2)}× < 2×`);
  const upstreamRss = row.scheduler?.peakRssMiB ?? row.loop?.peakRssMiB;
  if (
    s.peakRssMiB !== null &&
    upstreamRss !== undefined &&
    upstreamRss !== null &&
    s.peakRssMiB >= upstreamRss
  )
    missed.push(`RSS ${s.peakRssMiB} ≥ ${Math.round(upstreamRss)} MiB`);
  return missed.length ? `MISSED: ${missed.join('; ')}` : 'met';
}

/** The rows for the shapes named (all default rows when none), filtered by percentage. */
export function selectRows(shapes: readonly string[], percentage: 'adaptive' | '100' | 'both'): RowSpec[] {
  const wanted = (r: RowSpec) =>
    r.service ||
    percentage === 'both' ||
    (percentage === 'adaptive' ? r.percentage === undefined : r.percentage === 100);
  if (shapes.length === 0) return DEFAULT_ROWS.filter(wanted);
  const rows: RowSpec[] = [];
  for (const name of shapes) {
    const lower = name.toLowerCase();
    if (lower === 'service') {
      rows.push(...DEFAULT_ROWS.filter((r) => r.service));
      continue;
    }
    const shape = workloadByName(name).name;
    const defaults = DEFAULT_ROWS.filter((r) => r.shape === shape && !r.service);
    if (defaults.length) rows.push(...defaults.filter(wanted));
    else {
      if (percentage !== '100') rows.push({ shape });
      if (percentage !== 'adaptive' && shape !== CAPACITY.name) rows.push({ shape, percentage: 100 });
    }
  }
  return rows;
}

export function runUpstream(
  specs: readonly RowSpec[],
  opts: UpstreamOptions,
): { rows: UpstreamRow[]; ok: boolean } {
  const log = opts.log ?? console.log;
  let bin: string | undefined;
  if (!oracle.haveGo()) {
    log('upstream: `go` is not on PATH, so the oracle (tools/oracle) cannot run: Schedlab alone.');
  } else {
    try {
      bin = oracle.ensureBinary(opts.release, log);
    } catch (e) {
      // Another change to tools/oracle may not build yet; the last binary still answers.
      const last = path.join(ROOT, 'tmp', 'oracle', 'bin', `oracle-v${opts.release}`);
      if (!existsSync(last)) throw e;
      log(`upstream: warning: ${(e as Error).message}; using the last build, ${path.relative(ROOT, last)}`);
      bin = last;
    }
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'schedlab-bench-upstream-'));
  const rows: UpstreamRow[] = [];
  let ok = true;
  try {
    for (const spec of specs) {
      const started = Date.now();
      let row: UpstreamRow | undefined;
      if (spec.service) {
        if (opts.checkOnly || !opts.service) continue;
        row = serviceRow(spec, opts, log);
        if (!row) continue;
        // Upstream's figures are those of the same shape's adaptive row of this run.
        const same = rows.find(
          (r) => r.shape === row?.shape && r.percentage === 'adaptive' && !r.row.endsWith('(service)'),
        );
        row.scheduler = same?.scheduler;
        row.loop = same?.loop;
      } else if (spec.shape === CAPACITY.name) {
        const file = path.join(dir, `${CAPACITY.name}.json`);
        writeWorkloadDump(CAPACITY.name, file);
        row = capacityRow(bin, file, dir, opts, log);
      } else {
        row = shapeRow(spec, bin, dir, opts, log);
      }
      row.targets = targets(row);
      rows.push(row);
      opts.onRow?.(rows);
      if (row.agreement) ok = reportAgreement(row, log) && ok;
      log(
        `upstream: ${row.row}: ${Math.round((Date.now() - started) / 1000)} s, load ${row.load.join(' → ')}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  log('');
  if (!opts.checkOnly) {
    log(
      `Side by side with upstream v${opts.release} (median of up to ${opts.reps} runs per side; a first run of ${opts.longSeconds} s or more is not repeated):`,
    );
    log(formatUpstream(rows));
    log('');
    log(formatChecksums(rows));
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
      `upstream: ${row.row}: ${what} agree (${a.schedlabScheduled} of ${row.pending} scheduled, sha256 ${a.schedlabChecksum.slice(0, 16)}…)`,
    );
    return true;
  }
  const d = a.firstDifference;
  log(
    `upstream: ${row.row}: ${what.toUpperCase()} DIFFER (Schedlab ${a.schedlabScheduled} scheduled, upstream ${a.upstreamScheduled})` +
      (d ? `; first difference ${d.pod}: Schedlab "${d.schedlab}", upstream "${d.upstream}"` : ''),
  );
  return false;
}

const num = (v: number | null | undefined, digits = 0): string =>
  v === null || v === undefined
    ? 'n/a'
    : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (a: number | null | undefined, b: number | null | undefined): string =>
  a === null || a === undefined || b === null || b === undefined || b === 0
    ? 'n/a'
    : `${(a / b).toFixed(2)}×`;

function table(header: string[], body: string[][], left: number[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (left.includes(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function formatUpstream(rows: readonly UpstreamRow[]): string {
  const header = [
    'row',
    'nodes',
    'pending',
    'Schedlab pods/s',
    'RSS MiB',
    'scheduler pods/s',
    'RSS MiB',
    'loop p=1 pods/s',
    'RSS MiB',
    '÷ scheduler',
    '÷ loop',
    'RSS ÷ sched',
    'RSS ÷ loop',
    'reps S/sch/loop',
    'load',
    'placements vs loop',
    'targets',
  ];
  const body = rows.map((r) => [
    r.row,
    num(r.nodes),
    num(r.pending),
    num(r.schedlab?.podsPerSecond),
    num(r.schedlab?.peakRssMiB),
    num(r.scheduler?.podsPerSecond),
    num(r.scheduler?.peakRssMiB),
    num(r.loop?.podsPerSecond),
    num(r.loop?.peakRssMiB),
    ratio(r.schedlab?.podsPerSecond, r.scheduler?.podsPerSecond),
    ratio(r.schedlab?.podsPerSecond, r.loop?.podsPerSecond),
    ratio(r.schedlab?.peakRssMiB, r.scheduler?.peakRssMiB),
    ratio(r.schedlab?.peakRssMiB, r.loop?.peakRssMiB),
    `${r.schedlab?.reps ?? '-'}/${r.row.endsWith('(service)') ? '=' : (r.scheduler?.reps ?? '-')}/${r.row.endsWith('(service)') ? '=' : (r.loop?.reps ?? '-')}`,
    `${r.load[0]}–${r.load[1]}`,
    r.agreement ? (r.agreement.agree ? `agree (${num(r.agreement.schedlabScheduled)})` : 'DIFFER') : 'n/a',
    r.targets ?? 'n/a',
  ]);
  return table(header, body, [0, 15, 16]);
}

export function formatChecksums(rows: readonly UpstreamRow[]): string {
  const body = rows
    .filter((r) => r.agreement)
    .map((r) => [
      r.row,
      `${num(r.agreement?.schedlabScheduled)} / ${num(r.pending)}`,
      r.agreement?.agree ? 'agree' : 'DIFFER',
      r.agreement?.schedlabChecksum ?? '',
    ]);
  return table(['row', 'scheduled', 'vs loop', 'sha256 of the sorted lines (Schedlab)'], body, [0, 2, 3]);
}

/** The rows as docs/benchmarks.md's Markdown tables (figures and checksums). */
export function formatMarkdown(rows: readonly UpstreamRow[]): string {
  const side = (v?: Side) => (v ? `${num(v.podsPerSecond)} (${num(v.peakRssMiB)})` : 'n/a');
  const service = (r: UpstreamRow) => r.row.endsWith('(service)');
  const out = [
    '| row | nodes | pending | Schedlab pods/s (RSS MiB) | scheduler pods/s (RSS) | loop p=1 pods/s (RSS) | ÷ scheduler | ÷ loop | RSS ÷ scheduler | RSS ÷ loop | reps S/sch/loop | load | placements vs loop | targets |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | :---: | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.row} | ${num(r.nodes)} | ${num(r.pending)} | ${side(r.schedlab)} | ${side(r.scheduler)} | ${side(r.loop)} | ` +
        `${ratio(r.schedlab?.podsPerSecond, r.scheduler?.podsPerSecond)} | ${ratio(r.schedlab?.podsPerSecond, r.loop?.podsPerSecond)} | ` +
        `${ratio(r.schedlab?.peakRssMiB, r.scheduler?.peakRssMiB)} | ${ratio(r.schedlab?.peakRssMiB, r.loop?.peakRssMiB)} | ` +
        `${r.schedlab?.reps ?? '-'}/${service(r) ? '=' : (r.scheduler?.reps ?? '-')}/${service(r) ? '=' : (r.loop?.reps ?? '-')} | ` +
        `${r.load[0]}–${r.load[1]} | ${r.agreement ? (r.agreement.agree ? `agree (${num(r.agreement.schedlabScheduled)})` : '**DIFFER**') : 'n/a'} | ` +
        `${r.targets === undefined ? 'n/a' : r.targets === 'met' ? 'met' : `**${r.targets}**`} |`,
    ),
    '',
    '| row | scheduled | sha256 of the sorted lines (Schedlab = upstream loop) |',
    '| --- | ---: | --- |',
    ...rows
      .filter((r) => r.agreement)
      .map(
        (r) =>
          `| ${r.row} | ${num(r.agreement?.schedlabScheduled)} / ${num(r.pending)} | ${r.agreement?.agree ? '' : '**DIFFER** '}\`${r.agreement?.schedlabChecksum}\` |`,
      ),
  ];
  return out.join('\n');
}

function machine(): Record<string, unknown> {
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  return {
    nproc: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    go: go.status === 0 ? go.stdout.trim() : null,
  };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const take = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    return at >= 0 ? args.splice(at, 2)[1] : undefined;
  };
  const reps = Number(take('--reps') ?? take('--runs') ?? 3);
  const longSeconds = Number(take('--long') ?? 15);
  const release = (take('--release') ?? DEFAULT_RELEASE).replace(/^v/, '');
  const percentage = (take('--percentage') ?? 'both') as 'adaptive' | '100' | 'both';
  if (!['adaptive', '100', 'both'].includes(percentage)) {
    console.error('--percentage must be adaptive, 100 or both');
    process.exit(2);
  }
  const json = take('--json');
  const markdown = take('--markdown');
  if (markdown) {
    console.log(formatMarkdown((JSON.parse(readFileSync(markdown, 'utf8')) as { rows: UpstreamRow[] }).rows));
    process.exit(0);
  }
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const checkOnly = flags.has('--check-only');
  const shapes = args.filter((a) => !a.startsWith('--'));
  const started = new Date();
  const write = (rows: readonly UpstreamRow[], finished: boolean) => {
    if (!json) return;
    const when = new Date().toISOString();
    const doc = { started: started.toISOString(), ...(finished ? { finished: when } : { lastRow: when }) };
    writeFileSync(json, JSON.stringify({ ...doc, release, machine: machine(), rows }, null, 2));
  };
  const { rows, ok } = runUpstream(selectRows(shapes, percentage), {
    reps,
    longSeconds,
    release,
    checkOnly,
    service: !flags.has('--no-service'),
    onRow: (so) => write(so, false),
  });
  write(rows, true);
  process.exit(ok ? 0 : 1);
}
