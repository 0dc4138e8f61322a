// Cases after upstream binder_test.go (FindPodVolumes / static matching) and pv_helpers tests, as data.
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { makeNode } from '../../../../testing/builders';
import {
  ERR_REASON_BIND_CONFLICT,
  ERR_REASON_NODE_CONFLICT,
  ERR_REASON_NOT_ENOUGH_SPACE,
  findPodVolumes,
  getPodVolumeClaims,
} from '../binder';
import { applyVolumeBindings } from '../apply';
import { makePod } from '../../../../testing/builders';

const node1 = makeNode({ name: 'node1', labels: { zone: 'a' } });
function sc(
  name: string,
  provisioner: string,
  mode = 'WaitForFirstConsumer',
  extra: Partial<StorageClass> = {},
): StorageClass {
  return { metadata: { name }, provisioner, volumeBindingMode: mode, ...extra } as StorageClass;
}
function pv(
  name: string,
  size: string,
  opts: {
    cls?: string;
    claim?: string;
    affinityNode?: string;
    modes?: string[];
    phase?: string;
    volumeMode?: string;
  } = {},
): PersistentVolume {
  return {
    metadata: { name },
    spec: {
      capacity: { storage: size },
      accessModes: opts.modes ?? ['ReadWriteOnce'],
      storageClassName: opts.cls ?? 'wait',
      volumeMode: opts.volumeMode,
      ...(opts.claim ? { claimRef: { namespace: 'default', name: opts.claim } } : {}),
      ...(opts.affinityNode
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: 'kubernetes.io/hostname', operator: 'In', values: [opts.affinityNode] },
                    ],
                  },
                ],
              },
            },
          }
        : {}),
    },
    status: { phase: opts.phase ?? (opts.claim ? 'Bound' : 'Available') },
  } as PersistentVolume;
}
function pvc(
  name: string,
  size: string,
  opts: { cls?: string; volumeName?: string; bound?: boolean; modes?: string[]; selectedNode?: string } = {},
): PersistentVolumeClaim {
  const ann: Record<string, string> = {};
  if (opts.bound) ann['pv.kubernetes.io/bind-completed'] = 'yes';
  if (opts.selectedNode) ann['volume.kubernetes.io/selected-node'] = opts.selectedNode;
  return {
    metadata: { name, namespace: 'default', annotations: ann },
    spec: {
      accessModes: opts.modes ?? ['ReadWriteOnce'],
      resources: { requests: { storage: size } },
      storageClassName: opts.cls ?? 'wait',
      volumeName: opts.volumeName,
    },
  } as PersistentVolumeClaim;
}

function setup(
  pvs: PersistentVolume[],
  pvcs: PersistentVolumeClaim[],
  classes: StorageClass[] = [
    sc('wait', 'kubernetes.io/no-provisioner'),
    sc('wait-provisioned', 'csi.example.com'),
  ],
) {
  const objects = new ClusterObjects();
  pvs.forEach((p) => objects.persistentVolumes.set(p));
  pvcs.forEach((p) => objects.persistentVolumeClaims.set(p));
  classes.forEach((c) => objects.storageClasses.set(c));
  const pod = makePod({
    name: 'p',
    spec: {
      containers: [{ name: 'c' }],
      volumes: pvcs.map((c, i) => ({
        name: `v${i}`,
        persistentVolumeClaim: { claimName: c.metadata!.name! },
      })),
    },
  });
  const claims = getPodVolumeClaims(pod, objects);
  return { objects, claims, run: (node = node1) => findPodVolumes(claims, node, objects) };
}

