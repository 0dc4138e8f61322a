/** Vectors ported from upstream noderesources tests (requested_to_capacity_ratio_test.go, fit_test.go, …) as data. */
import { CycleState } from '../../../cycle-state';
import { Code } from '../../../status';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makeNode, makePod } from '../../../../testing/builders';
import {
  BalancedAllocation,
  Fit,
  buildBrokenLinearFunction,
  defaultBalancedAllocationArgs,
  defaultFitArgs,
  validateBalancedAllocationArgs,
  validateFitArgs,
} from '..';

describe('buildBrokenLinearFunction (upstream TestBrokenLinearFunction)', () => {
  const tables: [[number, number][], [number, number][]][] = [
    [
      [
        [10, 1],
        [90, 9],
      ],
      [
        [-10, 1],
        [0, 1],
        [9, 1],
        [10, 1],
        [15, 1],
        [19, 1],
        [20, 2],
        [89, 8],
        [90, 9],
        [99, 9],
        [100, 9],
        [110, 9],
      ],
    ],
    [
      [
        [0, 2],
        [40, 10],
        [100, 0],
      ],
      [
        [-10, 2],
        [0, 2],
        [20, 6],
        [30, 8],
        [40, 10],
        [70, 5],
        [100, 0],
        [110, 0],
      ],
    ],
    [
      [
        [0, 2],
        [40, 2],
        [100, 2],
      ],
      [
        [-10, 2],
        [0, 2],
        [20, 2],
        [30, 2],
        [40, 2],
        [70, 2],
        [100, 2],
        [110, 2],
      ],
    ],
  ];
  it.each(tables.map((t, i) => [i, ...t] as const))('case_%d', (_i, points, assertions) => {
    const f = buildBrokenLinearFunction(points.map(([utilization, score]) => ({ utilization, score })));
    for (const [p, want] of assertions) expect([p, f(p)]).toEqual([p, want]);
  });
});

/** Each node's Score; the batch form (scoreNodes, unrolled for cpu and memory) must agree. */
function scores(
  plugin: Fit | BalancedAllocation,
  handle: FakeHandle,
  pod: ReturnType<typeof makePod>,
): number[] {
  const nodes = handle.snap.list();
  const one = nodes.map((ni) => plugin.score(new CycleState(), pod, ni)[0]);
  const batch = nodes.map((ni) => ({ name: ni.name, score: -1 }));
  expect(plugin.scoreNodes(new CycleState(), pod, nodes, batch)).toBeNull();
  expect(batch.map((s) => s.score)).toEqual(one);
  return one;
}

describe('NodeResourcesFit RequestedToCapacityRatio (upstream TestRequestedToCapacityRatioScoringStrategy)', () => {
  const shape = [
    { utilization: 0, score: 10 },
    { utilization: 100, score: 0 },
  ];
  const cases = [
    {
      name: 'nothing requested',
      pod: makePod({ name: 'p' }),
      n2cpu: '4000',
      existing: [{}, {}],
      onNode2: false,
      want: [100, 100],
    },
  ];
  it.each(cases)('$name', ({ pod, n2cpu, existing, onNode2, want }) => {
    const handle = new FakeHandle({
      nodes: [
        makeNode({ name: 'node1', allocatable: { cpu: '4000', memory: '10000', pods: '110' } }),
        makeNode({ name: 'node2', allocatable: { cpu: n2cpu, memory: '10000', pods: '110' } }),
      ],
      pods: existing.map((r, i) =>
        makePod({ name: `e${i}`, nodeName: onNode2 && i === 1 ? 'node2' : 'node1', requests: [r] }),
      ),
    });
    const args = defaultFitArgs({
      scoringStrategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape } },
    });
    expect(scores(new Fit(args, handle), handle, pod)).toEqual(want);
  });

  it.each([
    { name: 'nothing requested: extended resource left out', req: {}, existing: null, want: [0, 0] },
    { name: 'requested, less scheduled', req: { 'intel.com/foo': '2' }, existing: null, want: [2, 5] },
    {
      name: 'requested, node2 already has 2',
      req: { 'intel.com/foo': '2' },
      existing: 'node2',
      want: [2, 10],
    },
    { name: 'requested more', req: { 'intel.com/foo': '4' }, existing: null, want: [5, 10] },
  ])('single extended resource (TestResourceBinPackingSingleExtended): $name', ({ req, existing, want }) => {
    const handle = new FakeHandle({
      nodes: [
        makeNode({
          name: 'node1',
          allocatable: { cpu: '4', memory: '10000Mi', pods: '110', 'intel.com/foo': '8' },
        }),
        makeNode({
          name: 'node2',
          allocatable: { cpu: '4', memory: '10000Mi', pods: '110', 'intel.com/foo': '4' },
        }),
      ],
      pods: existing
        ? [makePod({ name: 'e', nodeName: existing, requests: [{ 'intel.com/foo': '2' }] })]
        : [],
    });
    const args = defaultFitArgs({
      scoringStrategy: {
        type: 'RequestedToCapacityRatio',
        resources: [{ name: 'intel.com/foo', weight: 1 }],
        requestedToCapacityRatio: {
          shape: [
            { utilization: 0, score: 0 },
            { utilization: 100, score: 1 },
          ],
        },
      },
    });
    expect(
      scores(
        new Fit(args, handle),
        handle,
        makePod({ name: 'p', requests: [req as Record<string, string>] }),
      ),
    ).toEqual(want);
  });
});

