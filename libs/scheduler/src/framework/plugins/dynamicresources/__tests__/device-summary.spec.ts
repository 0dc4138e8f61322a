/**
 * The simulation result's device summary: per class and node, devices reachable, held by
 * allocated claims (those allocated while scheduling included) and free; of the free ones, those
 * the allocator cannot give at the release (unavailableFree) and the tainted others counted apart.
 */
import type { KubeObject } from '@schedlab/k8s';
import { simulate } from '../../../../simulation/simulate';

const node = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110' } },
});
const slice = (name: string, where: Record<string, unknown>, devices: unknown[]): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceSlice',
  metadata: { name },
  spec: {
    driver: 'gpu.example.com',
    pool: { name, generation: 1, resourceSliceCount: 1 },
    ...where,
    devices,
  },
});
const deviceClass = (name: string, expression: string): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name },
  spec: { selectors: [{ cel: { expression } }] },
});
const items: KubeObject[] = [
  node('gpu-1'),
  node('gpu-2'),
  deviceClass('gpu', 'device.driver == "gpu.example.com"'),
  deviceClass(
    'big',
    'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].big == true',
  ),
  slice('gpu-1', { nodeName: 'gpu-1' }, [
    { name: 'gpu-0', attributes: { big: { bool: true } } },
    { name: 'gpu-1', attributes: { big: { bool: false } } },
  ]),
  slice('gpu-2', { nodeName: 'gpu-2' }, [
    {
      name: 'gpu-0',
      attributes: { big: { bool: false } },
      taints: [{ key: 'broken', effect: 'NoSchedule' }],
    },
  ]),
  slice('shared', { allNodes: true }, [{ name: 'fabric-0', attributes: { big: { bool: false } } }]),
  {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'big-one', namespace: 'default' },
    spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'big' } }] } },
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'trainer', namespace: 'default' },
    spec: {
      resourceClaims: [{ name: 'r', resourceClaimName: 'big-one' }],
      containers: [{ name: 'c', image: 'x', resources: { claims: [{ name: 'r' }] } }],
    },
  },
];

describe('device summary', () => {
  it('counts per class and node after scheduling, shared pools for every node they reach', () => {
    const result = simulate(items, { compatibilityVersion: '1.37', tieBreak: 'lowest-node-name' });
    expect(result.results[0]).toMatchObject({ outcome: 'scheduled', node: 'gpu-1' });
    expect(result.devices).toEqual([
      {
        deviceClass: 'gpu',
        nodes: [
          { node: 'gpu-1', total: 3, allocated: 1, free: 2, unavailableFree: 0, taintedFree: 0 },
          { node: 'gpu-2', total: 2, allocated: 0, free: 2, unavailableFree: 0, taintedFree: 1 },
        ],
      },
      {
        deviceClass: 'big',
        nodes: [{ node: 'gpu-1', total: 1, allocated: 1, free: 0, unavailableFree: 0, taintedFree: 0 }],
      },
    ]);
  });
  it('a slice with per-device node selection counts each device for the nodes it names (1.36+)', () => {
    const tray = slice('tray', { perDeviceNodeSelection: true }, [
      { name: 'tray-0', nodeName: 'gpu-1', attributes: { big: { bool: false } } },
      { name: 'tray-1', nodeName: 'gpu-2', attributes: { big: { bool: false } } },
      { name: 'tray-2', allNodes: true, attributes: { big: { bool: false } } },
    ]);
    const result = simulate([...items, tray], { compatibilityVersion: '1.37', tieBreak: 'lowest-node-name' });
    expect(result.devices?.[0].nodes.map((n) => [n.node, n.total])).toEqual([
      ['gpu-1', 5],
      ['gpu-2', 4],
    ]);
    // Before DRAPartitionableDevices (1.36) such slices are not read at all.
    const old = simulate([...items, tray], { compatibilityVersion: '1.34', tieBreak: 'lowest-node-name' });
    expect(old.devices?.[0].nodes.map((n) => [n.node, n.total])).toEqual([
      ['gpu-1', 3],
      ['gpu-2', 2],
    ]);
  });
  it('before 1.36 taints do not count (DRADeviceTaints off); no classes, no summary', () => {
    const result = simulate(items, { compatibilityVersion: '1.34', tieBreak: 'lowest-node-name' });
    expect(result.devices?.[0].nodes[1]).toMatchObject({ node: 'gpu-2', taintedFree: 0 });
    expect(simulate([node('n')]).devices).toBeUndefined();
  });
});

/** One node, one class for gpu.example.com, and claims allocated before the run (no pod). */
const counted = (version: string, objects: KubeObject[]) =>
  simulate([node('gpu-1'), deviceClass('gpu', 'device.driver == "gpu.example.com"'), ...objects], {
    compatibilityVersion: version,
  }).devices?.[0].nodes[0];
