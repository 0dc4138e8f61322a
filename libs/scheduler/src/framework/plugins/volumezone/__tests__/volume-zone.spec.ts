// Cases after upstream volume_zone_test.go, as data.
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { CycleState } from '../../../cycle-state';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makeNode, makePod } from '../../../../testing/builders';
import { FeatureSet } from '../../../../features';
import { Code } from '../../../status';
import { ERR_REASON_VOLUME_ZONE_CONFLICT, VolumeZone } from '..';

const pvLabels: Record<string, Record<string, string>> = {
  Vol_1: { 'failure-domain.beta.kubernetes.io/zone': 'us-west1-a' },
  Vol_2: { 'failure-domain.beta.kubernetes.io/region': 'us-west1-b', uselessLabel: 'none' },
  Vol_3: { 'failure-domain.beta.kubernetes.io/region': 'us-west1-c' },
  Vol_Stable_1: { 'topology.kubernetes.io/zone': 'us-west1-a' },
  Vol_Multi: { 'topology.kubernetes.io/zone': 'us-west1-a__us-west1-b' },
  Vol_Stable_3: {
    'topology.kubernetes.io/zone': 'us-west1-a',
    'topology.kubernetes.io/region': 'us-west1-a',
  },
};

function handleFor(nodeLabels: Record<string, string>, release?: string) {
  const objects = new ClusterObjects();
  for (const [name, labels] of Object.entries(pvLabels))
    objects.persistentVolumes.set({ metadata: { name, labels } });
  for (const name of Object.keys(pvLabels)) {
    objects.persistentVolumeClaims.set({
      metadata: { name: `PVC_${name}`, namespace: 'default' },
      spec: { volumeName: name },
    });
  }
  objects.persistentVolumeClaims.set({
    metadata: { name: 'PVC_WFFC', namespace: 'default' },
    spec: { storageClassName: 'wffc' },
  });
  objects.storageClasses.set({
    metadata: { name: 'wffc' },
    provisioner: 'x',
    volumeBindingMode: 'WaitForFirstConsumer',
  });
  const node = makeNode({ name: 'host1', labels: nodeLabels });
  const features = release === undefined ? undefined : new FeatureSet(release);
  return { handle: new FakeHandle({ nodes: [node], objects, features }), node };
}

const cases: [string, string, Record<string, string>, string | null][] = [
  [
    'label zone failure domain matched',
    'PVC_Vol_1',
    { 'failure-domain.beta.kubernetes.io/zone': 'us-west1-a' },
    null,
  ],
  [
    'beta zone label mismatched',
    'PVC_Vol_1',
    { 'failure-domain.beta.kubernetes.io/zone': 'no_us-west1-a' },
    ERR_REASON_VOLUME_ZONE_CONFLICT,
  ],
  ['region matched', 'PVC_Vol_2', { 'failure-domain.beta.kubernetes.io/region': 'us-west1-b' }, null],
  [
    'region mismatched',
    'PVC_Vol_3',
    { 'failure-domain.beta.kubernetes.io/region': 'us-west1-b' },
    ERR_REASON_VOLUME_ZONE_CONFLICT,
  ],
  ['node without zone labels accepts', 'PVC_Vol_1', { uselessLabel: 'none' }, null],
  ['stable zone label matched', 'PVC_Vol_Stable_1', { 'topology.kubernetes.io/zone': 'us-west1-a' }, null],
  [
    'stable zone label on PV, node has only region',
    'PVC_Vol_Stable_1',
    { 'topology.kubernetes.io/region': 'r' },
    ERR_REASON_VOLUME_ZONE_CONFLICT,
  ],
  [
    'multi-zone value contains node zone',
    'PVC_Vol_Multi',
    { 'topology.kubernetes.io/zone': 'us-west1-b' },
    null,
  ],
  ['unbound WaitForFirstConsumer claim skipped', 'PVC_WFFC', { 'topology.kubernetes.io/zone': 'z' }, null],
];

