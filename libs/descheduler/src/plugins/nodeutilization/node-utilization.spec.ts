/**
 * upstream's lownodeutilization_test.go and highnodeutilization_test.go tables (descheduler
 * v0.36.0), each row's nodes and pods dumped as JSON from the Go table itself, run through a
 * real DefaultEvictor (nodeFit on, as upstream's tests set it) and PodEvictor. Upstream's rows
 * "with metrics enabled" and its Prometheus tests are not ported: a snapshot has no live metrics.
 */
import type { Node, Pod } from '@schedlab/k8s';
import { runPlugin } from '../../testing/harness';
import highRows from './__fixtures__/high-node-utilization.json';
import highTaintRows from './__fixtures__/high-node-utilization-with-taints.json';
import lowRows from './__fixtures__/low-node-utilization.json';
import lowTaintRows from './__fixtures__/low-node-utilization-with-taints.json';
import lowValidation from './__fixtures__/low-node-utilization-validation.json';
import highValidation from './__fixtures__/high-node-utilization-validation.json';
import { HIGH_NODE_UTILIZATION, highNodeUtilizationArgsSchema } from './high-node-utilization';
import { LOW_NODE_UTILIZATION, lowNodeUtilizationArgsSchema } from './low-node-utilization';
import {
  averageUsage,
  capacityCappedAt,
  describePercentages,
  deviatedThresholds,
  isAboveThresholds,
  isBelowThresholds,
  sortNodesByUsage,
  usagePercentages,
  type NodeUsage,
} from './node-utilization';

interface Row {
  name: string;
  nodes: Node[];
  pods: Pod[];
  thresholds?: Record<string, number>;
  targetThresholds?: Record<string, number>;
  useDeviationThresholds?: boolean;
  evictableNamespaces?: { include?: string[]; exclude?: string[] };
  evictionLimits?: { node?: number };
  evictionModes?: string[];
  expectedPodsEvicted?: number;
  evictionsExpected?: number;
  /** When not empty, upstream fails any eviction of a pod not listed. */
  evictedPods?: string[];
}

const rowsOf = (rows: unknown) => (rows as Row[]).map((row) => [row.name, row] as const);

function expectOnlyListed(evicted: readonly string[], row: Row): void {
  if (row.evictedPods?.length) for (const name of evicted) expect(row.evictedPods).toContain(name);
}

describe('LowNodeUtilization: upstream TestLowNodeUtilization', () => {
  it.each(rowsOf(lowRows))('%s', (_n, row) => {
    const { evicted } = runPlugin({
      plugin: LOW_NODE_UTILIZATION,
      args: {
        thresholds: row.thresholds,
        targetThresholds: row.targetThresholds,
        useDeviationThresholds: row.useDeviationThresholds ?? false,
        // Upstream's validation refuses `include` and the plugin only reads `exclude`; the row
        // that sets include bypasses validation there, so only exclude is passed here.
        ...(row.evictableNamespaces?.exclude
          ? { evictableNamespaces: { exclude: row.evictableNamespaces.exclude } }
          : {}),
        ...(row.evictionLimits ? { evictionLimits: row.evictionLimits } : {}),
      },
      nodes: row.nodes,
      pods: row.pods,
      evictorArgs: { nodeFit: true },
    });
    expect(evicted).toHaveLength(row.expectedPodsEvicted ?? -1);
    expectOnlyListed(evicted, row);
  });
});

describe('LowNodeUtilization: what each eviction says', () => {
  it('names the overutilized node, its usage against targetThresholds and where pods can go', () => {
    const [row] = (lowRows as unknown as Row[]).filter((r) => r.name === 'without priorities');
    const { evictions } = runPlugin({
      plugin: LOW_NODE_UTILIZATION,
      args: { thresholds: row.thresholds, targetThresholds: row.targetThresholds },
      nodes: row.nodes,
      pods: row.pods,
      evictorArgs: { nodeFit: true },
    });
    expect(evictions).toHaveLength(4);
    for (const eviction of evictions)
      expect(eviction).toEqual(
        expect.objectContaining({
          node: 'n1',
          strategy: LOW_NODE_UTILIZATION,
          reason: LOW_NODE_UTILIZATION,
          detail:
            'node n1 is overutilized: cpu 80%, pods 89% above targetThresholds cpu 50%, pods 50%; underutilized: n2',
        }),
      );
  });
});

