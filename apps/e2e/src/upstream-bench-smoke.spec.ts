/**
 * Smoke test of the side-by-side benchmark (bench/upstream.ts, issue #22): on one small shape
 * (SmokeBasic: 200 nodes, 100 running, 1,000 pending), at the adaptive and at 100 %
 * percentageOfNodesToScore, `schedlab simulate --tie-break lowest-node-name` must place every pod
 * where upstream's parallelism-1 loop (the oracle program, tools/oracle, at the release Schedlab
 * reproduces by default) does. It needs `go` on PATH and a
 * warm build: the oracle binary already built, or the upstream module in Go's module cache (then
 * a rebuild takes seconds to a minute); ORACLE_BUILD=1 allows a cold build (about 15 minutes).
 * Otherwise the test passes with a note and compares nothing. Nothing here is timed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const RELEASE = '1.37.2';
const haveGo = spawnSync('go', ['version']).status === 0;

/** Why the comparison cannot run here, or null when it can. */
function missing(): string | null {
  if (!haveGo) return '`go` is not on PATH';
  if (process.env.ORACLE_BUILD === '1') return null;
  if (existsSync(path.join(ROOT, 'tmp', 'oracle', 'bin', `oracle-v${RELEASE}`))) return null;
  const modcache = spawnSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).stdout.trim();
  if (modcache && existsSync(path.join(modcache, 'k8s.io', `kubernetes@v${RELEASE}`))) return null;
  return `the oracle is not built and k8s.io/kubernetes v${RELEASE} is not in Go's module cache (ORACLE_BUILD=1 builds it)`;
}

describe('benchmark side by side with upstream (smoke)', () => {
  it(
    'places SmokeBasic exactly as the upstream loop does (lowest-node-name tie-break, adaptive and 100 %)',
    () => {
      const why = missing();
      if (why) {
        console.warn(`upstream bench smoke: ${why}; nothing compared`);
        return;
      }
      const run = spawnSync(
        process.execPath,
        [
          '-r',
          '@swc-node/register',
          path.join(ROOT, 'bench', 'upstream.ts'),
          '--check-only',
          '--release',
          RELEASE,
          'SmokeBasic',
        ],
        {
          cwd: ROOT,
          env: { ...process.env, SWC_NODE_PROJECT: path.join(ROOT, 'tsconfig.base.json') },
          encoding: 'utf8',
        },
      );
      expect(run.stderr).not.toMatch(/panic|Error:/);
      expect(run.stdout).toMatch(/SmokeBasic: placements agree \(1000 of 1000 scheduled/);
      expect(run.stdout).toMatch(/SmokeBasic @100%: placements agree \(1000 of 1000 scheduled/);
      expect(run.status).toBe(0);
    },
    10 * 60_000,
  );
});
