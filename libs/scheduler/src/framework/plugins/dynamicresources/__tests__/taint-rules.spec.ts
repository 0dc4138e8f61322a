/**
 * DeviceTaintRules (DRADeviceTaintRules, on from 1.37). The slice rows are upstream's
 * TestListPatchedResourceSlices table (k8s.io/dynamic-resource-allocation v0.37.2
 * resourceslice/tracker) as data, each with the rules and slices its events leave behind; the
 * scheduling rows check that a rule's taint keeps a device out at 1.37 and not at 1.36.
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import { simulate } from '../../../../simulation/simulate';
import { makeGpuSlice, makeNode, makePod } from '../../../../testing/builders';
import type { Device, DeviceTaint, SliceObject } from '../allocator';
import { slicesWithTaintRules, type DeviceTaintRule, type DeviceTaintSelector } from '../taint-rules';

const taint1: DeviceTaint = { key: 'example.com/taint', value: 'tainted', effect: 'NoExecute' };
const taint2: DeviceTaint = { key: 'example.com/taint2', value: 'tainted2', effect: 'NoExecute' };
const dev = (name: string, taints?: DeviceTaint[]): Device => (taints ? { name, taints } : { name });
const slice = (name: string, driver: string, pool: string, devices: Device[]): SliceObject => ({
  metadata: { name },
  spec: { driver, pool: { name: pool }, devices },
});
const s1 = (devices: Device[]) => slice('s1', 'driver1', 'pool-1', devices);
const s2 = (devices: Device[]) => slice('s2', 'driver2', 'pool-2', devices);
const rule = (deviceSelector: DeviceTaintSelector | undefined, taint = taint1): DeviceTaintRule => ({
  metadata: { name: 'rule' },
  spec: { ...(deviceSelector ? { deviceSelector } : {}), taint },
});
const three = (middle: Device) => [dev('device-0'), middle, dev('device-2')];

const rows: { name: string; rules: DeviceTaintRule[]; slices: SliceObject[]; expected: SliceObject[] }[] = [
  {
    name: 'add-slices-no-patches',
    rules: [],
    slices: [s1([dev('device-1')])],
    expected: [s1([dev('device-1')])],
  },
  {
    name: 'patch-all-slices',
    rules: [rule({})],
    slices: [s1([dev('device-1')])],
    expected: [s1([dev('device-1', [taint1])])],
  },
  {
    // add(pool-1 rule), then update it to pool-2
    name: 'update-patch',
    rules: [rule({ pool: 'pool-2' })],
    slices: [s1([dev('device-1')]), s2([dev('device-2')])],
    expected: [s1([dev('device-1')]), s2([dev('device-2', [taint1])])],
  },
  {
    // the rule is deleted after the slices came: nothing stays tainted
    name: 'remove-patch-known-deleted-rule',
    rules: [],
    slices: [s1([dev('device-1')]), s2([dev('device-2')])],
    expected: [s1([dev('device-1')]), s2([dev('device-2')])],
  },
  {
    name: 'merge-taints',
    rules: [rule({})],
    slices: [s1([dev('device-1', [taint2])])],
    expected: [s1([dev('device-1', [taint2, taint1])])],
  },
  {
    name: 'add-taint-for-driver',
    rules: [rule({ driver: 'driver1' })],
    slices: [s1([dev('device-1')]), s2([dev('device-2')])],
    expected: [s1([dev('device-1', [taint1])]), s2([dev('device-2')])],
  },
  {
    name: 'add-taint-for-pool',
    rules: [rule({ pool: 'pool-1' })],
    slices: [s1([dev('device-1')]), s2([dev('device-2')])],
    expected: [s1([dev('device-1', [taint1])]), s2([dev('device-2')])],
  },
  {
    name: 'add-taint-for-device',
    rules: [rule({ device: 'device-1' })],
    slices: [s1([dev('device-1')]), s2([dev('device-2')])],
    expected: [s1([dev('device-1', [taint1])]), s2([dev('device-2')])],
  },
  {
    name: 'filter-all-criteria',
    rules: [rule({ driver: 'driver1', pool: 'pool-1', device: 'device-1' })],
    slices: [s1([dev('device-1')]), s2([dev('device-2')])],
    expected: [s1([dev('device-1', [taint1])]), s2([dev('device-2')])],
  },
  {
    // slice 1 updated to three devices, slice 2 updated from three devices to device-1 alone
    name: 'update-patched-slice',
    rules: [rule({ device: 'device-1' })],
    slices: [s1(three(dev('device-1'))), s2([dev('device-1')])],
    expected: [s1(three(dev('device-1', [taint1]))), s2([dev('device-1', [taint1])])],
  },
  {
    name: 'nil-selector-matches-none',
    rules: [rule(undefined)],
    slices: [s1([dev('device-1')]), s2([dev('device-2')])],
    expected: [s1([dev('device-1')]), s2([dev('device-2')])],
  },
];

describe('slicesWithTaintRules (upstream tracker rows)', () => {
  it.each(rows)('$name', ({ rules, slices, expected }) => {
    const before = JSON.stringify(slices);
    expect(slicesWithTaintRules(slices, rules)).toEqual(expected);
    expect(JSON.stringify(slices)).toBe(before); // the cluster's slices stay as they were
  });

  it('two rules on one device add both taints in the rules order', () => {
    const out = slicesWithTaintRules([s1([dev('device-1')])], [rule({ pool: 'pool-1' }), rule({}, taint2)]);
    expect(out[0].spec?.devices?.[0].taints).toEqual([taint1, taint2]);
  });
});

describe('DeviceTaintRule in a simulation', () => {
  const items = (ruleEffect: string, tolerate = false): unknown[] => [
    makeNode({ name: 'n1' }),
    makeNode({ name: 'n2' }),
    { apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: 'gpu.example.com' } },
    ...['n1', 'n2'].map((node) => makeGpuSlice(node)),
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceTaintRule',
      metadata: { name: 'maintenance' },
      spec: {
        deviceSelector: { driver: 'gpu.example.com', pool: 'n1' },
        taint: { key: 'maintenance', effect: ruleEffect },
      },
    },
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'c1', namespace: 'default' },
      spec: {
        devices: {
          requests: [
            {
              name: 'req-1',
              exactly: {
                deviceClassName: 'gpu.example.com',
                ...(tolerate ? { tolerations: [{ key: 'maintenance', operator: 'Exists' }] } : {}),
              },
            },
          ],
        },
      },
    } as KubeObject,
    makePod({
      name: 'p',
      spec: {
        containers: [{ name: 'c' }],
        resourceClaims: [{ name: 'gpu', resourceClaimName: 'c1' }],
      } as unknown as Pod['spec'],
    }),
  ];
  const nodeOf = (version: string, list: unknown[]) =>
    simulate(list as never, { compatibilityVersion: version, tieBreak: 'lowest-node-name' }).results[0].node;

  it("1.37: the rule taints n1's GPU, so the pod goes to n2", () => {
    expect(nodeOf('1.37.2', items('NoSchedule'))).toBe('n2');
    expect(nodeOf('1.37.2', items('NoExecute'))).toBe('n2');
  });

  it('1.37: a None taint or a tolerated one leaves n1 first', () => {
    expect(nodeOf('1.37.2', items('None'))).toBe('n1');
    expect(nodeOf('1.37.2', items('NoSchedule', true))).toBe('n1');
  });

  it('1.36 (gate off by default) ignores the rule; the gate turns it on', () => {
    expect(nodeOf('1.36.3', items('NoSchedule'))).toBe('n1');
    const gated = simulate(items('NoSchedule') as never, {
      compatibilityVersion: '1.36.3',
      tieBreak: 'lowest-node-name',
      featureGates: { DRADeviceTaintRules: true },
    }).results[0].node;
    expect(gated).toBe('n2');
  });

  it('the device summary counts the rule-tainted free GPU apart at 1.37 only', () => {
    const taintedFreeOnN1 = (version: string) =>
      simulate(items('NoSchedule') as never, {
        compatibilityVersion: version,
        tieBreak: 'lowest-node-name',
      }).devices?.[0].nodes.find((n) => n.node === 'n1')?.taintedFree;
    expect(taintedFreeOnN1('1.37.2')).toBe(1);
    expect(taintedFreeOnN1('1.36.3')).toBe(0);
  });
});
