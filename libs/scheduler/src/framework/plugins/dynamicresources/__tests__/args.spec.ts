/**
 * DynamicResourcesArgs per release: decoding, v1 defaulting and validation through the profile
 * loader (upstream v1.34.4, v1.36.3, v1.37.2: TestValidateDynamicResourcesArgs and
 * TestPluginArgsDefaults rows, scheme_test's DynamicResources args, the recorded profiles'
 * pluginConfig), and the profile's bindingTimeout deciding a placement.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { KubeObject, Pod } from '@schedlab/k8s';
import { FeatureSet } from '../../../../features';
import { loadSchedulerConfiguration, ConfigValidationError } from '../../../../apis/config';
import { inTreeRegistry } from '../../registry';
import { simulate } from '../../../../simulation/simulate';
import { makeNode, makePod } from '../../../../testing/builders';
import {
  bindingTimeoutMs,
  defaultDynamicResourcesArgs,
  formatGoDuration,
  parseGoDuration,
  validateDynamicResourcesArgs,
  type DynamicResourcesArgs,
} from '../args';

const registry = inTreeRegistry();

const config = (args: unknown, name = 'DynamicResources') => ({
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name, args }] }],
});

const load = (release: string, args: unknown, gates: Record<string, boolean> = {}) =>
  loadSchedulerConfiguration(config(args), { registry, features: new FeatureSet(release, gates) });

const argsAt = (release: string, args: unknown, gates: Record<string, boolean> = {}) =>
  load(release, args, gates).profiles[0].pluginArgs.get('DynamicResources');

const errorsAt = (release: string, args: unknown, gates: Record<string, boolean> = {}) => {
  try {
    load(release, args, gates);
  } catch (e) {
    if (e instanceof ConfigValidationError) return e.errors;
    throw e;
  }
  return [];
};

describe('Go durations (metav1.Duration)', () => {
  it.each([
    ['10s', 10_000_000_000n, '10s'],
    ['600s', 600_000_000_000n, '10m0s'],
    ['10m', 600_000_000_000n, '10m0s'],
    ['1h', 3_600_000_000_000n, '1h0m0s'],
    ['1h30m0.5s', 5_400_500_000_000n, '1h30m0.5s'],
    ['1.5s', 1_500_000_000n, '1.5s'],
    ['500ms', 500_000_000n, '500ms'],
    ['1.5us', 1_500n, '1.5µs'],
    ['7ns', 7n, '7ns'],
    ['0', 0n, '0s'],
    ['-1s', -1_000_000_000n, '-1s'],
    ['+2m', 120_000_000_000n, '2m0s'],
    ['.5s', 500_000_000n, '500ms'],
  ])('%s is %d ns, printed %s', (text, ns, printed) => {
    expect(parseGoDuration(text)).toBe(ns);
    expect(formatGoDuration(ns)).toBe(printed);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['abc', 'time: invalid duration "abc"'],
    ['10', 'time: missing unit in duration "10"'],
    ['10x', 'time: unknown unit "x" in duration "10x"'],
    ['5constructor', 'time: unknown unit "constructor" in duration "5constructor"'],
    ['1toString', 'time: unknown unit "toString" in duration "1toString"'],
    ['.s', 'time: invalid duration ".s"'],
    ['9999999999h', 'time: invalid duration "9999999999h"'],
  ])('%j is refused with Go words', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(message);
  });
});

/** Upstream TestValidateDynamicResourcesArgs (v1.37.2), as data; the messages are the code's. */
const validationRows: {
  name: string;
  args: DynamicResourcesArgs;
  filterTimeoutDisabled?: boolean;
  bindingConditionsDisabled?: boolean;
  want: { field: string; message: string }[];
}[] = [
  { name: 'valid args (default)', args: { filterTimeout: '10s', bindingTimeout: '10m0s' }, want: [] },
  { name: 'valid args (disabled)', args: {}, want: [] },
  {
    name: 'negative FilterTimeout',
    args: { filterTimeout: '-1s' },
    want: [{ field: 'filterTimeout', message: 'Invalid value: "-1s": must be zero or positive' }],
  },
  {
    name: 'negative FilterTimeout, disabled',
    args: { filterTimeout: '-1s' },
    filterTimeoutDisabled: true,
    want: [
      { field: 'filterTimeout', message: 'Forbidden: DRASchedulingFilterTimeout feature gate is disabled' },
    ],
  },
  { name: 'valid BindingTimeout', args: { bindingTimeout: '30s' }, want: [] },
  {
    name: 'BindingTimeout < 1s (0s)',
    args: { bindingTimeout: '0s' },
    want: [{ field: 'bindingTimeout', message: 'Invalid value: "0s": must be at least 1 second' }],
  },
  {
    name: 'BindingTimeout < 1s (negative)',
    args: { bindingTimeout: '-1s' },
    want: [{ field: 'bindingTimeout', message: 'Invalid value: "-1s": must be at least 1 second' }],
  },
  {
    name: 'BindingTimeout set but DRADeviceBindingConditions disabled',
    args: { bindingTimeout: '1s' },
    bindingConditionsDisabled: true,
    want: [
      {
        field: 'bindingTimeout',
        message:
          'Forbidden: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled',
      },
    ],
  },
  // Upstream's "BindingTimeout set but DRAResourceClaimDeviceStatus disabled" row has no
  // counterpart: Schedlab takes DRAResourceClaimDeviceStatus as on (GA and locked in 1.37).
];

