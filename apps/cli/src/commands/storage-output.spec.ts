import { readFileSync } from 'node:fs';
import type { SimulationDocument } from '../output/placements';
import { placementVolumes } from '../output/storage';
import { example, schedlab, schedlabJson, writeTemp } from '../testing/cli';

const GI = 1024 ** 3;
const statefulSetExample = example('statefulset-wffc.yaml');
const storageExample = example('storage-wffc.yaml');

function simulateJson(cluster: string): SimulationDocument {
  return schedlabJson<SimulationDocument>('simulate', '--cluster', cluster);
}

describe('schedlab simulate: storage of a StatefulSet with a WaitForFirstConsumer class', () => {
  let doc: SimulationDocument;
  beforeAll(() => {
    doc = simulateJson(statefulSetExample);
  });
  const ordinals = [0, 1, 2];

  it('schedules the three StatefulSet pods', () => {
    for (const i of ordinals) {
      expect(doc.placements.find((p) => p.pod === `payments/ledger-${i}`)).toMatchObject({
        outcome: 'scheduled',
        node: expect.any(String),
      });
    }
  });

  it("provisions each claim data-ledger-<ordinal> as pvc-… in the zone of its pod's node", () => {
    const storage = doc.storage!;
    for (const i of ordinals) {
      const placement = doc.placements.find((p) => p.pod === `payments/ledger-${i}`)!;
      const claim = storage.volumes.find((v) => v.claim === `payments/data-ledger-${i}`);
      expect(claim).toMatchObject({
        storageClass: 'zonal-ssd',
        binding: 'provisioned',
        capacity: '20Gi',
        zone: placement.zone,
        pods: [{ pod: placement.pod, node: placement.node }],
      });
      expect(claim!.volume).toMatch(/^pvc-/);
      expect(placement.volumes).toEqual([
        { claim: claim!.claim, volume: claim!.volume, binding: 'provisioned' },
      ]);
    }
    // One replica per zone: the spread constraint put them in three different zones.
    expect(new Set(storage.volumes.map((v) => v.zone)).size).toBe(3);
  });

  it('each placement lists the claims whose rows name its pod, in row order', () => {
    for (const placement of doc.placements)
      expect([placement.pod, placement.volumes]).toEqual([
        placement.pod,
        placementVolumes(doc.storage, placement.pod),
      ]);
    expect(doc.placements.filter((p) => p.volumes).length).toBe(3);
  });

  it("totals equal the sum of the claims' requests, and the per-zone figures add up to them", () => {
    const { totals, classes } = doc.storage!;
    expect(totals).toEqual({
      claims: 3,
      requestedBytes: 3 * 20 * GI,
      claimedBytes: 3 * 20 * GI,
      provisionedBytes: 3 * 20 * GI,
      pendingClaims: 0,
    });
    const zonal = classes.find((c) => c.storageClass === 'zonal-ssd')!;
    expect(zonal.volumeBindingMode).toBe('WaitForFirstConsumer');
    expect(zonal.zones.reduce((n, z) => n + z.claimedBytes, 0)).toBe(totals.requestedBytes);
    for (const z of zonal.zones)
      expect(z.volumes.map((v) => v.claim)).toEqual(
        doc.storage!.volumes.filter((v) => v.zone === z.zone).map((v) => v.claim),
      );
    // The Immediate class is listed per zone with nothing claimed.
    const immediate = classes.find((c) => c.storageClass === 'standard')!;
    expect(immediate.volumeBindingMode).toBe('Immediate');
    expect(immediate.zones.map((z) => z.claimedBytes)).toEqual([0, 0, 0]);
  });

  it('prints a Volumes table and a Storage by class and zone table after the placements', () => {
    const r = schedlab('simulate', '--cluster', statefulSetExample);
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    const volumesAt = lines.indexOf('Volumes');
    const byClassAt = lines.indexOf('Storage by class and zone');
    expect(lines.findIndex((l) => l.startsWith('payments/ledger-2 '))).toBeLessThan(volumesAt);
    expect(volumesAt).toBeLessThan(byClassAt);
    expect(lines[volumesAt + 1]).toMatch(
      /^CLAIM\s+CLASS\s+VOLUME\s+CAPACITY\s+ZONE \(NODE\)\s+PODS\s+BINDING$/,
    );
    for (const i of ordinals) {
      const placement = doc.placements.find((p) => p.pod === `payments/ledger-${i}`)!;
      const row = lines.find((l) => l.startsWith(`payments/data-ledger-${i} `));
      expect(row).toMatch(
        new RegExp(
          `zonal-ssd\\s+pvc-\\S+\\s+20Gi\\s+${placement.zone}\\s+ledger-${i}@${placement.node}\\s+provisioned$`,
        ),
      );
    }
    expect(lines[byClassAt + 1]).toMatch(
      /^CLASS\s+BINDING MODE\s+ZONE\s+CLAIMED\s+PROVISIONED\s+REMAINING\s+PENDING CLAIMS$/,
    );
    expect(
      lines.filter((l) => /^zonal-ssd\s+WaitForFirstConsumer\s+europe-west1-[bcd]\s+20Gi\s+20Gi\s/.test(l)),
    ).toHaveLength(3);
    expect(r.stdout).toContain('3 claims requesting 60Gi: 60Gi bound, 0 pending; 60Gi provisioned');
  });

  it("gives the claim of a pod that fits nowhere as pending, with the pod's FitError as the reason", () => {
    // Four replicas of 3 CPUs on three 3.92-CPU nodes: ledger-3 is created but cannot fit.
    const original = readFileSync(statefulSetExample, 'utf8');
    const text = original
      .replace('replicas: 3', 'replicas: 4')
      .replace(/cpu: (['"])1\1, memory: 4Gi/, "cpu: '3', memory: 4Gi");
    // Both edits must land, whatever quotes the example's formatting uses.
    expect(text).toContain('replicas: 4');
    expect(text).toContain("cpu: '3', memory: 4Gi");
    const cluster = writeTemp('sts-4.yaml', text);
    const four = simulateJson(cluster);
    const ledger3 = four.placements.find((p) => p.pod === 'payments/ledger-3')!;
    expect(ledger3.outcome).toBe('unschedulable');
    const claim = four.storage!.volumes.find((v) => v.claim === 'payments/data-ledger-3');
    expect(claim).toMatchObject({
      binding: 'pending',
      volume: null,
      reason: `pod payments/ledger-3: ${ledger3.message}`,
    });
    expect(ledger3.volumes).toEqual([{ claim: 'payments/data-ledger-3', volume: null, binding: 'pending' }]);
    expect(four.storage!.totals).toMatchObject({
      claims: 4,
      requestedBytes: 4 * 20 * GI,
      claimedBytes: 3 * 20 * GI,
      pendingClaims: 1,
    });
    const pending = four.storage!.classes.find((c) => c.storageClass === 'zonal-ssd')!.pendingClaims;
    expect(pending).toEqual([{ claim: 'payments/data-ledger-3', reason: claim!.reason }]);
    const table = schedlab('simulate', '--cluster', cluster).stdout;
    expect(table).toMatch(
      /zonal-ssd\s+WaitForFirstConsumer\s+-\s+payments\/data-ledger-3: pod payments\/ledger-3: 0\/3 nodes are available: 3 Insufficient cpu/,
    );
  });
});

describe('schedlab simulate: storage of storage-wffc.yaml', () => {
  let doc: SimulationDocument;
  beforeAll(() => {
    doc = simulateJson(storageExample);
  });
  const volume = (claim: string) => doc.storage!.volumes.find((v) => v.claim === claim);

  it('reports the claim a pod mounts but nobody created, with the reason it is pending', () => {
    expect(volume('analytics/export-scratch')).toMatchObject({
      binding: 'missing',
      volume: null,
      reason: 'persistentvolumeclaim "export-scratch" not found',
      pods: [{ pod: 'analytics/report-export', node: null }],
    });
    const r = schedlab('simulate', '--cluster', storageExample);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').find((l) => l.startsWith('analytics/export-scratch '))).toMatch(
      /report-export@<pending>\s+missing: persistentvolumeclaim "export-scratch" not found$/,
    );
  });

  it('tells a claim bound before the run from one the scheduler provisioned', () => {
    expect(volume('analytics/reports-archive')).toMatchObject({
      binding: 'pre-bound',
      volume: 'pv-reports-archive',
      zone: 'eu-west-1c',
      pods: [{ pod: 'analytics/report-render', node: 'node-c' }],
    });
    // Admission gave the claim the default class; the engine provisioned it for node-a.
    expect(volume('shop/data-orders-db-0')).toMatchObject({
      binding: 'provisioned',
      storageClass: 'gp3',
      pods: [{ pod: 'shop/orders-db-0', node: 'node-a' }],
    });
    expect(volume('shop/data-orders-db-0')!.volume).toMatch(/^pvc-/);
    expect(doc.storage!.totals).toEqual({
      claims: 2,
      requestedBytes: 250 * GI,
      claimedBytes: 250 * GI,
      provisionedBytes: 250 * GI,
      pendingClaims: 1,
    });
  });
});

describe('schedlab simulate: clusters without claims', () => {
  it('prints no storage section and no storage key', () => {
    const doc = simulateJson(example('cluster-small.yaml'));
    expect(doc.storage).toBeUndefined();
    expect(doc.placements.some((p) => p.volumes)).toBe(false);
    const r = schedlab('simulate', '--cluster', example('cluster-small.yaml'));
    expect(r.stdout).not.toContain('Volumes');
    expect(r.stdout).not.toContain('Storage by class and zone');
  });
});
