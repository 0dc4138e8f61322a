/**
 * DynamicResources as modelled (see the plugin's header), with the situations of upstream v1.34.4
 * dynamicresources_test.go (TestPlugin) (the allocator itself: allocator.spec.ts): missing
 * claims and classes, allocated claims pinned by their node selector, nodes without devices.
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import { simulate } from '../../../../simulation/simulate';
import { makeGpuSlice, makeNode, makePod } from '../../../../testing/builders';

const claim = (name: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace: 'default' },
    spec: { devices: { requests: [{ name: 'req-1', exactly: { deviceClassName: 'gpu.example.com' } }] } },
    ...extra,
  }) as KubeObject;
const deviceClass: KubeObject = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name: 'gpu.example.com' },
} as KubeObject;
const slice = (node: string): KubeObject => makeGpuSlice(node);
const podWith = (claimName: string): Pod =>
  makePod({
    name: 'p',
    spec: {
      containers: [{ name: 'c' }],
      resourceClaims: [{ name: 'gpu', resourceClaimName: claimName }],
    } as unknown as Pod['spec'],
  });
const run = (items: unknown[]) =>
  simulate(items as never, { compatibilityVersion: '1.34.4', tieBreak: 'lowest-node-name', explain: 'full' })
    .results[0];
const nodes = [makeNode({ name: 'n1' }), makeNode({ name: 'n2' })];

describe('DynamicResources (v1.34 default profile)', () => {
  it('"claim does not exist": the pod waits, upstream words', () => {
    expect(run([...nodes, podWith('gone')]).message).toBe('could not find ResourceClaim "default/gone"');
  });

  it('"missing class": PreFilter rejects the pod, unresolvable', () => {
    const r = run([...nodes, claim('c1'), podWith('c1')]);
    expect(r.node).toBeNull();
    expect(r.message).toMatch(
      /^0\/2 nodes are available: request req-1: device class gpu.example.com does not exist\. /,
    );
  });

  it('"no resources": without a ResourceSlice no node can allocate the claim', () => {
    const r = run([...nodes, deviceClass, claim('c1'), podWith('c1')]);
    expect(r.filterReasons).toEqual({
      n1: ['cannot allocate all claims'],
      n2: ['cannot allocate all claims'],
    });
  });

  it('goes to the node that publishes devices', () => {
    expect(run([...nodes, deviceClass, slice('n2'), claim('c1'), podWith('c1')]).node).toBe('n2');
  });

  it('"allocated claim": only nodes the allocation selects', () => {
    const allocated = claim('c1', {
      status: {
        allocation: {
          nodeSelector: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n2'] }] }],
          },
        },
      },
    });
    const r = run([...nodes, allocated, podWith('c1')]);
    expect(r.node).toBe('n2');
    expect(r.filterReasons).toEqual({ n1: ['resourceclaim not available on the node'] });
  });
});
