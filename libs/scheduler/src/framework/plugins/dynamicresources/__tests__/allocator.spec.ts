/**
 * Rows in the spirit of upstream's allocator table (structured/internal/allocatortesting):
 * simple, all devices, constraints, in use, admin access, incomplete pools, prioritized lists;
 * the device-taint rows ("tainted-*") are ported from upstream's table as data.
 */
import type { Node } from '@schedlab/k8s';
import {
  allocate,
  AllocatorError,
  celMatches,
  type AllocatorInput,
  type ClaimObject,
  type DeviceClassObject,
  type SliceObject,
} from '../allocator';

const driver = 'driver-a';
const node = (name: string, labels: Record<string, string> = {}): Node =>
  ({ metadata: { name, labels } }) as Node;
const slice = (
  name: string,
  pool: string,
  devices: string[],
  extra: Record<string, unknown> = {},
  gen = 1,
  count = 1,
): SliceObject => ({
  metadata: { name },
  spec: {
    driver,
    pool: { name: pool, generation: gen, resourceSliceCount: count },
    nodeName: 'node-1',
    devices: devices.map((d, i) => ({
      name: d,
      attributes: { model: { string: i % 2 ? 'b' : 'a' } },
      capacity: { memory: { value: `${(i + 1) * 10}Gi` } },
    })),
    ...extra,
  },
});
const claim = (name: string, requests: unknown[], constraints?: unknown[]): ClaimObject =>
  ({ metadata: { name, namespace: 'default' }, spec: { devices: { requests, constraints } } }) as ClaimObject;
const classes = {
  'class-a': {
    metadata: { name: 'class-a' },
    spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] },
  },
};
const input = (
  slices: SliceObject[],
  allocated: string[] = [],
  legacy = false,
  deviceTaints = !legacy,
): AllocatorInput => ({
  features: {
    adminAccess: true,
    prioritizedList: true,
    sortPools: !legacy,
    legacyPools: legacy,
    deviceTaints,
  },
  allocated: new Set(allocated),
  classes: (n) => (classes as Record<string, DeviceClassObject>)[n],
  slices,
});
const devicesOf = (r: ReturnType<typeof allocate>): string[][] | null =>
  r && r.map((a) => a.devices.results.map((d) => `${d.request}:${d.pool}/${d.device}`));

