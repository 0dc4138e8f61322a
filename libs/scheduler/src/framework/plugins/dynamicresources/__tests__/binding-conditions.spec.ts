/**
 * DynamicResources with binding conditions (DRADeviceBindingConditions, on from 1.36), with the
 * situations of upstream v1.37.2 dynamicresources_test.go (TestPlugin): "bind-claim-with-binding-
 * conditions", "bound-claim-with-succeeded-binding-conditions", "bound-claim-with-failed-binding",
 * "bound-claim-with-timed-out-binding", "bound-claim-with-mixed-binding-conditions",
 * "multi-claims-binding-conditions-one-fail". The simulation has no driver: PreBind takes the
 * binding as succeeded (upstream would wait for the driver up to the binding timeout).
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import { simulate } from '../../../../simulation/simulate';
import { makeNode, makePod } from '../../../../testing/builders';
import { claimBindingState } from '../dynamic-resources';
import type { ResourceClaim } from '../../../../backend/cache/cluster-objects';

const driver = 'gpu.example.com';
const deviceClass = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name: 'gpu' },
  spec: { selectors: [{ cel: { expression: `device.driver == "${driver}"` } }] },
} as KubeObject;
/** A fabric pool for every node: its devices wait for "attached" and fail on "failed". */
const fabricSlice = (bindsToNode = false): KubeObject =>
  ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: 'fabric' },
    spec: {
      allNodes: true,
      driver,
      pool: { name: 'fabric', resourceSliceCount: 1 },
      devices: ['instance-1', 'instance-2'].map((name) => ({
        name,
        bindingConditions: ['attached'],
        bindingFailureConditions: ['failed'],
        ...(bindsToNode ? { bindsToNode: true } : {}),
      })),
    },
  }) as KubeObject;
const pendingClaim = (name: string): KubeObject =>
  ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace: 'default' },
    spec: { devices: { requests: [{ name: 'req-1', exactly: { deviceClassName: 'gpu' } }] } },
  }) as KubeObject;
type Condition = { type: string; status: string };
/** A claim allocated instance-1 with binding conditions, its device status as given. */
const allocatedClaim = (
  name: string,
  conditions: Condition[] | undefined,
  allocationTimestamp?: string,
  device = 'instance-1',
): KubeObject =>
  ({
    ...pendingClaim(name),
    status: {
      allocation: {
        devices: {
          results: [
            {
              request: 'req-1',
              driver,
              pool: 'fabric',
              device,
              bindingConditions: ['attached'],
              bindingFailureConditions: ['failed'],
            },
          ],
        },
        ...(allocationTimestamp ? { allocationTimestamp } : {}),
      },
      ...(conditions ? { devices: [{ driver, pool: 'fabric', device, conditions }] } : {}),
    },
  }) as KubeObject;
const podWith = (name: string, ...claims: string[]): Pod =>
  makePod({
    name,
    spec: {
      containers: [{ name: 'c' }],
      resourceClaims: claims.map((c, i) => ({ name: `rc-${i}`, resourceClaimName: c })),
    } as unknown as Pod['spec'],
  });
const nodes = [makeNode({ name: 'n1' }), makeNode({ name: 'n2' })];
const run = (items: unknown[], extra: Record<string, unknown> = {}) =>
  simulate(items as never, {
    compatibilityVersion: '1.37.2',
    tieBreak: 'lowest-node-name',
    explain: 'full',
    ...extra,
  }).results;

// The simulation's clock is its start time base (default 2030-01-01T00:00:00Z).
const ELEVEN_MINUTES_BEFORE = '2029-12-31T23:49:00Z';
const TEN_MINUTES_BEFORE = '2029-12-31T23:50:00Z';
const A_MINUTE_BEFORE = '2029-12-31T23:59:00Z';