const allocatedClaim = (name: string, device: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'resource.k8s.io/v1',
  kind: 'ResourceClaim',
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
  spec: { devices: { requests: [{ name: 'r', exactly: { deviceClassName: 'gpu' } }] } },
  status: {
    allocation: {
      devices: { results: [{ request: 'r', driver: 'gpu.example.com', pool: 'gpu-1', device, ...extra }] },
    },
  },
});
/** A physical GPU's counters (a slice of their own) and the whole GPU beside two halves. */
const partitions = (consumerExtra: Record<string, unknown> = {}): KubeObject[] => {
  const use = (memory: string) => [{ counterSet: 'gpu-0', counters: { memory: { value: memory } } }];
  const pool = { name: 'gpu-1', generation: 1, resourceSliceCount: 2 };
  return [
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name: 'gpu-1-counters' },
      spec: {
        driver: 'gpu.example.com',
        pool,
        nodeName: 'gpu-1',
        sharedCounters: [{ name: 'gpu-0', counters: { memory: { value: '40Gi' } } }],
      },
    },
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceSlice',
      metadata: { name: 'gpu-1-devices' },
      spec: {
        driver: 'gpu.example.com',
        pool,
        nodeName: 'gpu-1',
        devices: [
          { name: 'gpu-0', consumesCounters: use('40Gi') },
          { name: 'gpu-0-half-0', consumesCounters: use('20Gi'), ...consumerExtra },
          { name: 'gpu-0-half-1', consumesCounters: use('20Gi'), ...consumerExtra },
        ],
      },
    },
  ];
};

describe('device summary: free devices the allocator cannot give (unavailableFree)', () => {
  it('a held whole GPU leaves its partitions free but unavailable (its counters are used up)', () => {
    expect(counted('1.37', [...partitions(), allocatedClaim('whole', 'gpu-0')])).toEqual({
      node: 'gpu-1',
      total: 3,
      allocated: 1,
      free: 2,
      unavailableFree: 2,
      taintedFree: 0,
    });
    // 1.36 keeps the counters per pool name: the same answer.
    expect(counted('1.36', [...partitions(), allocatedClaim('whole', 'gpu-0')])).toMatchObject({
      allocated: 1,
      free: 2,
      unavailableFree: 2,
    });
  });
  it('a held half blocks the whole GPU, not the other half; nothing held blocks nothing', () => {
    expect(counted('1.37', [...partitions(), allocatedClaim('half', 'gpu-0-half-0')])).toMatchObject({
      allocated: 1,
      free: 2,
      unavailableFree: 1,
    });
    expect(counted('1.37', partitions())).toMatchObject({ allocated: 0, free: 3, unavailableFree: 0 });
  });
  it('an admin-access allocation holds neither the device nor its counters', () => {
    expect(
      counted('1.37', [...partitions(), allocatedClaim('admin', 'gpu-0', { adminAccess: true })]),
    ).toMatchObject({ allocated: 0, free: 3, unavailableFree: 0 });
  });
  it('without DRAPartitionableDevices (1.34) no device consuming counters is ever allocated', () => {
    expect(counted('1.34', partitions())).toMatchObject({ total: 3, free: 3, unavailableFree: 3 });
  });
  it('a tainted partition the counters block is unavailable, not tainted', () => {
    const tainted = { taints: [{ key: 'maintenance', effect: 'NoSchedule' }] };
    expect(counted('1.37', [...partitions(tainted), allocatedClaim('whole', 'gpu-0')])).toMatchObject({
      free: 2,
      unavailableFree: 2,
      taintedFree: 0,
    });
    expect(counted('1.37', partitions(tainted))).toMatchObject({
      free: 3,
      unavailableFree: 0,
      taintedFree: 2,
    });
  });

  const bindingSlice = (devices: unknown[]): KubeObject =>
    slice('gpu-1', { nodeName: 'gpu-1' }, devices) as KubeObject;
  it('without DRADeviceBindingConditions (1.34, 1.35) a device with binding conditions is never allocated', () => {
    const objects = [
      bindingSlice([
        { name: 'attached', bindingConditions: ['Attached'], bindsToNode: true },
        { name: 'pinned', bindsToNode: true },
        { name: 'plain' },
      ]),
    ];
    for (const version of ['1.34', '1.35'])
      expect(counted(version, objects)).toMatchObject({ total: 3, free: 3, unavailableFree: 1 });
    for (const version of ['1.36', '1.37'])
      expect(counted(version, objects)).toMatchObject({ total: 3, free: 3, unavailableFree: 0 });
  });

  it('a consumable-capacity device: shares do not hold it (1.36+) until they take a capacity whole', () => {
    const nic = bindingSlice([
      { name: 'nic-0', allowMultipleAllocations: true, capacity: { bandwidth: { value: '10G' } } },
    ]);
    const share = (name: string, bandwidth: string) =>
      allocatedClaim(name, 'nic-0', {
        shareID: `00000000-0000-4000-8000-00000000000${name.length}`,
        consumedCapacity: { bandwidth },
      });
    expect(counted('1.37', [nic, share('a', '4G')])).toMatchObject({
      allocated: 0,
      free: 1,
      unavailableFree: 0,
    });
    expect(counted('1.37', [nic, share('a', '4G'), share('bb', '6G')])).toMatchObject({
      allocated: 0,
      free: 1,
      unavailableFree: 1,
    });
    // Without DRAConsumableCapacity (1.35) an allocation with a share holds the whole device.
    expect(counted('1.35', [nic, share('a', '4G')])).toMatchObject({ allocated: 1, free: 0 });
  });
});