describe('NodeResourcesFit LeastAllocated / MostAllocated', () => {
  // Upstream least_allocated_test.go "differently sized nodes": cpu (4000-3000)/4000 → 25, memory (10000-5000)/10000 → 50.
  const nodes = [
    makeNode({ name: 'node1', allocatable: { cpu: '4', memory: '10000', pods: '110' } }),
    makeNode({ name: 'node2', allocatable: { cpu: '6', memory: '10000', pods: '110' } }),
  ];
  const pod = makePod({
    name: 'p',
    requests: [
      { cpu: '1', memory: '2000' },
      { cpu: '2', memory: '3000' },
    ],
  });
  it('LeastAllocated: integer per-resource scores, weighted integer mean', () => {
    const handle = new FakeHandle({ nodes });
    expect(scores(new Fit(defaultFitArgs(undefined), handle), handle, pod)).toEqual([37, 50]);
  });
  it('MostAllocated with weights', () => {
    const handle = new FakeHandle({ nodes });
    const args = defaultFitArgs({
      scoringStrategy: {
        type: 'MostAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 2 },
        ],
      },
    });
    // node1: cpu 75, memory 50 → (75 + 100) / 3 = 58; node2: cpu 50, memory 50 → 50.
    expect(scores(new Fit(args, handle), handle, pod)).toEqual([58, 50]);
  });
  it('scores a pod without requests with the 100m / 200Mi non-zero defaults', () => {
    const handle = new FakeHandle({
      nodes: [makeNode({ name: 'n', allocatable: { cpu: '1', memory: '1Gi', pods: '110' } })],
    });
    // cpu (1000-100)/1000 → 90; memory (1024-200)/1024 → 80.
    expect(scores(new Fit(defaultFitArgs(undefined), handle), handle, makePod({ name: 'p' }))).toEqual([85]);
  });
  it('leaves out resources the node has none of', () => {
    const handle = new FakeHandle({
      nodes: [makeNode({ name: 'n', allocatable: { cpu: '1', memory: '0', pods: '110' } })],
    });
    expect(
      scores(
        new Fit(defaultFitArgs(undefined), handle),
        handle,
        makePod({ name: 'p', requests: [{ cpu: '500m' }] }),
      ),
    ).toEqual([50]);
  });
});

