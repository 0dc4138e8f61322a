import type { Pod, PodDisruptionBudget } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makeNode, makePod } from '../../../../testing/builders';
import { CycleState } from '../../../cycle-state';
import {
  NodeToStatusMap,
  type FilterPlugin,
  type PreFilterExtensions,
  type PreFilterPlugin,
} from '../../../interface';
import { pickOneNodeForPreemption } from '../../../preemption/evaluator';
import { Code, MaybeStatus, Status } from '../../../status';
import { NodeInfo, PodInfo } from '../../../types';
import { DefaultPreemption, defaultArgs, filterPodsWithPDBViolation, validateArgs } from '..';

/** A minimal v1.26-style resource fit check: pods, cpu and memory. */
class FitDouble implements FilterPlugin {
  readonly name = 'NodeResourcesFit';
  filter(_s: CycleState, pod: Pod, ni: NodeInfo): MaybeStatus {
    const req = new PodInfo(pod).requests;
    const reasons: string[] = [];
    if (ni.pods.length + 1 > ni.allocatable.allowedPodNumber) reasons.push('Too many pods');
    if (req.milliCPU > ni.allocatable.milliCPU - ni.requested.milliCPU) reasons.push('Insufficient cpu');
    if (req.memory > ni.allocatable.memory - ni.requested.memory) reasons.push('Insufficient memory');
    return reasons.length ? Status.unschedulable(...reasons) : null;
  }
}

/** Fails its PreFilter extensions on nodes labelled error=true (upstream's TestPlugin). */
class ErrorOnLabelledNodes implements PreFilterPlugin, PreFilterExtensions {
  readonly name = 'test-plugin';
  preFilter() {
    return { status: null };
  }
  preFilterExtensions() {
    return this;
  }
  addPod(_s: CycleState, pod: Pod, _p: PodInfo, ni: NodeInfo): MaybeStatus {
    return ni.node.metadata?.labels?.error === 'true'
      ? Status.error(`failed to add pod: ${pod.metadata?.name}`)
      : null;
  }
  removePod(_s: CycleState, pod: Pod, _p: PodInfo, ni: NodeInfo): MaybeStatus {
    return ni.node.metadata?.labels?.error === 'true'
      ? Status.error(`failed to remove pod: ${pod.metadata?.name}`)
      : null;
  }
}

const NEG = -100;
const LOW = 0;
const MID = 100;
const HIGH = 1000;
const VERY_HIGH = 10000;
const small = { cpu: '100m', memory: '100' };
const medium = { cpu: '200m', memory: '200' };
const large = { cpu: '300m', memory: '300' };
const veryLarge = { cpu: '500m', memory: '500' };
const onePod = { pods: '1' };
const nodeRes = { cpu: '200m', memory: '400', pods: '32' };

interface P {
  name: string;
  node?: string;
  priority?: number;
  req?: Record<string, string>;
  labels?: Record<string, string>;
  /** Nanoseconds after the epoch, as upstream's epochTimeN (ms here; only the order matters). */
  start?: number;
  ns?: string;
}

function pod(p: P): Pod {
  const out = makePod({
    name: p.name,
    namespace: p.ns,
    nodeName: p.node,
    priority: p.priority,
    requests: p.req ? [p.req] : undefined,
    labels: p.labels,
  });
  return p.start === undefined ? out : { ...out, status: { startTime: new Date(p.start).toISOString() } };
}

function pdb(
  name: string,
  matchLabels: Record<string, string>,
  disruptionsAllowed = 0,
  disruptedPods?: Record<string, string>,
): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels } },
    status: { disruptionsAllowed, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptedPods },
  } as PodDisruptionBudget;
}

function setup(opts: {
  nodes: { name: string; alloc: Record<string, string>; labels?: Record<string, string> }[];
  pods: Pod[];
  pdbs?: PodDisruptionBudget[];
  version?: '1.26' | '1.32';
  withErrorPlugin?: boolean;
}) {
  const objects = new ClusterObjects();
  for (const b of opts.pdbs ?? []) objects.podDisruptionBudgets.set(b);
  const handle = new FakeHandle({
    nodes: opts.nodes.map((n) => makeNode({ name: n.name, allocatable: n.alloc, labels: n.labels })),
    pods: opts.pods,
    objects,
    features: new FeatureSet(opts.version ?? '1.26'),
    filterPlugins: [new FitDouble()],
    preFilterPlugins: opts.withErrorPlugin ? [new ErrorOnLabelledNodes()] : [],
  });
  const plugin = new DefaultPreemption(defaultArgs(undefined), handle);
  return { handle, plugin };
}

