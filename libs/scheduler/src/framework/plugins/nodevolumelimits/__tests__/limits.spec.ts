// Cases after upstream csi_test.go and non_csi_test.go, as data.
import type { Volume } from 'kubernetes-types/core/v1';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { CycleState } from '../../../cycle-state';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makeNode, makePod } from '../../../../testing/builders';
import { Code } from '../../../status';
import { PodInfo } from '../../../types';
import { FeatureSet } from '../../../../features';
import { CSILimits, ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED, newEBSLimits } from '..';

const vol = (c: string): Volume => ({ name: c, persistentVolumeClaim: { claimName: c } });
const podWith = (name: string, volumes: Volume[], nodeName?: string) =>
  makePod({ name, nodeName, spec: { containers: [{ name: 'c' }], volumes } });

function objectsWith(): ClusterObjects {
  const o = new ClusterObjects();
  o.storageClasses.set({ metadata: { name: 'ebs-csi' }, provisioner: 'ebs.csi.aws.com' });
  for (const n of ['a', 'b', 'c']) {
    o.persistentVolumes.set({
      metadata: { name: `pv-${n}` },
      spec: { csi: { driver: 'ebs.csi.aws.com', volumeHandle: `h-${n}` } },
    });
    o.persistentVolumeClaims.set({
      metadata: {
        name: `claim-${n}`,
        namespace: 'default',
        annotations: { 'pv.kubernetes.io/bind-completed': 'yes' },
      },
      spec: { volumeName: `pv-${n}` },
    });
  }
  o.persistentVolumeClaims.set({
    metadata: { name: 'unbound', namespace: 'default' },
    spec: { storageClassName: 'ebs-csi' },
  });
  return o;
}

