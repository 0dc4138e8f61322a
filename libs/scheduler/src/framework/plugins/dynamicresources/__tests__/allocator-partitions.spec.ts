/**
 * Rows of upstream's allocator table (structured/internal/allocatortesting, v1.37.2) ported as
 * data: partitionable devices ("partitionable-devices-*": shared counters, per-device node
 * selection) and consumable capacity ("consumable-capacity-*": devices allocated several times,
 * request policies, capacity already allocated). Upstream's fixtures: driver-a, pool-1, node-1,
 * capacity "capacity-0", quantities 0–4 (BinarySI); a policy range is default 2, min 2, step 2,
 * max 4; a valid-values policy lists its default first.
 */
import type { Node } from '@schedlab/k8s';
import {
  allocate,
  AllocatorError,
  type AllocatorFeatures,
  type AllocatorInput,
  type ClaimObject,
  type Device,
  type DeviceClassObject,
  type SliceObject,
} from '../allocator';
import type { ConsumedCapacity } from '../capacity';

const driverA = 'driver-a';
const pool1 = 'pool-1';
const node1 = { metadata: { name: 'node-1', labels: { region: 'region-1' } } } as Node;
const cap0 = 'capacity-0';
const ofDriverB = (slice: SliceObject): SliceObject => ({
  ...slice,
  spec: { ...slice.spec!, driver: 'driver-b' },
});
const classB: DeviceClassObject = {
  metadata: { name: 'class-b' },
  spec: { selectors: [{ cel: { expression: 'device.driver == "driver-b"' } }] },
};
const classA: DeviceClassObject = {
  metadata: { name: 'class-a' },
  spec: { selectors: [{ cel: { expression: `device.driver == "${driverA}"` } }] },
};

type Where = { nodeName?: string; perDeviceNodeSelection?: boolean };
const onNode1: Where = { nodeName: 'node-1' };
const perDevice: Where = { perDeviceNodeSelection: true };

const deviceSlice = (name: string, where: Where, count: number, devices: Device[]): SliceObject => ({
  metadata: { name },
  spec: {
    driver: driverA,
    pool: { name: pool1, generation: 1, resourceSliceCount: count },
    ...where,
    devices,
  },
});
const counterSlice = (
  name: string,
  where: Where,
  count: number,
  counters: Record<string, string>,
): SliceObject => ({
  metadata: { name },
  spec: {
    driver: driverA,
    pool: { name: pool1, generation: 1, resourceSliceCount: count },
    ...where,
    sharedCounters: [
      {
        name: 'counter-set-1',
        counters: Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, { value: v }])),
      },
    ],
  },
});
const consuming = (name: string, counters: Record<string, string>, extra: Partial<Device> = {}): Device => ({
  name,
  consumesCounters: [
    {
      counterSet: 'counter-set-1',
      counters: Object.fromEntries(Object.entries(counters).map(([k, v]) => [k, { value: v }])),
    },
  ],
  ...extra,
});
/** withAllowMultipleAllocations and a capacity without policy. */
const sharedDevice = (name: string, value: string): Device => ({
  name,
  allowMultipleAllocations: true,
  capacity: { [cap0]: { value } },
});
/** withCapacityRequestPolicyRange: default 2, range 2..4 step 2. */
const rangeDevice = (name: string, value: string, extra: Partial<Device> = {}): Device => ({
  name,
  allowMultipleAllocations: true,
  capacity: {
    [cap0]: { value, requestPolicy: { default: '2', validRange: { min: '2', step: '2', max: '4' } } },
  },
  ...extra,
});
/** withCapacityRequestPolicyValidValues: the default is the first valid value. */
const valuesDevice = (name: string, def: string, value: string, more: string[] = []): Device => ({
  name,
  allowMultipleAllocations: true,
  capacity: { [cap0]: { value, requestPolicy: { default: def, validValues: [def, ...more] } } },
});

