import type { CronJob } from 'kubernetes-types/batch/v1';
import { initialCronJobState, syncCronJob } from './cronjob';
import { matchesSchedule, parseCronSchedule, scheduleTimes } from './cron';

const at = (iso: string) => new Date(iso);

describe('cron schedule', () => {
  it.each([
    ['*/15 * * * *', '2024-01-01T10:30:00Z', true],
    ['*/15 * * * *', '2024-01-01T10:31:00Z', false],
    ['0 9-17 * * mon-fri', '2024-01-05T12:00:00Z', true], // Friday
    ['0 9-17 * * mon-fri', '2024-01-06T12:00:00Z', false], // Saturday
    ['0 0 1 jan *', '2024-01-01T00:00:00Z', true],
    ['@hourly', '2024-03-03T07:00:00Z', true],
    ['@daily', '2024-03-03T07:00:00Z', false],
    ['0 0 13 * 5', '2024-09-13T00:00:00Z', true], // restricted dom OR dow: the 13th
    ['0 0 13 * 5', '2024-09-06T00:00:00Z', true], // a Friday
    ['0 0 13 * 5', '2024-09-07T00:00:00Z', false],
    ['0 0 ? * 0', '2024-09-08T00:00:00Z', true], // Sunday
    ['5/20 * * * *', '2024-01-01T00:45:00Z', true],
  ])('%s at %s → %s', (spec, time, expected) => {
    expect(matchesSchedule(parseCronSchedule(spec), at(time))).toBe(expected);
  });

  it.each([
    ['* * * *', 'expected exactly 5 fields, found 4'],
    ['60 * * * *', 'end of range (60) above maximum (59)'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1)'],
    ['*/0 * * * *', 'step of range should be a positive number'],
    ['x * * * *', 'failed to parse int from x'],
    ['@fortnightly', 'unrecognized descriptor'],
    // Names an object inherits are no descriptors.
    ['constructor', 'expected exactly 5 fields, found 1'],
    ['__proto__', 'expected exactly 5 fields, found 1'],
    // robfig/cron bounds day-of-week to 0-6: 7 is not Sunday there.
    ['0 0 * * 7', 'end of range (7) above maximum (6)'],
  ])('rejects %s', (spec, message) => {
    expect(() => parseCronSchedule(spec)).toThrow(message);
  });

  it('lists the ticks in (from, to]', () => {
    expect(
      scheduleTimes(
        parseCronSchedule('*/10 * * * *'),
        at('2024-01-01T00:00:00Z'),
        at('2024-01-01T00:30:00Z'),
      ).map((d) => d.toISOString()),
    ).toEqual(['2024-01-01T00:10:00.000Z', '2024-01-01T00:20:00.000Z', '2024-01-01T00:30:00.000Z']);
  });
});

describe('CronJob controller', () => {
  const cj = (spec: Partial<CronJob['spec']> = {}): CronJob => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'report', namespace: 'ops', creationTimestamp: '2024-01-01T00:00:00Z' },
    spec: {
      schedule: '*/5 * * * *',
      jobTemplate: {
        metadata: { labels: { app: 'report' } },
        spec: { template: { spec: { containers: [{ name: 'c' }] } } },
      },
      ...spec,
    },
  });

  it('creates one Job per tick as time advances, named by scheduled minutes since epoch', () => {
    let state = initialCronJobState(cj(), at('2000-01-01T00:00:00Z'));
    const names: string[] = [];
    for (const t of [
      '2024-01-01T00:04:00Z',
      '2024-01-01T00:05:00Z',
      '2024-01-01T00:07:00Z',
      '2024-01-01T00:10:30Z',
    ]) {
      const r = syncCronJob(cj(), state, at(t));
      state = r.state;
      if (r.created) names.push(r.created.metadata!.name!);
    }
    expect(names).toEqual([
      `report-${Date.parse('2024-01-01T00:05:00Z') / 60000}`,
      `report-${Date.parse('2024-01-01T00:10:00Z') / 60000}`,
    ]);
    expect(state.active).toHaveLength(2);
  });

  it('a jump over several ticks creates only the most recent Job', () => {
    const r = syncCronJob(
      cj(),
      initialCronJobState(cj(), at('2000-01-01T00:00:00Z')),
      at('2024-01-01T01:00:00Z'),
    );
    expect(r.created!.metadata!.annotations!['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe(
      '2024-01-01T01:00:00Z',
    );
    expect(r.created!.metadata!.ownerReferences![0]).toMatchObject({
      kind: 'CronJob',
      name: 'report',
      controller: true,
    });
    expect(r.created!.metadata!.labels).toEqual({ app: 'report' });
  });

  it('Forbid skips while a Job is active, Replace deletes it, startingDeadlineSeconds skips late ticks', () => {
    const s0 = initialCronJobState(cj(), at('2000-01-01T00:00:00Z'));
    const forbid = cj({ concurrencyPolicy: 'Forbid' });
    const f1 = syncCronJob(forbid, s0, at('2024-01-01T00:05:00Z'));
    const f2 = syncCronJob(forbid, f1.state, at('2024-01-01T00:10:00Z'));
    expect(f2.created).toBeUndefined();
    expect(f2.skipped).toContain('Forbid');
    const replace = cj({ concurrencyPolicy: 'Replace' });
    const r1 = syncCronJob(replace, s0, at('2024-01-01T00:05:00Z'));
    const r2 = syncCronJob(replace, r1.state, at('2024-01-01T00:10:00Z'));
    expect(r2.deleted).toEqual([r1.created]);
    expect(r2.state.active).toEqual([r2.created]);
    const late = syncCronJob(cj({ startingDeadlineSeconds: 30 }), s0, at('2024-01-01T00:06:00Z'));
    expect(late.created).toBeUndefined();
    expect(late.skipped).toContain('missed starting window');
  });

  it('rejects a bad schedule naming the field', () => {
    expect(() =>
      syncCronJob(
        cj({ schedule: 'nope' }),
        initialCronJobState(cj(), at('2024-01-01T00:00:00Z')),
        at('2024-01-02T00:00:00Z'),
      ),
    ).toThrow('CronJob ops/report: spec.schedule: unparseable schedule "nope"');
  });
});