describe('NodeResourcesFit Filter (upstream fit_test.go reasons)', () => {
  const node = makeNode({
    name: 'n',
    allocatable: { cpu: '10m', memory: '20', pods: '32', 'example.com/aaa': '5', 'ephemeral-storage': '20' },
  });
  const existing = makePod({ name: 'e', nodeName: 'n', requests: [{ cpu: '5m', memory: '19' }] });
  function run(
    pod: ReturnType<typeof makePod>,
    args = defaultFitArgs(undefined),
    version: '1.26' | '1.28' = '1.26',
  ) {
    const handle = new FakeHandle({ nodes: [node], pods: [existing], features: new FeatureSet(version) });
    const fit = new Fit(args, handle);
    const state = new CycleState();
    fit.preFilter(state, pod);
    return fit.filter(state, pod, handle.snap.get('n')!);
  }
  it('fits', () => expect(run(makePod({ name: 'p', requests: [{ cpu: '5m', memory: '1' }] }))).toBeNull());
  it('reports every insufficient resource in upstream order', () => {
    const st = run(
      makePod({
        name: 'p',
        requests: [{ cpu: '8m', memory: '2', 'example.com/aaa': '10', 'ephemeral-storage': '25' }],
      }),
    );
    expect(st?.code).toBe(Code.Unschedulable);
    expect(st?.reasons).toEqual([
      'Insufficient cpu',
      'Insufficient memory',
      'Insufficient ephemeral-storage',
      'Insufficient example.com/aaa',
    ]);
  });
  it('init containers: max of init and sum of app containers', () => {
    const pod = makePod({
      name: 'p',
      requests: [{ cpu: '1m' }],
      spec: {
        containers: [{ name: 'c', resources: { requests: { cpu: '1m' } } }],
        initContainers: [{ name: 'i', resources: { requests: { cpu: '6m' } } }],
      },
    });
    expect(run(pod)?.reasons).toEqual(['Insufficient cpu']);
  });
  it('ignoredResources and ignoredResourceGroups skip extended resources', () => {
    const pod = makePod({ name: 'p', requests: [{ 'example.com/aaa': '10' }] });
    expect(run(pod, defaultFitArgs({ ignoredResources: ['example.com/aaa'] }))).toBeNull();
    expect(run(pod, defaultFitArgs({ ignoredResourceGroups: ['example.com'] }))).toBeNull();
  });
  it('Too many pods comes first, and a pod with no requests checks nothing else', () => {
    const full = makeNode({ name: 'n', allocatable: { cpu: '1', memory: '1', pods: '1' } });
    const handle = new FakeHandle({
      nodes: [full],
      pods: [makePod({ name: 'e', nodeName: 'n', requests: [{ cpu: '2' }] })],
      features: new FeatureSet('1.26'),
    });
    const fit = new Fit(defaultFitArgs(undefined), handle);
    const state = new CycleState();
    fit.preFilter(state, makePod({ name: 'p' }));
    expect(fit.filter(state, makePod({ name: 'p' }), handle.snap.get('n')!)?.reasons).toEqual([
      'Too many pods',
    ]);
    const pod = makePod({ name: 'q', requests: [{ memory: '1' }] });
    fit.preFilter(state, pod);
    // v1.26 still compares the 0 cpu request against the over-committed node.
    expect(fit.filter(state, pod, handle.snap.get('n')!)?.reasons).toEqual([
      'Too many pods',
      'Insufficient cpu',
    ]);
  });
  it('from 1.28 only requested resources are compared', () => {
    const over = makePod({ name: 'p', requests: [{ memory: '1' }] });
    const node28 = makeNode({ name: 'n', allocatable: { cpu: '1m', memory: '20', pods: '32' } });
    const handle = new FakeHandle({
      nodes: [node28],
      pods: [makePod({ name: 'e', nodeName: 'n', requests: [{ cpu: '2m' }] })],
      features: new FeatureSet('1.28'),
    });
    const fit = new Fit(defaultFitArgs(undefined), handle);
    const state = new CycleState();
    fit.preFilter(state, over);
    expect(fit.filter(state, over, handle.snap.get('n')!)).toBeNull();
  });
});