describe('NodeVolumeLimits (CSI)', () => {
  const run = (incoming: string[], existing: string[], limit?: number) => {
    const objects = objectsWith();
    if (limit !== undefined) {
      objects.csiNodes.set({
        metadata: { name: 'n' },
        spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'n', allocatable: { count: limit } }] },
      });
    }
    const handle = new FakeHandle({
      nodes: [makeNode({ name: 'n' })],
      objects,
      pods: [podWith('old', existing.map(vol), 'n')],
    });
    return new CSILimits(handle).filter(
      new CycleState(),
      podWith('new', incoming.map(vol)),
      handle.snapshot().get('n')!,
    );
  };
  it('fits below the limit', () => expect(run(['claim-a'], ['claim-b'], 2)).toBeNull());
  it('exceeds the limit', () => {
    const s = run(['claim-a'], ['claim-b', 'claim-c'], 2);
    expect(s?.code).toBe(Code.Unschedulable);
    expect(s?.reasons).toEqual([ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED]);
  });
  it('a volume already attached is not counted twice', () =>
    expect(run(['claim-b'], ['claim-b', 'claim-c'], 2)).toBeNull());
  it('an unbound claim counts under its class provisioner', () =>
    expect(run(['unbound'], ['claim-b', 'claim-c'], 2)?.reasons).toEqual([
      ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
    ]));
  it('no CSINode means no limit', () => expect(run(['claim-a'], ['claim-b', 'claim-c'])).toBeNull());

  // One plugin instance keeps the incoming pod's volumes and each node's attached volumes between
  // calls; these change what it kept and expect the answer to follow.
  describe('what it keeps between calls', () => {
    const setUp = () => {
      const objects = objectsWith();
      objects.csiNodes.set({
        metadata: { name: 'n' },
        spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'n', allocatable: { count: 2 } }] },
      });
      const handle = new FakeHandle({
        nodes: [makeNode({ name: 'n' })],
        objects,
        pods: [podWith('old', [vol('claim-b')], 'n')],
      });
      return { objects, handle, plugin: new CSILimits(handle), node: handle.snapshot().get('n')! };
    };

    it('a pod added to the node counts on the next call', () => {
      const { handle, plugin, node } = setUp();
      const incoming = podWith('new', [vol('claim-a')]);
      expect(plugin.filter(new CycleState(), incoming, node)).toBeNull();
      handle.snapshot().addPod(new PodInfo(podWith('third', [vol('claim-c')], 'n')), 'n');
      expect(plugin.filter(new CycleState(), incoming, node)?.reasons).toEqual([
        ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
      ]);
    });

    it("a claim bound after the first call counts as its PV (the incoming pod's)", () => {
      const { objects, handle, plugin, node } = setUp();
      handle.snapshot().addPod(new PodInfo(podWith('third', [vol('claim-c')], 'n')), 'n');
      const incoming = podWith('new', [vol('unbound')]);
      expect(plugin.filter(new CycleState(), incoming, node)?.reasons).toEqual([
        ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
      ]);
      // Bound to the PV claim-c already attaches: nothing new on the node.
      objects.persistentVolumeClaims.set({
        metadata: { name: 'unbound', namespace: 'default' },
        spec: { storageClassName: 'ebs-csi', volumeName: 'pv-c' },
      });
      expect(plugin.filter(new CycleState(), incoming, node)).toBeNull();
    });

    it("a claim bound after the first call counts as its PV (a pod's on the node)", () => {
      const { objects, handle, plugin, node } = setUp();
      handle.snapshot().addPod(new PodInfo(podWith('third', [vol('unbound')], 'n')), 'n');
      const incoming = podWith('new', [vol('claim-a')]);
      expect(plugin.filter(new CycleState(), incoming, node)?.reasons).toEqual([
        ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
      ]);
      // The node's pods now attach claim-b's volume twice: one volume, room for claim-a.
      objects.persistentVolumeClaims.set({
        metadata: { name: 'unbound', namespace: 'default' },
        spec: { storageClassName: 'ebs-csi', volumeName: 'pv-b' },
      });
      expect(plugin.filter(new CycleState(), incoming, node)).toBeNull();
    });

    it('a new CSINode limit applies on the next call', () => {
      const { objects, plugin, node } = setUp();
      const incoming = podWith('new', [vol('claim-a')]);
      expect(plugin.filter(new CycleState(), incoming, node)).toBeNull();
      objects.csiNodes.set({
        metadata: { name: 'n' },
        spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'n', allocatable: { count: 1 } }] },
      });
      expect(plugin.filter(new CycleState(), incoming, node)?.reasons).toEqual([
        ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
      ]);
    });

    it('a deleted CSINode takes its limit away on the next call', () => {
      const { objects, handle, plugin, node } = setUp();
      handle.snapshot().addPod(new PodInfo(podWith('third', [vol('claim-c')], 'n')), 'n');
      const incoming = podWith('new', [vol('claim-a')]);
      expect(plugin.filter(new CycleState(), incoming, node)?.reasons).toEqual([
        ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
      ]);
      objects.csiNodes.delete('n');
      expect(plugin.filter(new CycleState(), incoming, node)).toBeNull();
    });

    it("a copy of the node (a preemption dry run) keeps its own pods' count", () => {
      const { plugin, node } = setUp();
      const incoming = podWith('new', [vol('claim-a')]);
      expect(plugin.filter(new CycleState(), incoming, node)).toBeNull();
      const copy = node.clone();
      copy.addPodInfo(new PodInfo(podWith('third', [vol('claim-c')], 'n')));
      expect(plugin.filter(new CycleState(), incoming, copy)?.reasons).toEqual([
        ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED,
      ]);
      expect(plugin.filter(new CycleState(), incoming, node)).toBeNull();
    });

    it('a CSIDriver that keeps pods off nodes without it applies on the next call (1.37)', () => {
      const objects = objectsWith();
      objects.csiNodes.set({
        metadata: { name: 'with' },
        spec: { drivers: [{ name: 'ebs.csi.aws.com', nodeID: 'with', allocatable: { count: 5 } }] },
      });
      const handle = new FakeHandle({
        nodes: [makeNode({ name: 'with' }), makeNode({ name: 'without' })],
        objects,
        features: new FeatureSet('1.37'),
      });
      const plugin = new CSILimits(handle);
      const incoming = podWith('new', [vol('claim-a')]);
      const verdicts = () =>
        handle
          .snapshot()
          .list()
          .map((ni) => plugin.filter(new CycleState(), incoming, ni)?.reasons ?? []);
      expect(verdicts()).toEqual([[], []]);
      objects.csiDrivers.set({
        metadata: { name: 'ebs.csi.aws.com' },
        spec: { preventPodSchedulingIfMissing: true },
      } as never);
      expect(verdicts()).toEqual([[], ['ebs.csi.aws.com CSI driver is not installed on the node']]);
      objects.csiDrivers.delete('ebs.csi.aws.com');
      expect(verdicts()).toEqual([[], []]);
    });

    it('a missing claim of the incoming pod is an error on every node, until it exists', () => {
      const { objects, plugin, node } = setUp();
      const incoming = podWith('new', [vol('later')]);
      const s = plugin.filter(new CycleState(), incoming, node);
      expect(s?.code).toBe(Code.Error);
      expect(s?.reasons).toEqual(['looking up PVC default/later: persistentvolumeclaim "later" not found']);
      expect(plugin.filter(new CycleState(), incoming, node)?.code).toBe(Code.Error);
      objects.persistentVolumeClaims.set({
        metadata: { name: 'later', namespace: 'default' },
        spec: { volumeName: 'pv-a' },
      });
      expect(plugin.filter(new CycleState(), incoming, node)).toBeNull();
    });
  });
});

describe('EBSLimits (in-tree)', () => {
  const ebs = (id: string): Volume => ({ name: id, awsElasticBlockStore: { volumeID: id } });
  const run = (n: number, allocatable?: string) => {
    const node = makeNode({
      name: 'n',
      allocatable: {
        cpu: '4',
        memory: '8Gi',
        pods: '110',
        ...(allocatable ? { 'attachable-volumes-aws-ebs': allocatable } : {}),
      },
    });
    const existing = Array.from({ length: n }, (_, i) => ebs(`vol-${i}`));
    const handle = new FakeHandle({ nodes: [node], pods: [podWith('old', existing, 'n')] });
    return newEBSLimits(handle).filter(
      new CycleState(),
      podWith('new', [ebs('new-vol')]),
      handle.snapshot().get('n')!,
    );
  };
  it('default limit 39', () => {
    expect(run(38)).toBeNull();
    expect(run(39)?.reasons).toEqual([ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED]);
  });
  it('node allocatable overrides the default', () =>
    expect(run(2, '2')?.reasons).toEqual([ERR_REASON_MAX_VOLUME_COUNT_EXCEEDED]));
  it('passes pods without EBS volumes', () => {
    const handle = new FakeHandle({ nodes: [makeNode({ name: 'n' })] });
    expect(
      newEBSLimits(handle).filter(new CycleState(), podWith('new', []), handle.snapshot().get('n')!),
    ).toBeNull();
  });
});
