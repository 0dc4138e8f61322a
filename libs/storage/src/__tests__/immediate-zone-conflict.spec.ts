import { simulate } from '@schedlab/scheduler';
import { StorageState, zoneOfVolume } from '../index';
import { claim, podWithClaim, storageClass, twoZones } from './fixtures';

/**
 * The classic Immediate-binding failure: the provisioner creates the EBS volume in a zone
 * chosen without regard to the pod, and the pod can only run in the other zone.
 */
describe('Immediate binding provisions without regard to pods', () => {
  const items = () => [
    ...twoZones(),
    storageClass('gp2', { volumeBindingMode: 'Immediate' }),
    claim('data', '10Gi', { storageClassName: 'gp2' }),
  ];

  function zoneFor(seed: number): string {
    const state = StorageState.fromItems(items(), { seed });
    const pvc = state.cluster.objects.persistentVolumeClaims.get('default', 'data')!;
    const pv = state.cluster.objects.persistentVolumes.get(pvc.spec!.volumeName!)!;
    return zoneOfVolume(pv, state.nodes);
  }

  it('binds at claim creation, in a zone that depends only on the seed', () => {
    const zones = new Set(Array.from({ length: 16 }, (_, s) => zoneFor(s)));
    expect(zones).toEqual(new Set(['a', 'b']));
    expect(zoneFor(3)).toBe(zoneFor(3));
  });

  it('a pod pinned to zone b cannot use a volume provisioned in zone a', () => {
    const seed = Array.from({ length: 32 }, (_, s) => s).find((s) => zoneFor(s) === 'a')!;
    const state = StorageState.fromItems(items(), { seed });
    const pvc = state.cluster.objects.persistentVolumeClaims.get('default', 'data')!;
    expect(pvc.status?.phase).toBe('Bound');
    const pv = state.cluster.objects.persistentVolumes.get(pvc.spec!.volumeName!)!;
    expect(pv.spec?.nodeAffinity?.required?.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'topology.ebs.csi.aws.com/zone', operator: 'In', values: ['a'] }] },
    ]);
    expect(state.eventsFor('PersistentVolumeClaim', 'default/data').map((e) => e.reason)).toEqual([
      'ExternalProvisioning',
      'Provisioning',
      'ProvisioningSucceeded',
    ]);

    const result = simulate(
      [
        ...state.items(),
        podWithClaim('web', 'data', { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } }),
      ],
      { seed },
    );
    const web = result.results.find((r) => r.pod === 'default/web')!;
    expect(web.node).toBeNull();
    // Worded so from 1.33 (before: "node(s) had volume node affinity conflict").
    expect(web.filterReasons['node-b']).toEqual(["node(s) didn't match PersistentVolume's node affinity"]);
    expect(web.message).toContain("1 node(s) didn't match Pod's node affinity/selector");
    expect(web.message).toContain("1 node(s) didn't match PersistentVolume's node affinity");
  });

  it('WaitForFirstConsumer avoids it: the volume follows the pod to zone b', () => {
    const wffc = [
      ...twoZones(),
      storageClass('gp3', { volumeBindingMode: 'WaitForFirstConsumer' }),
      claim('data', '10Gi', { storageClassName: 'gp3' }),
    ];
    const state = StorageState.fromItems(wffc);
    expect(state.cluster.objects.persistentVolumeClaims.get('default', 'data')!.status?.phase).toBe(
      'Pending',
    );
    expect(state.eventsFor('PersistentVolumeClaim', 'default/data')).toEqual([
      expect.objectContaining({
        type: 'Normal',
        reason: 'WaitForFirstConsumer',
        message: 'waiting for first consumer to be created before binding',
      }),
    ]);
    state.createPod(
      podWithClaim('web', 'data', { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } }) as never,
    );
    const step = state.schedule();
    expect(step.scheduling!.results[0].node).toBe('node-b');
    const pvc = state.cluster.objects.persistentVolumeClaims.get('default', 'data')!;
    expect(pvc.status?.phase).toBe('Bound');
    expect(
      zoneOfVolume(state.cluster.objects.persistentVolumes.get(pvc.spec!.volumeName!)!, state.nodes),
    ).toBe('b');
  });

  it('allowedTopologies restricts the zones Immediate provisioning may choose', () => {
    for (let seed = 0; seed < 8; seed++) {
      const state = StorageState.fromItems(
        [
          ...twoZones(),
          storageClass('gp2b', {
            allowedTopologies: [
              { matchLabelExpressions: [{ key: 'topology.ebs.csi.aws.com/zone', values: ['b'] }] },
            ],
          }),
          claim('data', '10Gi', { storageClassName: 'gp2b' }),
        ],
        { seed },
      );
      const pvc = state.cluster.objects.persistentVolumeClaims.get('default', 'data')!;
      expect(
        zoneOfVolume(state.cluster.objects.persistentVolumes.get(pvc.spec!.volumeName!)!, state.nodes),
      ).toBe('b');
    }
  });

  it('a capacity model steers provisioning to the zone with room, and fails when none has any', () => {
    const model = { gp2: { a: '5Gi', b: '100Gi' } };
    const state = StorageState.fromItems(items(), { capacityModel: model, seed: 0 });
    const pvc = state.cluster.objects.persistentVolumeClaims.get('default', 'data')!;
    expect(
      zoneOfVolume(state.cluster.objects.persistentVolumes.get(pvc.spec!.volumeName!)!, state.nodes),
    ).toBe('b');

    const full = StorageState.fromItems(items(), { capacityModel: { gp2: { a: '1Gi', b: '1Gi' } } });
    expect(full.cluster.objects.persistentVolumeClaims.get('default', 'data')!.status?.phase).toBe('Pending');
    expect(full.eventsFor('PersistentVolumeClaim', 'default/data').at(-1)).toMatchObject({
      type: 'Warning',
      reason: 'ProvisioningFailed',
      message: 'failed to provision volume with StorageClass "gp2": insufficient capacity for 10Gi in a, b',
    });
  });
});
