/**
 * Every golden case recorded from upstream by the oracle (conformance/v<release>/<family>/, see
 * docs/oracle.md) must replay exactly, each with the release it records (kubeSchedulerVersion).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { GoldenCase, replayCase } from '..';

const RECORDED = path.resolve(__dirname, '../../../../conformance');

function dirs(p: string): string[] {
  return existsSync(p)
    ? readdirSync(p, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
}

const releases = dirs(RECORDED).filter((d) => /^v\d+\.\d+\.\d+$/.test(d));

it('finds recorded releases in conformance/', () => {
  expect(releases.length).toBeGreaterThan(0);
});

describe.each(releases)('recorded release %s', (release) => {
  const files = dirs(path.join(RECORDED, release)).flatMap((family) =>
    readdirSync(path.join(RECORDED, release, family))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => `${family}/${f}`),
  );
  it.each(files)('%s replays exactly', (file) => {
    const golden = JSON.parse(readFileSync(path.join(RECORDED, release, file), 'utf8')) as GoldenCase;
    expect(golden.kubeSchedulerVersion).toBe(release);
    const report = replayCase(golden);
    expect({ error: report.error, mismatches: report.mismatches.slice(0, 3) }).toEqual({
      error: undefined,
      mismatches: [],
    });
  });
});
