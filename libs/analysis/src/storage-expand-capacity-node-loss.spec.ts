/**
 * The expansion, storage-capacity and node-loss steps of a scenario through the pipeline, on
 * examples/storage-lifecycle.yaml: what the API server, the resizer, the kubelet and the scheduler
 * do, and what the data-loss report says.
 */
import type { KubeObject } from '@schedlab/k8s';
import { ScenarioError, storageReport } from '@schedlab/scenarios';
import { runAnalysis } from './index';
import { applyScratchClaim, localCache, storageLifecycleCluster } from './testing/storage-lifecycle';

const cluster = storageLifecycleCluster;

function run(steps: unknown[], items: KubeObject[] = cluster) {
  const outcome = runAnalysis('scenario', items, { seed: 0 }, { scenario: { steps } });
  return { outcome, report: storageReport(outcome.result.run)!, steps: outcome.result.run.steps };
}

const expandable = {
  apply: {
    objects: [
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 'ssd-delete' },
        provisioner: 'ebs.csi.aws.com',
        volumeBindingMode: 'WaitForFirstConsumer',
        reclaimPolicy: 'Delete',
        allowVolumeExpansion: true,
      },
    ],
  },
};

describe('expandPVC', () => {
  it('grows a mounted claim: resizer and kubelet events, claim and volume at the new size', () => {
    const { report, steps, outcome } = run([
      expandable,
      { expandPVC: { namespace: 'shop', name: 'data-orders-0', storage: '100Gi' } },
    ]);
    const items = outcome.result.run.world.items;
    const claim = items.find(
      (o) => o.kind === 'PersistentVolumeClaim' && o.metadata?.name === 'data-orders-0',
    ) as unknown as {
      spec: { volumeName: string; resources: { requests: { storage: string } } };
      status: { capacity: { storage: string } };
    };
    const pv = items.find(
      (o) => o.kind === 'PersistentVolume' && o.metadata?.name === claim.spec.volumeName,
    ) as unknown as {
      spec: { capacity: { storage: string } };
    };
    expect([
      claim.spec.resources.requests.storage,
      claim.status.capacity.storage,
      pv.spec.capacity.storage,
    ]).toEqual(['100Gi', '100Gi', '100Gi']);
    const events = report.timeline.find((s) => s.index === 1)!.events;
    const node = outcome.result.placements['shop/orders-0'];
    expect(events.map((e) => [e.reason, e.from, e.message])).toEqual([
      ['ExternalExpanding', 'volume_expand', 'waiting for an external controller to expand this PVC'],
      [
        'Resizing',
        'external-resizer ebs.csi.aws.com',
        `External resizer is resizing volume ${claim.spec.volumeName}`,
      ],
      [
        'FileSystemResizeRequired',
        'external-resizer ebs.csi.aws.com',
        'Require file system resize of volume on node',
      ],
      [
        'FileSystemResizeSuccessful',
        'kubelet',
        `MountVolume.NodeExpandVolume succeeded for volume "${claim.spec.volumeName}" ${node}`,
      ],
    ]);
    expect(steps[1].changes[0].detail).toContain('spec.resources.requests.storage 50Gi → 100Gi');
    // The pod stays where it is: nothing is rescheduled.
    expect(steps[1].scheduling).toEqual([]);
  });

  it('an unmounted claim keeps its old capacity until a pod mounts it (FileSystemResizePending)', () => {
    const retainExpandable = {
      apply: {
        objects: [
          {
            ...expandable.apply.objects[0],
            metadata: { name: 'ssd-retain' },
            reclaimPolicy: 'Retain',
          },
        ],
      },
    };
    const { report, outcome } = run([
      retainExpandable,
      { scale: { kind: 'StatefulSet', namespace: 'ledger', name: 'ledger', replicas: 2 } },
      { expandPVC: { namespace: 'ledger', name: 'data-ledger-2', storage: '80Gi' } },
    ]);
    const claim = outcome.result.run.world.items.find(
      (o) => o.kind === 'PersistentVolumeClaim' && o.metadata?.name === 'data-ledger-2',
    ) as unknown as {
      spec: { resources: { requests: { storage: string } } };
      status: { capacity: { storage: string }; conditions: { type: string; message: string }[] };
    };
    expect(claim.spec.resources.requests.storage).toBe('80Gi');
    expect(claim.status.capacity.storage).toBe('50Gi');
    expect(claim.status.conditions).toEqual([
      {
        type: 'FileSystemResizePending',
        status: 'True',
        message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.',
      },
    ]);
    const reasons = report.timeline.find((s) => s.index === 2)!.events.map((e) => e.reason);
    expect(reasons).toEqual(['ExternalExpanding', 'Resizing', 'FileSystemResizeRequired']);
  });

  it('an unbound (WaitForFirstConsumer) claim cannot change its request', () => {
    const { steps } = run([
      applyScratchClaim,
      { expandPVC: { namespace: 'shop', name: 'scratch', storage: '2Gi' } },
    ]);
    expect(steps[1].changes[0].detail).toBe(
      'PersistentVolumeClaim "scratch" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    );
  });

  it('is refused with the API server’s words when the class does not allow expansion or the size shrinks', () => {
    const { steps } = run([
      { expandPVC: { namespace: 'shop', name: 'data-orders-0', storage: '100Gi' } },
      expandable,
      { expandPVC: { namespace: 'shop', name: 'data-orders-0', storage: '10Gi' } },
    ]);
    expect(steps[0].changes).toEqual([
      {
        type: 'objectRejected',
        object: 'PersistentVolumeClaim/shop/data-orders-0',
        detail:
          'persistentvolumeclaims "data-orders-0" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
      },
    ]);
    expect(steps[2].changes[0].detail).toBe(
      'PersistentVolumeClaim "data-orders-0" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    );
  });
});

const capacityTracking = {
  apply: {
    objects: [
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'CSIDriver',
        metadata: { name: 'ebs.csi.aws.com' },
        spec: { storageCapacity: true },
      },
    ],
  },
};

describe('setStorageCapacity', () => {
  it('a zone out of room leaves a new replica’s WaitForFirstConsumer claim unprovisioned, in the scheduler’s words', () => {
    const zones = ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'];
    const { report, steps } = run([
      capacityTracking,
      ...zones.map((zone) => ({ setStorageCapacity: { storageClass: 'ssd-delete', zone, capacity: '1Ti' } })),
      { setStorageCapacity: { storageClass: 'ssd-delete', capacity: '10Gi' } },
      { scale: { kind: 'StatefulSet', namespace: 'shop', name: 'orders', replicas: 4 } },
    ]);
    expect(steps[1].changes).toEqual([
      {
        type: 'objectApplied',
        object: 'CSIStorageCapacity/kube-system/ssd-delete-eu-west-1a',
        detail: 'capacity 1Ti for zone eu-west-1a',
      },
    ]);
    expect(steps[4].changes.map((c) => c.detail)).toEqual([
      'capacity 1Ti → 10Gi',
      'capacity 1Ti → 10Gi',
      'capacity 1Ti → 10Gi',
    ]);
    const scale = steps[5];
    const failed = scale.scheduling.find((r) => r.pod === 'shop/orders-3')!;
    expect(failed.node).toBeNull();
    expect(failed.message).toContain('node(s) did not have enough free storage');
    expect(report.dataLoss.waiting).toEqual([
      expect.objectContaining({
        claim: 'shop/data-orders-3',
        pods: ['shop/orders-3'],
        reason: expect.stringContaining('did not have enough free storage'),
      }),
    ]);
    // Bound volumes are not affected.
    expect(report.dataLoss.stranded).toEqual([]);
  });

  it('says when the driver does not track capacity, and names a class or zone that does not exist', () => {
    const { steps } = run([
      { setStorageCapacity: { storageClass: 'ssd-delete', zone: 'eu-west-1a', capacity: '0' } },
    ]);
    expect(steps[0].changes[0].detail).toBe(
      'capacity 0 for zone eu-west-1a; CSIDriver "ebs.csi.aws.com" does not set spec.storageCapacity: true, so the scheduler ignores it',
    );
    const error = (step: unknown) => {
      try {
        run([step]);
      } catch (e) {
        return e instanceof ScenarioError ? e.message : `not a ScenarioError: ${e}`;
      }
      return 'no error';
    };
    expect(error({ setStorageCapacity: { storageClass: 'nope', capacity: '1Gi' } })).toMatch(
      /steps\[0\]\.setStorageCapacity\.storageClass.*storageclasses.storage.k8s.io "nope" not found/,
    );
    expect(
      error({ setStorageCapacity: { storageClass: 'ssd-delete', zone: 'mars', capacity: '1Gi' } }),
    ).toMatch(/steps\[0\]\.setStorageCapacity\.zone.*no node is in zone "mars"/);
    expect(
      error({ setStorageCapacity: { storageClass: 'ssd-delete', zone: 'eu-west-1a', capacity: 'lots' } }),
    ).toMatch(/steps\[0\]\.setStorageCapacity\.capacity.*quantity "lots" does not parse/);
  });
});

describe('nodeLoss', () => {
  it('a lost node strands the pod pinned to its local volume, and says the data was on that node', () => {
    const { report, steps } = run([{ nodeLoss: { nodes: ['node-a1'] } }], [...cluster, ...localCache]);
    expect(steps[0].changes.find((c) => c.type === 'nodeRemoved')).toEqual({
      type: 'nodeRemoved',
      object: 'Node/node-a1',
      detail: 'lost with its disks; local volumes on it: local-a1 (claim shop/data-cache-0)',
    });
    const local = report.dataLoss.stranded.find((s) => s.volume === 'local-a1')!;
    expect(local).toMatchObject({ claim: 'shop/data-cache-0', localTo: 'node-a1', pods: ['shop/cache-0'] });
    expect(local.reason).toBe(
      'local volume: its data is on the disk of node node-a1, which is gone; no other node can mount it, so its pods wait for that node (if the machine is lost, so is the data)',
    );
    const failed = report.timeline
      .find((s) => s.index === 0)!
      .events.find((e) => e.object === 'Pod/shop/cache-0' && e.reason === 'FailedScheduling')!;
    expect(failed.message).toContain("didn't match PersistentVolume's node affinity");
  });
});