describe('NodeResourcesBalancedAllocation up to 1.35 (upstream balanced_allocation_test.go)', () => {
  it('two resources: (1 - |a-b|/2) × 100, on actual requests (no non-zero defaults)', () => {
    const handle = new FakeHandle({
      features: new FeatureSet('1.35'),
      nodes: [
        makeNode({ name: 'node1', allocatable: { cpu: '4', memory: '10000', pods: '110' } }),
        makeNode({ name: 'node2', allocatable: { cpu: '6', memory: '10000', pods: '110' } }),
      ],
    });
    const pod = makePod({
      name: 'p',
      requests: [
        { cpu: '1', memory: '2000' },
        { cpu: '2', memory: '3000' },
      ],
    });
    // node1: cpu 0.75, memory 0.5 → 87; node2: 0.5, 0.5 → 100.
    expect(
      scores(new BalancedAllocation(defaultBalancedAllocationArgs(undefined), handle), handle, pod),
    ).toEqual([87, 100]);
    // A pod without requests is balanced everywhere (nothing requested on empty nodes).
    expect(
      scores(
        new BalancedAllocation(defaultBalancedAllocationArgs(undefined), handle),
        handle,
        makePod({ name: 'q' }),
      ),
    ).toEqual([100, 100]);
  });
  it('three resources: population standard deviation; fractions capped at 1', () => {
    const handle = new FakeHandle({
      features: new FeatureSet('1.35'),
      nodes: [
        makeNode({
          name: 'n',
          allocatable: { cpu: '4', memory: '10000', pods: '110', 'nvidia.com/gpu': '4' },
        }),
      ],
    });
    const args = defaultBalancedAllocationArgs({
      resources: [{ name: 'cpu' }, { name: 'memory' }, { name: 'nvidia.com/gpu' }],
    });
    const pod = makePod({ name: 'p', requests: [{ cpu: '2', memory: '20000', 'nvidia.com/gpu': '1' }] });
    // fractions 0.5, 1 (capped), 0.25: mean 0.5833, std 0.3118 → 68.
    expect(scores(new BalancedAllocation(args, handle), handle, pod)).toEqual([68]);
  });
});

describe('args', () => {
  it('defaults as kubescheduler.config.k8s.io/v1', () => {
    expect(defaultFitArgs(undefined)).toEqual({
      ignoredResources: [],
      ignoredResourceGroups: [],
      scoringStrategy: {
        type: 'LeastAllocated',
        resources: [
          { name: 'cpu', weight: 1 },
          { name: 'memory', weight: 1 },
        ],
      },
    });
    expect(
      defaultFitArgs({ scoringStrategy: { type: 'MostAllocated', resources: [{ name: 'cpu', weight: 0 }] } })
        .scoringStrategy.resources,
    ).toEqual([{ name: 'cpu', weight: 1 }]);
    expect(defaultBalancedAllocationArgs({}).resources).toEqual([
      { name: 'cpu', weight: 1 },
      { name: 'memory', weight: 1 },
    ]);
  });
  it('validates with upstream wording', () => {
    expect(
      validateFitArgs(
        defaultFitArgs({ scoringStrategy: { type: 'Other', resources: [{ name: 'cpu', weight: 101 }] } }),
      ),
    ).toEqual([
      {
        field: 'scoringStrategy.type',
        message:
          'Unsupported value: "Other": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"',
      },
      {
        field: 'scoringStrategy.resources[0].weight',
        message: 'resource weight of cpu not in valid range (0, 100]',
      },
    ]);
    const shape = [
      { utilization: 50, score: 11 },
      { utilization: 40, score: 1 },
    ];
    expect(
      validateFitArgs(
        defaultFitArgs({
          scoringStrategy: { type: 'RequestedToCapacityRatio', requestedToCapacityRatio: { shape } },
        }),
      ),
    ).toEqual([
      {
        field: 'scoringStrategy.shape[1].utilization',
        message: 'utilization values must be sorted in increasing order',
      },
      { field: 'scoringStrategy.shape[0].score', message: 'not in valid range [0, 10]' },
    ]);
    expect(validateFitArgs(defaultFitArgs({ ignoredResourceGroups: ['example.com/aaa'] }))[0]).toEqual({
      field: 'ignoredResourceGroups[0]',
      message: "resource group name can't contain '/'",
    });
    expect(
      validateBalancedAllocationArgs({
        resources: [
          { name: 'cpu', weight: 2 },
          { name: 'cpu', weight: 1 },
        ],
      }),
    ).toEqual([
      { field: 'resources[0].weight', message: 'must be 1' },
      { field: 'resources[1].name', message: 'Duplicate value: "cpu"' },
    ]);
  });
});