describe('LowNodeUtilization: upstream TestLowNodeUtilizationWithTaints', () => {
  it.each(rowsOf(lowTaintRows))('%s', (_n, row) => {
    const expected = row.evictionsExpected ?? -1;
    const { evicted } = runPlugin({
      plugin: LOW_NODE_UTILIZATION,
      args: { thresholds: { pods: 20 }, targetThresholds: { pods: 70 } },
      nodes: row.nodes,
      pods: row.pods,
      evictorArgs: { nodeFit: true },
      // Upstream caps evictions per node at the number it expects.
      limits: { maxNoOfPodsToEvictPerNode: expected },
    });
    expect(evicted).toHaveLength(expected);
  });
});

describe('HighNodeUtilization: upstream TestHighNodeUtilization', () => {
  it.each(rowsOf(highRows))('%s', (_n, row) => {
    const { evicted } = runPlugin({
      plugin: HIGH_NODE_UTILIZATION,
      args: {
        thresholds: row.thresholds,
        ...(row.evictionModes ? { evictionModes: row.evictionModes } : {}),
      },
      nodes: row.nodes,
      pods: row.pods,
      evictorArgs: { nodeFit: true },
    });
    expect(evicted).toHaveLength(row.expectedPodsEvicted ?? -1);
    expectOnlyListed(evicted, row);
  });
});

describe('HighNodeUtilization: upstream TestHighNodeUtilizationWithTaints', () => {
  it.each(rowsOf(highTaintRows))('%s', (_n, row) => {
    const expected = row.evictionsExpected ?? -1;
    const { evicted } = runPlugin({
      plugin: HIGH_NODE_UTILIZATION,
      args: { thresholds: { cpu: 40 } },
      nodes: row.nodes,
      pods: row.pods,
      limits: { maxNoOfPodsToEvictPerNode: expected },
    });
    expect(evicted).toHaveLength(expected);
  });
});

describe('HighNodeUtilization: the toleration check on its own (nodeFit off, no limits)', () => {
  const [, noneTolerate, oneTolerates] = highTaintRows as unknown as Row[];
  it.each([
    [noneTolerate, []],
    [oneTolerates, ['tolerate_pod']],
  ])('%# evicts only pods that tolerate every taint of a destination', (row, expected) => {
    const { evicted } = runPlugin({
      plugin: HIGH_NODE_UTILIZATION,
      args: { thresholds: { cpu: 40 } },
      nodes: row.nodes,
      pods: row.pods,
    });
    expect(evicted).toEqual(expected);
  });
});

describe('LowNodeUtilization args: upstream TestValidateLowNodeUtilizationPluginConfig', () => {
  const rows = lowValidation as { name: string; args: Record<string, unknown>; errInfo?: string }[];
  it.each(rows.map((row) => [row.name, row] as const))('%s', (_n, row) => {
    const result = lowNodeUtilizationArgsSchema.safeParse(row.args);
    if (row.errInfo === undefined) expect(result.error).toBeUndefined();
    else if (row.args.metricsUtilization !== undefined)
      // Every metricsUtilization is refused here (a snapshot has no live metrics), in other words.
      expect(result.error?.issues.map((i) => i.path.join('.'))).toContain('metricsUtilization');
    else expect(result.error?.issues[0].message).toBe(row.errInfo);
  });
});

describe('HighNodeUtilization args: upstream TestValidateHighNodeUtilizationPluginConfig', () => {
  const rows = highValidation as { name: string; args: unknown; wantErr: boolean; errMsg: string }[];
  it.each(rows.map((row) => [row.name, row] as const))('%s', (_n, row) => {
    const result = highNodeUtilizationArgsSchema.safeParse(row.args);
    if (!row.wantErr) expect(result.error).toBeUndefined();
    else expect(result.error?.issues[0].message).toBe(row.errMsg);
  });
});

describe('upstream TestSortNodesByUsage (nodeutilization_test.go), hand-ported', () => {
  // Amounts as the plugins keep them: cpu in millicores, memory in bytes, pods as a count.
  const rows: [string, [string, Record<string, number>][], string[]][] = [
    [
      'cpu memory pods',
      [
        ['node1', { cpu: 1730, memory: 3038982964, pods: 25 }],
        ['node2', { cpu: 1220, memory: 3038982964, pods: 11 }],
        ['node3', { cpu: 1530, memory: 5038982964, pods: 20 }],
      ],
      ['node3', 'node1', 'node2'],
    ],
    [
      'memory',
      [
        ['node1', { memory: 3038982964 }],
        ['node2', { memory: 2038982964 }],
        ['node3', { memory: 5038982964 }],
      ],
      ['node3', 'node1', 'node2'],
    ],
  ];
  const nodesOf = (list: [string, Record<string, number>][]): NodeUsage[] =>
    list.map(([name, usage]) => ({
      name,
      node: { metadata: { name } },
      usage: new Map(Object.entries(usage)),
      pods: [],
      available: new Map(),
      percentages: {},
    }));
  it.each(rows)('%s descending and ascending', (_n, list, descending) => {
    expect(sortNodesByUsage(nodesOf(list), false).map((n) => n.name)).toEqual(descending);
    expect(sortNodesByUsage(nodesOf(list), true).map((n) => n.name)).toEqual([...descending].reverse());
  });
});

