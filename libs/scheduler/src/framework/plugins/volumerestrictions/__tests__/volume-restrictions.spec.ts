// Cases after upstream volume_restrictions_test.go, as data.
import type { Volume } from 'kubernetes-types/core/v1';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { CycleState } from '../../../cycle-state';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makeNode, makePod } from '../../../../testing/builders';
import { Code } from '../../../status';
import { ERR_REASON_DISK_CONFLICT, ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT, VolumeRestrictions } from '..';

const podWith = (name: string, volumes: Volume[], nodeName?: string) =>
  makePod({ name, nodeName, spec: { containers: [{ name: 'c' }], volumes } });

const diskCases: [string, Volume, Volume, boolean][] = [
  [
    'GCE same disk',
    { name: 'a', gcePersistentDisk: { pdName: 'foo' } },
    { name: 'b', gcePersistentDisk: { pdName: 'foo' } },
    true,
  ],
  [
    'GCE different disk',
    { name: 'a', gcePersistentDisk: { pdName: 'foo' } },
    { name: 'b', gcePersistentDisk: { pdName: 'bar' } },
    false,
  ],
  [
    'GCE both read-only',
    { name: 'a', gcePersistentDisk: { pdName: 'foo', readOnly: true } },
    { name: 'b', gcePersistentDisk: { pdName: 'foo', readOnly: true } },
    false,
  ],
  [
    'EBS same volume even read-only',
    { name: 'a', awsElasticBlockStore: { volumeID: 'foo', readOnly: true } },
    { name: 'b', awsElasticBlockStore: { volumeID: 'foo', readOnly: true } },
    true,
  ],
  [
    'RBD overlapping monitors',
    { name: 'a', rbd: { monitors: ['a', 'b'], pool: 'foo', image: 'bar' } },
    { name: 'b', rbd: { monitors: ['b', 'c'], pool: 'foo', image: 'bar' } },
    true,
  ],
  [
    'RBD other image',
    { name: 'a', rbd: { monitors: ['a'], pool: 'foo', image: 'bar' } },
    { name: 'b', rbd: { monitors: ['a'], pool: 'foo', image: 'baz' } },
    false,
  ],
  [
    'ISCSI same iqn',
    { name: 'a', iscsi: { targetPortal: 'p', iqn: 'iqn.2016-12.server:storage.target01', lun: 0 } },
    { name: 'b', iscsi: { targetPortal: 'p', iqn: 'iqn.2016-12.server:storage.target01', lun: 0 } },
    true,
  ],
];

describe('VolumeRestrictions Filter', () => {
  it.each(diskCases)('%s', (_n, incoming, existing, conflict) => {
    const node = makeNode({ name: 'n' });
    const handle = new FakeHandle({ nodes: [node], pods: [podWith('old', [existing], 'n')] });
    const s = new VolumeRestrictions(handle).filter(
      new CycleState(),
      podWith('new', [incoming]),
      handle.snapshot().get('n')!,
    );
    if (conflict) {
      expect(s?.code).toBe(Code.Unschedulable);
      expect(s?.reasons).toEqual([ERR_REASON_DISK_CONFLICT]);
    } else expect(s).toBeNull();
  });
});

describe('VolumeRestrictions PreFilter (ReadWriteOncePod, v1.26)', () => {
  const objects = new ClusterObjects();
  objects.persistentVolumeClaims.set({
    metadata: { name: 'rwop', namespace: 'default' },
    spec: { accessModes: ['ReadWriteOncePod'] },
  });
  objects.persistentVolumeClaims.set({
    metadata: { name: 'rwo', namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'] },
  });
  const vol = (c: string): Volume => ({ name: c, persistentVolumeClaim: { claimName: c } });
  const nodes = [makeNode({ name: 'n1' }), makeNode({ name: 'n2' })];
  const run = (claim: string, gate: boolean) => {
    const handle = new FakeHandle({
      nodes,
      objects,
      pods: [podWith('user', [vol('rwop'), vol('rwo')], 'n2')],
      features: new FeatureSet('1.26', { ReadWriteOncePod: gate }),
    });
    return new VolumeRestrictions(handle).preFilter(new CycleState(), podWith('new', [vol(claim)])).status;
  };
  it('rejects a claim in use on any node as unresolvable', () => {
    const s = run('rwop', true);
    expect(s?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(s?.reasons).toEqual([ERR_REASON_READ_WRITE_ONCE_POD_CONFLICT]);
  });
  it('ignores other access modes and the gate being off', () => {
    expect(run('rwo', true)).toBeNull();
    expect(run('rwop', false)).toBeNull();
  });
  it('a missing claim is unresolvable', () => {
    expect(run('missing', true)?.message()).toBe('persistentvolumeclaim "missing" not found');
  });
});
