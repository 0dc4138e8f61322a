import type { SimulationDocument } from '../output/placements';
import { example, schedlab, schedlabJson } from '../testing/cli';

/** Issue #4: the PV controller provisions Immediate claims before the scheduler sees the pod. */
describe('schedlab simulate runs the PV controller before scheduling', () => {
  const conflictExample = example('immediate-zone-conflict.yaml');
  const pod = 'shop/orders-db';
  const claimKey = 'shop/data-orders-db';

  it('provisions the Immediate claim in zone a, leaving the zone-b pod unable to reach the PersistentVolume (volume node affinity conflict)', () => {
    const doc = schedlabJson<SimulationDocument>('simulate', '--cluster', conflictExample);
    const placement = doc.placements.find((p) => p.pod === pod)!;
    expect(placement.outcome).toBe('unschedulable');
    expect(placement.node).toBeNull();
    // The default release's wording (1.33+; before: "node(s) had volume node affinity conflict").
    expect(placement.message).toContain("node(s) didn't match PersistentVolume's node affinity");
    expect(doc.storage!.volumes.find((v) => v.claim === claimKey)).toMatchObject({
      storageClass: 'gp2-immediate',
      zone: 'eu-west-1a',
      volume: expect.stringMatching(/^pvc-/),
    });
    expect(doc.storage!.totals).toMatchObject({ claims: 1, pendingClaims: 0 });
  });

  it('prints the pending pod and the zone-a volume in the tables', () => {
    const r = schedlab('simulate', '--cluster', conflictExample);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /shop\/orders-db\s+Pending\s+<pending>.*didn't match PersistentVolume's node affinity/,
    );
    expect(r.stdout).toMatch(/shop\/data-orders-db\s+gp2-immediate\s+pvc-\S+\s+10Gi\s+eu-west-1a/);
  });

  it('with another seed the controller picks zone b and the pod schedules there', () => {
    const doc = schedlabJson<SimulationDocument>('simulate', '--cluster', conflictExample, '--seed', '1');
    expect(doc.placements.find((p) => p.pod === pod)).toMatchObject({ outcome: 'scheduled', node: 'node-b' });
    expect(doc.storage!.volumes.find((v) => v.claim === claimKey)).toMatchObject({ zone: 'eu-west-1b' });
  });

  it('--no-pv-controller shows the scheduler alone: the claim stays unbound', () => {
    const doc = schedlabJson<SimulationDocument>(
      'simulate',
      '--cluster',
      conflictExample,
      '--no-pv-controller',
    );
    const placement = doc.placements.find((p) => p.pod === pod)!;
    expect(placement.outcome).toBe('unschedulable');
    expect(placement.message).toContain('pod has unbound immediate PersistentVolumeClaims');
    expect(doc.storage!.totals).toMatchObject({ claims: 1, pendingClaims: 1 });
  });
});