describe('upstream TestResourceUsageToResourceThreshold (nodeutilization_test.go), hand-ported', () => {
  // A nil quantity upstream is a missing entry here.
  const rows: [string, Record<string, number>, Record<string, number>, Record<string, number>][] = [
    ['10 percent', { cpu: 100 }, { cpu: 1000 }, { cpu: 10 }],
    ['zeroed out capacity', { cpu: 100 }, { cpu: 0 }, { cpu: 0 }],
    ['non existing usage', { 'does-not-exist': 100 }, { cpu: 100, memory: 100 }, {}],
    [
      'existing and non existing usage',
      { 'does-not-exist': 100, cpu: 200 },
      { cpu: 1000, memory: 1000 },
      { cpu: 20 },
    ],
    ['nil usage', {}, { cpu: 1000 }, {}],
    ['nil capacity', { cpu: 100 }, {}, {}],
  ];
  it.each(rows)('%s', (_n, usage, capacity, expected) => {
    expect(usagePercentages(new Map(Object.entries(usage)), new Map(Object.entries(capacity)))).toEqual(
      expected,
    );
  });
});

describe('upstream TestClassificationUsingDeviationThresholds (nodeutilization_test.go), hand-ported', () => {
  it('puts thresholds 5 points either side of the 50% average: 10% is under, 90% over, 48-52% neither', () => {
    const capacity = new Map([
      ['cpu', 1000],
      ['memory', 1000],
    ]);
    const used: Record<string, number> = { node1: 100, node2: 480, node3: 520, node4: 500, node5: 900 };
    const usage = Object.fromEntries(
      Object.entries(used).map(([node, amount]) => [
        node,
        usagePercentages(
          new Map([
            ['cpu', amount],
            ['memory', amount],
          ]),
          capacity,
        ),
      ]),
    );
    const average = averageUsage(Object.values(usage));
    const deviation = { cpu: 5, memory: 5 };
    const low = deviatedThresholds(average, deviation, -1);
    const high = deviatedThresholds(average, deviation, 1);
    expect(low).toEqual({ cpu: 45, memory: 45 });
    expect(high).toEqual({ cpu: 55, memory: 55 });
    const under = Object.keys(usage).filter((n) => isBelowThresholds(usage[n], low));
    const over = Object.keys(usage).filter((n) => !under.includes(n) && isAboveThresholds(usage[n], high));
    expect(under).toEqual(['node1']);
    expect(over).toEqual(['node5']);
  });
});

describe('averageUsage', () => {
  it('averages each resource over the nodes that report it, whatever its name', () => {
    expect(
      averageUsage([
        { cpu: 40, constructor: 10 },
        { cpu: 60, constructor: 30, toString: 5 },
      ]),
    ).toEqual({ cpu: 50, constructor: 20, toString: 5 });
  });
});

describe('thresholds on resources named like members of Object.prototype', () => {
  // A node reports no such resource, so its usage of it is 0, as for any other unreported name.
  const usage = { cpu: 30 };
  it('compares a node that lacks the resource as using none of it', () => {
    expect(isBelowThresholds(usage, { cpu: 50, constructor: 20 })).toBe(true);
    expect(isAboveThresholds(usage, { cpu: 50, toString: 20 })).toBe(false);
    expect(describePercentages(usage, ['cpu', 'constructor'])).toBe('cpu 30%, constructor 0%');
  });
  it('leaves a resource without a deviation or threshold of its own unchanged', () => {
    expect(deviatedThresholds({ cpu: 40, constructor: 10 }, { cpu: 5 }, 1)).toEqual({
      cpu: 45,
      constructor: 10,
    });
    const node = { metadata: { name: 'n' }, status: { allocatable: { cpu: '2', constructor: '8' } } };
    expect([...capacityCappedAt(node, { cpu: 50 }, ['cpu', 'constructor'])]).toEqual([
      ['cpu', 1000],
      ['constructor', 8],
    ]);
  });
});