const kindIs = (kind: string): { cel: { expression: string } } => ({
  cel: { expression: `device.attributes["${driverA}"].kind == "${kind}"` },
});
const stringIs = (value: string): { cel: { expression: string } } => ({
  cel: { expression: `device.attributes["${driverA}"].stringAttribute == "${value}"` },
});

const request = (name: string, capacity?: string, extra: Record<string, unknown> = {}): unknown => ({
  name,
  exactly: {
    deviceClassName: 'class-a',
    ...(capacity !== undefined ? { capacity: { requests: { [cap0]: capacity } } } : {}),
    ...extra,
  },
});
const claim = (name: string, requests: unknown[], constraints?: unknown[]): ClaimObject =>
  ({ metadata: { name, namespace: 'default' }, spec: { devices: { requests, constraints } } }) as ClaimObject;

interface Row {
  features: Partial<AllocatorFeatures>;
  claims: ClaimObject[];
  slices: SliceObject[];
  allocated?: string[];
  allocatedCapacity?: Record<string, Record<string, string>>;
  /**
   * Per claim, "request device", with " cap=q" for a share's consumed capacity or " share" for a
   * share of a device without capacity; null: no allocation.
   */
  expect?: string[][] | null;
  error?: string;
}

const d = (device: string): string => `${driverA}/${pool1}/${device}`;

/** Driver A's and driver B's pools are both named pool-1, with different counters (c 1 and 2). */
const samePoolNameTwoDrivers = (): Pick<Row, 'claims' | 'slices'> => ({
  claims: [
    claim('claim-0', [request('req-0')]),
    claim('claim-1', [request('req-1', undefined, { deviceClassName: 'class-b' })]),
  ],
  slices: [
    deviceSlice('slice-1', onNode1, 2, [consuming('device-1', { c: '1' })]),
    counterSlice('slice-2', onNode1, 2, { c: '1' }),
    ofDriverB(deviceSlice('slice-3', onNode1, 2, [consuming('device-2', { c: '2' })])),
    ofDriverB(counterSlice('slice-4', onNode1, 2, { c: '2' })),
  ],
});

