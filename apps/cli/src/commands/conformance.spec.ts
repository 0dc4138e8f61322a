import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const bin = path.resolve(__dirname, '../../bin/schedlab.js');
const shared = path.resolve(__dirname, '../../../../../shared/conformance');

function run(...args: string[]) {
  return spawnSync(process.execPath, [bin, 'conformance', ...args], { encoding: 'utf8' });
}

describe('schedlab conformance', () => {
  it('passes on exact cases and ends with the tally line', () => {
    const r = run(path.join(shared, 'cases', 'case-1.json'), path.join(shared, 'capacity'));
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n').pop()).toBe('conformance: 11/11 cases exact');
  });

  it('prints the case, pod and first differing field of a mismatch and exits non-zero', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'schedlab-conf-'));
    copyFileSync(path.join(shared, 'cases', 'case-2.json'), path.join(dir, 'a-good.json'));
    const golden = JSON.parse(readFileSync(path.join(shared, 'cases', 'case-3.json'), 'utf8'));
    const pod = golden.expected[0].pod;
    golden.expected[0].priority = golden.expected[0].priority + 1;
    writeFileSync(path.join(dir, 'b-tampered.json'), JSON.stringify(golden));
    const r = run(dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`b-tampered.json (${golden.name}) ${pod}: priority: expected`);
    expect(r.stdout.trim().split('\n').pop()).toBe('conformance: 1/2 cases exact');
  });

  it('fails with a clear message when given no cases', () => {
    const r = run(mkdtempSync(path.join(tmpdir(), 'schedlab-empty-')));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('no golden case files found');
  });
});
