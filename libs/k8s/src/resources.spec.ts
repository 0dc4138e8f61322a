import type { Container, Pod } from './types';
import {
  containersRequestAll,
  DEFAULT_MEMORY_REQUEST,
  DEFAULT_MILLI_CPU_REQUEST,
  isExtendedResourceName,
  isHugePageResourceName,
  isScalarResourceName,
  nodeAllocatable,
  podRequests,
  resourceListAmounts,
} from './resources';

const c = (requests?: Record<string, string>, extra: Partial<Container> = {}): Container => ({
  name: 'c',
  ...(requests ? { resources: { requests } } : {}),
  ...extra,
});
const sidecar = (requests: Record<string, string>) => c(requests, { restartPolicy: 'Always' });
const pod = (spec: Partial<Pod['spec']>): Pod => ({
  metadata: { name: 'p' },
  spec: { containers: [], ...spec } as Pod['spec'],
});
const obj = (m: Map<string, number>) => Object.fromEntries(m);

// Cases modelled on component-helpers resource/helpers_test.go (TestPodResourceRequests) and the
// sidecar KEP-753 resource formula.
const cases: [string, Pod, Record<string, number>, Parameters<typeof podRequests>[1]?][] = [
  [
    'sums app containers',
    pod({ containers: [c({ cpu: '1', memory: '1Gi' }), c({ cpu: '500m' })] }),
    { cpu: 1500, memory: 1073741824 },
  ],
  [
    'regular init container larger than app',
    pod({ containers: [c({ cpu: '1' })], initContainers: [c({ cpu: '2' })] }),
    { cpu: 2000 },
  ],
  [
    'init containers take the max, not the sum',
    pod({ containers: [c({ cpu: '1' })], initContainers: [c({ cpu: '1500m' }), c({ cpu: '1200m' })] }),
    { cpu: 1500 },
  ],
  [
    'resources only on init containers',
    pod({ containers: [c()], initContainers: [c({ memory: '1Gi' })] }),
    { memory: 1073741824 },
  ],
  [
    'restartable init container adds to app',
    pod({ containers: [c({ cpu: '1' })], initContainers: [sidecar({ cpu: '1' })] }),
    { cpu: 2000 },
  ],
  [
    'regular init after sidecar counts the sidecar',
    pod({ containers: [c({ cpu: '1' })], initContainers: [sidecar({ cpu: '1' }), c({ cpu: '3' })] }),
    { cpu: 4000 },
  ],
  [
    'regular init before sidecar does not count it',
    pod({ containers: [c({ cpu: '1' })], initContainers: [c({ cpu: '3' }), sidecar({ cpu: '1' })] }),
    { cpu: 3000 },
  ],
  [
    'multiple sidecars and regular init containers',
    pod({
      containers: [c({ cpu: '1' })],
      initContainers: [
        c({ cpu: '5' }),
        sidecar({ cpu: '1' }),
        sidecar({ cpu: '2' }),
        c({ cpu: '5' }),
        sidecar({ cpu: '3' }),
      ],
    }),
    // init phases: 5, 1, 3, 3+5=8, 6; steady state 1+1+2+3=7 -> max 8
    { cpu: 8000 },
  ],
  [
    'sidecars push steady state above init',
    pod({
      containers: [c({ cpu: '2' })],
      initContainers: [c({ cpu: '1' }), sidecar({ cpu: '1' }), sidecar({ cpu: '1' })],
    }),
    { cpu: 4000 },
  ],
  [
    'overhead is added',
    pod({ containers: [c({ cpu: '1', memory: '1Gi' })], overhead: { cpu: '250m', memory: '120Mi' } }),
    { cpu: 1250, memory: 1073741824 + 120 * 1048576 },
  ],
  [
    'overhead excluded on request',
    pod({ containers: [c({ cpu: '1' })], overhead: { cpu: '250m' } }),
    { cpu: 1000 },
    { excludeOverhead: true },
  ],
  [
    'overhead added after the init max',
    pod({ containers: [c({ cpu: '1' })], initContainers: [c({ cpu: '2' })], overhead: { cpu: '1' } }),
    { cpu: 3000 },
  ],
  [
    'non-missing defaults fill absent requests per container',
    pod({ containers: [c(), c({ cpu: '0' }), c({ memory: '1Gi' })] }),
    { cpu: 2 * DEFAULT_MILLI_CPU_REQUEST + 0, memory: 2 * DEFAULT_MEMORY_REQUEST + 1073741824 },
    { nonMissingContainerRequests: { cpu: DEFAULT_MILLI_CPU_REQUEST, memory: DEFAULT_MEMORY_REQUEST } },
  ],
  [
    'non-missing defaults apply to init containers too',
    pod({ containers: [c({ cpu: '50m', memory: '10Mi' })], initContainers: [c()] }),
    { cpu: 100, memory: DEFAULT_MEMORY_REQUEST },
    { nonMissingContainerRequests: { cpu: DEFAULT_MILLI_CPU_REQUEST, memory: DEFAULT_MEMORY_REQUEST } },
  ],
  [
    'exact sums before rounding',
    pod({
      containers: [c({ memory: '0.5' }), c({ memory: '0.5' }), c({ cpu: '0.0005' }), c({ cpu: '0.0005' })],
    }),
    { memory: 1, cpu: 1 },
  ],
  [
    'extended and hugepages resources',
    pod({ containers: [c({ 'nvidia.com/gpu': '2', 'hugepages-2Mi': '4Mi' }), c({ 'nvidia.com/gpu': '1' })] }),
    { 'nvidia.com/gpu': 3, 'hugepages-2Mi': 4194304 },
  ],
  [
    'pod-level requests override containers for cpu/memory',
    pod({
      containers: [c({ cpu: '1', memory: '1Gi', 'example.com/foo': '1' })],
      resources: { requests: { cpu: '3', memory: '2Gi' } },
    } as never),
    { cpu: 3000, memory: 2147483648, 'example.com/foo': 1 },
  ],
  [
    'pod-level requests can be skipped',
    pod({ containers: [c({ cpu: '1' })], resources: { requests: { cpu: '3' } } } as never),
    { cpu: 1000 },
    { skipPodLevelResources: true },
  ],
  ['no containers', pod({}), {}],
];