const rows: Record<string, Row> = {
  'partitionable-devices-single-device': {
    features: { partitionableDevices: true },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [
      deviceSlice('slice-1', onNode1, 2, [consuming('device-1', { memory: '4Gi' })]),
      counterSlice('slice-2', onNode1, 2, { memory: '8Gi' }),
    ],
    expect: [['req-0 device-1']],
  },
  'partitionable-devices-counter-quantities-are-not-modified': {
    features: { partitionableDevices: true },
    claims: [claim('claim-0', [request('req-0')])],
    allocated: [d('device-1')],
    slices: [
      deviceSlice('slice-1', onNode1, 2, [
        consuming('device-1', { c: '9000000000000000000' }),
        consuming('device-2', { c: '1' }),
      ]),
      counterSlice('slice-2', onNode1, 2, { c: '10000000000000000000' }),
    ],
    expect: [['req-0 device-2']],
  },
  'partitionable-devices-taint-releases-counter': {
    features: { partitionableDevices: true, deviceTaints: true },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [
      deviceSlice('slice-1', onNode1, 2, [
        consuming(
          'device-1',
          { c: '1' },
          { taints: [{ key: 'example.com/taint', value: 'tainted', effect: 'NoSchedule' }] },
        ),
        consuming('device-2', { c: '1' }),
      ]),
      counterSlice('slice-2', onNode1, 2, { c: '1' }),
    ],
    expect: [['req-0 device-2']],
  },
  'partitionable-devices-counter-cache-scoped-by-pool-ID': {
    features: { partitionableDevices: true },
    ...samePoolNameTwoDrivers(),
    expect: [['req-0 device-1'], ['req-1 device-2']],
  },
  // 1.36 (v0.36.3) kept counters per pool name: driver-b's pool-1 is checked against driver-a's.
  'partitionable-devices-counter-cache-scoped-by-pool-ID at 1.36': {
    features: { partitionableDevices: true, countersByPoolName: true },
    ...samePoolNameTwoDrivers(),
    expect: null,
  },
  'partitionable-devices-multiple-devices': {
    features: { partitionableDevices: true },
    claims: [claim('claim-0', [request('req-0'), request('req-1')])],
    slices: [
      deviceSlice('slice-1', onNode1, 2, [
        consuming('device-1', { memory: '4Gi' }),
        consuming('device-2', { memory: '6Gi' }),
        consuming('device-3', { memory: '4Gi' }),
      ]),
      counterSlice('slice-2', onNode1, 2, { memory: '8Gi' }),
    ],
    expect: [['req-0 device-1', 'req-1 device-3']],
  },
  'partitionable-devices-no-capacity-available': {
    features: { partitionableDevices: true },
    claims: [claim('claim-0', [request('req-0')])],
    allocated: [d('device-2')],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [
        consuming('device-1', { memory: '4Gi' }),
        consuming('device-2', { memory: '16Gi' }),
      ]),
      counterSlice('slice-2', onNode1, 1, { memory: '18Gi' }),
    ],
    expect: null,
  },
  'partitionable-devices-disabled-device-consumes-counters': {
    features: { partitionableDevices: false },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [consuming('device-1', { memory: '4Gi' })]),
      counterSlice('slice-2', onNode1, 1, { memory: '18Gi' }),
    ],
    expect: null,
  },
  'partitionable-devices-disabled-other-device-do-not-consume-counters': {
    features: { partitionableDevices: false },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [
      deviceSlice('slice-1', onNode1, 2, [consuming('device-1', { memory: '4Gi' }), { name: 'device-2' }]),
      counterSlice('slice-2', onNode1, 2, { memory: '18Gi' }),
    ],
    expect: [['req-0 device-2']],
  },
  'partitionable-devices-disabled-per-device-node-selection': {
    features: { partitionableDevices: false },
    claims: [claim('claim-0', [request('req-0')])],
    slices: [deviceSlice('slice-1', perDevice, 1, [{ name: 'device-2', nodeName: 'node-1' }])],
    expect: null,
  },
  'partitionable-devices-per-device-node-selection-nodename': {
    features: { partitionableDevices: true, prioritizedList: true },
    claims: [
      claim('claim-0', [
        {
          name: 'req-0',
          firstAvailable: [
            {
              name: 'subReq-0',
              deviceClassName: 'class-a',
              selectors: [
                {
                  cel: { expression: `device.capacity["${driverA}"].memory.compareTo(quantity("6Gi")) >= 0` },
                },
              ],
            },
            {
              name: 'subReq-1',
              deviceClassName: 'class-a',
              selectors: [
                {
                  cel: { expression: `device.capacity["${driverA}"].memory.compareTo(quantity("4Gi")) >= 0` },
                },
              ],
            },
          ],
        },
      ]),
    ],
    slices: [
      deviceSlice('slice-1', perDevice, 2, [
        consuming(
          'device-1',
          { memory: '4Gi' },
          { nodeName: 'node-1', capacity: { memory: { value: '4Gi' } } },
        ),
        consuming(
          'device-2',
          { memory: '6Gi' },
          { nodeName: 'node-2', capacity: { memory: { value: '6Gi' } } },
        ),
      ]),
      counterSlice('slice-2', perDevice, 2, { memory: '18Gi' }),
    ],
    expect: [['req-0/subReq-1 device-1']],
  },
  'partitionable-devices-constraint-releases-counter': {
    features: { partitionableDevices: true },
    claims: [
      claim(
        'claim-0',
        [request('req-0', undefined, { count: 2 })],
        [{ matchAttribute: `${driverA}/stringAttribute` }],
      ),
    ],
    slices: [
      deviceSlice('slice-1', onNode1, 2, [
        consuming('device-1', { c: '1' }, { attributes: { stringAttribute: { string: 'red' } } }),
        consuming('device-2', { c: '1' }, { attributes: { stringAttribute: { string: 'blue' } } }),
        consuming('device-3', { c: '1' }, { attributes: { stringAttribute: { string: 'blue' } } }),
      ]),
      counterSlice('slice-2', onNode1, 2, { c: '2' }),
    ],
    expect: [['req-0 device-2', 'req-0 device-3']],
  },
  'partitionable-consumable-capacity-backtrack-releases-counter': {
    features: { partitionableDevices: true, consumableCapacity: true },
    claims: [
      claim('claim-0', [
        request('req-0', undefined, { selectors: [kindIs('shared')] }),
        request('req-1', undefined, { selectors: [kindIs('counteronly')] }),
      ]),
    ],
    slices: [
      deviceSlice('slice-1', onNode1, 2, [
        consuming(
          'device-1',
          { c: '1' },
          { attributes: { kind: { string: 'shared' } }, allowMultipleAllocations: true },
        ),
        { name: 'device-2', attributes: { kind: { string: 'shared' } } },
        consuming('device-3', { c: '1' }, { attributes: { kind: { string: 'counteronly' } } }),
      ]),
      counterSlice('slice-2', onNode1, 2, { c: '1' }),
    ],
    expect: [['req-0 device-2', 'req-1 device-3']],
  },
  'consumable-capacity-rejection-rolls-back-constraints': {
    features: { consumableCapacity: true, prioritizedList: true },
    claims: [
      claim('claim-0', [request('req-0', '2', { selectors: [stringIs('cap')] })]),
      claim(
        'claim-1',
        [
          {
            name: 'req-0',
            firstAvailable: [
              {
                name: 'subReq-0',
                deviceClassName: 'class-a',
                selectors: [stringIs('cap')],
                allocationMode: 'All',
                capacity: { requests: { [cap0]: '2' } },
              },
              { name: 'subReq-1', deviceClassName: 'class-a', selectors: [stringIs('fb')] },
            ],
          },
        ],
        [{ matchAttribute: `${driverA}/stringAttribute` }],
      ),
    ],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [
        {
          name: 'device-1',
          allowMultipleAllocations: true,
          capacity: { [cap0]: { value: '2' } },
          attributes: { stringAttribute: { string: 'cap' } },
        },
        { name: 'device-2', attributes: { stringAttribute: { string: 'fb' } } },
      ]),
    ],
    expect: [['req-0 device-1 cap=2'], ['req-0/subReq-1 device-2']],
  },
  'partitionable-empty-capacity-multiple-share-backtrack-keeps-counter-ownership': {
    features: { partitionableDevices: true, consumableCapacity: true },
    claims: [
      claim('claim-0', [request('req-0', undefined, { selectors: [kindIs('shared')] })]),
      claim(
        'claim-1',
        [
          request('req-1', undefined, {
            selectors: [
              {
                cel: {
                  expression: `device.attributes["${driverA}"].kind == "shared" || device.attributes["${driverA}"].kind == "fallback"`,
                },
              },
            ],
          }),
          request('req-2', undefined, { selectors: [kindIs('gate')] }),
          request('req-3', undefined, { selectors: [kindIs('shared')] }),
        ],
        [{ matchAttribute: `${driverA}/stringAttribute`, requests: ['req-1', 'req-2'] }],
      ),
    ],
    slices: [
      deviceSlice('slice-1', onNode1, 2, [
        consuming(
          'device-1',
          { c: '1' },
          {
            attributes: { kind: { string: 'shared' }, stringAttribute: { string: 'red' } },
            allowMultipleAllocations: true,
          },
        ),
        {
          name: 'device-2',
          attributes: { kind: { string: 'fallback' }, stringAttribute: { string: 'blue' } },
        },
        { name: 'device-3', attributes: { kind: { string: 'gate' }, stringAttribute: { string: 'blue' } } },
      ]),
      counterSlice('slice-2', onNode1, 2, { c: '1' }),
    ],
    expect: [['req-0 device-1 share'], ['req-1 device-2', 'req-2 device-3', 'req-3 device-1 share']],
  },
  'consumable-capacity-disabled-feature': {
    features: { consumableCapacity: false },
    claims: [claim('claim-0', [request('req-0', '1')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [{ name: 'device-1' }])],
    error:
      'claim default/claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled',
  },
  'consumable-capacity-disabled-feature-with-prioritized-list': {
    features: { consumableCapacity: false, prioritizedList: true },
    claims: [
      claim('claim-0', [
        {
          name: 'req-0',
          firstAvailable: [
            { name: 'subReq-0', deviceClassName: 'class-a', capacity: { requests: { [cap0]: '1' } } },
            { name: 'subReq-1', deviceClassName: 'class-a', capacity: { requests: { [cap0]: '1' } } },
          ],
        },
      ]),
    ],
    slices: [deviceSlice('slice-1', onNode1, 1, [{ name: 'device-1' }])],
    error:
      'claim default/claim-0, subrequest subReq-0: has capacity requests, but the DRAConsumableCapacity feature is disabled',
  },
  // 1.34 (v0.34) named the request, not the subrequest.
  'consumable-capacity-disabled-feature-with-prioritized-list at 1.34': {
    features: { consumableCapacity: false, prioritizedList: true, legacyPools: true, sortPools: false },
    claims: [
      claim('claim-0', [
        {
          name: 'req-0',
          firstAvailable: [
            { name: 'subReq-0', deviceClassName: 'class-a' },
            { name: 'subReq-1', deviceClassName: 'class-a', capacity: { requests: { [cap0]: '1' } } },
          ],
        },
      ]),
    ],
    slices: [deviceSlice('slice-1', onNode1, 1, [{ name: 'device-1' }])],
    error:
      'claim default/claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity feature is disabled',
  },
  'consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '1')]), claim('claim-1', [request('req-0', '1')])],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [
        { name: 'device-1', allowMultipleAllocations: true, capacity: { [cap0]: { value: '2' } } },
      ]),
    ],
    expect: [['req-0 device-1 cap=1'], ['req-0 device-1 cap=1']],
  },
  'consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0')]), claim('claim-1', [request('req-0')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [rangeDevice('device-1', '4')])],
    expect: [['req-0 device-1 cap=2'], ['req-0 device-1 cap=2']],
  },
  'consumable-capacity-multi-allocatable-device-with-zero-request-policy': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0')]), claim('claim-1', [request('req-0')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [valuesDevice('device-1', '0', '1')])],
    expect: [['req-0 device-1 cap=0'], ['req-0 device-1 cap=0']],
  },
  'consumable-capacity-multi-allocatable-device-violates-zero-request-policy': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '1')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [valuesDevice('device-1', '0', '1')])],
    expect: null,
  },
  'consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '1')]), claim('claim-1', [request('req-0', '1')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [rangeDevice('device-1', '4')])],
    expect: [['req-0 device-1 cap=2'], ['req-0 device-1 cap=2']],
  },
  'consumable-capacity-multi-allocatable-device-with-valid-values-policy': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '2')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [valuesDevice('device-1', '1', '4', ['2'])])],
    expect: [['req-0 device-1 cap=2']],
  },
  'consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '2')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [valuesDevice('device-1', '1', '3', ['3'])])],
    expect: [['req-0 device-1 cap=3']],
  },
  'consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '1')]), claim('claim-1', [request('req-0', '2')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [rangeDevice('device-1', '2')])],
    expect: null,
  },
  'consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '6')])],
    slices: [deviceSlice('slice-1', onNode1, 1, [rangeDevice('device-1', '10')])],
    expect: null,
  },
  'consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '2')])],
    allocatedCapacity: { [d('device-1')]: { [cap0]: '2' } },
    slices: [deviceSlice('slice-1', onNode1, 1, [rangeDevice('device-1', '4')])],
    expect: [['req-0 device-1 cap=2']],
  },
  'consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '2')])],
    allocatedCapacity: { [d('device-1')]: { [cap0]: '2' } },
    slices: [
      deviceSlice('slice-1', onNode1, 1, [rangeDevice('device-1', '2'), rangeDevice('device-2', '2')]),
    ],
    expect: [['req-0 device-2 cap=2']],
  },
  'consumable-capacity-with-multi-allocatable-device-backtrack': {
    features: { consumableCapacity: true },
    claims: [
      claim(
        'claim-0',
        [request('req-0', '2'), request('req-1', '2')],
        [{ matchAttribute: `${driverA}/stringAttribute` }],
      ),
      claim('claim-1', [request('req-0', '2')]),
    ],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [
        rangeDevice('device-2', '2', {
          attributes: { stringAttribute: { string: 'stringAttributeValue1' } },
        }),
        rangeDevice('device-1', '4', {
          attributes: { stringAttribute: { string: 'stringAttributeValue2' } },
        }),
      ]),
    ],
    expect: [['req-0 device-1 cap=2', 'req-1 device-1 cap=2'], ['req-0 device-2 cap=2']],
  },
  'consumable-capacity-multi-allocatable-device-with-subrequest': {
    features: { consumableCapacity: true, prioritizedList: true },
    claims: [
      claim('claim-0', [
        {
          name: 'req-0',
          firstAvailable: [
            { name: 'subReq-0', deviceClassName: 'class-a', capacity: { requests: { [cap0]: '4' } } },
            { name: 'subReq-1', deviceClassName: 'class-a', capacity: { requests: { [cap0]: '2' } } },
            { name: 'subReq-1', deviceClassName: 'class-a' },
          ],
        },
      ]),
    ],
    slices: [deviceSlice('slice-1', onNode1, 1, [rangeDevice('device-1', '2')])],
    expect: [['req-0/subReq-1 device-1 cap=2']],
  },
  'consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '2')])],
    allocatedCapacity: { [d('device-1')]: { [cap0]: '2' } },
    slices: [deviceSlice('slice-1', onNode1, 1, [rangeDevice('device-1', '2')])],
    expect: null,
  },
  'consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient': {
    features: { consumableCapacity: true },
    allocatedCapacity: { [d('device-1')]: { [cap0]: '1' } },
    claims: [claim('claim-0', [request('req-0', '1', { allocationMode: 'All' })])],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [sharedDevice('device-1', '2'), sharedDevice('device-2', '1')]),
    ],
    expect: [['req-0 device-1 cap=1', 'req-0 device-2 cap=1']],
  },
  'consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient': {
    features: { consumableCapacity: true },
    claims: [claim('claim-0', [request('req-0', '1'), request('req-1', '1', { allocationMode: 'All' })])],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [sharedDevice('device-1', '1'), sharedDevice('device-2', '1')]),
    ],
    expect: null,
  },
  'consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient': {
    features: { consumableCapacity: true },
    allocatedCapacity: { [d('device-1')]: { [cap0]: '1' } },
    claims: [claim('claim-0', [request('req-0', '1', { allocationMode: 'All' })])],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [sharedDevice('device-1', '1'), sharedDevice('device-2', '1')]),
    ],
    expect: null,
  },
  // 1.36 (v0.36.3): "all" leaves out a device whose room the shares of allocated claims took.
  'consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient at 1.36': {
    features: { consumableCapacity: true, strictCapacity: false, fractionalCapacityRange: false },
    allocatedCapacity: { [d('device-1')]: { [cap0]: '1' } },
    claims: [claim('claim-0', [request('req-0', '1', { allocationMode: 'All' })])],
    slices: [
      deviceSlice('slice-1', onNode1, 1, [sharedDevice('device-1', '1'), sharedDevice('device-2', '1')]),
    ],
    expect: [['req-0 device-2 cap=1']],
  },
};

