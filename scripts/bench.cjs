#!/usr/bin/env node
// `npm run bench [-- workload… --json file]`: the shapes side by side with upstream
// kube-scheduler (bench/upstream.ts: scheduler_perf's shapes at the adaptive and at 100 %
// percentageOfNodesToScore, capacity, and a service row when PostgreSQL and Redis are up), the
// engine benchmarks (bench/run.ts), then the whole-process rows (bench/whole-process.ts) and the
// full explanation of a finished run's pods (bench/explain-replay.ts); `--engine-only` runs only
// the engine benchmarks.
// `npm run bench -- --service`: the service measurements too (need PostgreSQL and Redis):
// snapshot import of a 5,000-node / 50,000-pod dump, submit→result latency, GraphQL placements
// under steady load, large runs (submit→succeeded, stored size, explanation latency) and
// worker-pool throughput. The scripts run from TypeScript sources with the
// @schedlab/* aliases resolved; the api and worker they start are the compiled apps, as users run them.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const env = { ...process.env, SWC_NODE_PROJECT: path.join(root, 'tsconfig.base.json') };

function runScript(script, args) {
  console.log(`\n== ${script} ${args.join(' ')}`.trimEnd());
  const result = spawnSync(process.execPath, ['-r', '@swc-node/register', path.join(root, script), ...args], {
    stdio: 'inherit',
    cwd: root,
    env,
  });
  return result.status ?? 1;
}

const args = process.argv.slice(2);
const service = args.includes('--service');
const engineOnly = args.includes('--engine-only');
// --reps N and --long S go to bench/upstream.ts (repetitions per side; a first run of S seconds or
// more is not repeated).
const upstreamArgs = [];
for (const flag of ['--reps', '--long']) {
  const at = args.indexOf(flag);
  if (at >= 0) upstreamArgs.push(...args.splice(at, 2));
}
const engineArgs = args.filter((a) => a !== '--service' && a !== '--engine-only');

const listOnly = engineArgs.some((a) => a === '--list');
let status = 0;
// Side by side with upstream first (bench/upstream.ts), the figures users compare: the oracle
// program runs kube-scheduler as a library on the same dumps when `go` is on PATH; differing
// placements fail the benchmark. Its figures also go to tmp/bench/upstream.json, rewritten after
// every row (`bench/upstream.ts --markdown` turns it into docs/benchmarks.md's tables).
if (!engineOnly && !listOnly) {
  fs.mkdirSync(path.join(root, 'tmp', 'bench'), { recursive: true });
  status = runScript('bench/upstream.ts', [
    ...upstreamArgs,
    '--json',
    path.join('tmp', 'bench', 'upstream.json'),
  ]);
}
status = runScript('bench/run.ts', engineArgs) || status;
// What a user runs: the bin as a whole process, default options (bench/whole-process.ts).
if (!engineOnly && !listOnly) status = runScript('bench/whole-process.ts', []) || status;
// A finished run's full explanation of one pod as the service computes it (fast-forward from the
// run's records): p50/p99 over 50 random pods of the 5,000-node × 10,000-pod run.
if (!engineOnly && !listOnly)
  status = runScript('bench/explain-replay.ts', ['--pods', '50', '--replays', '2']) || status;
if (service) {
  // The service measurements start the compiled api and worker (apps/e2e/src/service-process.ts).
  const build = ['scripts/build.cjs', '--stale', 'apps/api', 'apps/worker'];
  const built = spawnSync(process.execPath, build, { stdio: 'inherit', cwd: root }).status ?? 1;
  if (built !== 0) process.exit(built);
  for (const script of [
    'bench/snapshot-import.ts',
    'bench/service-latency.ts',
    'bench/service-runs.ts',
    'bench/worker-pool.ts',
  ]) {
    status = runScript(script, []) || status;
  }
}
process.exit(status);