describe('VolumeZone', () => {
  it.each(cases)('%s', (_n, claim, nodeLabels, want) => {
    const { handle } = handleFor(nodeLabels);
    const pod = makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: claim } }],
      },
    });
    const s = new VolumeZone(handle).filter(new CycleState(), pod, handle.snapshot().get('host1')!);
    expect(s?.reasons[0] ?? null).toBe(want);
  });
  // Upstream's TestSingleZone rows on beta and GA labels (v1.37.2), at the releases either side
  // of kubernetes#118923 (1.29): a PV's beta label is then read against the node's GA label.
  const labelRows: [
    string,
    string,
    Record<string, string>,
    { '1.28': string | null; '1.29': string | null },
  ][] = [
    [
      'pv with beta label, node with ga label, matched',
      'PVC_Vol_1',
      { 'topology.kubernetes.io/zone': 'us-west1-a' },
      { '1.28': ERR_REASON_VOLUME_ZONE_CONFLICT, '1.29': null },
    ],
    [
      "pv with beta label, node with ga label, don't match",
      'PVC_Vol_1',
      { 'topology.kubernetes.io/zone': 'us-west1-b' },
      { '1.28': ERR_REASON_VOLUME_ZONE_CONFLICT, '1.29': ERR_REASON_VOLUME_ZONE_CONFLICT },
    ],
    [
      'pv with beta region, node with ga region, matched',
      'PVC_Vol_2',
      { 'topology.kubernetes.io/region': 'us-west1-b' },
      { '1.28': ERR_REASON_VOLUME_ZONE_CONFLICT, '1.29': null },
    ],
    [
      'pv with zone, node with beta zone (no translation that way)',
      'PVC_Vol_Stable_1',
      { 'failure-domain.beta.kubernetes.io/zone': 'us-west1-a' },
      { '1.28': ERR_REASON_VOLUME_ZONE_CONFLICT, '1.29': ERR_REASON_VOLUME_ZONE_CONFLICT },
    ],
    [
      'pv with zone and region, node with only zone',
      'PVC_Vol_Stable_3',
      { 'topology.kubernetes.io/zone': 'us-west1-a' },
      { '1.28': ERR_REASON_VOLUME_ZONE_CONFLICT, '1.29': ERR_REASON_VOLUME_ZONE_CONFLICT },
    ],
    [
      'beta label on both, matched (the beta key wins when the node has it)',
      'PVC_Vol_1',
      { 'failure-domain.beta.kubernetes.io/zone': 'us-west1-a', 'topology.kubernetes.io/zone': 'us-west1-b' },
      { '1.28': null, '1.29': null },
    ],
  ];
  it.each(
    labelRows.flatMap(([n, claim, labels, want]) =>
      (['1.28', '1.29', '1.37'] as const).map(
        (release) =>
          [
            `${n} at ${release}`,
            claim,
            labels,
            release === '1.28' ? want['1.28'] : want['1.29'],
            release,
          ] as const,
      ),
    ),
  )('%s', (_n, claim, nodeLabels, want, release) => {
    const { handle } = handleFor(nodeLabels, release);
    const pod = makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: claim } }],
      },
    });
    const s = new VolumeZone(handle).filter(new CycleState(), pod, handle.snapshot().get('host1')!);
    expect(s?.reasons[0] ?? null).toBe(want);
  });

  it('a missing claim is unresolvable with the API not-found message', () => {
    const { handle } = handleFor({ 'topology.kubernetes.io/zone': 'z' });
    const pod = makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'nope' } }],
      },
    });
    expect(
      new VolumeZone(handle).filter(new CycleState(), pod, handle.snapshot().get('host1')!)?.message(),
    ).toBe('persistentvolumeclaim "nope" not found');
  });

  // The plugin keeps the pod's resolved claims between calls; changing a PV or a claim must show.
  it('follows a PV and a claim changed after the first call', () => {
    const nodeLabels = { 'topology.kubernetes.io/zone': 'us-west1-a' };
    const { handle } = handleFor(nodeLabels);
    const objects = handle.objects;
    const plugin = new VolumeZone(handle);
    const host = handle.snapshot().get('host1')!;
    const pod = makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'PVC_Vol_Stable_1' } }],
      },
    });
    expect(plugin.filter(new CycleState(), pod, host)).toBeNull();
    objects.persistentVolumes.set({
      metadata: { name: 'Vol_Stable_1', labels: { 'topology.kubernetes.io/zone': 'us-west1-c' } },
    });
    expect(plugin.filter(new CycleState(), pod, host)?.reasons).toEqual([ERR_REASON_VOLUME_ZONE_CONFLICT]);
    objects.persistentVolumeClaims.set({
      metadata: { name: 'PVC_Vol_Stable_1', namespace: 'default' },
      spec: { volumeName: 'Vol_Multi' },
    });
    expect(plugin.filter(new CycleState(), pod, host)).toBeNull();
    objects.persistentVolumeClaims.delete('default', 'PVC_Vol_Stable_1');
    expect(plugin.filter(new CycleState(), pod, host)?.message()).toBe(
      'persistentvolumeclaim "PVC_Vol_Stable_1" not found',
    );
  });
});