function inputFor(row: Row): AllocatorInput {
  const capacity = new Map<string, ConsumedCapacity>();
  for (const [id, caps] of Object.entries(row.allocatedCapacity ?? {}))
    capacity.set(id, new Map(Object.entries(caps).map(([k, v]) => [k, BigInt(v) * 1_000_000_000n])));
  return {
    features: {
      adminAccess: false,
      prioritizedList: false,
      sortPools: true,
      legacyPools: false,
      deviceTaints: false,
      fractionalCapacityRange: true,
      strictCapacity: true,
      ...row.features,
    },
    allocated: new Set(row.allocated ?? []),
    shared: new Set(capacity.keys()),
    capacity,
    classes: (name) => (name === 'class-a' ? classA : name === 'class-b' ? classB : undefined),
    slices: row.slices,
  };
}

describe('structured allocator: upstream partitionable-devices and consumable-capacity rows', () => {
  it.each(Object.entries(rows))('%s', (_name, row) => {
    const run = (): ReturnType<typeof allocate> => allocate(inputFor(row), node1, row.claims);
    if (row.error) {
      expect(run).toThrow(AllocatorError);
      expect(run).toThrow(row.error);
      return;
    }
    const results = run();
    const got =
      results &&
      results.map((a) =>
        a.devices.results.map(
          (r) =>
            `${r.request} ${r.device}${r.consumedCapacity ? ` cap=${r.consumedCapacity[cap0]}` : r.shareID ? ' share' : ''}`,
        ),
      );
    expect(got).toEqual(row.expect);
    // Consumed capacity only comes with a share.
    for (const a of results ?? [])
      for (const r of a.devices.results) if (r.consumedCapacity) expect(r.shareID).toBeDefined();
  });

  it('a share of a device allocated in the same search does not take its counters again', () => {
    const slices = [
      deviceSlice('slice-1', onNode1, 2, [
        {
          ...consuming('device-1', { c: '1' }),
          allowMultipleAllocations: true,
          capacity: { [cap0]: { value: '4' } },
        },
      ]),
      counterSlice('slice-2', onNode1, 2, { c: '1' }),
    ];
    const r = allocate(
      inputFor({
        features: { partitionableDevices: true, consumableCapacity: true },
        claims: [],
        slices,
      }),
      node1,
      [claim('claim-0', [request('req-0', '1')]), claim('claim-1', [request('req-0', '2')])],
    );
    expect(r?.map((a) => a.devices.results.map((x) => `${x.device} ${x.consumedCapacity?.[cap0]}`))).toEqual([
      ['device-1 1'],
      ['device-1 2'],
    ]);
  });

  it('counters held by an allocated device in another slice of the pool count too', () => {
    // The node sees only slice-1 and the counters: the pool is complete only with slice-3 (node-2).
    const slices = [
      deviceSlice('slice-1', onNode1, 3, [consuming('device-1', { c: '2' })]),
      counterSlice('slice-2', onNode1, 3, { c: '3' }),
      deviceSlice('slice-3', { nodeName: 'node-2' }, 3, [consuming('device-9', { c: '2' })]),
    ];
    const features = { partitionableDevices: true };
    const claims = [claim('claim-0', [request('req-0')])];
    expect(allocate(inputFor({ features, claims, slices }), node1, claims)).not.toBeNull();
    expect(
      allocate(inputFor({ features, claims, slices, allocated: [d('device-9')] }), node1, claims),
    ).toBeNull();
  });

  it('a pool whose device consumes an undeclared counter is invalid', () => {
    const slices = [
      deviceSlice('slice-1', onNode1, 2, [consuming('device-1', { power: '1' })]),
      counterSlice('slice-2', onNode1, 2, { c: '3' }),
    ];
    expect(() =>
      allocate(inputFor({ features: { partitionableDevices: true }, claims: [], slices }), node1, [
        claim('claim-0', [request('req-0')]),
      ]),
    ).toThrow('invalid resource pools were encountered');
  });
});
