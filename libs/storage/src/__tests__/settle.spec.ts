import type { KubeObject } from '@schedlab/k8s';
import { buildClusterState, simulate, type ClusterState } from '@schedlab/scheduler';
import { settleImmediateClaims, zoneOfVolume } from '../index';
import { claim, node, podWithClaim, storageClass, twoZones, volume } from './fixtures';

describe('settleImmediateClaims: the dump as the PV controller leaves it before scheduling', () => {
  const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } } as KubeObject;
  const items = () => [
    namespace,
    ...twoZones(),
    storageClass('gp2', { volumeBindingMode: 'Immediate' }),
    claim('data', '10Gi', { storageClassName: 'gp2' }),
    podWithClaim('web', 'data', { nodeSelector: { 'topology.kubernetes.io/zone': 'b' } }),
  ];
  const pvOf = (settled: KubeObject[]) => settled.find((o) => o.kind === 'PersistentVolume')!;
  const zoneFor = (seed: number) => {
    const settled = settleImmediateClaims(items(), { seed }).items;
    return zoneOfVolume(pvOf(settled) as never, settled.filter((o) => o.kind === 'Node') as never);
  };

  it("gives the same volumes, claims and events whatever the dump's pods, and keeps the pods as given", () => {
    const withPods = items();
    const settled = settleImmediateClaims(withPods, { seed: 0 });
    const alone = settleImmediateClaims(
      withPods.filter((o) => o.kind !== 'Pod'),
      { seed: 0 },
    );
    const storage = (list: KubeObject[]) =>
      list.filter((o) => o.kind === 'PersistentVolume' || o.kind === 'PersistentVolumeClaim');
    expect(storage(settled.items)).toEqual(storage(alone.items));
    expect(storage(settled.items)).toHaveLength(2);
    expect(settled.events).toEqual(alone.events);
    const pod = withPods.find((o) => o.kind === 'Pod');
    expect(settled.items.filter((o) => o.kind === 'Pod')).toEqual([pod]);
    expect(settled.items.find((o) => o.kind === 'Pod')).toBe(pod);
  });

  it('provisions the Immediate claim and keeps every other object of the dump', () => {
    const { items: settled, events, errors } = settleImmediateClaims(items(), { seed: 0 });
    const pvc = settled.find((o) => o.kind === 'PersistentVolumeClaim') as unknown as {
      spec: { volumeName: string };
      status: { phase: string };
    };
    expect(pvc.status.phase).toBe('Bound');
    expect(pvOf(settled).metadata.name).toBe(pvc.spec.volumeName);
    expect(
      settled
        .filter((o) => o.kind !== 'PersistentVolume' && o.kind !== 'PersistentVolumeClaim')
        .map((o) => o.kind),
    ).toEqual(['Namespace', ...twoZones().map((o) => o.kind), 'StorageClass', 'Pod']);
    expect(events.map((e) => e.reason)).toEqual([
      'ExternalProvisioning',
      'Provisioning',
      'ProvisioningSucceeded',
    ]);
    expect(errors).toEqual([]);
  });

  it('leaves the scheduler the volume node affinity conflict a cluster reports when the seed picks the other zone', () => {
    const seed = Array.from({ length: 32 }, (_, s) => s).find((s) => zoneFor(s) === 'a')!;
    const result = simulate(settleImmediateClaims(items(), { seed }).items, { seed });
    expect(result.results[0]).toMatchObject({ pod: 'default/web', outcome: 'unschedulable' });
    expect(result.results[0].message).toContain("didn't match PersistentVolume's node affinity");
    const unsettled = simulate(items(), { seed });
    expect(unsettled.results[0].message).toContain('pod has unbound immediate PersistentVolumeClaims');
  });

  it('binds to an existing Available volume rather than provisioning one', () => {
    const settled = settleImmediateClaims(
      [
        node('n1', 'a'),
        storageClass('gp2', { volumeBindingMode: 'Immediate' }),
        volume('pv-1', '20Gi', { spec: { storageClassName: 'gp2' } }),
        claim('data', '10Gi', { storageClassName: 'gp2' }),
      ],
      { seed: 0 },
    ).items;
    expect(settled.filter((o) => o.kind === 'PersistentVolume').map((o) => o.metadata.name)).toEqual([
      'pv-1',
    ]);
    expect(settled.find((o) => o.kind === 'PersistentVolumeClaim')).toMatchObject({
      spec: { volumeName: 'pv-1' },
      status: { phase: 'Bound' },
    });
  });

  describe('from the state already built for the dump', () => {
    const storageOf = (state: ClusterState) => ({
      volumes: state.objects.persistentVolumes.list(),
      claims: state.objects.persistentVolumeClaims.list(),
    });
    // What a cold start would schedule: buildClusterState of the settled items.
    const expectSameAsBuilt = (dump: KubeObject[]) => {
      const known = buildClusterState(dump);
      const settled = settleImmediateClaims(dump, { seed: 0 }, known);
      const built = buildClusterState(settled.items);
      expect(settled.items).toEqual(settleImmediateClaims(dump, { seed: 0 }).items);
      expect(storageOf(settled.state!)).toEqual(storageOf(built));
      expect(settled.state!.nodes).toEqual(built.nodes);
      expect(settled.state!.pendingPods).toEqual(built.pendingPods);
      expect(settled.state!.runningPods).toEqual(built.runningPods);
      return settled;
    };

    it('provisions, binds and changes phases as a fresh build would see them', () => {
      const unreserved = volume('pv-2', '5Gi', {
        spec: { claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'logs' } },
      });
      const settled = expectSameAsBuilt([
        ...items(),
        unreserved,
        volume('pv-free', '1Gi', { status: { phase: 'Bound' } }),
        claim('logs', '5Gi', { volumeName: 'pv-2', storageClassName: '' }),
      ]);
      expect(settled.events.map((e) => e.reason)).toContain('ProvisioningSucceeded');
    });

    it('keys a claim given an empty namespace as defaulting does', () => {
      const blank = claim('blank', '1Gi', { storageClassName: 'gp2' });
      (blank.metadata as { namespace?: string }).namespace = '';
      expectSameAsBuilt([...items(), blank]);
    });

    it('is the known state itself when the dump has no claims', () => {
      const plain = [...twoZones()];
      const known = buildClusterState(plain);
      expect(settleImmediateClaims(plain, {}, known).state).toBe(known);
    });
  });

  it('returns the same objects when the dump has no claims', () => {
    const plain = [...twoZones()];
    const settled = settleImmediateClaims(plain).items;
    expect(settled).toEqual(plain);
    settled.forEach((o, i) => expect(o).toBe(plain[i]));
  });
});
