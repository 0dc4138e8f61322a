import { example, schedlab, schedlabJson } from '../testing/cli';
import type { ResilienceDocument } from './resilience';

const cluster = example('cluster-small.yaml');

describe('schedlab resilience', () => {
  it('by node: the cordoned empty node is harmless; the GPU and database nodes strand their pods', () => {
    const doc = schedlabJson<ResilienceDocument>('resilience', '--cluster', cluster);
    expect(doc.by).toBe('node');
    expect(doc.domains.map((d) => d.domain)).toEqual([
      'node-a1',
      'node-a2',
      'node-a3-gpu',
      'node-b1',
      'node-b2',
      'node-b3',
      'node-c1',
      'node-c2',
      'node-c3-db',
    ]);
    const byName = new Map(doc.domains.map((d) => [d.domain, d]));
    expect(byName.get('node-b3')).toMatchObject({ evictedPods: 0, rescheduled: 0, unschedulable: [] });
    expect(doc.critical).not.toContain('node-b3');
    // The only GPU node and the only database node: their pods have nowhere else to go.
    expect(byName.get('node-a3-gpu')?.unschedulable.map((u) => u.pod)).toEqual(['ml/trainer-run-41']);
    expect(byName.get('node-a3-gpu')?.unschedulable[0].reason).toContain('Insufficient nvidia.com/gpu');
    expect(byName.get('node-c3-db')?.unschedulable.map((u) => u.pod)).toEqual(['db/postgres-0']);
    expect(doc.critical).toEqual(expect.arrayContaining(['node-a3-gpu', 'node-c3-db']));
    for (const d of doc.domains) expect(d.rescheduled + d.unschedulable.length).toBe(d.evictedPods);
    // The dump's own unschedulable pods are reported apart, never charged to a domain.
    expect(
      byName
        .get('node-a1')
        ?.pendingBefore.map((p) => p.pod)
        .sort(),
    ).toEqual(['db/postgres-1', 'ml/trainer-run-42', 'shop/cache-3']);
  });

  it('by zone: only losing eu-west-1a, which runs two of the four web replicas, breaks the web budget', () => {
    const doc = schedlabJson<ResilienceDocument>('resilience', '--cluster', cluster, '--by', 'zone');
    expect(doc.domains.map((d) => [d.domain, d.nodes.length])).toEqual([
      ['eu-west-1a', 3],
      ['eu-west-1b', 3],
      ['eu-west-1c', 3],
    ]);
    expect(doc.critical).toEqual(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']);
    // Once the pending replica is placed (node-a2), web runs 2 + 1 + 1 replicas across the zones; minAvailable is 3.
    const web = doc.domains.map((d) =>
      d.workloads.find((w) => w.workload === 'ReplicaSet/shop/web-7d9f8b6c5'),
    );
    expect(
      web.map((w) => [w?.replicas, w?.replicasLeft, w?.replicasAfterRescheduling, w?.losesAvailability]),
    ).toEqual([
      [4, 2, 4, true],
      [4, 3, 4, false],
      [4, 3, 4, false],
    ]);
    expect(web.every((w) => w?.disruptionBudget === 'web' && w.desiredHealthy === 3)).toBe(true);
  });

  it('prints one row per domain and the critical ones', () => {
    const r = schedlab('resilience', '--cluster', cluster, '--by', 'zone');
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(
      /^ZONE\s+NODES\s+EVICTED\s+RESCHEDULED\s+PREEMPTED\s+LOSES AVAILABILITY\s+CRITICAL$/,
    );
    expect(r.stdout).toContain('3 of 3 zones are critical: eu-west-1a, eu-west-1b, eu-west-1c');
    expect(r.stdout).toMatch(
      /ReplicaSet\/shop\/web-7d9f8b6c5: \d replicas, \d left right after the loss, \d once rescheduled, PodDisruptionBudget web needs 3/,
    );
    expect(schedlab('resilience', '--cluster', cluster, '--by', 'rack').status).toBe(1);
  });
});
