import type { KubeObject } from '@schedlab/k8s';
import { StorageState } from '../index';
import { claim, podWithClaim, storageClass, twoZones, volume } from './fixtures';

interface BindCase {
  name: string;
  objects: KubeObject[];
  /** Expected volumeName of claim "c1" after the controller ran ('' = stays Pending). */
  boundTo: string;
  event?: { type: string; reason: string; message: string };
}

/** Claim sync on the controller path, in the shape of upstream's PV controller binder tests. */
const cases: BindCase[] = [
  {
    name: 'binds an unbound claim to the only fitting volume',
    objects: [volume('v1', '1Gi'), claim('c1', '1Gi', { storageClassName: '' })],
    boundTo: 'v1',
  },
  {
    name: 'no volumes and no class: stays Pending with FailedBinding',
    objects: [claim('c1', '1Gi', { storageClassName: '' })],
    boundTo: '',
    event: {
      type: 'Normal',
      reason: 'FailedBinding',
      message: 'no persistent volumes available for this claim and no storage class is set',
    },
  },
  {
    name: 'volume too small: no bind',
    objects: [volume('v1', '1Gi'), claim('c1', '2Gi', { storageClassName: '' })],
    boundTo: '',
  },
  {
    name: 'the smallest fitting volume wins',
    objects: [
      volume('v-large', '100Gi'),
      volume('v-mid', '10Gi'),
      volume('v-small', '1Gi'),
      claim('c1', '5Gi', { storageClassName: '' }),
    ],
    boundTo: 'v-mid',
  },
  {
    name: 'equal sizes resolve to the smaller name',
    objects: [volume('v2', '10Gi'), volume('v1', '10Gi'), claim('c1', '5Gi', { storageClassName: '' })],
    boundTo: 'v1',
  },
  {
    name: 'class must match',
    objects: [
      volume('v1', '10Gi', { spec: { storageClassName: 'gold' } }),
      volume('v2', '20Gi', { spec: { storageClassName: 'silver' } }),
      claim('c1', '5Gi', { storageClassName: 'silver' }),
    ],
    boundTo: 'v2',
  },
  {
    name: 'access modes: the volume with the fewest modes that covers the claim wins over a smaller one with more',
    objects: [
      volume('v-rwx', '5Gi', { spec: { accessModes: ['ReadWriteOnce', 'ReadWriteMany'] } }),
      volume('v-rwo', '10Gi'),
      claim('c1', '5Gi', { storageClassName: '' }),
    ],
    boundTo: 'v-rwo',
  },
  {
    name: 'a claim asking ReadWriteMany skips ReadWriteOnce volumes',
    objects: [
      volume('v-rwo', '10Gi'),
      claim('c1', '5Gi', { storageClassName: '', accessModes: ['ReadWriteMany'] }),
    ],
    boundTo: '',
  },
  {
    name: 'selector must match the volume labels',
    objects: [
      volume('v1', '10Gi', { labels: { tier: 'slow' } }),
      volume('v2', '20Gi', { labels: { tier: 'fast' } }),
      claim('c1', '5Gi', { storageClassName: '', selector: { matchLabels: { tier: 'fast' } } }),
    ],
    boundTo: 'v2',
  },
  {
    name: 'a volume pre-bound to the claim by claimRef wins over a smaller free one',
    objects: [
      volume('v-free', '5Gi'),
      volume('v-pre', '50Gi', { spec: { claimRef: { namespace: 'default', name: 'c1' } } }),
      claim('c1', '5Gi', { storageClassName: '' }),
    ],
    boundTo: 'v-pre',
  },
  {
    name: 'a volume pre-bound to another claim is not used',
    objects: [
      volume('v1', '5Gi', { spec: { claimRef: { namespace: 'default', name: 'other' } } }),
      claim('c1', '5Gi', { storageClassName: '' }),
    ],
    boundTo: '',
  },
  {
    name: 'Released volumes are not bindable',
    objects: [
      volume('v1', '5Gi', {
        status: { phase: 'Released' },
        spec: { claimRef: { namespace: 'default', name: 'gone', uid: 'uid-gone' } },
      }),
      claim('c1', '5Gi', { storageClassName: '' }),
    ],
    boundTo: '',
  },
  {
    name: 'claim naming its volume binds to it',
    objects: [
      volume('v1', '10Gi'),
      volume('v0', '5Gi'),
      claim('c1', '5Gi', { storageClassName: '', volumeName: 'v1' }),
    ],
    boundTo: 'v1',
  },
  {
    name: 'claim naming a too-small volume: VolumeMismatch',
    objects: [volume('v1', '1Gi'), claim('c1', '5Gi', { storageClassName: '', volumeName: 'v1' })],
    boundTo: '',
    event: {
      type: 'Warning',
      reason: 'VolumeMismatch',
      message: 'Cannot bind to requested volume "v1": requested PV is too small',
    },
  },
  {
    name: 'claim naming a volume bound elsewhere: FailedBinding',
    objects: [
      volume('v1', '5Gi', { spec: { claimRef: { namespace: 'default', name: 'other', uid: 'u' } } }),
      claim('other', '5Gi', { storageClassName: '', volumeName: 'v1' }),
      claim('c1', '5Gi', { storageClassName: '', volumeName: 'v1' }),
    ],
    boundTo: '',
    event: {
      type: 'Warning',
      reason: 'FailedBinding',
      message: 'volume "v1" already bound to a different claim.',
    },
  },
  {
    name: 'missing class: ProvisioningFailed with the lister error',
    objects: [...twoZones(), claim('c1', '5Gi', { storageClassName: 'gone' })],
    boundTo: '',
    event: {
      type: 'Warning',
      reason: 'ProvisioningFailed',
      message: 'storageclass.storage.k8s.io "gone" not found',
    },
  },
  {
    name: 'missing class, but a volume of that class exists: binds statically',
    objects: [
      volume('v1', '5Gi', { spec: { storageClassName: 'gone' } }),
      claim('c1', '5Gi', { storageClassName: 'gone' }),
    ],
    boundTo: 'v1',
  },
  {
    name: 'Immediate class with no provisioner (local volumes): ProvisioningFailed',
    objects: [
      storageClass('local', { provisioner: 'kubernetes.io/no-provisioner' }),
      claim('c1', '5Gi', { storageClassName: 'local' }),
    ],
    boundTo: '',
    event: {
      type: 'Warning',
      reason: 'ProvisioningFailed',
      message: 'no volume plugin matched name: kubernetes.io/no-provisioner',
    },
  },
  {
    name: 'WaitForFirstConsumer: free volumes are left to the scheduler',
    objects: [
      storageClass('local', {
        provisioner: 'kubernetes.io/no-provisioner',
        volumeBindingMode: 'WaitForFirstConsumer',
      }),
      volume('v1', '5Gi', { spec: { storageClassName: 'local' } }),
      claim('c1', '5Gi', { storageClassName: 'local' }),
    ],
    boundTo: '',
    event: {
      type: 'Normal',
      reason: 'WaitForFirstConsumer',
      message: 'waiting for first consumer to be created before binding',
    },
  },
  {
    name: 'WaitForFirstConsumer: a volume pre-bound to the claim still binds at once',
    objects: [
      storageClass('local', {
        provisioner: 'kubernetes.io/no-provisioner',
        volumeBindingMode: 'WaitForFirstConsumer',
      }),
      volume('v1', '5Gi', {
        spec: { storageClassName: 'local', claimRef: { namespace: 'default', name: 'c1' } },
      }),
      claim('c1', '5Gi', { storageClassName: 'local' }),
    ],
    boundTo: 'v1',
  },
  {
    name: 'default StorageClass admission fills a missing class',
    objects: [
      ...twoZones(),
      storageClass('standard', {
        metadata: {
          name: 'standard',
          annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
        },
      }),
      claim('c1', '5Gi'),
    ],
    boundTo: 'pvc-uid-c1',
  },
];