describe('validateDynamicResourcesArgs (upstream TestValidateDynamicResourcesArgs)', () => {
  it.each(validationRows)('$name', ({ args, filterTimeoutDisabled, bindingConditionsDisabled, want }) => {
    const gates: Record<string, boolean> = {};
    if (filterTimeoutDisabled) gates.DRASchedulerFilterTimeout = false;
    if (bindingConditionsDisabled) gates.DRADeviceBindingConditions = false;
    expect(validateDynamicResourcesArgs(args, new FeatureSet('1.37', gates))).toEqual(want);
  });
});

describe('DynamicResourcesArgs defaults per release', () => {
  it('TestPluginArgsDefaults: with DRADeviceBindingConditions, 10s and 600s', () => {
    expect(
      defaultDynamicResourcesArgs({}, new FeatureSet('1.35', { DRADeviceBindingConditions: true })),
    ).toEqual({
      filterTimeout: '10s',
      bindingTimeout: '10m0s',
    });
  });

  it.each([
    ['1.34.4', { filterTimeout: '10s' }],
    ['1.35', { filterTimeout: '10s' }],
    ['1.36.3', { filterTimeout: '10s', bindingTimeout: '10m0s' }],
    ['1.37.2', { filterTimeout: '10s', bindingTimeout: '10m0s' }],
  ])('%s: an empty entry (scheme_test "empty and no plugin args") defaults to %j', (release, want) => {
    expect(argsAt(release, undefined)).toEqual(want);
    expect(argsAt(release, {})).toEqual(want);
  });

  it('scheme_test "v1 all plugin args": the given timeouts are kept', () => {
    expect(argsAt('1.37.2', { filterTimeout: '10s', bindingTimeout: '30s' })).toEqual({
      filterTimeout: '10s',
      bindingTimeout: '30s',
    });
  });

  it('durations are stored as Go prints them, and a gate off leaves its field unset', () => {
    expect(argsAt('1.37.2', { bindingTimeout: '600s', filterTimeout: '0' })).toEqual({
      filterTimeout: '0s',
      bindingTimeout: '10m0s',
    });
    expect(
      argsAt('1.37.2', {}, { DRADeviceBindingConditions: false, DRASchedulerFilterTimeout: false }),
    ).toEqual({});
  });

  it('before 1.34 the kind does not exist: the args pass through undecoded, nothing is defaulted', () => {
    expect(
      argsAt('1.33', { bindingTimeout: 'whatever', other: 1 }, { DynamicResourceAllocation: true }),
    ).toEqual({
      bindingTimeout: 'whatever',
      other: 1,
    });
    const features = new FeatureSet('1.33', { DynamicResourceAllocation: true });
    const cfg = { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration' };
    expect(
      loadSchedulerConfiguration(cfg, { registry, features }).profiles[0].pluginArgs.has('DynamicResources'),
    ).toBe(false);
  });

  it('the plugin reads bindingTimeout in ms, 600 s when unset', () => {
    expect(bindingTimeoutMs({ bindingTimeout: '30s' })).toBe(30_000);
    expect(bindingTimeoutMs({ bindingTimeout: '1.5ms' })).toBe(1.5);
    expect(bindingTimeoutMs({ filterTimeout: '10s' })).toBe(600_000);
    expect(bindingTimeoutMs(undefined)).toBe(600_000);
  });
});

describe('DynamicResourcesArgs errors through the profile loader', () => {
  const at = 'profiles[0].pluginConfig[0].args';

  it('1.34 has no bindingTimeout field: strict decoding error', () => {
    expect(errorsAt('1.34.4', { bindingTimeout: '30s' })).toEqual([
      {
        field: at,
        message:
          'decoding args for plugin DynamicResources: strict decoding error: unknown field "bindingTimeout"',
      },
    ]);
  });

  it('unknown fields, wrong types and bad durations are decoding errors', () => {
    expect(errorsAt('1.37.2', { filterTimeout: '10s', timeout: '1s' })).toEqual([
      {
        field: at,
        message: 'decoding args for plugin DynamicResources: strict decoding error: unknown field "timeout"',
      },
    ]);
    expect(errorsAt('1.37.2', { bindingTimeout: 30 })).toEqual([
      {
        field: at,
        message:
          'decoding args for plugin DynamicResources: json: cannot unmarshal number into Go value of type string',
      },
    ]);
    expect(errorsAt('1.37.2', { filterTimeout: '10' })).toEqual([
      {
        field: at,
        message: 'decoding args for plugin DynamicResources: time: missing unit in duration "10"',
      },
    ]);
  });

  it('1.35: bindingTimeout exists but its gate is off (alpha): Forbidden', () => {
    expect(errorsAt('1.35', { bindingTimeout: '30s' })).toEqual([
      {
        field: `${at}.bindingTimeout`,
        message:
          'Forbidden: DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled',
      },
    ]);
    expect(argsAt('1.35', { bindingTimeout: '30s' }, { DRADeviceBindingConditions: true })).toEqual({
      filterTimeout: '10s',
      bindingTimeout: '30s',
    });
  });

  it('values out of range, and filterTimeout with its gate off', () => {
    expect(errorsAt('1.37.2', { filterTimeout: '-1s', bindingTimeout: '999ms' })).toEqual([
      { field: `${at}.filterTimeout`, message: 'Invalid value: "-1s": must be zero or positive' },
      { field: `${at}.bindingTimeout`, message: 'Invalid value: "999ms": must be at least 1 second' },
    ]);
    expect(errorsAt('1.34.4', { filterTimeout: '5s' }, { DRASchedulerFilterTimeout: false })).toEqual([
      {
        field: `${at}.filterTimeout`,
        message: 'Forbidden: DRASchedulingFilterTimeout feature gate is disabled',
      },
    ]);
    // The whole message, as the API's 4xx carries it.
    expect(() => load('1.36.3', { bindingTimeout: '0s' })).toThrow(
      'profiles[0].pluginConfig[0].args.bindingTimeout: Invalid value: "0s": must be at least 1 second',
    );
  });
});

/** What the real schedulers printed for the recorded profiles' DynamicResources args. */
const RECORDINGS = path.resolve(__dirname, '../../../../../../../conformance');
const recordedProfiles = fs.existsSync(RECORDINGS)
  ? fs
      .readdirSync(RECORDINGS)
      .filter((d) => /^v1\.\d+\.\d+$/.test(d) && fs.existsSync(path.join(RECORDINGS, d, 'profiles')))
      .flatMap((d) =>
        fs
          .readdirSync(path.join(RECORDINGS, d, 'profiles'))
          .filter((f) => f.endsWith('.json'))
          .map((f) => `${d}/profiles/${f}`),
      )
  : [];

describe('recorded profiles: DynamicResourcesArgs as the real schedulers defaulted them', () => {
  it('covers the three recorded releases', () => {
    expect(new Set(recordedProfiles.map((f) => f.split('/')[0]))).toEqual(
      new Set(['v1.34.4', 'v1.36.3', 'v1.37.2']),
    );
  });

  it.each(recordedProfiles)('%s', (file) => {
    const recorded = JSON.parse(fs.readFileSync(path.join(RECORDINGS, file), 'utf8'));
    const features = new FeatureSet(recorded.kubeSchedulerVersion, recorded.config.featureGates ?? {});
    const resolved = loadSchedulerConfiguration(recorded.config.schedulerConfiguration, {
      registry,
      features,
    });
    const printed = (recorded.config.pluginConfig as { name: string; args: Record<string, unknown> }[]).find(
      (pc) => pc.name === 'DynamicResources',
    );
    const { kind: _k, apiVersion: _a, ...want } = printed?.args ?? {};
    expect(resolved.profiles[0].pluginArgs.get('DynamicResources')).toEqual(printed ? want : undefined);
  });
});

// A claim allocated a minute before the run's clock (2030-01-01T00:00:00Z) on a device whose
// binding condition its driver has not reported yet.
const driver = 'gpu.example.com';
const waitingClaim = (allocationTimestamp: string): KubeObject =>
  ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name: 'c1', namespace: 'default' },
    spec: { devices: { requests: [{ name: 'req-1', exactly: { deviceClassName: 'gpu' } }] } },
    status: {
      allocation: {
        devices: {
          results: [
            {
              request: 'req-1',
              driver,
              pool: 'fabric',
              device: 'instance-1',
              bindingConditions: ['attached'],
            },
          ],
        },
        allocationTimestamp,
      },
    },
  }) as KubeObject;
