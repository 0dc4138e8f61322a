/**
 * Every golden case recorded from upstream kube-scheduler v1.26.7 must replay exactly
 * (../shared/conformance beside the repository, as CI provides it).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { GoldenCase, replayCase } from '..';

const SHARED = path.resolve(__dirname, '../../../../../shared/conformance');
const FAMILIES = ['cases', 'profiles', 'storage', 'scale', 'capacity', 'node-loss'];

function casesOf(family: string): string[] {
  return readdirSync(path.join(SHARED, family))
    .filter((f) => f.endsWith('.json'))
    .sort();
}

it('finds the shared golden cases beside the repository', () => {
  expect(existsSync(SHARED)).toBe(true);
  for (const f of FAMILIES) expect(casesOf(f).length).toBeGreaterThan(0);
});

describe.each(FAMILIES)('golden family %s', (family) => {
  const files = existsSync(path.join(SHARED, family)) ? casesOf(family) : [];
  it.each(files)('%s replays exactly', (file) => {
    const golden = JSON.parse(readFileSync(path.join(SHARED, family, file), 'utf8')) as GoldenCase;
    const report = replayCase(golden);
    // On failure the first differing field is printed, which is what one needs to debug.
    expect({ error: report.error, mismatches: report.mismatches.slice(0, 3) }).toEqual({ error: undefined, mismatches: [] });
    expect(report.exact).toBe(true);
  });
});