describe('PV controller claim sync', () => {
  it.each(cases)('$name', ({ objects, boundTo, event }) => {
    const state = StorageState.fromItems(objects);
    const c1 = state.cluster.objects.persistentVolumeClaims.get('default', 'c1')!;
    if (boundTo) expect(c1.spec?.volumeName).toBe(boundTo);
    expect(c1.status?.phase).toBe(boundTo ? 'Bound' : 'Pending');
    if (boundTo) {
      const pv = state.cluster.objects.persistentVolumes.get(boundTo)!;
      expect(pv.status?.phase).toBe('Bound');
      expect(pv.spec?.claimRef).toMatchObject({ namespace: 'default', name: 'c1', uid: 'uid-c1' });
      expect(c1.metadata?.annotations?.['pv.kubernetes.io/bind-completed']).toBe('yes');
    }
    if (event) expect(state.eventsFor('PersistentVolumeClaim', 'default/c1').at(-1)).toMatchObject(event);
  });
});

describe('reclaim policies when the claim is deleted', () => {
  const bound = (policy: string, source: Record<string, unknown> = { hostPath: { path: '/d' } }) => {
    const s = StorageState.fromItems([
      volume('v1', '5Gi', { spec: { persistentVolumeReclaimPolicy: policy, ...source } }),
      claim('c1', '5Gi', { storageClassName: '' }),
    ]);
    expect(s.cluster.objects.persistentVolumes.get('v1')!.status?.phase).toBe('Bound');
    return s;
  };

  it('Retain: the volume is Released with its data, and not rebindable until its claimRef is cleared', () => {
    const s = bound('Retain');
    const step = s.deleteClaim('default', 'c1');
    expect(step.phases.volumes).toEqual({ v1: 'Released' });
    expect(step.dataLoss.destroyed).toEqual([]);
    expect(step.dataLoss.retained).toEqual([
      expect.objectContaining({
        volume: 'v1',
        claim: 'default/c1',
        outcome: 'retained',
        dataDestroyed: false,
      }),
    ]);
    expect(
      s.createClaim(claim('c2', '5Gi', { storageClassName: '' }) as never).phases.claims['default/c2'],
    ).toBe('Pending');
    const freed = s.releaseVolume('v1');
    expect(freed.phases).toEqual({ claims: { 'default/c2': 'Bound' }, volumes: { v1: 'Bound' } });
  });

  it('Delete: a dynamically provisioned volume and its data go', () => {
    const s = StorageState.fromItems([
      ...twoZones(),
      storageClass('gp2'),
      claim('c1', '5Gi', { storageClassName: 'gp2' }),
    ]);
    expect(s.timeline[0].phases.volumes).toEqual({ 'pvc-uid-c1': 'Bound' });
    const step = s.deleteClaim('default', 'c1');
    expect(step.phases.volumes).toEqual({});
    expect(step.dataLoss.destroyed).toEqual([
      expect.objectContaining({
        volume: 'pvc-uid-c1',
        outcome: 'deleted',
        dataDestroyed: true,
        storageClass: 'gp2',
      }),
    ]);
  });

  it('Delete on a statically created volume fails: the PV is Failed and the data stays', () => {
    const s = bound('Delete');
    const step = s.deleteClaim('default', 'c1');
    expect(step.phases.volumes).toEqual({ v1: 'Failed' });
    expect(step.dataLoss.retained[0]).toMatchObject({ outcome: 'failed', dataDestroyed: false });
    expect(s.eventsFor('PersistentVolume', 'v1').at(-1)).toMatchObject({
      type: 'Warning',
      reason: 'VolumeFailedDelete',
    });
  });

  it('Recycle (deprecated): the volume is scrubbed and Available again', () => {
    const s = bound('Recycle');
    const step = s.deleteClaim('default', 'c1');
    expect(step.phases.volumes).toEqual({ v1: 'Available' });
    expect(step.dataLoss.destroyed[0]).toMatchObject({ outcome: 'recycled', dataDestroyed: true });
    expect(s.eventsFor('PersistentVolume', 'v1').at(-1)).toMatchObject({
      reason: 'VolumeRecycled',
      message: 'Volume recycled',
    });
  });

  it('Recycle on a volume type without a recycler: Failed, data kept', () => {
    const s = bound('Recycle', { csi: { driver: 'x', volumeHandle: 'h' }, hostPath: undefined });
    expect(s.deleteClaim('default', 'c1').phases.volumes).toEqual({ v1: 'Failed' });
    expect(s.eventsFor('PersistentVolume', 'v1').at(-1)).toMatchObject({
      reason: 'VolumeFailedRecycle',
      message: 'No recycler plugin found for the volume!',
    });
  });

  it('a claim in use by a pod waits for it (pvc-protection), then reclaims', () => {
    const s = bound('Delete', {
      hostPath: undefined,
      csi: { driver: 'x', volumeHandle: 'h' },
      metadata: undefined,
    });
    s.createPod(podWithClaim('p', 'c1') as never);
    const step = s.deleteClaim('default', 'c1');
    expect(step.phases.claims).toEqual({ 'default/c1': 'Terminating' });
    expect(step.dataLoss.deferred).toEqual(['default/c1']);
    const after = s.deletePod('default', 'p');
    expect(after.phases.claims).toEqual({});
  });

  it('generic ephemeral volumes: the claim is owned by the pod and deleted with it', () => {
    const s = StorageState.fromItems([...twoZones(), storageClass('gp2')]);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'job', namespace: 'default' },
      spec: {
        containers: [{ name: 'c', image: 'x' }],
        volumes: [
          {
            name: 'scratch',
            ephemeral: {
              volumeClaimTemplate: {
                spec: {
                  accessModes: ['ReadWriteOnce'],
                  storageClassName: 'gp2',
                  resources: { requests: { storage: '1Gi' } },
                },
              },
            },
          },
        ],
      },
    };
    const created = s.createPod(pod as never);
    expect(created.phases.claims).toEqual({ 'default/job-scratch': 'Bound' });
    expect(
      s.cluster.objects.persistentVolumeClaims.get('default', 'job-scratch')!.metadata!.ownerReferences![0],
    ).toMatchObject({ kind: 'Pod', name: 'job', controller: true });
    const deleted = s.deletePod('default', 'job');
    expect(deleted.phases.claims).toEqual({});
    expect(deleted.dataLoss.destroyed).toHaveLength(1);
  });

  it('a bound claim whose volume disappears is Lost', () => {
    const s = StorageState.fromItems([
      {
        ...claim('c1', '5Gi', { storageClassName: '', volumeName: 'v-gone' }),
        metadata: {
          name: 'c1',
          namespace: 'default',
          annotations: { 'pv.kubernetes.io/bind-completed': 'yes' },
        },
        status: { phase: 'Bound' },
      } as never,
    ]);
    expect(s.timeline[0].phases.claims).toEqual({ 'default/c1': 'Lost' });
    expect(s.eventsFor('PersistentVolumeClaim', 'default/c1')).toEqual([
      expect.objectContaining({
        type: 'Warning',
        reason: 'ClaimLost',
        message: 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!',
      }),
    ]);
  });
});