const pod = makePod({
  name: 'p',
  spec: {
    containers: [{ name: 'c' }],
    resourceClaims: [{ name: 'rc', resourceClaimName: 'c1' }],
  } as unknown as Pod['spec'],
});
const place = (allocationTimestamp: string, args?: Record<string, unknown>) =>
  simulate(
    [makeNode({ name: 'n1' }), makeNode({ name: 'n2' }), waitingClaim(allocationTimestamp), pod] as never,
    {
      compatibilityVersion: '1.37.2',
      tieBreak: 'lowest-node-name',
      preemption: true,
      ...(args ? { schedulerConfiguration: config(args) } : {}),
    },
  ).results[0];

describe("a profile's bindingTimeout decides whether a waiting claim has timed out", () => {
  const A_MINUTE_BEFORE = '2029-12-31T23:59:00Z';
  const TWENTY_SECONDS_BEFORE = '2029-12-31T23:59:40Z';

  it('with the default 600 s the claim still waits: the pod goes to n1', () => {
    expect(place(A_MINUTE_BEFORE).node).toBe('n1');
    expect(place(A_MINUTE_BEFORE, {}).node).toBe('n1');
  });

  it('with bindingTimeout 30s it timed out: unavailable everywhere, PostFilter deallocates it', () => {
    const r = place(A_MINUTE_BEFORE, { bindingTimeout: '30s' });
    expect(r.node).toBeNull();
    expect(r.filterReasons).toEqual({
      n1: ['resourceclaim not available on the node'],
      n2: ['resourceclaim not available on the node'],
    });
    expect(r.message).toContain('deallocation of ResourceClaim completed');
    // Allocated 20 s before the clock, the same 30 s have not passed yet.
    expect(place(TWENTY_SECONDS_BEFORE, { bindingTimeout: '30s' }).node).toBe('n1');
  });

  it('before 1.35 the timeout is fixed at 600 s: 1.34 refuses the field, 1.33 ignores the args', () => {
    const waitingAt = (release: string, at: string) =>
      simulate([makeNode({ name: 'n1' }), waitingClaim(at), pod] as never, {
        compatibilityVersion: release,
        featureGates: { DynamicResourceAllocation: true, DRADeviceBindingConditions: true },
        schedulerConfiguration: release === '1.33' ? config({ bindingTimeout: '30s' }) : undefined,
      }).results[0].node;
    expect(waitingAt('1.33', A_MINUTE_BEFORE)).toBe('n1');
    expect(waitingAt('1.34.4', A_MINUTE_BEFORE)).toBe('n1');
    expect(waitingAt('1.34.4', '2029-12-31T23:49:00Z')).toBeNull();
    expect(() =>
      simulate([pod] as never, {
        compatibilityVersion: '1.34.4',
        schedulerConfiguration: config({ bindingTimeout: '30s' }),
      }),
    ).toThrow('unknown field "bindingTimeout"');
  });
});
