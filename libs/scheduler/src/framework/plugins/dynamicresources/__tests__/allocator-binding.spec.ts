/**
 * Binding conditions in the allocator (DRADeviceBindingConditions with DRAResourceClaimDeviceStatus):
 * the rows of upstream's allocator table about them (structured/internal/allocatortesting,
 * v1.37.2: "device-binding-conditions", "binding-conditions-*", "node-restriction",
 * "partitionable-devices-with-binding-conditions*") ported as data, then the pool order upstream's
 * GatherPools gives pools holding such devices (v0.37.2 and v0.36.3 incubating, v0.34.4
 * experimental). Upstream's fixtures: driver-a, pool-1, node-1 (region-1, planet earth).
 */
import type { Node, NodeSelector } from '@schedlab/k8s';
import {
  allocate,
  gatherPools,
  type AllocationResult,
  type AllocatorFeatures,
  type AllocatorInput,
  type ClaimObject,
  type Device,
  type DeviceClassObject,
  type SliceObject,
} from '../allocator';

const driverA = 'driver-a';
const pool1 = 'pool-1';
const node1 = { metadata: { name: 'node-1', labels: { region: 'region-1', planet: 'earth' } } } as Node;
const classA: DeviceClassObject = {
  metadata: { name: 'class-a' },
  spec: { selectors: [{ cel: { expression: `device.driver == "${driverA}"` } }] },
};

const onNode1 = { nodeName: 'node-1' };
const onEarth = {
  nodeSelector: {
    nodeSelectorTerms: [{ matchExpressions: [{ key: 'planet', operator: 'In', values: ['earth'] }] }],
  } as NodeSelector,
};

const slice = (
  name: string,
  where: Record<string, unknown>,
  devices: Device[] | undefined,
  count = 1,
  extra: Record<string, unknown> = {},
  pool = pool1,
): SliceObject => ({
  metadata: { name },
  spec: {
    driver: driverA,
    pool: { name: pool, generation: 1, resourceSliceCount: count },
    ...where,
    devices,
    ...extra,
  },
});
const counters = (name: string, set: string, memory: string, count = 4): SliceObject =>
  slice(name, onNode1, undefined, count, {
    sharedCounters: [{ name: set, counters: { memory: { value: memory } } }],
  });
const device = (name: string, extra: Partial<Device> = {}): Device => ({ name, ...extra });
const binding = (conditions: string[], failure: string[]): Partial<Device> => ({
  bindingConditions: conditions,
  bindingFailureConditions: failure,
});
const consuming = (set: string, memory: string): Partial<Device> => ({
  consumesCounters: [{ counterSet: set, counters: { memory: { value: memory } } }],
});
const request = (name: string, count = 1, extra: Record<string, unknown> = {}): unknown => ({
  name,
  exactly: { deviceClassName: 'class-a', count, ...extra },
});
const claim = (name: string, requests: unknown[]): ClaimObject =>
  ({ metadata: { name, namespace: 'default' }, spec: { devices: { requests } } }) as ClaimObject;
const localNodeSelector = {
  nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }],
};

interface Row {
  features: Partial<AllocatorFeatures>;
  claims: ClaimObject[];
  slices: SliceObject[];
  /** Per claim, "request device" with " [conditions|failure]" for a result with binding conditions. */
  expect: string[][] | null;
  nodeSelector?: unknown;
}

const withConditions = (c: string[], f: string[]): string => ` [${c.join(',')}|${f.join(',')}]`;