describe('DynamicResources: binding conditions', () => {
  it('bind-claim-with-binding-conditions: the device is allocated, the placement names its conditions', () => {
    const [r] = run([...nodes, deviceClass, fabricSlice(), pendingClaim('c1'), podWith('p', 'c1')]);
    expect(r.node).toBe('n1');
    expect(r.claims).toEqual({
      'default/c1': [
        'req-1 gpu.example.com/fabric/instance-1 bindingConditions=attached bindingFailureConditions=failed',
      ],
    });
  });

  it('a later pod sharing the claim goes where bindsToNode pinned its allocation', () => {
    const results = run([
      ...nodes,
      deviceClass,
      fabricSlice(true),
      pendingClaim('c1'),
      podWith('p1', 'c1'),
      podWith('p2', 'c1'),
    ]);
    // bindsToNode pins the allocation to p1's node, and the claim is ready for p2.
    expect(results.map((r) => r.node)).toEqual(['n1', 'n1']);
    expect(results[1].filterReasons).toEqual({ n2: ['resourceclaim not available on the node'] });
  });

  it('bound-claim-with-succeeded-binding-conditions: placed', () => {
    const bound = allocatedClaim('c1', [{ type: 'attached', status: 'True' }], ELEVEN_MINUTES_BEFORE);
    expect(run([...nodes, bound, podWith('p', 'c1')])[0].node).toBe('n1');
  });

  it('bound-claim-with-failed-binding: unavailable on every node, PostFilter deallocates it', () => {
    const failed = allocatedClaim('c1', [
      { type: 'attached', status: 'False' },
      { type: 'failed', status: 'True' },
    ]);
    const [r] = run([...nodes, failed, podWith('p', 'c1')], { preemption: true });
    expect(r.node).toBeNull();
    expect(r.filterReasons).toEqual({
      n1: ['resourceclaim not available on the node'],
      n2: ['resourceclaim not available on the node'],
    });
    expect(r.message).toContain('deallocation of ResourceClaim completed');
  });

  it('bound-claim-with-timed-out-binding: waiting past the binding timeout (600 s) is unavailable', () => {
    const waiting = (at: string) =>
      allocatedClaim('c1', [], at) as KubeObject & { status: { devices?: unknown } };
    expect(run([...nodes, waiting(ELEVEN_MINUTES_BEFORE), podWith('p', 'c1')])[0].node).toBeNull();
    // Within the timeout (exactly 600 s is not past it), the binding goes on (and the simulated
    // driver completes it).
    expect(run([...nodes, waiting(TEN_MINUTES_BEFORE), podWith('p', 'c1')])[0].node).toBe('n1');
    expect(run([...nodes, waiting(A_MINUTE_BEFORE), podWith('p', 'c1')])[0].node).toBe('n1');
    // The clock is the run's start time base.
    expect(
      run([...nodes, waiting(A_MINUTE_BEFORE), podWith('p', 'c1')], {
        startTimeBase: '2030-01-01T01:00:00Z',
      })[0].node,
    ).toBeNull();
    // Without an allocation time there is no timeout.
    expect(run([...nodes, allocatedClaim('c1', undefined), podWith('p', 'c1')])[0].node).toBe('n1');
  });

  it('bound-claim-with-mixed-binding-conditions: one condition still False past the timeout', () => {
    const mixed = allocatedClaim(
      'c1',
      [
        { type: 'attached', status: 'True' },
        { type: 'attached-too', status: 'False' },
      ],
      ELEVEN_MINUTES_BEFORE,
    );
    const status = (mixed as unknown as ResourceClaim).status as {
      allocation: { devices: { results: { bindingConditions: string[] }[] } };
    };
    status.allocation.devices.results[0].bindingConditions = ['attached', 'attached-too'];
    expect(run([...nodes, mixed, podWith('p', 'c1')])[0].node).toBeNull();
  });

  it('multi-claims-binding-conditions-one-fail: the failed claim is the one deallocated', () => {
    const results = run([
      ...nodes,
      deviceClass,
      fabricSlice(),
      allocatedClaim('c1', [{ type: 'attached', status: 'True' }]),
      allocatedClaim('c2', [{ type: 'failed', status: 'True' }], undefined, 'instance-2'),
      podWith('p', 'c1', 'c2'),
    ]);
    expect(results[0].node).toBeNull();
    expect(results[0].message).toContain('deallocation of ResourceClaim completed');
  });

  it('without the gate (1.34, or turned off) a failed binding is not looked at, and such devices are not allocated', () => {
    const failed = allocatedClaim('c1', [{ type: 'failed', status: 'True' }]);
    expect(run([...nodes, failed, podWith('p', 'c1')], { compatibilityVersion: '1.34.4' })[0].node).toBe(
      'n1',
    );
    const [r] = run([...nodes, deviceClass, fabricSlice(), pendingClaim('c2'), podWith('p', 'c2')], {
      featureGates: { DRADeviceBindingConditions: false },
    });
    expect(r.node).toBeNull();
    expect(r.filterReasons).toEqual({
      n1: ['cannot allocate all claims'],
      n2: ['cannot allocate all claims'],
    });
  });
});

describe('claimBindingState (upstream isClaimReadyForBinding)', () => {
  const claimOf = (results: unknown[], devices: unknown[]): ResourceClaim =>
    ({ status: { allocation: { devices: { results } }, devices } }) as unknown as ResourceClaim;
  const result = (device: string) => ({
    request: 'r',
    driver,
    pool: 'p',
    device,
    bindingConditions: ['a'],
    bindingFailureConditions: ['f'],
  });
  const status = (device: string, conditions: Condition[]) => ({ driver, pool: 'p', device, conditions });

  it('devices are looked at in order: one still without status hides a later failure', () => {
    expect(
      claimBindingState(
        claimOf([result('d1'), result('d2')], [status('d2', [{ type: 'f', status: 'True' }])]),
      ),
    ).toBe('pending');
    expect(
      claimBindingState(
        claimOf([result('d2'), result('d1')], [status('d2', [{ type: 'f', status: 'True' }])]),
      ),
    ).toBe('failed');
  });

  it('ready once every condition is True; results without conditions need no status', () => {
    const plain = { request: 'r', driver, pool: 'p', device: 'd0' };
    expect(
      claimBindingState(claimOf([plain, result('d1')], [status('d1', [{ type: 'a', status: 'True' }])])),
    ).toBe('ready');
    expect(
      claimBindingState(claimOf([result('d1')], [status('d1', [{ type: 'a', status: 'Unknown' }])])),
    ).toBe('pending');
  });
});
