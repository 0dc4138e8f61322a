import { numFeasibleNodesToFind } from '../find-nodes';
import { ScheduleAlgorithm } from '../schedule-one';
import { Snapshot } from '../backend/cache/snapshot';
import { nodeTreeOrder } from '../backend/cache/node-tree';
import { simulate } from '../simulation/simulate';
import { SeededRandom } from '../util/rng';
import { SUPPORTED_VERSIONS } from '../features';
import { makeNode, makePod } from '../testing/builders';

describe('numFeasibleNodesToFind (upstream TestNumFeasibleNodesToFind)', () => {
  it.each([
    [undefined, 10, 10],
    [40, 10, 10],
    [undefined, 1000, 420],
    [40, 1000, 400],
    [undefined, 6000, 300],
    [40, 6000, 2400],
    [0, 5000, 500], // adaptive: 50 - 5000/125 = 10%
    [100, 150, 150],
  ])('percentage %p of %p nodes → %p', (pct, n, want) => {
    expect(numFeasibleNodesToFind(pct, n)).toBe(want);
  });
});

describe('nodeTreeOrder', () => {
  it('interleaves zones round-robin, zones in order of first appearance', () => {
    const z = (name: string, zone: string) =>
      makeNode({ name, labels: { 'topology.kubernetes.io/zone': zone } });
    const order = nodeTreeOrder([
      z('a1', 'a'),
      z('a2', 'a'),
      z('b1', 'b'),
      z('a3', 'a'),
      z('c1', 'c'),
      z('b2', 'b'),
    ]);
    expect(order.map((n) => n.metadata!.name)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });
});

describe('selectHost', () => {
  const algo = (tieBreak: 'random' | 'lowest-node-name', seed = 1) =>
    new ScheduleAlgorithm(new Snapshot([]), {
      tieBreak,
      rng: new SeededRandom(seed),
      percentageOfNodesToScore: 0,
    });
  const totals = [
    { name: 'node-9', score: 10 },
    { name: 'node-10', score: 10 },
    { name: 'node-2', score: 3 },
  ];

  it('takes the byte-wise smallest name among the best with lowest-node-name', () => {
    expect(algo('lowest-node-name').selectHost(totals)).toBe('node-10');
  });

  it('samples uniformly among the best with a seeded random tie-break, never a lower score', () => {
    const picks = new Map<string, number>();
    const a = algo('random', 42);
    for (let i = 0; i < 2000; i++) {
      const p = a.selectHost(totals);
      picks.set(p, (picks.get(p) ?? 0) + 1);
    }
    expect([...picks.keys()].sort()).toEqual(['node-10', 'node-9']);
    expect(picks.get('node-9')!).toBeGreaterThan(800);
    expect(picks.get('node-10')!).toBeGreaterThan(800);
  });
});

describe('simulate across releases', () => {
  it.each(SUPPORTED_VERSIONS)('builds the %s default profile and schedules with it', (v) => {
    const res = simulate(
      [makeNode({ name: 'n1' }), makePod({ name: 'p', requests: [{ cpu: '1' }] })] as never,
      { compatibilityVersion: v },
    );
    expect(res.compatibilityVersion).toBe(v);
    expect(res.results[0].node).toBe('n1');
  });

  it('rejects an unknown compatibility version, naming the supported ones', () => {
    expect(() => simulate([], { compatibilityVersion: '1.20' })).toThrow(
      /compatibilityVersion: unsupported version "1.20"/,
    );
  });
});

describe('simulate', () => {
  const cluster = () => [
    ...['n1', 'n2', 'n3', 'n4'].map((name) => ({
      ...makeNode({ name, allocatable: { cpu: '2', memory: '4Gi', pods: '10' } }),
    })),
    ...Array.from({ length: 12 }, (_, i) =>
      makePod({ name: `p${i}`, requests: [{ cpu: '500m', memory: '256Mi' }] }),
    ),
    makePod({ name: 'too-big', requests: [{ cpu: '3' }] }),
  ];

  it('gives identical results for the same seed and can differ for another', () => {
    const a = simulate(cluster() as never, { seed: 7 });
    const b = simulate(cluster() as never, { seed: 7 });
    expect(a.results.map((r) => r.node)).toEqual(b.results.map((r) => r.node));
    const seeds = new Set(
      Array.from({ length: 6 }, (_, s) =>
        simulate(cluster() as never, { seed: s })
          .results.map((r) => r.node)
          .join(),
      ),
    );
    expect(seeds.size).toBeGreaterThan(1);
  });

  it('reports the upstream FitError for a pod that fits nowhere', () => {
    const res = simulate(cluster() as never, { seed: 1, compatibilityVersion: '1.26' });
    const big = res.results.find((r) => r.pod === 'default/too-big')!;
    expect(big.node).toBeNull();
    expect(big.message).toBe(
      '0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod..',
    );
    expect(res.summary).toMatchObject({ pods: 13, scheduled: 12, unschedulable: 1, preempted: 0 });
  });

  it.each([
    // 1.34: a request beyond allocatable is unresolvable, DynamicResources' PostFilter speaks first.
    [
      '1.34.4',
      '0/4 nodes are available: 4 Insufficient cpu. no new claims to deallocate, preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
    ],
    // 1.37: DynamicResources' PostFilter gives no reason.
    [
      '1.37',
      '0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.',
    ],
  ])('reports the FitError of %s for a pod larger than any node', (version, message) => {
    const res = simulate(cluster() as never, { seed: 1, compatibilityVersion: version });
    expect(res.results.find((r) => r.pod === 'default/too-big')!.message).toBe(message);
  });

  it('preempts lower-priority pods and binds the preemptor on its nominated node', () => {
    const pc = (name: string, value: number) => ({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name },
      value,
    });
    const low = makePod({
      name: 'low',
      nodeName: 'n1',
      requests: [{ cpu: '800m' }],
      spec: {
        containers: [{ name: 'c', resources: { requests: { cpu: '800m' } } }],
        priorityClassName: 'low',
      },
    });
    const high = makePod({
      name: 'high',
      spec: {
        containers: [{ name: 'c', resources: { requests: { cpu: '500m' } } }],
        priorityClassName: 'high',
      },
    });
    (low as { status?: object }).status = { startTime: '2029-01-01T00:00:00Z' };
    const items = [
      pc('low', 1),
      pc('high', 100),
      makeNode({ name: 'n1', allocatable: { cpu: '1', memory: '1Gi', pods: '10' } }),
      low,
      high,
    ];
    const res = simulate(items as never, { compatibilityVersion: '1.36' });
    const preemptor = res.results[0];
    expect(preemptor).toMatchObject({
      node: 'n1',
      nominatedNode: 'n1',
      victims: ['default/low'],
      attempts: 2,
    });
    expect(preemptor.firstAttempt?.message).toBe('0/1 nodes are available: 1 Insufficient cpu.');
    // From 1.37 the successful preemption explains itself in the failed attempt's FitError.
    const newest = simulate(items as never, { compatibilityVersion: '1.37' }).results[0];
    expect(newest.firstAttempt?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. preemption: found a potential placement for pod on node n1, preempting 1 victims',
    );
    expect(res.summary.preempted).toBe(1);
  });
});

describe('score lists reused from cycle to cycle', () => {
  it("name each pod's own feasible nodes when consecutive pods are feasible on different nodes", () => {
    const nodes = ['n1', 'n2', 'n3', 'n4'].map((name) =>
      makeNode({ name, labels: { group: name === 'n2' || name === 'n4' ? 'even' : 'odd' } }),
    );
    const pinned = (name: string, group?: string) =>
      makePod({ name, spec: { containers: [], ...(group ? { nodeSelector: { group } } : {}) } });
    const pods = [
      pinned('p1'),
      pinned('p2', 'even'),
      pinned('p3', 'odd'),
      pinned('p4'),
      pinned('p5', 'even'),
    ];
    const { results } = simulate([...nodes, ...pods] as never, {
      compatibilityVersion: '1.37',
      explain: 'full',
      percentageOfNodesToScore: 100,
    });
    const scored = results.map((r) => Object.keys(r.scores).sort());
    expect(scored).toEqual([
      ['n1', 'n2', 'n3', 'n4'],
      ['n2', 'n4'],
      ['n1', 'n3'],
      ['n1', 'n2', 'n3', 'n4'],
      ['n2', 'n4'],
    ]);
    results.forEach((r, i) => expect(scored[i]).toContain(r.node));
  });
});