describe('bad input never crashes', () => {
  it('an unparsable claim request is a per-object error and the claim stays Pending', () => {
    const s = StorageState.fromItems([
      volume('v1', '5Gi'),
      claim('c1', 'ten gigs', { storageClassName: '' }),
    ]);
    expect(s.errors).toEqual([
      expect.objectContaining({
        kind: 'PersistentVolumeClaim',
        name: 'c1',
        field: 'spec.resources.requests.storage',
      }),
    ]);
    expect(s.timeline[0].phases.claims['default/c1']).toBe('Pending');
  });

  it('an unparsable volume capacity is reported and the volume is never matched', () => {
    const s = StorageState.fromItems([volume('v1', 'lots'), claim('c1', '1Gi', { storageClassName: '' })]);
    expect(s.errors).toEqual([
      expect.objectContaining({
        kind: 'PersistentVolume',
        name: 'v1',
        field: 'spec.capacity.storage',
        message: 'quantity "lots" does not parse',
      }),
    ]);
    expect(s.timeline[0].phases.claims['default/c1']).toBe('Pending');
  });

  it('a volume whose node affinity no node satisfies is flagged', () => {
    const s = StorageState.fromItems([
      ...twoZones(),
      volume('v1', '5Gi', {
        spec: {
          nodeAffinity: {
            required: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z'] }] },
              ],
            },
          },
        },
      }),
    ]);
    expect(s.errors).toEqual([
      expect.objectContaining({ kind: 'PersistentVolume', name: 'v1', field: 'spec.nodeAffinity' }),
    ]);
  });

  it('resizing with a class that does not allow expansion is forbidden with the admission message', () => {
    const s = bound2();
    expect(s.resizeClaim('default', 'c1', '10Gi').errors[0].message).toBe(
      'persistentvolumeclaims "c1" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    );
    expect(s.resizeClaim('default', 'nope', '10Gi').errors[0].message).toBe(
      'persistentvolumeclaims "nope" not found',
    );
  });
});

function bound2() {
  return StorageState.fromItems([
    ...twoZones(),
    storageClass('gp2'),
    claim('c1', '5Gi', { storageClassName: 'gp2' }),
  ]);
}
