import { example, schedlab, schedlabJson } from '../testing/cli';
import type { CompareDocument } from './compare';

const cluster = example('cluster-small.yaml');

describe('schedlab compare', () => {
  it('baseline vs the drain-zone scenario: the recreated web replica moves to a new node', () => {
    const doc = schedlabJson<CompareDocument>(
      'compare',
      '--cluster',
      cluster,
      '--scenario',
      example('scenarios', 'drain-zone.yaml'),
    );
    expect(doc.beforeLabel).toBe('baseline');
    expect(doc.moved).toEqual([{ pod: 'shop/web-7d9f8b6c5-m2hvd', from: 'node-b1', to: 'node-c-extra-0' }]);
    expect(doc.newlyUnschedulable).toEqual([]);
    expect(Object.values(doc.after.placements).some((n) => n.startsWith('node-b'))).toBe(false);
    // The two bare pods of node-b2 are gone, nothing else is.
    expect(Object.keys(doc.before.placements).length - Object.keys(doc.after.placements).length).toBe(2);
    expect(Object.keys(doc.after.utilization.nodes)).toContain('node-c-extra-1');
  });

  it('profile A vs profile B on the same dump (--config-a/--config-b, or their aliases --profile-a/-b)', () => {
    const doc = schedlabJson<CompareDocument>(
      'compare',
      '--cluster',
      cluster,
      '--config-a',
      example('profiles', 'spread.yaml'),
      '--config-b',
      example('profiles', 'bin-packing.yaml'),
    );
    expect(
      schedlabJson<CompareDocument>(
        'compare',
        '--cluster',
        cluster,
        '--profile-a',
        example('profiles', 'spread.yaml'),
        '--profile-b',
        example('profiles', 'bin-packing.yaml'),
      ),
    ).toEqual(doc);
    expect(doc.moved).toEqual([{ pod: 'monitoring/metrics-exporter', from: 'node-c1', to: 'node-c2' }]);
    expect(doc.before.pending.sort()).toEqual(doc.after.pending.sort());
    // Same pods requested on both sides: only where they went differs.
    expect(doc.after.utilization.cluster.cpu.requested).toBe(doc.before.utilization.cluster.cpu.requested);
  });

  it('prints the metrics side by side and the moved pods', () => {
    const r = schedlab(
      'compare',
      '--cluster',
      cluster,
      '--scenario',
      example('scenarios', 'drain-zone.yaml'),
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/METRIC\s+BEFORE\s+AFTER\nbound pods\s+13\s+11\n/);
    expect(r.stdout).toMatch(/shop\/web-7d9f8b6c5-m2hvd\s+node-b1\s+node-c-extra-0/);
  });

  it('exits 1 when the two sides are not given exactly one way', () => {
    const none = schedlab('compare', '--cluster', cluster);
    expect(none.status).toBe(1);
    expect(none.stderr).toBe('schedlab: compare needs either --scenario or both --config-a and --config-b\n');
    expect(
      schedlab('compare', '--cluster', cluster, '--config-a', example('profiles', 'spread.yaml')).stderr,
    ).toContain('--config-a and --config-b go together');
  });
});
