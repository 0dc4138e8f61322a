/**
 * Proof of the upstream oracle (tools/oracle): recording the shared golden inputs at v1.26.7
 * must reproduce the shared files byte for byte. Runs only where `go` is on PATH and the v1.26.7
 * oracle binary is already built (`npm run oracle -- --release 1.26.7 --build-only`), so CI does
 * not pay a cold Go build; set ORACLE_BUILD=1 to build it here instead.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const SHARED = path.resolve(ROOT, '../shared/conformance');
const RELEASE = '1.26.7';
const BINARY = path.join(ROOT, 'tmp', 'oracle', 'bin', `oracle-v${RELEASE}`);

/** A handful of cases covering every family: preemption, profiles, PreBind, the adaptive search. */
const SAMPLE: Array<[string, string]> = [
  ['cases', 'case-1.json'],
  ['cases', 'case-12.json'],
  ['profiles', 'case-1001.json'],
  ['storage', 'case-2013.json'],
  ['scale', 'case-3001.json'],
  ['capacity', 'case-4001.json'],
  ['node-loss', 'case-5001.json'],
];

const haveGo = spawnSync('go', ['version']).status === 0;
const runnable = existsSync(SHARED) && haveGo && (existsSync(BINARY) || process.env.ORACLE_BUILD === '1');

(runnable ? describe : describe.skip)(`oracle at v${RELEASE} reproduces the shared golden files`, () => {
  let work: string;
  let binary: string;

  beforeAll(() => {
    // The script rebuilds the binary only when the oracle's sources changed (seconds when warm).
    const build = spawnSync(
      process.execPath,
      [path.join(ROOT, 'scripts', 'oracle.cjs'), '--release', RELEASE, '--build-only'],
      { encoding: 'utf8' },
    );
    expect(build.status).toBe(0);
    binary = build.stdout.trim();
    work = mkdtempSync(path.join(tmpdir(), 'oracle-proof-'));
  }, 30 * 60_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it.each(SAMPLE)('%s/%s', (family, file) => {
    const input = path.join(work, 'in', family);
    const output = path.join(work, 'out', family);
    mkdirSync(input, { recursive: true });
    copyFileSync(path.join(SHARED, family, file), path.join(input, file));
    const run = spawnSync(binary, ['--in', path.join(input, file), '--out', output], { encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/error|panic/i);
    expect(run.status).toBe(0);
    const recorded = readFileSync(path.join(output, file), 'utf8');
    expect(recorded).toBe(readFileSync(path.join(SHARED, family, file), 'utf8'));
  }, 120_000);
});