describe('findPodVolumes (static matching)', () => {
  it('binds an unbound claim to the smallest fitting PV', () => {
    const { run } = setup(
      [pv('pv-big', '10G'), pv('pv-small', '2G'), pv('pv-tiny', '500M')],
      [pvc('c', '1G')],
    );
    const r = run();
    expect(r.reasons).toEqual([]);
    expect(r.podVolumes.staticBindings.map((b) => b.pv.metadata!.name)).toEqual(['pv-small']);
  });
  it('equal capacities: the smallest name wins', () => {
    const { run } = setup([pv('pv-b', '2G'), pv('pv-a', '2G')], [pvc('c', '1G')]);
    expect(run().podVolumes.staticBindings[0].pv.metadata!.name).toBe('pv-a');
  });
  it('a PV pre-bound by claimRef wins over a smaller one', () => {
    const { run } = setup(
      [pv('pv-small', '1G'), { ...pv('pv-pre', '5G'), status: { phase: 'Available' } } as PersistentVolume],
      [pvc('c', '1G')],
    );
    const p = setup(
      [pv('pv-small', '1G'), pv('pv-pre', '5G', { claim: 'c', phase: 'Available' })],
      [pvc('c', '1G')],
    );
    expect(run().podVolumes.staticBindings[0].pv.metadata!.name).toBe('pv-small');
    expect(p.run().podVolumes.staticBindings[0].pv.metadata!.name).toBe('pv-pre');
  });
  it('a pre-bound PV whose node affinity rejects the node gives no match', () => {
    const { run } = setup(
      [pv('pv-pre', '5G', { claim: 'c', affinityNode: 'other' }), pv('pv-free', '5G')],
      [pvc('c', '1G')],
    );
    expect(run().reasons).toEqual([ERR_REASON_BIND_CONFLICT]);
  });
  it('skips PVs with other access modes, volume mode, phase, or node affinity', () => {
    const { run } = setup(
      [
        pv('a', '5G', { modes: ['ReadOnlyMany'] }),
        pv('b', '5G', { volumeMode: 'Block' }),
        pv('c', '5G', { phase: 'Released' }),
        pv('d', '5G', { affinityNode: 'other' }),
      ],
      [pvc('claim', '1G')],
    );
    expect(run().reasons).toEqual([ERR_REASON_BIND_CONFLICT]);
  });
  it('claims are matched smallest request first, so both fit', () => {
    const { run } = setup([pv('pv-1', '1G'), pv('pv-5', '5G')], [pvc('big', '5G'), pvc('small', '1G')]);
    const got = run().podVolumes.staticBindings.map((b) => `${b.pvc.metadata!.name}:${b.pv.metadata!.name}`);
    expect(got).toEqual(['small:pv-1', 'big:pv-5']);
  });
  it('provisions what static matching cannot satisfy when the class has a provisioner', () => {
    const { run } = setup([], [pvc('c', '1G', { cls: 'wait-provisioned' })]);
    const r = run();
    expect(r.reasons).toEqual([]);
    expect(r.podVolumes.dynamicProvisions.map((c) => c.metadata!.name)).toEqual(['c']);
  });
  it('allowedTopologies restrict provisioning', () => {
    const classes = [
      sc('z', 'csi.example.com', 'WaitForFirstConsumer', {
        allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['b'] }] }],
      }),
    ];
    const { run } = setup([], [pvc('c', '1G', { cls: 'z' })], classes);
    expect(run().reasons).toEqual([ERR_REASON_BIND_CONFLICT]);
  });
  it('a claim selected for another node fails fast', () => {
    const { run } = setup([], [pvc('c', '1G', { cls: 'wait-provisioned', selectedNode: 'node2' })]);
    expect(run().reasons).toEqual([ERR_REASON_BIND_CONFLICT]);
  });
  it('bound PV node affinity conflict and unbound conflict are both reported', () => {
    const { run } = setup(
      [pv('pv-bound', '1G', { claim: 'b', affinityNode: 'other' })],
      [pvc('b', '1G', { volumeName: 'pv-bound', bound: true }), pvc('u', '1G')],
    );
    expect(run().reasons).toEqual([ERR_REASON_NODE_CONFLICT, ERR_REASON_BIND_CONFLICT]);
  });
  it('storage capacity tracking: not enough capacity', () => {
    const { objects, run } = setup([], [pvc('c', '10G', { cls: 'wait-provisioned' })]);
    objects.csiDrivers.set({
      metadata: { name: 'csi.example.com' },
      spec: { storageCapacity: true },
    } as never);
    objects.csiStorageCapacities.set({
      metadata: { name: 'cap', namespace: 'default' },
      storageClassName: 'wait-provisioned',
      capacity: '5G',
      nodeTopology: {},
    } as never);
    expect(run().reasons).toEqual([ERR_REASON_NOT_ENOUGH_SPACE]);
    objects.csiStorageCapacities.set({
      metadata: { name: 'cap', namespace: 'default' },
      storageClassName: 'wait-provisioned',
      capacity: '50G',
      nodeTopology: {},
    } as never);
    expect(run().reasons).toEqual([]);
  });
  it('missing class and Immediate classes are unbound immediate claims', () => {
    const { claims } = setup(
      [],
      [pvc('a', '1G', { cls: 'gold' }), pvc('b', '1G', { cls: 'imm' })],
      [sc('imm', 'x', 'Immediate')],
    );
    expect(claims.unboundClaimsImmediate.map((c) => c.metadata!.name)).toEqual(['a', 'b']);
  });
});