const rows: Record<string, Row> = {
  'device-binding-conditions': {
    features: { deviceBindingConditions: true },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [slice('slice-1', onNode1, [device('device-1', binding(['IsPrepare'], ['BindingFailed']))])],
    expect: [[`req-0 device-1${withConditions(['IsPrepare'], ['BindingFailed'])}`]],
    nodeSelector: localNodeSelector,
  },
  'binding-conditions-multiple-devices': {
    features: { deviceBindingConditions: true },
    claims: [claim('claim-0', [request('req-0', 2), request('req-1')])],
    slices: [
      slice('slice-1', onNode1, [
        device('device-1', binding(['IsPrepare'], ['BindingFailed'])),
        device('device-2', binding(['IsPrepare2'], ['BindingFailed2'])),
        device('device-3', binding(['IsPrepare3'], ['BindingFailed3'])),
      ]),
    ],
    expect: [
      [
        `req-0 device-1${withConditions(['IsPrepare'], ['BindingFailed'])}`,
        `req-0 device-2${withConditions(['IsPrepare2'], ['BindingFailed2'])}`,
        `req-1 device-3${withConditions(['IsPrepare3'], ['BindingFailed3'])}`,
      ],
    ],
    nodeSelector: localNodeSelector,
  },
  'binding-conditions-with-and-without': {
    features: { deviceBindingConditions: true },
    claims: [claim('claim-0', [request('req-0'), request('req-1')])],
    slices: [
      slice('slice-1', onNode1, [
        device('device-1'),
        device('device-2', binding(['IsPrepare'], ['BindingFailed'])),
      ]),
    ],
    expect: [['req-0 device-1', `req-1 device-2${withConditions(['IsPrepare'], ['BindingFailed'])}`]],
    nodeSelector: localNodeSelector,
  },
  'binding-conditions-without-feature-gate': {
    features: { deviceBindingConditions: false },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [slice('slice-1', onNode1, [device('device-1', binding(['IsPrepare'], ['BindingFailed']))])],
    expect: null,
  },
  'node-restriction': {
    features: { deviceBindingConditions: true },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [slice('slice-1', onEarth, [device('device-1', { bindsToNode: true })])],
    expect: [['req-0 device-1']],
    nodeSelector: localNodeSelector,
  },
  'partitionable-devices-with-binding-conditions': {
    features: { partitionableDevices: true, deviceBindingConditions: true },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [
      slice(
        'slice-1',
        onNode1,
        [
          device('device-1', {
            ...consuming('counter-set-1', '4Gi'),
            ...binding(['IsPrepare'], ['BindingFailed']),
          }),
        ],
        2,
      ),
      counters('slice-2', 'counter-set-1', '8Gi', 2),
    ],
    expect: [[`req-0 device-1${withConditions(['IsPrepare'], ['BindingFailed'])}`]],
    nodeSelector: localNodeSelector,
  },
  'partitionable-devices-with-binding-conditions-multi-slices': {
    features: { partitionableDevices: true, deviceBindingConditions: true },
    claims: [claim('claim-0', [request('req-0', 2)])],
    slices: [
      slice(
        'slice-4',
        onNode1,
        [
          device('device-1', {
            ...consuming('counter-set-1', '4Gi'),
            ...binding(['IsPrepare'], ['BindingFailed']),
          }),
        ],
        4,
      ),
      counters('slice-3', 'counter-set-1', '8Gi'),
      slice('slice-2', onNode1, [device('device-2', consuming('counter-set-2', '4Gi'))], 4),
      counters('slice-1', 'counter-set-2', '8Gi'),
    ],
    // Slices are visited by name: device-2 (slice-2) before device-1 (slice-4).
    expect: [['req-0 device-2', `req-0 device-1${withConditions(['IsPrepare'], ['BindingFailed'])}`]],
    nodeSelector: localNodeSelector,
  },
  'partitionable-devices-with-binding-conditions-and-taints': {
    features: { partitionableDevices: true, deviceBindingConditions: true, deviceTaints: true },
    claims: [claim('claim-0', [request('req-0', 2)])],
    slices: [
      slice(
        'slice-1',
        onNode1,
        [
          device('device-1', {
            ...consuming('counter-set-1', '4Gi'),
            ...binding(['IsPrepare'], ['BindingFailed']),
            taints: [{ key: 'key1', value: 'value1', effect: 'NoSchedule' }],
          }),
          device('device-2', consuming('counter-set-1', '4Gi')),
        ],
        2,
      ),
      counters('slice-2', 'counter-set-1', '8Gi', 2),
    ],
    expect: null,
  },
  'partitionable-devices-with-binding-conditions-and-taints-tolerated': {
    features: { partitionableDevices: true, deviceBindingConditions: true, deviceTaints: true },
    claims: [
      claim('claim-0', [
        request('req-0', 2, { tolerations: [{ key: 'key1', operator: 'Exists', effect: 'NoSchedule' }] }),
      ]),
    ],
    slices: [
      slice(
        'slice-1',
        onNode1,
        [
          device('device-1', {
            ...consuming('counter-set-1', '4Gi'),
            ...binding(['IsPrepare'], ['BindingFailed']),
            taints: [{ key: 'key1', value: 'value1', effect: 'NoSchedule' }],
          }),
          device('device-2', consuming('counter-set-1', '4Gi')),
        ],
        2,
      ),
      counters('slice-2', 'counter-set-1', '8Gi', 2),
    ],
    expect: [[`req-0 device-1${withConditions(['IsPrepare'], ['BindingFailed'])}`, 'req-0 device-2']],
    nodeSelector: localNodeSelector,
  },
  'partitionable-devices-with-binding-conditions-some-devices-no-conditions': {
    features: { partitionableDevices: true, deviceBindingConditions: true },
    claims: [claim('claim-0', [request('req-0', 3)])],
    slices: [
      slice(
        'slice-1',
        onNode1,
        [
          device('device-1', {
            ...consuming('counter-set-1', '2Gi'),
            ...binding(['IsPrepare'], ['BindingFailed']),
          }),
          device('device-2', consuming('counter-set-1', '2Gi')),
          device('device-3', {
            ...consuming('counter-set-1', '4Gi'),
            ...binding(['IsReady'], ['BindingTimeout']),
          }),
        ],
        2,
      ),
      counters('slice-2', 'counter-set-1', '8Gi', 2),
    ],
    expect: [
      [
        `req-0 device-1${withConditions(['IsPrepare'], ['BindingFailed'])}`,
        'req-0 device-2',
        `req-0 device-3${withConditions(['IsReady'], ['BindingTimeout'])}`,
      ],
    ],
    nodeSelector: localNodeSelector,
  },
};

