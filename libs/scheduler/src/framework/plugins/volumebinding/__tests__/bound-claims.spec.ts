/**
 * Filter for a pod whose claims are all bound takes a path of its own (each PV looked up once per
 * cycle, no per-node decisions kept): its verdicts must be findPodVolumes' on every node, and a
 * PV that changes within the cycle must be seen.
 */
import type { PersistentVolume, PersistentVolumeClaim } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makeNode, makePod } from '../../../../testing/builders';
import { CycleState } from '../../../cycle-state';
import { defaultVolumeBindingArgs } from '../args';
import {
  ERR_REASON_NODE_CONFLICT,
  ERR_REASON_PV_NODE_AFFINITY,
  ERR_REASON_PV_NOT_EXIST,
  findPodVolumes,
  getPodVolumeClaims,
} from '../binder';
import { ANN_BIND_COMPLETED } from '../pv-helpers';
import { VolumeBinding, reservedVolumeBindings } from '../volume-binding';

const nodes = ['node1', 'node2', 'node3'].map((name) =>
  makeNode({ name, labels: { 'kubernetes.io/hostname': name } }),
);

function pv(name: string, affinityNode?: string): PersistentVolume {
  return {
    metadata: { name },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      claimRef: { namespace: 'default', name: `claim-${name}` },
      ...(affinityNode
        ? {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: 'kubernetes.io/hostname', operator: 'In', values: [affinityNode] },
                    ],
                  },
                ],
              },
            },
          }
        : {}),
    },
    status: { phase: 'Bound' },
  } as PersistentVolume;
}

/** A claim bound to the PV `volume` (which need not exist). */
function boundClaim(volume: string): PersistentVolumeClaim {
  return {
    metadata: { name: `claim-${volume}`, namespace: 'default', annotations: { [ANN_BIND_COMPLETED]: 'yes' } },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeName: volume },
    status: { phase: 'Bound' },
  } as PersistentVolumeClaim;
}

interface Case {
  name: string;
  pvs: PersistentVolume[];
  /** The PV names the pod's claims are bound to, in volume order. */
  claims: string[];
  /** Per node, the reasons Filter gives (empty: the node passes). */
  want: string[][];
}

const cases: Case[] = [
  { name: 'PV without node affinity', pvs: [pv('a')], claims: ['a'], want: [[], [], []] },
  {
    name: 'PV pinned to node2',
    pvs: [pv('a', 'node2')],
    claims: ['a'],
    want: [[ERR_REASON_NODE_CONFLICT], [], [ERR_REASON_NODE_CONFLICT]],
  },
  {
    name: 'claim bound to a PV that does not exist',
    pvs: [],
    claims: ['gone'],
    want: [[ERR_REASON_PV_NOT_EXIST], [ERR_REASON_PV_NOT_EXIST], [ERR_REASON_PV_NOT_EXIST]],
  },
  {
    name: 'a missing PV before a pinned one: the missing one decides everywhere',
    pvs: [pv('a', 'node1')],
    claims: ['gone', 'a'],
    want: [[ERR_REASON_PV_NOT_EXIST], [ERR_REASON_PV_NOT_EXIST], [ERR_REASON_PV_NOT_EXIST]],
  },
  {
    name: 'a pinned PV before a missing one: the conflict decides off its node',
    pvs: [pv('a', 'node1')],
    claims: ['a', 'gone'],
    want: [[ERR_REASON_PV_NOT_EXIST], [ERR_REASON_NODE_CONFLICT], [ERR_REASON_NODE_CONFLICT]],
  },
  {
    name: 'two PVs pinned to different nodes',
    pvs: [pv('a', 'node1'), pv('b', 'node3')],
    claims: ['a', 'b'],
    want: [[ERR_REASON_NODE_CONFLICT], [ERR_REASON_NODE_CONFLICT], [ERR_REASON_NODE_CONFLICT]],
  },
];

function setUp(c: Case, version: string) {
  const objects = new ClusterObjects();
  for (const v of c.pvs) objects.persistentVolumes.set(v);
  for (const name of c.claims) objects.persistentVolumeClaims.set(boundClaim(name));
  const features = new FeatureSet(FeatureSet.parseVersion(version));
  const handle = new FakeHandle({ nodes, objects, features });
  const plugin = new VolumeBinding(defaultVolumeBindingArgs(undefined, features), handle);
  const pod = makePod({ name: 'p' });
  pod.spec!.volumes = c.claims.map((name, i) => ({
    name: `v${i}`,
    persistentVolumeClaim: { claimName: `claim-${name}` },
  }));
  return { objects, handle, plugin, pod };
}

describe('VolumeBinding Filter, every claim bound', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const { objects, handle, plugin, pod } = setUp(c, '1.32');
    const state = new CycleState();
    expect(plugin.preFilter(state, pod).status).toBeNull();
    const claims = getPodVolumeClaims(pod, objects);
    expect(claims.claimsToBind).toEqual([]);
    const got = handle.snap.list().map((ni) => plugin.filter(state, pod, ni)?.reasons ?? []);
    // The same verdicts as the general FindPodVolumes.
    const general = handle.snap.list().map((ni) => findPodVolumes(claims, ni.node, objects).reasons);
    expect(got).toEqual(c.want);
    expect(general).toEqual(c.want);
  });

  it('words the node conflict after the PV from 1.33', () => {
    const { handle, plugin, pod } = setUp(cases[1], '1.37');
    const state = new CycleState();
    plugin.preFilter(state, pod);
    expect(handle.snap.list().map((ni) => plugin.filter(state, pod, ni)?.reasons ?? [])).toEqual([
      [ERR_REASON_PV_NODE_AFFINITY],
      [],
      [ERR_REASON_PV_NODE_AFFINITY],
    ]);
  });

  it('sees a PV deleted or re-created between two nodes of one cycle', () => {
    const { objects, handle, plugin, pod } = setUp(cases[0], '1.37');
    const state = new CycleState();
    plugin.preFilter(state, pod);
    const [n1, n2, n3] = handle.snap.list();
    expect(plugin.filter(state, pod, n1)).toBeNull();
    objects.persistentVolumes.delete('a');
    expect(plugin.filter(state, pod, n2)?.reasons).toEqual([ERR_REASON_PV_NOT_EXIST]);
    objects.persistentVolumes.set(pv('a', 'node1'));
    expect(plugin.filter(state, pod, n3)?.reasons).toEqual([ERR_REASON_PV_NODE_AFFINITY]);
    expect(plugin.filter(state, pod, n1)).toBeNull();
  });

  it('Reserve and PreBind find nothing to bind on the chosen node', () => {
    const { handle, plugin, pod } = setUp(cases[1], '1.37');
    const state = new CycleState();
    plugin.preFilter(state, pod);
    for (const ni of handle.snap.list()) plugin.filter(state, pod, ni);
    expect(plugin.reserve(state, pod, 'node2')).toBeNull();
    expect(reservedVolumeBindings(state)).toBeUndefined();
    expect(plugin.preBind(state, pod, 'node2')).toBeNull();
  });
});