describe('podRequests (component-helpers PodRequests)', () => {
  // Pad rows to a fixed arity so Jest does not mistake the options argument for a done callback.
  it.each(cases.map(([n, p, w, o]) => [n, p, w, o ?? {}] as const))('%s', (_n, p, want, opts) => {
    expect(obj(podRequests(p, opts))).toEqual(want);
  });
});

describe('containersRequestAll (when non-missing defaults change nothing)', () => {
  const both = { cpu: '100m', memory: '1Gi' };
  const defaults = { nonMissingContainerRequests: { cpu: 100, memory: 209715200 } };
  it.each([
    ['every container requests both', pod({ containers: [c(both), c(both)] }), true],
    ['a container without memory', pod({ containers: [c(both), c({ cpu: '1' })] }), false],
    ['a container without requests', pod({ containers: [c()] }), false],
    [
      'an init container without cpu',
      pod({ containers: [c(both)], initContainers: [c({ memory: '1Gi' })] }),
      false,
    ],
    ['a sidecar requesting both', pod({ containers: [c(both)], initContainers: [sidecar(both)] }), true],
    [
      'an infeasible resize',
      {
        ...pod({ containers: [c(both)] }),
        status: { conditions: [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible' }] },
      } as Pod,
      false,
    ],
    [
      'reported container resources',
      {
        ...pod({ containers: [c(both)] }),
        status: { containerStatuses: [{ name: 'c', allocatedResources: { cpu: '1' } }] },
      } as unknown as Pod,
      false,
    ],
  ])('%s', (_, p, expected) => {
    expect(containersRequestAll(p, ['cpu', 'memory'])).toBe(expected);
    // Where it says so, the defaults indeed leave every policy's requests unchanged.
    if (expected)
      for (const policy of [{}, { useStatusResources: true, aggregateStatusResources: true }])
        expect(podRequests(p, { ...policy, ...defaults })).toEqual(podRequests(p, policy));
  });
});

describe('nodeAllocatable', () => {
  it('converts allocatable', () => {
    expect(
      obj(
        nodeAllocatable({
          status: { allocatable: { cpu: '3500m', memory: '8Gi', pods: '110' }, capacity: { cpu: '4' } },
        }),
      ),
    ).toEqual({
      cpu: 3500,
      memory: 8589934592,
      pods: 110,
    });
  });
  it('falls back to capacity', () => {
    expect(obj(nodeAllocatable({ status: { capacity: { cpu: '4' } } }))).toEqual({ cpu: 4000 });
    expect(obj(nodeAllocatable({}))).toEqual({});
  });
});

describe('resourceListAmounts', () => {
  it('gives the same text its own amount per unit, and again after many other texts', () => {
    const amounts = (list: Record<string, string | number>) => obj(resourceListAmounts(list));
    expect(amounts({ cpu: '1', memory: '1' })).toEqual({ cpu: 1000, memory: 1 });
    expect(amounts({ memory: '1', cpu: '1', pods: 1 })).toEqual({ memory: 1, cpu: 1000, pods: 1 });
    expect(amounts({ cpu: '0.5', 'example.com/gpu': '0.5' })).toEqual({ cpu: 500, 'example.com/gpu': 1 });
    for (let i = 0; i < 10_000; i++)
      expect(amounts({ cpu: `${i}m`, memory: `${i}Ki` })).toEqual({ cpu: i, memory: i * 1024 });
    expect(amounts({ cpu: '1', memory: '1' })).toEqual({ cpu: 1000, memory: 1 });
    expect(() => resourceListAmounts({ cpu: '1x' })).toThrow();
    expect(() => resourceListAmounts({ cpu: '1x' })).toThrow();
  });
});

describe('resource name helpers (core/v1 helper)', () => {
  it.each([
    ['cpu', false, false, false],
    ['memory', false, false, false],
    ['nvidia.com/gpu', true, false, true],
    ['example.com/dongle', true, false, true],
    ['kubernetes.io/something', false, false, true],
    ['requests.example.com/x', false, false, false],
    ['hugepages-2Mi', false, true, true],
    ['attachable-volumes-aws-ebs', false, false, true],
    ['foo/bar/baz', false, false, false],
    ['Example.com/x', false, false, false],
  ])('%s: extended=%s hugepage=%s scalar=%s', (name, ext, huge, scalar) => {
    expect(isExtendedResourceName(name)).toBe(ext);
    expect(isHugePageResourceName(name)).toBe(huge);
    expect(isScalarResourceName(name)).toBe(scalar);
  });
});
