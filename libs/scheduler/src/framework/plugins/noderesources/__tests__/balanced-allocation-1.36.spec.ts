/**
 * NodeResourcesBalancedAllocation from 1.36 (score = how much the pod improves the node's balance)
 * and the 1.33 best-effort skip, with the vectors of upstream v1.37.2 balanced_allocation_test.go
 * (TestNodeResourcesBalancedAllocation) as data.
 */
import { CycleState } from '../../../cycle-state';
import { Code } from '../../../status';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makeNode, makePod } from '../../../../testing/builders';
import { BalancedAllocation, defaultBalancedAllocationArgs } from '..';

type Req = Record<string, string>;
interface Vector {
  name: string;
  pod: Req[];
  nodes: [name: string, milliCPU: number, memory: number, extended?: Record<string, string>][];
  existing?: [node: string, requests: Req[]][];
  resources?: string[];
  want: number[];
}

const cpuMem = (cpu: string, memory: string): Req => ({ cpu, memory });

const vectors: Vector[] = [
  {
    name: 'nothing scheduled, resources requested, differently sized nodes',
    pod: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')],
    nodes: [
      ['node1', 4000, 10000],
      ['node2', 6000, 10000],
    ],
    want: [68, 75],
  },
  {
    name: 'resources requested, pods scheduled with resources',
    pod: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')],
    nodes: [
      ['node1', 10000, 20000],
      ['node2', 10000, 20000],
    ],
    existing: [
      ['node1', [{ cpu: '1000m' }, { cpu: '2000m' }]],
      ['node2', [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')]],
    ],
    want: [73, 74],
  },
  {
    name: 'resources requested, pods scheduled with resources, differently sized nodes',
    pod: [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')],
    nodes: [
      ['node1', 10000, 20000],
      ['node2', 10000, 50000],
    ],
    existing: [
      ['node1', [{ cpu: '1000m' }, { cpu: '2000m' }]],
      ['node2', [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')]],
    ],
    want: [73, 70],
  },
  {
    name: 'resources requested, pods scheduled with resources, nodes to reach min/max score',
    pod: [{ memory: '2000' }, { memory: '3000' }],
    nodes: [
      ['node1', 3000, 5000],
      ['node2', 3000, 5000],
    ],
    existing: [['node1', [{ cpu: '1000m' }, { cpu: '2000m' }]]],
    want: [100, 50],
  },
  {
    name: 'requested resources at node capacity',
    pod: [{ cpu: '1000m' }, { cpu: '2000m' }],
    nodes: [
      ['node1', 6000, 10000],
      ['node2', 6000, 10000],
    ],
    existing: [
      ['node1', [{ cpu: '1000m' }, { cpu: '2000m' }]],
      ['node2', [cpuMem('1000m', '2000'), cpuMem('2000m', '3000')]],
    ],
    want: [62, 62],
  },
];

function handleFor(v: Vector, version: string): FakeHandle {
  const nodes = v.nodes.map(([name, cpu, memory, extended]) =>
    makeNode({ name, allocatable: { cpu: `${cpu}m`, memory: String(memory), pods: '110', ...extended } }),
  );
  const pods = (v.existing ?? []).map(([nodeName, requests], i) =>
    makePod({ name: `e${i}`, nodeName, requests }),
  );
  return new FakeHandle({ nodes, pods, features: new FeatureSet(version) });
}

describe('NodeResourcesBalancedAllocation 1.36+ (upstream v1.37.2 balanced_allocation_test.go)', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const handle = handleFor(v, '1.37');
    const plugin = new BalancedAllocation(defaultBalancedAllocationArgs(undefined), handle);
    const pod = makePod({ name: 'p', requests: v.pod });
    const state = new CycleState();
    expect(plugin.preScore(state, pod, handle.snap.list())).toBeNull();
    expect(handle.snap.list().map((ni) => plugin.score(state, pod, ni)[0])).toEqual(v.want);
    // The batch form (unrolled for cpu and memory) gives the same scores.
    const batch = handle.snap.list().map((ni) => ({ name: ni.name, score: -1 }));
    expect(plugin.scoreNodes(state, pod, handle.snap.list(), batch)).toBeNull();
    expect(batch.map((s) => s.score)).toEqual(v.want);
  });

  it('skips a best-effort pod in PreScore from 1.33, scores it before', () => {
    const v: Vector = {
      name: 'best effort',
      pod: [{}],
      nodes: [
        ['node1', 4000, 10000],
        ['node2', 4000, 10000],
      ],
      want: [],
    };
    const pod = makePod({ name: 'p' });
    const at = (version: string) => {
      const handle = handleFor(v, version);
      return new BalancedAllocation(defaultBalancedAllocationArgs(undefined), handle).preScore(
        new CycleState(),
        pod,
        handle.snap.list(),
      );
    };
    expect(at('1.33')?.code).toBe(Code.Skip);
    expect(at('1.37')?.code).toBe(Code.Skip);
    expect(at('1.32')).toBeNull();
  });
});