function inputFor(features: Partial<AllocatorFeatures>, slices: SliceObject[]): AllocatorInput {
  return {
    features: {
      adminAccess: true,
      prioritizedList: true,
      sortPools: true,
      legacyPools: false,
      deviceTaints: false,
      ...features,
    },
    allocated: new Set(),
    classes: (name) => (name === 'class-a' ? classA : undefined),
    slices,
  };
}

const describeResults = (results: AllocationResult[] | null): string[][] | null =>
  results &&
  results.map((a) =>
    a.devices.results.map(
      (r) =>
        `${r.request} ${r.device}${r.bindingConditions ? withConditions(r.bindingConditions, r.bindingFailureConditions ?? []) : ''}`,
    ),
  );

describe('structured allocator: upstream binding-condition rows', () => {
  it.each(Object.entries(rows))('%s', (_name, row) => {
    const results = allocate(inputFor(row.features, row.slices), node1, row.claims);
    expect(describeResults(results)).toEqual(row.expect);
    if (results) expect(results[0].nodeSelector).toEqual(row.nodeSelector);
  });
});

describe('structured allocator: pools with binding conditions', () => {
  const gpu = (name: string, conditions = false): Device =>
    device(name, conditions ? binding(['attached'], ['failed']) : {});
  // Pool "a-fabric" sorts first by name, but it holds a device with binding conditions.
  const slices = [
    slice('fabric', { allNodes: true }, [gpu('f-0', true), gpu('f-1')], 1, {}, 'a-fabric'),
    slice('local', onNode1, [gpu('l-0')], 1, {}, 'b-local'),
    slice('other', onNode1, [gpu('o-0', true)], 1, {}, 'c-other'),
  ];
  const order = (features: Partial<AllocatorFeatures>): string[] =>
    gatherPools(slices, node1, inputFor(features, []).features).map((p) => p.pool);

  it('come after the pools without, each group sorted by driver and pool (1.36+), whatever the gate', () => {
    expect(order({ deviceBindingConditions: true })).toEqual(['b-local', 'a-fabric', 'c-other']);
    expect(order({ deviceBindingConditions: false })).toEqual(['b-local', 'a-fabric', 'c-other']);
  });

  it('so a device without conditions in another pool is taken first, then the fabric pool in order', () => {
    const claims = [claim('claim-0', [request('req-0', 3)])];
    expect(
      describeResults(allocate(inputFor({ deviceBindingConditions: true }, slices), node1, claims)),
    ).toEqual([['req-0 l-0', `req-0 f-0${withConditions(['attached'], ['failed'])}`, 'req-0 f-1']]);
    // Without the gate the devices with conditions are passed over: two devices are left.
    expect(allocate(inputFor({ deviceBindingConditions: false }, slices), node1, claims)).toBeNull();
    expect(
      describeResults(
        allocate(inputFor({ deviceBindingConditions: false }, slices), node1, [
          claim('claim-0', [request('req-0', 2)]),
        ]),
      ),
    ).toEqual([['req-0 l-0', 'req-0 f-1']]);
  });

  it('1.34: a pool keeps input order, but its slices with such devices come after its other slices', () => {
    const legacy = [
      slice('first', onNode1, [gpu('g-0', true), gpu('g-1')], 2),
      slice('second', onNode1, [gpu('g-2')], 2),
    ];
    const pools = gatherPools(legacy, node1, inputFor({ sortPools: false, legacyPools: true }, []).features);
    expect(pools[0].slices.map((s) => s.name)).toEqual(['second', 'first']);
    const r = allocate(inputFor({ sortPools: false, legacyPools: true }, legacy), node1, [
      claim('claim-0', [request('req-0')]),
    ]);
    expect(describeResults(r)).toEqual([['req-0 g-2']]);
  });

  it('bindsToNode pins the allocation to the node even without the gate (a slice for all nodes)', () => {
    const r = allocate(
      inputFor({ deviceBindingConditions: false }, [
        slice('fabric', { allNodes: true }, [device('f-0', { bindsToNode: true })], 1, {}, 'fabric'),
      ]),
      node1,
      [claim('claim-0', [request('req-0')])],
    );
    expect(r![0].nodeSelector).toEqual(localNodeSelector);
    const free = allocate(
      inputFor({}, [slice('fabric', { allNodes: true }, [device('f-0')], 1, {}, 'fabric')]),
      node1,
      [claim('claim-0', [request('req-0')])],
    );
    expect(free![0].nodeSelector).toBeUndefined();
  });
});