function statuses(entries: Record<string, Code>): NodeToStatusMap {
  return new NodeToStatusMap(
    Object.entries(entries).map(([n, c]) => [n, new Status(c, c === Code.Unschedulable ? ['x'] : ['y'])]),
  );
}

const U = Code.Unschedulable;
const UU = Code.UnschedulableAndUnresolvable;

describe('DefaultPreemption.postFilter (upstream TestPostFilter)', () => {
  const cases: {
    name: string;
    pod: Pod;
    pods: Pod[];
    nodes: { name: string; alloc: Record<string, string>; labels?: Record<string, string> }[];
    pdbs?: PodDisruptionBudget[];
    filtered: Record<string, Code>;
    version?: '1.26' | '1.32';
    wantNode?: string;
    wantMessage?: string;
    wantCode?: Code;
  }[] = [
    {
      name: 'pod with higher priority can be made schedulable',
      pod: pod({ name: 'p', priority: HIGH }),
      pods: [pod({ name: 'p1', node: 'node1' })],
      nodes: [{ name: 'node1', alloc: onePod }],
      filtered: { node1: U },
      wantNode: 'node1',
    },
    {
      name: 'pod with tied priority is still unschedulable',
      pod: pod({ name: 'p' }),
      pods: [pod({ name: 'p1', node: 'node1' })],
      nodes: [{ name: 'node1', alloc: onePod }],
      filtered: { node1: U },
      wantMessage: 'preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    },
    {
      name: 'preemption should respect filteredNodesStatuses',
      pod: pod({ name: 'p', priority: HIGH }),
      pods: [pod({ name: 'p1', node: 'node1' })],
      nodes: [{ name: 'node1', alloc: onePod }],
      filtered: { node1: UU },
      wantMessage: 'preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    },
    {
      name: 'pod can be made schedulable on one node',
      pod: pod({ name: 'p', priority: MID }),
      pods: [
        pod({ name: 'p1', node: 'node1', priority: HIGH }),
        pod({ name: 'p2', node: 'node2', priority: LOW }),
      ],
      nodes: [
        { name: 'node1', alloc: onePod },
        { name: 'node2', alloc: onePod },
      ],
      filtered: { node1: U, node2: U },
      wantNode: 'node2',
    },
    {
      // Upstream's table expects node2 since 1.32; in 1.26 the PDB-violating low-priority victim
      // comes first on node1 and the "highest victim priority" criterion reads it.
      name: 'minHighestPriority node (1.32: victims sorted)',
      pod: pod({ name: 'p', priority: VERY_HIGH }),
      pods: [
        pod({ name: 'p1', node: 'node1', priority: HIGH, labels: { pdb: 'non-violating' } }),
        pod({ name: 'p2', node: 'node1', priority: LOW, labels: { pdb: 'violating' } }),
        pod({ name: 'p3', node: 'node2', priority: MID, labels: { pdb: 'violating' } }),
      ],
      pdbs: [
        pdb('violating-pdb', { pdb: 'violating' }),
        pdb('non-violating-pdb', { pdb: 'non-violating' }, 2147483647),
      ],
      nodes: [
        { name: 'node1', alloc: onePod },
        { name: 'node2', alloc: onePod },
      ],
      filtered: { node1: U, node2: U },
      version: '1.32',
      wantNode: 'node2',
    },
    {
      name: 'minHighestPriority node (1.26: first victim read)',
      pod: pod({ name: 'p', priority: VERY_HIGH }),
      pods: [
        pod({ name: 'p1', node: 'node1', priority: HIGH, labels: { pdb: 'non-violating' } }),
        pod({ name: 'p2', node: 'node1', priority: LOW, labels: { pdb: 'violating' } }),
        pod({ name: 'p3', node: 'node2', priority: MID, labels: { pdb: 'violating' } }),
      ],
      pdbs: [
        pdb('violating-pdb', { pdb: 'violating' }),
        pdb('non-violating-pdb', { pdb: 'non-violating' }, 2147483647),
      ],
      nodes: [
        { name: 'node1', alloc: onePod },
        { name: 'node2', alloc: onePod },
      ],
      filtered: { node1: U, node2: U },
      wantNode: 'node1',
    },
    {
      name: 'no candidate nodes found, no enough resource after removing low priority pods',
      pod: pod({ name: 'p', priority: HIGH, req: large }),
      pods: [pod({ name: 'p1', node: 'node1' }), pod({ name: 'p2', node: 'node2' })],
      nodes: [
        { name: 'node1', alloc: nodeRes },
        { name: 'node2', alloc: nodeRes },
      ],
      filtered: { node1: U, node2: U },
      wantMessage: 'preemption: 0/2 nodes are available: 2 Insufficient cpu.',
    },
    {
      name: 'no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource',
      pod: pod({ name: 'p', priority: HIGH, req: large }),
      pods: [
        pod({ name: 'p1', node: 'node1', priority: HIGH }),
        pod({ name: 'p2', node: 'node2' }),
        pod({ name: 'p3', node: 'node3', priority: HIGH }),
      ],
      nodes: [
        { name: 'node1', alloc: onePod },
        { name: 'node2', alloc: nodeRes },
        { name: 'node3', alloc: onePod },
      ],
      filtered: { node1: U, node2: U, node3: U },
      wantMessage:
        'preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.',
    },
    {
      name: 'no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes without enough CPU',
      pod: pod({ name: 'p', priority: HIGH, req: large }),
      pods: [pod({ name: 'p1', node: 'node1' }), pod({ name: 'p2', node: 'node2' })],
      nodes: ['node1', 'node2', 'node3', 'node4'].map((name) => ({ name, alloc: nodeRes })),
      filtered: { node1: U, node2: U, node3: UU, node4: UU },
      wantMessage:
        'preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.',
    },
    {
      name: 'preemptionPolicy Never is not eligible',
      pod: {
        ...pod({ name: 'p', priority: HIGH }),
        spec: { ...pod({ name: 'p' }).spec!, priority: HIGH, preemptionPolicy: 'Never' },
      },
      pods: [pod({ name: 'p1', node: 'node1' })],
      nodes: [{ name: 'node1', alloc: onePod }],
      filtered: { node1: U },
      wantMessage: 'preemption: not eligible due to preemptionPolicy=Never.',
    },
  ];

  it.each(cases)('$name', (tc) => {
    const { plugin } = setup({ nodes: tc.nodes, pods: tc.pods, pdbs: tc.pdbs, version: tc.version });
    const { result, status } = plugin.postFilter(new CycleState(), tc.pod, statuses(tc.filtered));
    if (tc.wantNode) {
      expect(status).toBeNull();
      expect(result?.nominatedNodeName).toBe(tc.wantNode);
      expect(result?.victims?.length).toBeGreaterThan(0);
    } else {
      expect(status?.code).toBe(tc.wantCode ?? Code.Unschedulable);
      expect(status?.reasons).toEqual([tc.wantMessage]);
      expect(result?.nominatedNodeName).toBeUndefined();
    }
  });

  it('a PreFilter extension error on the only node is an Error status', () => {
    const { plugin } = setup({
      nodes: [{ name: 'node1', alloc: { ...large, pods: '32' }, labels: { error: 'true' } }],
      pods: [pod({ name: 'p1', node: 'node1' })],
      withErrorPlugin: true,
    });
    const { result, status } = plugin.postFilter(
      new CycleState(),
      pod({ name: 'p', priority: HIGH, req: large }),
      statuses({ node1: U }),
    );
    expect(result).toBeUndefined();
    expect(status?.code).toBe(Code.Error);
    expect(status?.reasons).toEqual(['preemption: failed to remove pod: p']);
  });

  it('one node failing with an error does not prevent the other from being nominated', () => {
    const { plugin } = setup({
      nodes: [
        { name: 'node1', alloc: { ...large, pods: '32' }, labels: { error: 'true' } },
        { name: 'node2', alloc: { ...large, pods: '32' } },
      ],
      pods: [pod({ name: 'p1', node: 'node1' }), pod({ name: 'p2', node: 'node2', req: medium })],
      withErrorPlugin: true,
    });
    const { result, status } = plugin.postFilter(
      new CycleState(),
      pod({ name: 'p', priority: HIGH, req: large }),
      statuses({ node1: U, node2: U }),
    );
    expect(status).toBeNull();
    expect(result?.nominatedNodeName).toBe('node2');
    expect(result?.victims?.map((v) => v.metadata?.name)).toEqual(['p2']);
  });

  it('does not touch the real snapshot', () => {
    const { plugin, handle } = setup({
      nodes: [{ name: 'node1', alloc: onePod }],
      pods: [pod({ name: 'p1', node: 'node1' })],
    });
    const before = handle.snap.get('node1')!;
    const gen = before.generation;
    plugin.postFilter(new CycleState(), pod({ name: 'p', priority: HIGH }), statuses({ node1: U }));
    expect(handle.snap.get('node1')!.pods.map((p) => p.key)).toEqual(['default/p1']);
    expect(handle.snap.get('node1')!.generation).toBe(gen);
  });
});

describe('PreFilter rejection (every node carries the same status)', () => {
  function run(version: '1.26' | '1.32') {
    const { plugin } = setup({
      nodes: [
        { name: 'node1', alloc: onePod },
        { name: 'node2', alloc: onePod },
      ],
      pods: [
        pod({ name: 'p1', node: 'node1', priority: HIGH }),
        pod({ name: 'p2', node: 'node2', priority: HIGH }),
      ],
      version,
    });
    const s = Status.unresolvable('pod has unbound immediate PersistentVolumeClaims');
    const m = new NodeToStatusMap([
      ['node1', s],
      ['node2', s],
    ]);
    return plugin.postFilter(new CycleState(), pod({ name: 'p', priority: LOW }), m).status?.reasons;
  }
  it('1.26 still evaluates every node', () => {
    expect(run('1.26')).toEqual([
      'preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    ]);
  });
  it('newer releases treat every node as unresolvable', () => {
    expect(run('1.32')).toEqual([
      'preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    ]);
  });
});

describe('SelectCandidate (upstream TestSelectBestCandidate, node capacity 500m/500)', () => {
  const cases: { name: string; nodes: string[]; pod: Pod; pods: Pod[]; want: string }[] = [
    {
      name: 'a pod that fits on both nodes when lower priority pods are preempted',
      nodes: ['node1', 'node2'],
      pod: pod({ name: 'p', priority: HIGH, req: large }),
      pods: [
        pod({ name: 'p1', node: 'node1', priority: MID, req: large, start: 0 }),
        pod({ name: 'p2', node: 'node2', priority: MID, req: large, start: 0 }),
      ],
      want: 'node1',
    },
    {
      name: 'node with min highest priority pod is picked',
      nodes: ['node1', 'node2', 'node3'],
      pod: pod({ name: 'p', priority: HIGH, req: veryLarge }),
      pods: [
        pod({ name: 'p1.1', node: 'node1', priority: MID, req: medium, start: 0 }),
        pod({ name: 'p1.2', node: 'node1', priority: LOW, req: medium, start: 0 }),
        pod({ name: 'p2.1', node: 'node2', priority: MID, req: medium, start: 0 }),
        pod({ name: 'p2.2', node: 'node2', priority: MID, req: medium, start: 0 }),
        pod({ name: 'p3.1', node: 'node3', priority: LOW, req: medium, start: 0 }),
        pod({ name: 'p3.2', node: 'node3', priority: LOW, req: medium, start: 0 }),
      ],
      want: 'node3',
    },
    {
      name: 'sum of adjusted priorities is considered',
      nodes: ['node1', 'node2', 'node3'],
      pod: pod({ name: 'p', priority: HIGH, req: veryLarge }),
      pods: [
        pod({ name: 'p1.1', node: 'node1', priority: MID, req: small, start: 0 }),
        pod({ name: 'p1.2', node: 'node1', priority: NEG, req: small, start: 0 }),
        pod({ name: 'p1.3', node: 'node1', priority: NEG, req: small, start: 0 }),
        pod({ name: 'p2.1', node: 'node2', priority: MID, req: large, start: 0 }),
        pod({ name: 'p2.2', node: 'node2', priority: NEG, req: medium, start: 0 }),
        pod({ name: 'p3.1', node: 'node3', priority: MID, req: medium, start: 0 }),
        pod({ name: 'p3.2', node: 'node3', priority: NEG, req: small, start: 0 }),
        pod({ name: 'p3.3', node: 'node3', priority: LOW, req: small, start: 0 }),
      ],
      want: 'node2',
    },
    {
      name: 'non-overlapping lowest high priority, sum priorities, and number of pods',
      nodes: ['node1', 'node2', 'node3', 'node4'],
      pod: pod({ name: 'p', priority: VERY_HIGH, req: veryLarge }),
      pods: [
        pod({ name: 'p1.1', node: 'node1', priority: MID, req: small, start: 0 }),
        pod({ name: 'p1.2', node: 'node1', priority: LOW, req: small, start: 0 }),
        pod({ name: 'p1.3', node: 'node1', priority: LOW, req: small, start: 0 }),
        pod({ name: 'p2.1', node: 'node2', priority: HIGH, req: large, start: 0 }),
        pod({ name: 'p3.1', node: 'node3', priority: MID, req: medium, start: 0 }),
        pod({ name: 'p3.2', node: 'node3', priority: LOW, req: small, start: 0 }),
        pod({ name: 'p3.3', node: 'node3', priority: LOW, req: small, start: 0 }),
        pod({ name: 'p3.4', node: 'node3', priority: LOW, req: medium, start: 0 }),
        pod({ name: 'p4.1', node: 'node4', priority: MID, req: medium, start: 0 }),
        pod({ name: 'p4.2', node: 'node4', priority: MID, req: small, start: 0 }),
        pod({ name: 'p4.3', node: 'node4', priority: MID, req: small, start: 0 }),
        pod({ name: 'p4.4', node: 'node4', priority: NEG, req: small, start: 0 }),
      ],
      want: 'node1',
    },
    {
      name: "same priority, same number of victims, different start time for each node's pod",
      nodes: ['node1', 'node2', 'node3'],
      pod: pod({ name: 'p', priority: HIGH, req: veryLarge }),
      pods: [
        pod({ name: 'p1.1', node: 'node1', priority: MID, req: medium, start: 2 }),
        pod({ name: 'p1.2', node: 'node1', priority: MID, req: medium, start: 2 }),
        pod({ name: 'p2.1', node: 'node2', priority: MID, req: medium, start: 3 }),
        pod({ name: 'p2.2', node: 'node2', priority: MID, req: medium, start: 3 }),
        pod({ name: 'p3.1', node: 'node3', priority: MID, req: medium, start: 1 }),
        pod({ name: 'p3.2', node: 'node3', priority: MID, req: medium, start: 1 }),
      ],
      want: 'node2',
    },
    {
      name: 'same priority, same number of victims, different start time for all pods',
      nodes: ['node1', 'node2', 'node3'],
      pod: pod({ name: 'p', priority: HIGH, req: veryLarge }),
      pods: [
        pod({ name: 'p1.1', node: 'node1', priority: MID, req: medium, start: 4 }),
        pod({ name: 'p1.2', node: 'node1', priority: MID, req: medium, start: 2 }),
        pod({ name: 'p2.1', node: 'node2', priority: MID, req: medium, start: 5 }),
        pod({ name: 'p2.2', node: 'node2', priority: MID, req: medium, start: 1 }),
        pod({ name: 'p3.1', node: 'node3', priority: MID, req: medium, start: 3 }),
        pod({ name: 'p3.2', node: 'node3', priority: MID, req: medium, start: 6 }),
      ],
      want: 'node3',
    },
    {
      name: 'different priority, same number of victims, different start time for all pods',
      nodes: ['node1', 'node2', 'node3'],
      pod: pod({ name: 'p', priority: HIGH, req: veryLarge }),
      pods: [
        pod({ name: 'p1.1', node: 'node1', priority: LOW, req: medium, start: 4 }),
        pod({ name: 'p1.2', node: 'node1', priority: MID, req: medium, start: 2 }),
        pod({ name: 'p2.1', node: 'node2', priority: MID, req: medium, start: 6 }),
        pod({ name: 'p2.2', node: 'node2', priority: LOW, req: medium, start: 1 }),
        pod({ name: 'p3.1', node: 'node3', priority: LOW, req: medium, start: 3 }),
        pod({ name: 'p3.2', node: 'node3', priority: MID, req: medium, start: 5 }),
      ],
      want: 'node2',
    },
  ];

  it.each(cases)('$name', (tc) => {
    const { plugin } = setup({
      nodes: tc.nodes.map((name) => ({ name, alloc: { ...veryLarge, pods: '32' } })),
      pods: tc.pods,
    });
    const m = new NodeToStatusMap(tc.nodes.map((n) => [n, Status.unschedulable('Insufficient cpu')]));
    const { result, status } = plugin.postFilter(new CycleState(), tc.pod, m);
    expect(status).toBeNull();
    expect(result?.nominatedNodeName).toBe(tc.want);
  });
});

describe('pickOneNodeForPreemption', () => {
  const v = (name: string, priority: number, start = 0) => pod({ name, priority, start });
  it('breaks a full tie by the smallest node name', () => {
    const c = ['node-9', 'node-10', 'node-2'].map((nodeName) => ({
      nodeName,
      victims: [v(`x-${nodeName}`, 1)],
      numPDBViolations: 0,
    }));
    expect(pickOneNodeForPreemption(c)).toBe('node-10');
  });
  it('sums priorities exactly, each offset by 2^31', () => {
    // Two victims at -2^31 sum to 0 with the offset, less than one victim at -2^31 + 1.
    const min = -2147483648;
    const c = [
      { nodeName: 'a', victims: [v('a1', min + 1)], numPDBViolations: 0 },
      { nodeName: 'b', victims: [v('b1', min + 1), v('b2', min)], numPDBViolations: 0 },
    ];
    expect(pickOneNodeForPreemption(c)).toBe('a');
    const c2 = [
      { nodeName: 'a', victims: [v('a1', 5), v('a2', 5)], numPDBViolations: 0 },
      { nodeName: 'b', victims: [v('b1', 5), v('b2', 4), v('b3', 4)], numPDBViolations: 0 },
    ];
    expect(pickOneNodeForPreemption(c2)).toBe('a');
  });
  it('prefers fewer PDB violations before anything else', () => {
    const c = [
      { nodeName: 'a', victims: [v('a1', 0)], numPDBViolations: 1 },
      { nodeName: 'b', victims: [v('b1', 100), v('b2', 100)], numPDBViolations: 0 },
    ];
    expect(pickOneNodeForPreemption(c)).toBe('b');
  });
});

describe('filterPodsWithPDBViolation', () => {
  const pi = (name: string, labels?: Record<string, string>, ns?: string) =>
    new PodInfo(pod({ name, labels, ns }));
  it('decrements the allowance per matching pod and exempts disrupted pods', () => {
    const pods = [pi('a', { app: 'x' }), pi('b', { app: 'x' }), pi('c', { app: 'x' }), pi('d', { app: 'x' })];
    const { violating, nonViolating } = filterPodsWithPDBViolation(pods, [
      pdb('x', { app: 'x' }, 1, { b: '2030-01-01T00:00:00Z' }),
    ]);
    expect(nonViolating.map((p) => p.pod.metadata?.name)).toEqual(['a', 'b']);
    expect(violating.map((p) => p.pod.metadata?.name)).toEqual(['c', 'd']);
  });
  it('ignores other namespaces, unlabelled pods and empty selectors', () => {
    const pods = [pi('a', { app: 'x' }, 'other'), pi('b'), pi('c', { app: 'x' })];
    const empty = { ...pdb('e', {}), spec: { selector: {} } } as PodDisruptionBudget;
    const { violating } = filterPodsWithPDBViolation(pods, [pdb('x', { app: 'x' }, 0), empty]);
    expect(violating.map((p) => p.pod.metadata?.name)).toEqual(['c']);
  });
});

describe('args', () => {
  it('defaults to 10% / 100', () => {
    expect(defaultArgs(undefined)).toEqual({
      minCandidateNodesPercentage: 10,
      minCandidateNodesAbsolute: 100,
    });
    expect(defaultArgs({ minCandidateNodesAbsolute: 5 })).toEqual({
      minCandidateNodesPercentage: 10,
      minCandidateNodesAbsolute: 5,
    });
  });
  it('validates ranges', () => {
    expect(validateArgs({ minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 })).toEqual([]);
    expect(
      validateArgs({ minCandidateNodesPercentage: 101, minCandidateNodesAbsolute: -1 }).map((e) => e.message),
    ).toEqual([
      'Invalid value: 101: not in valid range [0, 100]',
      'Invalid value: -1: not in valid range [0, inf)',
    ]);
    expect(
      validateArgs({ minCandidateNodesPercentage: 0, minCandidateNodesAbsolute: 0 }).map((e) => e.field),
    ).toEqual(['minCandidateNodesPercentage', 'minCandidateNodesAbsolute']);
  });
  it('calculateNumCandidates follows upstream (percentage, floor absolute, cap at n)', () => {
    const { plugin } = setup({ nodes: [], pods: [] });
    expect(plugin.calculateNumCandidates(50)).toBe(50);
    expect(plugin.calculateNumCandidates(5000)).toBe(500);
    const p2 = new DefaultPreemption(
      { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 0 },
      setup({ nodes: [], pods: [] }).handle,
    );
    expect(p2.calculateNumCandidates(25)).toBe(2);
  });
});