// Upstream's TestWithBinding (v1.37.2) as data: PreFilter (1.27+) resolves the claims, and Filter
// says the same when PreFilter did not run. A missing class reads as the informer's lister words
// it (`storageclass.storage.k8s.io`); upstream's fake lister in that test says `storageclasses`.
describe('VolumeZone PreFilter and Filter with binding (upstream TestWithBinding)', () => {
  function bindingHandle() {
    const objects = new ClusterObjects();
    objects.storageClasses.set({ metadata: { name: 'Class_Immediate' }, provisioner: 'x' });
    objects.storageClasses.set({
      metadata: { name: 'Class_Wait' },
      provisioner: 'x',
      volumeBindingMode: 'WaitForFirstConsumer',
    });
    objects.persistentVolumes.set({
      metadata: { name: 'Vol_1', labels: { 'failure-domain.beta.kubernetes.io/zone': 'us-west1-a' } },
    });
    const claims: [string, Record<string, unknown>][] = [
      ['PVC_1', { volumeName: 'Vol_1' }],
      ['PVC_NoSC', { storageClassName: 'Class_0' }],
      ['PVC_EmptySC', {}],
      ['PVC_WaitSC', { storageClassName: 'Class_Wait' }],
      ['PVC_ImmediateSC', { storageClassName: 'Class_Immediate' }],
    ];
    for (const [name, spec] of claims)
      objects.persistentVolumeClaims.set({ metadata: { name, namespace: 'default' }, spec });
    const node = makeNode({
      name: 'host1',
      labels: { 'failure-domain.beta.kubernetes.io/zone': 'us-west1-a', uselessLabel: 'none' },
    });
    return new FakeHandle({ nodes: [node], objects });
  }
  const rows: [string, string, { preFilter: string | null; filter: string | null }][] = [
    ['label zone failure domain matched', 'PVC_1', { preFilter: null, filter: null }],
    [
      'unbound volume empty storage class',
      'PVC_EmptySC',
      {
        preFilter: 'PersistentVolumeClaim had no pv name and storageClass name',
        filter: 'PersistentVolumeClaim had no pv name and storageClass name',
      },
    ],
    [
      'unbound volume no storage class',
      'PVC_NoSC',
      {
        preFilter: 'storageclass.storage.k8s.io "Class_0" not found',
        filter: 'storageclass.storage.k8s.io "Class_0" not found',
      },
    ],
    [
      'unbound volume immediate binding mode',
      'PVC_ImmediateSC',
      {
        preFilter: 'VolumeBindingMode not set for StorageClass "Class_Immediate"',
        filter: 'VolumeBindingMode not set for StorageClass "Class_Immediate"',
      },
    ],
    ['unbound volume wait binding mode', 'PVC_WaitSC', { preFilter: 'Skip', filter: null }],
  ];
  it.each(rows)('%s', (_n, claim, want) => {
    const handle = bindingHandle();
    const pod = makePod({
      name: 'pod_1',
      spec: {
        containers: [{ name: 'c' }],
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: claim } }],
      },
    });
    const plugin = new VolumeZone(handle);
    const pre = plugin.preFilter(new CycleState(), pod).status;
    expect(pre === null ? null : pre.code === Code.Skip ? 'Skip' : pre.reasons[0]).toBe(want.preFilter);
    if (pre !== null && pre.code !== Code.Skip) expect(pre.code).toBe(Code.UnschedulableAndUnresolvable);
    const filter = plugin.filter(new CycleState(), pod, handle.snapshot().get('host1')!);
    expect(filter?.reasons[0] ?? null).toBe(want.filter);
  });

  it('a pod without a claim skips PreFilter', () => {
    const pod = makePod({ name: 'pod_1', spec: { containers: [{ name: 'c' }] } });
    expect(new VolumeZone(bindingHandle()).preFilter(new CycleState(), pod).status?.code).toBe(Code.Skip);
  });
});