describe('applyVolumeBindings', () => {
  it('binds statically and provisions with CSINode topology', () => {
    const node = makeNode({ name: 'node1', labels: { 'topology.kubernetes.io/zone': 'z1' } });
    const { objects } = setup(
      [pv('pv-a', '2G')],
      [pvc('s', '1G'), pvc('d', '3G', { cls: 'wait-provisioned' })],
      [
        sc('wait', 'kubernetes.io/no-provisioner'),
        sc('wait-provisioned', 'csi.example.com', 'WaitForFirstConsumer', { reclaimPolicy: 'Retain' }),
      ],
    );
    objects.csiNodes.set({
      metadata: { name: 'node1' },
      spec: {
        drivers: [
          // "constructor": a key the node lacks, named as a member of Object.prototype.
          {
            name: 'csi.example.com',
            nodeID: 'n',
            topologyKeys: ['topology.kubernetes.io/zone', 'missing', 'constructor'],
          },
        ],
      },
    } as never);
    const res = applyVolumeBindings(objects, {
      node,
      staticBindings: [{ claimNamespace: 'default', claimName: 's', pvName: 'pv-a' }],
      dynamicProvisions: [{ claimNamespace: 'default', claimName: 'd' }],
    });
    expect(res).toEqual({
      staticBindings: { 'default/s': 'pv-a' },
      provisioned: { 'default/d': 'pvc-uid-pvc-default-d' },
      selectedNode: 'node1',
    });
    const boundPV = objects.persistentVolumes.get('pv-a')!;
    expect(boundPV.spec!.claimRef!.uid).toBe('uid-pvc-default-s');
    expect(boundPV.metadata!.annotations!['pv.kubernetes.io/bound-by-controller']).toBe('yes');
    expect(boundPV.status!.phase).toBe('Bound');
    const s = objects.persistentVolumeClaims.get('default', 's')!;
    expect(s.spec!.volumeName).toBe('pv-a');
    expect(s.status).toMatchObject({ phase: 'Bound', capacity: { storage: '2G' } });
    const dyn = objects.persistentVolumes.get('pvc-uid-pvc-default-d')!;
    expect(dyn.spec).toMatchObject({
      capacity: { storage: '3G' },
      persistentVolumeReclaimPolicy: 'Retain',
      csi: { driver: 'csi.example.com' },
    });
    expect(dyn.spec!.nodeAffinity!.required!.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1'] }] },
    ]);
    expect(dyn.metadata!.labels).toBeUndefined();
    const d = objects.persistentVolumeClaims.get('default', 'd')!;
    expect(d.metadata!.annotations!['volume.kubernetes.io/selected-node']).toBe('node1');
    expect(d.metadata!.annotations!['pv.kubernetes.io/bind-completed']).toBe('yes');
  });
  it('returns undefined when nothing was reserved', () => {
    expect(applyVolumeBindings(new ClusterObjects(), undefined)).toBeUndefined();
  });
});
