/**
 * Storage in the analyses that start from a running cluster (examples/storage-lifecycle.yaml: six
 * nodes in three zones, each replica's volume pinned to its zone): capacity counts volume limits
 * and storage capacity; resilience names the pods whose volumes keep them from coming back.
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import { runAnalysis } from './index';
import { localCache, storageLifecycleCluster as cluster } from './testing/storage-lifecycle';

/** A pod with its own 50Gi volume of the shop's class (a generic ephemeral volume). */
const podWithVolume: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'worker', namespace: 'shop' },
  spec: {
    containers: [{ name: 'w', image: 'busybox', resources: { requests: { cpu: '10m', memory: '16Mi' } } }],
    volumes: [
      {
        name: 'scratch',
        ephemeral: {
          volumeClaimTemplate: {
            spec: {
              accessModes: ['ReadWriteOnce'],
              storageClassName: 'ssd-delete',
              resources: { requests: { storage: '50Gi' } },
            },
          },
        },
      },
    ],
  },
};

function capacity(items: KubeObject[]) {
  return runAnalysis('capacity', items, { seed: 0 }, { podTemplate: podWithVolume, maxReplicas: 100 }).result;
}

describe('storage in capacity', () => {
  it('counts each node’s CSI volume limit (CSINode allocatable count), the replicas’ volumes included', () => {
    const limited = cluster.map((o) =>
      o.kind === 'CSINode'
        ? ({
            ...o,
            spec: {
              drivers: (o as unknown as { spec: { drivers: object[] } }).spec.drivers.map((d) => ({
                ...d,
                allocatable: { count: 2 },
              })),
            },
          } as KubeObject)
        : o,
    );
    const r = capacity(limited);
    // 6 nodes × 2 attachable volumes, 6 of them used by the StatefulSets' replicas.
    expect(r.replicas).toBe(6);
    expect(r.provisionedVolumes).toBe(6);
    expect(Object.values(r.perNode).every((n) => n <= 2)).toBe(true);
    expect(r.stopReason).toContain('node(s) exceed max volume count');
  });

  it('stops when the driver’s published capacity is used up, zone by zone', () => {
    const zones = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];
    const tracked: KubeObject[] = [
      ...cluster,
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: { name: 'ebs.csi.aws.com' },
        spec: { storageCapacity: true },
      } as KubeObject,
      ...zones.map(
        (zone) =>
          ({
            apiVersion: 'storage.k8s.io/v1',
            kind: 'CSIStorageCapacity',
            metadata: { name: `ssd-${zone}`, namespace: 'kube-system' },
            storageClassName: 'ssd-delete',
            nodeTopology: { matchLabels: { 'topology.ebs.csi.aws.com/zone': zone } },
            capacity: zone === 'eu-west-1a' ? '160Gi' : '110Gi',
          }) as KubeObject,
      ),
    ];
    const r = capacity(tracked);
    // 3 volumes of 50Gi fit in eu-west-1a's 160Gi, 2 in each other zone's 110Gi.
    expect(r.replicas).toBe(7);
    const inZone = (z: string) =>
      Object.entries(r.perNode)
        .filter(([node]) => node.startsWith(`node-${z}`))
        .reduce((sum, [, n]) => sum + n, 0);
    expect([inZone('a'), inZone('b'), inZone('c')]).toEqual([3, 2, 2]);
    expect(r.stopReason).toContain('node(s) did not have enough free storage');
  });
});

describe('storage in resilience', () => {
  it('names the zonal volumes that keep a lost zone’s replicas from coming back', () => {
    const { result } = runAnalysis('resilience', cluster, { seed: 0 }, { by: 'zone' }).result;
    const b = result.domains.find((d) => d.domain === 'eu-west-1b')!;
    expect(b.pinnedByVolumes.map((p) => [p.pod, p.claim, p.zone, p.reason])).toEqual([
      [
        'shop/orders-1',
        'shop/data-orders-1',
        'eu-west-1b',
        'volume in zone eu-west-1b: no node left in the zone can attach it',
      ],
      [
        'ledger/ledger-1',
        'ledger/data-ledger-1',
        'eu-west-1b',
        'volume in zone eu-west-1b: no node left in the zone can attach it',
      ],
    ]);
  });

  it('by node: a zonal volume survives its node (the zone’s other node attaches it), a local one does not', () => {
    const { result } = runAnalysis(
      'resilience',
      [...cluster, ...localCache],
      { seed: 0 },
      { by: 'node' },
    ).result;
    const a1 = result.domains.find((d) => d.domain === 'node-a1')!;
    expect(a1.pinnedByVolumes).toEqual([
      {
        pod: 'shop/cache-0',
        claim: 'shop/data-cache-0',
        volume: 'local-a1',
        zone: 'eu-west-1a',
        localTo: 'node-a1',
        reason: "local volume on node-a1: its data is on that node's disk, no other node can mount it",
      },
    ]);
    expect(a1.unschedulable.map((u) => u.pod)).toEqual(['shop/cache-0']);
    expect(result.critical).toContain('node-a1');
    for (const d of result.domains.filter((x) => x.domain !== 'node-a1'))
      expect(d.pinnedByVolumes).toEqual([]);
  });
});
