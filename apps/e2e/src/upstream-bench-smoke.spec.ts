/**
 * Smoke test of the side-by-side benchmark (bench/upstream.ts, issue #22): on one small shape
 * (SmokeBasic: 200 nodes, 100 running, 1,000 pending) `schedlab simulate --tie-break
 * lowest-node-name` must place every pod where upstream's parallelism-1 loop (the oracle program,
 * tools/oracle, at the release Schedlab reproduces by default) does. It needs `go` on PATH; the
 * oracle binary is rebuilt only when its sources changed (seconds to a minute with warm module
 * caches). Without Go the test passes with a note and checks nothing: the upstream side cannot run.
 * Nothing here is timed.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const haveGo = spawnSync('go', ['version']).status === 0;

describe('benchmark side by side with upstream (smoke)', () => {
  it(
    'places SmokeBasic exactly as the upstream loop does (lowest-node-name tie-break)',
    () => {
      if (!haveGo) {
        console.warn('upstream bench smoke: `go` is not on PATH; the oracle cannot run, nothing compared');
        return;
      }
      const run = spawnSync(
        process.execPath,
        ['-r', '@swc-node/register', path.join(ROOT, 'bench', 'upstream.ts'), '--check-only', 'SmokeBasic'],
        {
          cwd: ROOT,
          env: { ...process.env, SWC_NODE_PROJECT: path.join(ROOT, 'tsconfig.base.json') },
          encoding: 'utf8',
        },
      );
      expect(run.stderr).not.toMatch(/panic|Error:/);
      expect(run.stdout).toMatch(/SmokeBasic: placements agree \(1000 of 1000 scheduled/);
      expect(run.status).toBe(0);
    },
    10 * 60_000,
  );
});
