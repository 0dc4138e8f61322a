import type { StatefulSet } from '@schedlab/k8s';
import { StorageState, statefulSetClaims } from '../index';
import { node, csiNode, storageClass } from './fixtures';

function statefulSet(
  replicas: number,
  retention?: { whenDeleted?: string; whenScaled?: string },
): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'prod', uid: 'uid-sts-db' },
    spec: {
      replicas,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      ...(retention ? { persistentVolumeClaimRetentionPolicy: retention } : {}),
      template: {
        metadata: { labels: { app: 'db' } },
        spec: {
          containers: [{ name: 'db', image: 'postgres', resources: { requests: { cpu: '1' } } }],
          // One replica per zone.
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: 'topology.kubernetes.io/zone',
              whenUnsatisfiable: 'DoNotSchedule',
              labelSelector: { matchLabels: { app: 'db' } },
            },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            storageClassName: 'gp3',
            resources: { requests: { storage: '20Gi' } },
          },
        },
      ],
    },
  } as StatefulSet;
}

const cluster = () => [
  node('node-a', 'a'),
  node('node-b', 'b'),
  node('node-c', 'c'),
  csiNode('node-a'),
  csiNode('node-b'),
  csiNode('node-c'),
  storageClass('gp3', {
    volumeBindingMode: 'WaitForFirstConsumer',
    reclaimPolicy: 'Delete',
    allowVolumeExpansion: true,
  }),
];

describe('StatefulSet claim templates with a WaitForFirstConsumer class', () => {
  it('expands templates to <template>-<set>-<ordinal> with the selector labels', () => {
    expect(statefulSetClaims(statefulSet(2), 1)[0].metadata).toEqual({
      name: 'data-db-1',
      namespace: 'prod',
      labels: { app: 'db' },
    });
  });

  it('claims wait for their pods, then bind in the zone each pod was placed in', () => {
    const state = StorageState.fromItems(cluster(), {
      capacityModel: { gp3: { a: '100Gi', b: '100Gi', c: '100Gi' } },
    });
    const created = state.createStatefulSet(statefulSet(3));
    expect(created.phases.claims).toEqual({
      'prod/data-db-0': 'Pending',
      'prod/data-db-1': 'Pending',
      'prod/data-db-2': 'Pending',
    });
    expect(created.events.every((e) => e.reason === 'WaitForFirstConsumer')).toBe(true);

    const scheduled = state.schedule({ tieBreak: 'lowest-node-name' });
    expect(scheduled.scheduling!.summary.scheduled).toBe(3);
    const nodes = scheduled.scheduling!.results.map((r) => r.node).sort();
    expect(nodes).toEqual(['node-a', 'node-b', 'node-c']);
    expect(Object.values(scheduled.phases.claims)).toEqual(['Bound', 'Bound', 'Bound']);
    expect(state.eventsFor('PersistentVolumeClaim', 'prod/data-db-0').map((e) => e.reason)).toEqual([
      'WaitForFirstConsumer',
      'ExternalProvisioning',
      'Provisioning',
      'ProvisioningSucceeded',
    ]);

    const [gp3] = state.summary();
    expect(gp3.storageClass).toBe('gp3');
    expect(gp3.pendingClaims).toEqual([]);
    for (const z of gp3.zones) {
      expect(z.volumes).toHaveLength(1);
      const [v] = z.volumes;
      // The volume is in the zone of the node its pod was placed on.
      expect(v.pods[0].node).toBe(`node-${z.zone}`);
      expect(z.claimedBytes).toBe(20 * 1024 ** 3);
      expect(z.provisionedBytes).toBe(20 * 1024 ** 3);
      expect(z.remainingBytes).toBe(80 * 1024 ** 3);
    }
  });

  it('scale-down keeps claims by default (Retain) and deletes them with whenScaled: Delete', () => {
    const keep = StorageState.fromItems(cluster());
    keep.createStatefulSet(statefulSet(3));
    keep.schedule();
    const down = keep.scaleStatefulSet('prod', 'db', 1);
    expect(down.phases.claims['prod/data-db-2']).toBe('Bound');
    expect(down.dataLoss.destroyed).toEqual([]);

    const drop = StorageState.fromItems(cluster());
    drop.createStatefulSet(statefulSet(3, { whenScaled: 'Delete' }));
    drop.schedule();
    const dropped = drop.scaleStatefulSet('prod', 'db', 1);
    expect(Object.keys(dropped.phases.claims)).toEqual(['prod/data-db-0']);
    expect(dropped.dataLoss.destroyed.map((f) => f.claim).sort()).toEqual([
      'prod/data-db-1',
      'prod/data-db-2',
    ]);
    expect(dropped.dataLoss.destroyed.every((f) => f.outcome === 'deleted' && f.zone)).toBe(true);
  });

  it('deleting the set keeps claims unless whenDeleted: Delete; deleting the namespace loses them all', () => {
    const s = StorageState.fromItems(cluster());
    s.createStatefulSet(statefulSet(2));
    s.schedule();
    expect(s.deleteStatefulSet('prod', 'db').dataLoss.destroyed).toEqual([]);
    const ns = s.deleteNamespace('prod');
    expect(ns.phases.claims).toEqual({});
    expect(ns.dataLoss.destroyed).toHaveLength(2);

    const d = StorageState.fromItems(cluster());
    d.createStatefulSet(statefulSet(2, { whenDeleted: 'Delete' }));
    d.schedule();
    expect(d.deleteStatefulSet('prod', 'db').dataLoss.destroyed).toHaveLength(2);
  });

  it('resizes only when the class allows expansion, with the API server messages otherwise', () => {
    const s = StorageState.fromItems([
      ...cluster(),
      storageClass('fixed', { volumeBindingMode: 'WaitForFirstConsumer' }),
    ]);
    s.createStatefulSet(statefulSet(1));
    expect(s.resizeClaim('prod', 'data-db-0', '30Gi').errors[0].message).toBe(
      'PersistentVolumeClaim "data-db-0" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    );
    s.schedule();
    const grown = s.resizeClaim('prod', 'data-db-0', '30Gi');
    expect(grown.errors).toEqual([]);
    const pvc = s.cluster.objects.persistentVolumeClaims.get('prod', 'data-db-0')!;
    expect(s.cluster.objects.persistentVolumes.get(pvc.spec!.volumeName!)!.spec!.capacity!.storage).toBe(
      '30Gi',
    );
    expect(s.resizeClaim('prod', 'data-db-0', '10Gi').errors[0].message).toBe(
      'PersistentVolumeClaim "data-db-0" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    );
  });
});
