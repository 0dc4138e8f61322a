import type { TimelineResult } from '@schedlab/analysis';
import { example, schedlab, schedlabJson, writeTemp } from '../testing/cli';

const races = ['--cluster', example('timeline/cluster-races.yaml')];
const podOf = (doc: TimelineResult, key: string) => doc.pods.find((p) => p.pod === key)!;

describe('schedlab timeline', () => {
  it('the three documented races, as their comments compute them', () => {
    const smaller = schedlabJson<TimelineResult>(
      'timeline',
      ...races,
      '--timeline',
      example('timeline/smaller-pod-first.yaml'),
    );
    expect(podOf(smaller, 'default/s')).toMatchObject({ node: 'n1', boundAt: 15 });
    expect(podOf(smaller, 'default/p')).toMatchObject({ node: 'n2', boundAt: 70, waitedSeconds: 60 });

    const overtake = schedlabJson<TimelineResult>(
      'timeline',
      ...races,
      '--timeline',
      example('timeline/overtake.yaml'),
    );
    expect(podOf(overtake, 'default/h')).toMatchObject({ node: 'n1', boundAt: 40 });
    expect(podOf(overtake, 'default/p')).toMatchObject({ outcome: 'pending', lastQueue: 'Unschedulable' });

    const zero = schedlabJson<TimelineResult>(
      'timeline',
      ...races,
      '--timeline',
      example('timeline/zero-grace.yaml'),
    );
    expect(podOf(zero, 'default/p')).toMatchObject({ node: 'n1', boundAt: 10, waitedSeconds: 0 });
  });

  it('prints a table with the waits, the preemptions and the percentiles', () => {
    const out = schedlab('timeline', ...races, '--timeline', example('timeline/overtake.yaml'));
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('10s: default/p preempted default/low on n1');
    expect(out.stdout).toMatch(
      /default\/p\s+100\s+10s\s+-\s+-\s+2\s+-\s+Pending \(Unschedulable\)\s+Insufficient cpu/,
    );
    expect(out.stdout).toContain(
      '3 pods over 40s: 1 running, 0 completed, 1 preempted, 1 pending at the end',
    );
  });

  it('names the timeline file and the field of an invalid document', () => {
    const bad = writeTemp('bad-timeline.yaml', 'events:\n  - { at: 10s, burst: { template: web } }\n');
    const out = schedlab('timeline', ...races, '--timeline', bad);
    expect(out.status).not.toBe(0);
    expect(out.stderr).toContain(`${bad}: events[0].burst.count:`);
  });
});
