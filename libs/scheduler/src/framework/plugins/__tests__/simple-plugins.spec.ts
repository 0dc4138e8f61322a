/**
 * The small in-tree plugins, with cases from upstream's node_unschedulable_test.go,
 * node_name_test.go, taint_toleration_test.go, node_ports_test.go and node_affinity_test.go.
 */
import { CycleState } from '../../cycle-state';
import { Code } from '../../status';
import { FeatureSet } from '../../../features';
import { makeNode, makePod } from '../../../testing/builders';
import { FakeHandle } from '../../../testing/fake-handle';
import { NodeInfo } from '../../types';
import { NodeAffinity } from '../nodeaffinity';
import { NodeName } from '../nodename';
import { NodePorts } from '../nodeports';
import { NodeUnschedulable } from '../nodeunschedulable';
import { PrioritySort } from '../queuesort';
import { SchedulingGates } from '../schedulinggates';
import { TaintToleration } from '../tainttoleration';
import { PodInfo } from '../../types';

const state = () => new CycleState();

describe('NodeUnschedulable', () => {
  const plugin = new NodeUnschedulable();
  it.each([
    ['schedulable node', false, undefined, null],
    ['cordoned node', true, undefined, Code.UnschedulableAndUnresolvable],
    [
      'cordoned node, pod tolerates the unschedulable taint',
      true,
      [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
      null,
    ],
  ])('%s', (_n, unschedulable, tolerations, code) => {
    const ni = new NodeInfo(makeNode({ name: 'n', unschedulable: unschedulable as boolean }));
    const s = plugin.filter(
      state(),
      makePod({ name: 'p', spec: { containers: [], tolerations: tolerations as never } }),
      ni,
    );
    expect(s?.code ?? null).toBe(code);
    if (s) expect(s.reasons).toEqual(['node(s) were unschedulable']);
  });
});

describe('Filters that every node passes when no node is cordoned or tainted', () => {
  const cordoned = makeNode({ name: 'c', unschedulable: true });
  const tainted = makeNode({ name: 't', taints: [{ key: 'k', value: 'v', effect: 'PreferNoSchedule' }] });
  const plain = makeNode({ name: 'n' });

  it('NodeUnschedulable leaves the per-node loop only where no node is cordoned', () => {
    expect(new NodeUnschedulable(new FakeHandle({ nodes: [plain, tainted] })).filterPassesAllNodes()).toBe(
      true,
    );
    expect(new NodeUnschedulable(new FakeHandle({ nodes: [plain, cordoned] })).filterPassesAllNodes()).toBe(
      false,
    );
    // Without a snapshot to ask, every node is filtered as before.
    expect(new NodeUnschedulable().filterPassesAllNodes()).toBe(false);
  });

  it('TaintToleration leaves it only where no node has a taint of any effect, and then scores alike', () => {
    const untainted = new TaintToleration(false, new FakeHandle({ nodes: [plain, cordoned] }));
    expect(untainted.filterPassesAllNodes()).toBe(true);
    const st = state();
    // No PreScore yet: no uniform score either.
    expect(untainted.uniformScore(st)).toBeUndefined();
    untainted.preScore(st, makePod({ name: 'p' }));
    expect(untainted.uniformScore(st)).toEqual({ raw: 0, score: 100 });

    const withTaint = new TaintToleration(false, new FakeHandle({ nodes: [plain, tainted] }));
    expect(withTaint.filterPassesAllNodes()).toBe(false);
    const st2 = state();
    withTaint.preScore(st2, makePod({ name: 'p' }));
    expect(withTaint.uniformScore(st2)).toBeUndefined();
    expect(new TaintToleration().filterPassesAllNodes()).toBe(false);
  });

  it('the snapshot works a fact out once and keeps it', () => {
    const handle = new FakeHandle({ nodes: [plain, cordoned] });
    let calls = 0;
    const test = (node: { spec?: { unschedulable?: boolean } }) => (
      calls++,
      Boolean(node.spec?.unschedulable)
    );
    expect(handle.snapshot().anyNode('cordoned', test)).toBe(true);
    expect(handle.snapshot().anyNode('cordoned', test)).toBe(true);
    expect(calls).toBe(2); // plain, then cordoned: some() stops there, and once only
    expect(handle.snapshot().anyNode('none', () => false)).toBe(false);
  });
});

describe('NodeName', () => {
  const plugin = new NodeName();
  it('passes when the pod names no node or this node, rejects other nodes as unresolvable', () => {
    const ni = new NodeInfo(makeNode({ name: 'foo' }));
    expect(plugin.filter(state(), makePod({ name: 'p' }), ni)).toBeNull();
    expect(plugin.filter(state(), makePod({ name: 'p', nodeName: 'foo' }), ni)).toBeNull();
    const s = plugin.filter(state(), makePod({ name: 'p', nodeName: 'bar' }), ni);
    expect(s?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(s?.reasons).toEqual(["node(s) didn't match the requested node name"]);
  });
});

describe('TaintToleration', () => {
  const plugin = new TaintToleration();
  const taint = (key: string, value: string, effect: string) => ({ key, value, effect });

  it.each([
    ['no taints', [], [], null],
    [
      'untolerated NoSchedule taint',
      [taint('dedicated', 'user1', 'NoSchedule')],
      [],
      'node(s) had untolerated taint {dedicated: user1}',
    ],
    [
      'tolerated with Equal',
      [taint('dedicated', 'user1', 'NoSchedule')],
      [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }],
      null,
    ],
    [
      'wrong value',
      [taint('dedicated', 'user1', 'NoSchedule')],
      [{ key: 'dedicated', value: 'user2', effect: 'NoSchedule' }],
      'node(s) had untolerated taint {dedicated: user1}',
    ],
    ['Exists on the key', [taint('foo', 'bar', 'NoExecute')], [{ key: 'foo', operator: 'Exists' }], null],
    ['PreferNoSchedule never filters', [taint('foo', 'bar', 'PreferNoSchedule')], [], null],
  ])('filter: %s', (_n, taints, tolerations, reason) => {
    const ni = new NodeInfo(makeNode({ name: 'n', taints: taints as never }));
    const s = plugin.filter(
      state(),
      makePod({ name: 'p', spec: { containers: [], tolerations: tolerations as never } }),
      ni,
    );
    if (reason === null) expect(s).toBeNull();
    else {
      expect(s?.code).toBe(Code.UnschedulableAndUnresolvable);
      expect(s?.reasons).toEqual([reason]);
    }
  });

  it('scores fewer intolerable PreferNoSchedule taints higher (upstream "the more intolerable taints…")', () => {
    const pod = makePod({
      name: 'p',
      spec: {
        containers: [],
        tolerations: [{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' }],
      },
    });
    const nodes = [
      makeNode({ name: 'node1' }),
      makeNode({ name: 'node2', taints: [taint('cpu-type', 'arm64', 'PreferNoSchedule')] }),
      makeNode({
        name: 'node3',
        taints: [
          taint('cpu-type', 'arm64', 'PreferNoSchedule'),
          taint('disk-type', 'ssd', 'PreferNoSchedule'),
        ],
      }),
      makeNode({
        name: 'node4',
        taints: [taint('foo', 'bar', 'PreferNoSchedule'), taint('disk-type', 'ssd', 'PreferNoSchedule')],
      }),
    ];
    const st = state();
    plugin.preScore(st, pod);
    const scores = nodes.map((n) => ({
      name: n.metadata!.name!,
      score: plugin.score(st, pod, new NodeInfo(n))[0],
    }));
    plugin.normalizeScore(st, pod, scores);
    expect(scores.map((s) => s.score)).toEqual([100, 100, 50, 0]);
  });
});

describe('NodePorts', () => {
  const plugin = new NodePorts();
  const withPorts = (
    name: string,
    ports: { hostPort: number; hostIP?: string; protocol?: string }[],
    nodeName?: string,
  ) =>
    makePod({
      name,
      nodeName,
      spec: { containers: [{ name: 'c', ports: ports.map((p) => ({ containerPort: p.hostPort, ...p })) }] },
    });

  it.each([
    ['no ports', [], [], true],
    [
      'same port, different protocol',
      [{ hostPort: 8080, protocol: 'UDP' }],
      [{ hostPort: 8080, protocol: 'TCP' }],
      true,
    ],
    ['same port and protocol', [{ hostPort: 8080 }], [{ hostPort: 8080 }], false],
    [
      'different host IPs',
      [{ hostPort: 8080, hostIP: '127.0.0.1' }],
      [{ hostPort: 8080, hostIP: '127.0.0.2' }],
      true,
    ],
    [
      '0.0.0.0 conflicts with a specific IP',
      [{ hostPort: 8001, hostIP: '0.0.0.0' }],
      [{ hostPort: 8001, hostIP: '127.0.0.1' }],
      false,
    ],
    [
      'specific IP conflicts with 0.0.0.0',
      [{ hostPort: 8001, hostIP: '127.0.0.1' }],
      [{ hostPort: 8001 }],
      false,
    ],
  ])('%s', (_n, wanted, used, fits) => {
    const handle = new FakeHandle({
      nodes: [makeNode({ name: 'n' })],
      pods: [withPorts('existing', used, 'n')],
    });
    const incoming = withPorts('incoming', wanted);
    const st = state();
    plugin.preFilter(st, incoming);
    const s = plugin.filter(st, incoming, handle.snapshot().get('n')!);
    if (fits) expect(s).toBeNull();
    else {
      expect(s?.code).toBe(Code.Unschedulable);
      expect(s?.reasons).toEqual(["node(s) didn't have free ports for the requested pod ports"]);
    }
  });
});

describe('NodeAffinity', () => {
  const nodes = [
    makeNode({ name: 'n1', labels: { zone: 'a' } }),
    makeNode({ name: 'n2', labels: { zone: 'b' } }),
  ];
  const affinityPod = (nodeAffinity: object) =>
    makePod({ name: 'p', spec: { containers: [], affinity: { nodeAffinity } as never } });

  it('narrows PreFilter to nodes named by matchFields metadata.name In, intersecting within a term', () => {
    const handle = new FakeHandle({ nodes });
    const plugin = new NodeAffinity({}, handle);
    const pod = affinityPod({
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchFields: [
              { key: 'metadata.name', operator: 'In', values: ['n1', 'n2'] },
              { key: 'metadata.name', operator: 'In', values: ['n2'] },
            ],
          },
        ],
      },
    });
    expect([...plugin.preFilter(state(), pod).result!.nodeNames!]).toEqual(['n2']);
  });

  it('rejects conflicting name terms in PreFilter with "pod affinity terms conflict"', () => {
    const plugin = new NodeAffinity({}, new FakeHandle({ nodes }));
    const pod = affinityPod({
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          {
            matchFields: [
              { key: 'metadata.name', operator: 'In', values: ['n1'] },
              { key: 'metadata.name', operator: 'In', values: ['n2'] },
            ],
          },
        ],
      },
    });
    const { status } = plugin.preFilter(state(), pod);
    expect(status?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(status?.reasons).toEqual(['pod affinity terms conflict']);
  });

  it("distinguishes the pod's own affinity from the scheduler-enforced addedAffinity", () => {
    const handle = new FakeHandle({ nodes });
    const added = {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
      },
    };
    const plugin = new NodeAffinity({ addedAffinity: added as never }, handle);
    const pod = makePod({ name: 'p', spec: { containers: [], nodeSelector: { zone: 'a' } } });
    const st = state();
    plugin.preFilter(st, pod);
    expect(plugin.filter(st, pod, handle.snapshot().get('n1')!)).toBeNull();
    expect(plugin.filter(st, pod, handle.snapshot().get('n2')!)?.reasons).toEqual([
      "node(s) didn't match scheduler-enforced node affinity",
    ]);
    const plain = new NodeAffinity({}, handle);
    expect(plain.filter(st, pod, handle.snapshot().get('n2')!)?.reasons).toEqual([
      "node(s) didn't match Pod's node affinity/selector",
    ]);
  });

  it('scores preferred terms by weight and normalizes to 100; skips PreScore without preferences from 1.30 only', () => {
    const pod = affinityPod({
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 5, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] } },
      ],
    });
    const handle = new FakeHandle({ nodes });
    const plugin = new NodeAffinity({}, handle);
    const st = state();
    expect(plugin.preScore(st, pod)).toBeNull();
    const scores = handle
      .snapshot()
      .list()
      .map((ni) => ({ name: ni.name, score: plugin.score(st, pod, ni)[0] }));
    plugin.normalizeScore(st, pod, scores);
    expect(scores).toEqual([
      { name: 'n1', score: 0 },
      { name: 'n2', score: 100 },
    ]);

    const bare = makePod({ name: 'q' });
    expect(
      new NodeAffinity({}, new FakeHandle({ nodes, features: new FeatureSet('1.29') })).preScore(
        state(),
        bare,
      ),
    ).toBeNull();
    expect(
      new NodeAffinity({}, new FakeHandle({ nodes, features: new FeatureSet('1.30') })).preScore(
        state(),
        bare,
      )?.code,
    ).toBe(Code.Skip);
  });

  it('scores each pod by its own preferred terms when consecutive pods reuse or change them', () => {
    const prefer = (zone: string, weight: number) =>
      affinityPod({
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] } },
        ],
      });
    const handle = new FakeHandle({ nodes });
    const plugin = new NodeAffinity({}, handle);
    const rawScores = (pod: ReturnType<typeof prefer>) => {
      const st = state();
      expect(plugin.preScore(st, pod)).toBeNull();
      const list = handle.snapshot().list();
      const scores = list.map((ni) => ({ name: ni.name, score: -1 }));
      expect(plugin.scoreNodes(st, pod, list, scores)).toBeNull();
      return scores.map((s) => s.score);
    };
    expect(rawScores(prefer('b', 5))).toEqual([0, 5]);
    expect(rawScores(prefer('b', 5))).toEqual([0, 5]);
    expect(rawScores(prefer('a', 7))).toEqual([7, 0]);
    expect(rawScores(prefer('b', 5))).toEqual([0, 5]);
  });
});

describe('PrioritySort and SchedulingGates', () => {
  it('orders higher priority first, then earlier enqueue', () => {
    const sort = new PrioritySort();
    const q = (name: string, priority: number, timestamp: number) => ({
      podInfo: new PodInfo(makePod({ name, priority })),
      timestamp,
      attempts: 0,
    });
    expect(sort.less(q('a', 10, 2), q('b', 5, 1))).toBe(true);
    expect(sort.less(q('a', 5, 1), q('b', 5, 2))).toBe(true);
    expect(sort.less(q('a', 5, 2), q('b', 5, 1))).toBe(false);
  });

  it('holds pods with scheduling gates, naming the gates', () => {
    const gates = new SchedulingGates();
    expect(gates.preEnqueue(makePod({ name: 'p' }))).toBeNull();
    const s = gates.preEnqueue(
      makePod({ name: 'p', spec: { containers: [], schedulingGates: [{ name: 'a' }, { name: 'b' }] } }),
    );
    expect(s?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(s?.reasons).toEqual(['waiting for scheduling gates: [a b]']);
  });
});