describe('structured allocator', () => {
  const n1 = node('node-1');
  it('simple: the first device of the first pool', () => {
    const r = allocate(input([slice('s', 'pool-1', ['d0', 'd1'])]), n1, [
      claim('c', [{ name: 'r', exactly: { deviceClassName: 'class-a' } }]),
    ]);
    expect(devicesOf(r)).toEqual([['r:pool-1/d0']]);
    expect(r![0].nodeSelector).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }],
    });
  });
  it('devices in use by other claims are skipped; none left means no allocation', () => {
    const s = [slice('s', 'pool-1', ['d0', 'd1'])];
    const c = [claim('c', [{ name: 'r', exactly: { deviceClassName: 'class-a' } }])];
    expect(devicesOf(allocate(input(s, ['driver-a/pool-1/d0']), n1, c))).toEqual([['r:pool-1/d1']]);
    expect(allocate(input(s, ['driver-a/pool-1/d0', 'driver-a/pool-1/d1']), n1, c)).toBeNull();
  });
  it('admin access ignores devices in use', () => {
    const r = allocate(input([slice('s', 'pool-1', ['d0'])], ['driver-a/pool-1/d0']), n1, [
      claim('c', [{ name: 'r', exactly: { deviceClassName: 'class-a', adminAccess: true } }]),
    ]);
    expect(r![0].devices.results[0]).toMatchObject({ device: 'd0', adminAccess: true });
  });
  it('allocation mode All takes every matching device', () => {
    const r = allocate(input([slice('s', 'pool-1', ['d0', 'd1', 'd2'])]), n1, [
      claim('c', [{ name: 'r', exactly: { deviceClassName: 'class-a', allocationMode: 'All' } }]),
    ]);
    expect(devicesOf(r)).toEqual([['r:pool-1/d0', 'r:pool-1/d1', 'r:pool-1/d2']]);
  });
  it('matchAttribute backtracks to devices with equal attributes', () => {
    const r = allocate(input([slice('s', 'pool-1', ['d0', 'd1', 'd2'])]), n1, [
      claim(
        'c',
        [
          { name: 'r1', exactly: { deviceClassName: 'class-a' } },
          { name: 'r2', exactly: { deviceClassName: 'class-a' } },
        ],
        [{ matchAttribute: `${driver}/model` }],
      ),
    ]);
    expect(devicesOf(r)).toEqual([['r1:pool-1/d0', 'r2:pool-1/d2']]);
  });
  it('CEL selectors with quantities', () => {
    const r = allocate(input([slice('s', 'pool-1', ['d0', 'd1', 'd2'])]), n1, [
      claim('c', [
        {
          name: 'r',
          exactly: {
            deviceClassName: 'class-a',
            selectors: [
              { cel: { expression: `device.capacity["${driver}"].memory.compareTo(quantity("15Gi")) > 0` } },
            ],
          },
        },
      ]),
    ]);
    expect(devicesOf(r)).toEqual([['r:pool-1/d1']]);
    expect(celMatches('device.attributes["x"].missing', driver, { name: 'd' })).toBeInstanceOf(Error);
  });
  it('firstAvailable falls back to the next subrequest', () => {
    const r = allocate(input([slice('s', 'pool-1', ['d0'])]), n1, [
      claim('c', [
        {
          name: 'r',
          firstAvailable: [
            { name: 'two', deviceClassName: 'class-a', count: 2 },
            { name: 'one', deviceClassName: 'class-a' },
          ],
        },
      ]),
    ]);
    expect(devicesOf(r)).toEqual([['r/one:pool-1/d0']]);
  });
  it('only the newest generation of a pool counts', () => {
    const r = allocate(
      input([slice('old', 'pool-1', ['old0']), slice('new', 'pool-1', ['new0'], {}, 2)]),
      n1,
      [claim('c', [{ name: 'r', exactly: { deviceClassName: 'class-a' } }])],
    );
    expect(devicesOf(r)).toEqual([['r:pool-1/new0']]);
  });
  it('incomplete pools: skipped from 1.35, allocated from in 1.34; All refuses them', () => {
    const s = [slice('s', 'pool-1', ['d0'], {}, 1, 2)];
    const c = [claim('c', [{ name: 'r', exactly: { deviceClassName: 'class-a' } }])];
    expect(allocate(input(s), n1, c)).toBeNull();
    expect(devicesOf(allocate(input(s, [], true), n1, c))).toEqual([['r:pool-1/d0']]);
    expect(() =>
      allocate(input(s), n1, [
        claim('c', [{ name: 'r', exactly: { deviceClassName: 'class-a', allocationMode: 'All' } }]),
      ]),
    ).toThrow(
      new AllocatorError(
        'claim default/c, request r: asks for all devices, but resource pool driver-a/pool-1 is currently being updated',
      ),
    );
  });
  it('slices for other nodes are not used', () => {
    const r = allocate(input([slice('s', 'pool-2', ['d0'], { nodeName: 'node-2' })]), n1, [
      claim('c', [{ name: 'r', exactly: { deviceClassName: 'class-a' } }]),
    ]);
    expect(r).toBeNull();
  });
  // The 32-device limit of an allocation result: 1.37 checks it as each request adds its count,
  // 1.36 and earlier once the whole claim is validated (the dra fuzzer's seeds 600768, 602833 and
  // 603328 at 1.36.3 ended in 1.36's words upstream and in 1.37's in Schedlab).
  describe('claim limit of 32 devices', () => {
    const s = [slice('s', 'pool-1', ['d0', 'd1'])];
    const twenty = (name: string, deviceClassName = 'class-a') => ({
      name,
      exactly: { deviceClassName, count: 20 },
    });
    const perRequest = (on: boolean): AllocatorInput => {
      const i = input(s);
      return { ...i, features: { ...i.features, claimLimitPerRequest: on } };
    };
    it('1.37 names the request that goes over, 1.36 the claim total', () => {
      const c = [claim('c', [twenty('r1'), twenty('r2')])];
      expect(() => allocate(perRequest(true), n1, c)).toThrow(
        new AllocatorError(
          'claim default/c, request r2: adding 20 devices exceeds the claim limit of 32, with 20 already accounted for',
        ),
      );
      expect(() => allocate(perRequest(false), n1, c)).toThrow(
        new AllocatorError('claim default/c: number of requested devices 40 exceeds the claim limit of 32'),
      );
    });
    it('1.36 validates every request before the total; 1.37 stops at the limit', () => {
      const c = [claim('c', [twenty('r1'), twenty('r2'), twenty('r3', 'missing')])];
      expect(() => allocate(perRequest(true), n1, c)).toThrow(/request r2: adding 20 devices/);
      expect(() => allocate(perRequest(false), n1, c)).toThrow(
        new AllocatorError(
          'claim default/c, request r3: could not retrieve device class missing: deviceclass.resource.k8s.io "missing" not found',
        ),
      );
    });
    it('32 devices in all is within the limit at both', () => {
      const c = [
        claim('c', [twenty('r1'), { name: 'r2', exactly: { deviceClassName: 'class-a', count: 12 } }]),
      ];
      expect(allocate(perRequest(true), n1, c)).toBeNull();
      expect(allocate(perRequest(false), n1, c)).toBeNull();
    });
  });

  // Upstream's allocatortesting rows "tainted-*" (DRADeviceTaints), as data: the taints of each
  // device, the request (tolerations, firstAvailable, admin access, All), the devices in use,
  // whether the feature is on, and the devices allocated (null: no allocation).
  describe('device taints (upstream rows)', () => {
    const taintNone = { key: 'taint-key', value: 'taint-value', effect: 'None' };
    const taintNoSchedule = { key: 'taint-key', value: 'taint-value', effect: 'NoSchedule' };
    const taintNoExecute = { key: 'taint-key', value: 'taint-value-2', effect: 'NoExecute' };
    const tolerationNoSchedule = { operator: 'Exists', key: 'taint-key', effect: 'NoSchedule' };
    const tolerationNoExecute = {
      operator: 'Equal',
      key: 'taint-key',
      value: 'taint-value-2',
      effect: 'NoExecute',
    };
    const classes2 = {
      ...classes,
      'class-b': {
        metadata: { name: 'class-b' },
        spec: { selectors: [{ cel: { expression: 'device.driver == "driver-b"' } }] },
      },
    };
    const exactly = (extra: Record<string, unknown> = {}) => [
      { name: 'req-0', exactly: { deviceClassName: 'class-a', ...extra } },
    ];
    const rows: {
      name: string;
      taints: unknown[][];
      requests: unknown[];
      allocated?: string[];
      on: boolean;
      expect: string[] | null;
    }[] = [
      {
        name: 'tainted-two-devices',
        taints: [[taintNoSchedule], [taintNoExecute]],
        requests: exactly(),
        on: true,
        expect: null,
      },
      {
        name: 'tainted-one-device-two-taints',
        taints: [[taintNoSchedule, taintNoExecute]],
        requests: exactly(),
        on: true,
        expect: null,
      },
      {
        name: 'tainted-two-devices-tolerated',
        taints: [[taintNoSchedule], [taintNoExecute]],
        requests: exactly({ tolerations: [tolerationNoExecute] }),
        on: true,
        expect: ['req-0:pool-1/device-2'],
      },
      {
        name: 'tainted-two-devices-prioritized-list-tolerated',
        taints: [[taintNoSchedule], [taintNoExecute]],
        requests: [
          {
            name: 'req-0',
            firstAvailable: [
              { name: 'subReq-0', deviceClassName: 'class-a', count: 1 },
              { name: 'subReq-1', deviceClassName: 'class-a', count: 1, tolerations: [tolerationNoExecute] },
            ],
          },
        ],
        on: true,
        expect: ['req-0/subReq-1:pool-1/device-2'],
      },
      {
        name: 'tainted-no-effect',
        taints: [[taintNone]],
        requests: exactly(),
        on: true,
        expect: ['req-0:pool-1/device-1'],
      },
      {
        name: 'tainted-one-device-two-taints-both-tolerated',
        taints: [[taintNoSchedule, taintNoExecute]],
        requests: exactly({ tolerations: [tolerationNoSchedule, tolerationNoExecute] }),
        on: true,
        expect: ['req-0:pool-1/device-1'],
      },
      {
        name: 'tainted-disabled',
        taints: [[taintNoSchedule, taintNoExecute]],
        requests: exactly(),
        on: false,
        expect: ['req-0:pool-1/device-1'],
      },
      ...[true, false].map((on) => ({
        name: on ? 'tainted-prioritized-list' : 'tainted-prioritized-list-disabled',
        taints: [[taintNoSchedule]],
        requests: [
          {
            name: 'req-0',
            firstAvailable: [
              { name: 'subReq-0', deviceClassName: 'class-b', count: 1 },
              { name: 'subReq-1', deviceClassName: 'class-a', count: 1 },
            ],
          },
        ],
        on,
        expect: on ? null : ['req-0/subReq-1:pool-1/device-1'],
      })),
      ...[true, false].map((on) => ({
        name: on ? 'tainted-admin-access' : 'tainted-admin-access-disabled',
        taints: [[taintNoSchedule]],
        requests: exactly({ adminAccess: true }),
        allocated: ['driver-a/pool-1/device-1', 'driver-a/pool-1/device-2'],
        on,
        expect: on ? null : ['req-0:pool-1/device-1'],
      })),
      ...[true, false].map((on) => ({
        name: on ? 'tainted-all-devices-single' : 'tainted-all-devices-single-disabled',
        taints: [[taintNoSchedule]],
        requests: exactly({ allocationMode: 'All' }),
        on,
        expect: on ? null : ['req-0:pool-1/device-1'],
      })),
    ];
    it.each(rows)('$name', ({ taints, requests, allocated, on, expect: want }) => {
      const tainted: SliceObject = {
        metadata: { name: 'slice-1' },
        spec: {
          driver,
          pool: { name: 'pool-1', generation: 1, resourceSliceCount: 1 },
          nodeName: 'node-1',
          devices: taints.map((t, i) => ({ name: `device-${i + 1}`, taints: t as never })),
        },
      };
      const base = input([tainted], allocated ?? [], false, on);
      const r = allocate(
        { ...base, classes: (n) => (classes2 as Record<string, DeviceClassObject>)[n] },
        n1,
        [claim('claim-0', requests)],
      );
      expect(r === null ? null : devicesOf(r)![0]).toEqual(want);
    });
  });
});
