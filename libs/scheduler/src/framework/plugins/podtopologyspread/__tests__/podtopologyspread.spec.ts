/**
 * Cases ported as data from upstream filtering_test.go / scoring_test.go (v1.26), plus the
 * default-constraint selector, preemption updates, release switches and args validation.
 */
import type { Node, Pod, TopologySpreadConstraint } from '@schedlab/k8s';
import { ClusterObjects } from '../../../../backend/cache/cluster-objects';
import { CycleState } from '../../../cycle-state';
import { Code } from '../../../status';
import { PodInfo } from '../../../types';
import { CompatibilityVersion, FeatureSet } from '../../../../features';
import { FakeHandle } from '../../../../testing/fake-handle';
import { makePod } from '../../../../testing/builders';
import { PodTopologySpreadArgs, defaultArgs, validateArgs } from '../args';
import {
  ERR_REASON_CONSTRAINTS_NOT_MATCH,
  ERR_REASON_NODE_LABEL_NOT_MATCH,
  PRE_FILTER_STATE_KEY,
  PodTopologySpread,
} from '../plugin';
import { PreFilterState } from '../filtering';

const ZONE = 'zone';
const HOST = 'kubernetes.io/hostname';

/** A node with exactly these labels (upstream test nodes often lack the hostname label). */
function node(
  name: string,
  labels: Record<string, string>,
  taints?: NonNullable<Node['spec']>['taints'],
): Node {
  return {
    metadata: { name, labels },
    spec: { taints },
    status: { allocatable: { pods: '110' }, capacity: { pods: '110' } },
  };
}

function zoned(name: string, zone: string): Node {
  return node(name, { [ZONE]: zone, [HOST]: name });
}

const FOUR_NODES = [
  zoned('node-a', 'zone1'),
  zoned('node-b', 'zone1'),
  zoned('node-x', 'zone2'),
  zoned('node-y', 'zone2'),
];

function spread(
  maxSkew: number,
  topologyKey: string,
  when: 'DoNotSchedule' | 'ScheduleAnyway',
  extra: Partial<TopologySpreadConstraint> = {},
): TopologySpreadConstraint {
  return {
    maxSkew,
    topologyKey,
    whenUnsatisfiable: when,
    labelSelector: { matchExpressions: [{ key: 'foo', operator: 'Exists' }] },
    ...extra,
  };
}

function incoming(
  constraints: TopologySpreadConstraint[],
  spec: Partial<NonNullable<Pod['spec']>> = {},
): Pod {
  return makePod({
    name: 'p',
    labels: { foo: '' },
    spec: { containers: [], topologySpreadConstraints: constraints, ...spec },
  });
}

/** `counts[node]` existing pods labelled foo on each node. */
function existing(
  counts: Record<string, number>,
  labels: Record<string, string> = { foo: '' },
  ns = 'default',
): Pod[] {
  const pods: Pod[] = [];
  for (const [n, c] of Object.entries(counts)) {
    for (let i = 0; i < c; i++)
      pods.push(makePod({ name: `${n}-p${i}-${ns}`, namespace: ns, labels, nodeName: n }));
  }
  return pods;
}

interface Env {
  nodes: Node[];
  pods?: Pod[];
  version?: CompatibilityVersion;
  gates?: Record<string, boolean>;
  args?: Partial<PodTopologySpreadArgs>;
  objects?: ClusterObjects;
}

function setup(env: Env) {
  const features = new FeatureSet(env.version ?? '1.26', {
    MinDomainsInPodTopologySpread: true,
    ...env.gates,
  });
  const handle = new FakeHandle({ nodes: env.nodes, pods: env.pods ?? [], features, objects: env.objects });
  const plugin = new PodTopologySpread(defaultArgs(env.args, features), handle);
  return { handle, plugin };
}

/** Filter verdict per node: 'ok', 'skew' (Unschedulable) or 'label' (unresolvable, missing label). */
function filterAll(env: Env, pod: Pod): Record<string, string> {
  const { handle, plugin } = setup(env);
  const state = new CycleState();
  expect(plugin.preFilter(state, pod).status).toBeNull();
  const out: Record<string, string> = {};
  for (const ni of handle.snapshot().list()) {
    const s = plugin.filter(state, pod, ni);
    if (s === null) out[ni.name] = 'ok';
    else if (s.code === Code.Unschedulable && s.reasons[0] === ERR_REASON_CONSTRAINTS_NOT_MATCH)
      out[ni.name] = 'skew';
    else if (s.code === Code.UnschedulableAndUnresolvable && s.reasons[0] === ERR_REASON_NODE_LABEL_NOT_MATCH)
      out[ni.name] = 'label';
    else out[ni.name] = `unexpected ${Code[s.code]} ${s.reasons}`;
  }
  return out;
}

/** Normalized scores over `filtered` (all nodes by default). */
function scoreAll(env: Env, pod: Pod, filtered?: string[]): Record<string, number> {
  const { handle, plugin } = setup(env);
  const state = new CycleState();
  const nodes = handle
    .snapshot()
    .list()
    .filter((n) => !filtered || filtered.includes(n.name));
  expect(plugin.preScore(state, pod, nodes)).toBeNull();
  const scores = nodes.map((ni) => ({ name: ni.name, score: plugin.score(state, pod, ni)[0] }));
  expect(plugin.normalizeScore(state, pod, scores)).toBeNull();
  return Object.fromEntries(scores.map((s) => [s.name, s.score]));
}

describe('Filter (upstream TestSingleConstraint / TestMultipleConstraints)', () => {
  const table: { name: string; env: Env; pod: Pod; want: Record<string, string> }[] = [
    {
      name: 'no existing pods',
      env: { nodes: FOUR_NODES },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule')]),
      want: { 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'ok', 'node-y': 'ok' },
    },
    {
      name: 'no existing pods, incoming pod does not match itself',
      env: { nodes: FOUR_NODES },
      pod: incoming([
        spread(1, ZONE, 'DoNotSchedule', {
          labelSelector: { matchExpressions: [{ key: 'bar', operator: 'Exists' }] },
        }),
      ]),
      want: { 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'ok', 'node-y': 'ok' },
    },
    {
      name: 'existing pods in a different namespace do not count',
      env: {
        nodes: FOUR_NODES,
        pods: [...existing({ 'node-a': 1 }, { foo: '' }, 'ns1'), ...existing({ 'node-x': 2 })],
      },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule')]),
      want: { 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'skew', 'node-y': 'skew' },
    },
    {
      name: 'pods spread across zones as 3/3, all nodes fit',
      env: { nodes: FOUR_NODES, pods: existing({ 'node-a': 1, 'node-b': 2, 'node-x': 2, 'node-y': 1 }) },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule')]),
      want: { 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'ok', 'node-y': 'ok' },
    },
    {
      name: "pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
      env: {
        nodes: [
          zoned('node-a', 'zone1'),
          node('node-b', { [HOST]: 'node-b' }),
          zoned('node-x', 'zone2'),
          zoned('node-y', 'zone2'),
        ],
        pods: existing({ 'node-a': 1, 'node-b': 1, 'node-x': 1, 'node-y': 1 }),
      },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule')]),
      want: { 'node-a': 'ok', 'node-b': 'label', 'node-x': 'skew', 'node-y': 'skew' },
    },
    {
      name: 'pods spread across nodes as 2/1/0/3, only node-x fits',
      env: { nodes: FOUR_NODES, pods: existing({ 'node-a': 2, 'node-b': 1, 'node-y': 3 }) },
      pod: incoming([spread(1, HOST, 'DoNotSchedule')]),
      want: { 'node-a': 'skew', 'node-b': 'skew', 'node-x': 'ok', 'node-y': 'skew' },
    },
    {
      name: 'pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit',
      env: { nodes: FOUR_NODES, pods: existing({ 'node-a': 2, 'node-b': 1, 'node-y': 3 }) },
      pod: incoming([spread(2, HOST, 'DoNotSchedule')]),
      want: { 'node-a': 'skew', 'node-b': 'ok', 'node-x': 'ok', 'node-y': 'skew' },
    },
    {
      name: 'incoming pod has nodeAffinity: pods on nodes it cannot use do not set the minimum',
      env: { nodes: FOUR_NODES, pods: existing({ 'node-a': 1, 'node-b': 1, 'node-x': 3 }) },
      // zone1 is excluded by the pod's node selector: only zone2 (3 pods) counts, so min is 3.
      pod: incoming([spread(1, ZONE, 'DoNotSchedule')], { nodeSelector: { [ZONE]: 'zone2' } }),
      want: { 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'ok', 'node-y': 'ok' },
    },
    {
      name: 'nodeAffinityPolicy Ignore: excluded zone counts for the minimum',
      env: { nodes: FOUR_NODES, pods: existing({ 'node-a': 1, 'node-b': 1, 'node-x': 3 }) },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule', { nodeAffinityPolicy: 'Ignore' })], {
        nodeSelector: { [ZONE]: 'zone2' },
      }),
      want: { 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'skew', 'node-y': 'skew' },
    },
    {
      name: 'nodeTaintsPolicy Honor: a tainted node is not a domain',
      env: {
        nodes: [
          zoned('node-a', 'zone1'),
          node('node-b', { [ZONE]: 'zone2', [HOST]: 'node-b' }, [
            { key: 'k', value: 'v', effect: 'NoSchedule' },
          ]),
        ],
        pods: existing({ 'node-a': 1 }),
      },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule', { nodeTaintsPolicy: 'Honor' })]),
      // Only zone1 counts: min 1, so zone1 (1+1-1) fits; zone2 has no count (0+1-1).
      want: { 'node-a': 'ok', 'node-b': 'ok' },
    },
    {
      name: 'nodeTaintsPolicy Ignore (default): the tainted zone keeps the minimum at 0',
      env: {
        nodes: [
          zoned('node-a', 'zone1'),
          node('node-b', { [ZONE]: 'zone2', [HOST]: 'node-b' }, [
            { key: 'k', value: 'v', effect: 'NoSchedule' },
          ]),
        ],
        pods: existing({ 'node-a': 1 }),
      },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule')]),
      want: { 'node-a': 'skew', 'node-b': 'ok' },
    },
    {
      name: 'minDomains 3 with 2 domains: the global minimum is 0',
      env: { nodes: FOUR_NODES, pods: existing({ 'node-a': 2, 'node-x': 1 }) },
      pod: incoming([spread(2, ZONE, 'DoNotSchedule', { minDomains: 3 })]),
      want: { 'node-a': 'skew', 'node-b': 'skew', 'node-x': 'ok', 'node-y': 'ok' },
    },
    {
      name: 'minDomains ignored when the gate is off',
      env: {
        nodes: FOUR_NODES,
        pods: existing({ 'node-a': 2, 'node-x': 1 }),
        gates: { MinDomainsInPodTopologySpread: false },
      },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule', { minDomains: 3 })]),
      want: { 'node-a': 'skew', 'node-b': 'skew', 'node-x': 'ok', 'node-y': 'ok' },
    },
    {
      name: 'two constraints: zone and hostname must both hold',
      env: { nodes: FOUR_NODES, pods: existing({ 'node-a': 3, 'node-b': 0, 'node-x': 2, 'node-y': 1 }) },
      pod: incoming([spread(1, ZONE, 'DoNotSchedule'), spread(1, HOST, 'DoNotSchedule')]),
      // zone1 3, zone2 3 → all fit the zone; hostname min 0 → only node-b (0+1) and node-y (1+1-0=2 fails).
      want: { 'node-a': 'skew', 'node-b': 'ok', 'node-x': 'skew', 'node-y': 'skew' },
    },
    {
      name: 'ScheduleAnyway constraints do not filter',
      env: { nodes: FOUR_NODES, pods: existing({ 'node-a': 5 }) },
      pod: incoming([spread(1, HOST, 'ScheduleAnyway')]),
      want: { 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'ok', 'node-y': 'ok' },
    },
    {
      name: 'terminating pods do not count',
      env: {
        nodes: FOUR_NODES,
        pods: existing({ 'node-a': 2 }).map((p) => ({
          ...p,
          metadata: { ...p.metadata, deletionTimestamp: '2030-01-01T00:00:00Z' },
        })),
      },
      pod: incoming([spread(1, HOST, 'DoNotSchedule')]),
      want: { 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'ok', 'node-y': 'ok' },
    },
  ];
  it.each(table)('$name', ({ env, pod, want }) => {
    expect(filterAll(env, pod)).toEqual(want);
  });
});

describe('matchLabelKeys', () => {
  const pods = [
    ...existing({ 'node-a': 2 }, { foo: '', rev: '1' }),
    ...existing({ 'node-x': 1 }, { foo: '', rev: '2' }),
  ];
  const pod = makePod({
    name: 'p',
    labels: { foo: '', rev: '2' },
    spec: {
      containers: [],
      topologySpreadConstraints: [spread(1, HOST, 'DoNotSchedule', { matchLabelKeys: ['rev'] })],
    },
  });
  it('ignored while the gate is off (v1.26 default)', () => {
    expect(filterAll({ nodes: FOUR_NODES, pods }, pod)).toEqual({
      'node-a': 'skew',
      'node-b': 'ok',
      'node-x': 'skew',
      'node-y': 'ok',
    });
  });
  it('with the gate on, only pods of the same revision count', () => {
    const env = { nodes: FOUR_NODES, pods, gates: { MatchLabelKeysInPodTopologySpread: true } };
    expect(filterAll(env, pod)).toEqual({ 'node-a': 'ok', 'node-b': 'ok', 'node-x': 'skew', 'node-y': 'ok' });
  });
  it('v1.26 with a nil labelSelector selects by the keys alone; 1.27+ selects nothing', () => {
    const nilSel = makePod({
      name: 'p',
      labels: { rev: '2' },
      spec: {
        containers: [],
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: HOST, whenUnsatisfiable: 'DoNotSchedule', matchLabelKeys: ['rev'] },
        ],
      },
    });
    const gates = { MatchLabelKeysInPodTopologySpread: true };
    expect(filterAll({ nodes: FOUR_NODES, pods, gates }, nilSel)['node-x']).toBe('skew');
    expect(filterAll({ nodes: FOUR_NODES, pods, gates, version: '1.27' }, nilSel)['node-x']).toBe('ok');
  });
});

describe('empty labelSelector (release switch)', () => {
  const pod = incoming([spread(1, HOST, 'DoNotSchedule', { labelSelector: {} })]);
  const pods = existing({ 'node-a': 2 }, { other: 'x' });
  it('v1.26 counts every pod of the namespace', () => {
    expect(filterAll({ nodes: FOUR_NODES, pods }, pod)['node-a']).toBe('skew');
  });
  it('1.27+ counts none', () => {
    expect(filterAll({ nodes: FOUR_NODES, pods, version: '1.27' }, pod)['node-a']).toBe('ok');
  });
});

describe('PreFilter extensions (preemption)', () => {
  it('removePod lowers a count in the clone only, and addPod restores it', () => {
    const env = { nodes: FOUR_NODES, pods: existing({ 'node-a': 2, 'node-x': 1 }) };
    const { handle, plugin } = setup(env);
    const pod = incoming([spread(1, HOST, 'DoNotSchedule')]);
    const state = new CycleState();
    plugin.preFilter(state, pod);
    const nodeA = handle.snapshot().get('node-a')!;
    const victim = nodeA.pods[0];
    const copy = state.clone();
    expect(plugin.removePod(copy, pod, victim, nodeA)).toBeNull();
    expect(copy.read<PreFilterState>(PRE_FILTER_STATE_KEY)!.tpPairToMatchNum.get(HOST)!.get('node-a')).toBe(
      1,
    );
    expect(state.read<PreFilterState>(PRE_FILTER_STATE_KEY)!.tpPairToMatchNum.get(HOST)!.get('node-a')).toBe(
      2,
    );
    // node-a still has 1 matching pod: 1 + 1 - 0 > 1.
    expect(plugin.filter(copy, pod, nodeA)?.code).toBe(Code.Unschedulable);
    plugin.removePod(copy, pod, nodeA.pods[1], nodeA);
    expect(plugin.filter(copy, pod, nodeA)).toBeNull();
    plugin.addPod(copy, pod, victim, nodeA);
    expect(copy.read<PreFilterState>(PRE_FILTER_STATE_KEY)!.tpPairToMatchNum.get(HOST)!.get('node-a')).toBe(
      1,
    );
  });
  it('pods of another namespace or not matching are ignored', () => {
    const { handle, plugin } = setup({ nodes: FOUR_NODES });
    const pod = incoming([spread(1, HOST, 'DoNotSchedule')]);
    const state = new CycleState();
    plugin.preFilter(state, pod);
    const nodeA = handle.snapshot().get('node-a')!;
    plugin.addPod(
      state,
      pod,
      new PodInfo(makePod({ name: 'o', namespace: 'other', labels: { foo: '' } })),
      nodeA,
    );
    plugin.addPod(state, pod, new PodInfo(makePod({ name: 'n', labels: { bar: '' } })), nodeA);
    expect(state.read<PreFilterState>(PRE_FILTER_STATE_KEY)!.tpPairToMatchNum.get(HOST)!.get('node-a')).toBe(
      0,
    );
  });
});

describe('Score (upstream TestPodTopologySpreadScore)', () => {
  it('one constraint on node, no existing pods', () => {
    const nodes = [zoned('node-a', 'zone1'), zoned('node-b', 'zone1')];
    expect(scoreAll({ nodes }, incoming([spread(1, HOST, 'ScheduleAnyway')]))).toEqual({
      'node-a': 100,
      'node-b': 100,
    });
  });
  it('one constraint on node, only one node is candidate', () => {
    const nodes = [zoned('node-a', 'zone1'), zoned('node-b', 'zone1')];
    const pods = existing({ 'node-a': 2, 'node-b': 1 });
    expect(scoreAll({ nodes, pods }, incoming([spread(1, HOST, 'ScheduleAnyway')]), ['node-a'])).toEqual({
      'node-a': 100,
    });
  });
  it('one constraint on node, all 4 nodes are candidates (2/1/0/3)', () => {
    // weight log(6); raw a=round(2·1.79)=4, b=2, x=0, y=round(5.38)=5 → 100·(5+0-s)/5.
    const pods = existing({ 'node-a': 2, 'node-b': 1, 'node-y': 3 });
    expect(scoreAll({ nodes: FOUR_NODES, pods }, incoming([spread(1, HOST, 'ScheduleAnyway')]))).toEqual({
      'node-a': 20,
      'node-b': 60,
      'node-x': 100,
      'node-y': 0,
    });
  });
  it('one constraint on zone, nodes missing the zone label score 0', () => {
    const nodes = [zoned('node-a', 'zone1'), node('node-b', { [HOST]: 'node-b' }), zoned('node-x', 'zone2')];
    const pods = existing({ 'node-a': 1, 'node-x': 3 });
    // 2 zones: weight log(4); raw zone1 round(1.386)=1, zone2 round(4.159)=4 → a 100·(4+1-1)/4=100, x 25.
    expect(scoreAll({ nodes, pods }, incoming([spread(1, ZONE, 'ScheduleAnyway')]))).toEqual({
      'node-a': 100,
      'node-b': 0,
      'node-x': 25,
    });
  });
  it('maxSkew adds maxSkew-1 to every raw score', () => {
    const pods = existing({ 'node-a': 2, 'node-b': 1, 'node-y': 3 });
    // raw a=round(3.58+2)=6, b=round(1.79+2)=4, x=2, y=round(5.38+2)=7 → 100·(9-s)/7.
    expect(scoreAll({ nodes: FOUR_NODES, pods }, incoming([spread(3, HOST, 'ScheduleAnyway')]))).toEqual({
      'node-a': 42,
      'node-b': 71,
      'node-x': 100,
      'node-y': 28,
    });
  });
  it('v1.26: no constraints → every node 100; 1.28+: PreScore Skip', () => {
    const pod = makePod({ name: 'p', labels: { foo: '' } });
    expect(scoreAll({ nodes: FOUR_NODES }, pod)).toEqual({
      'node-a': 100,
      'node-b': 100,
      'node-x': 100,
      'node-y': 100,
    });
    for (const version of ['1.27', '1.28'] as const) {
      const { handle, plugin } = setup({ nodes: FOUR_NODES, version });
      const st = plugin.preScore(new CycleState(), pod, handle.snapshot().list());
      expect(st === null ? 'null' : Code[st.code]).toBe(version === '1.27' ? 'null' : 'Skip');
    }
  });
});

describe('default constraints', () => {
  function objectsWith(): ClusterObjects {
    const o = new ClusterObjects();
    o.services.set({ metadata: { name: 'svc', namespace: 'default' }, spec: { selector: { app: 'web' } } });
    o.services.set({ metadata: { name: 'other', namespace: 'default' }, spec: { selector: { app: 'db' } } });
    o.replicaSets.set({
      metadata: { name: 'rs', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web', tier: 'fe' } }, template: {} },
    });
    return o;
  }
  const REAL_ZONE = 'topology.kubernetes.io/zone';
  const realZoned = (name: string, zone: string) => node(name, { [REAL_ZONE]: zone, [HOST]: name });
  const REAL_FOUR = [
    realZoned('node-a', 'zone1'),
    realZoned('node-b', 'zone1'),
    realZoned('node-x', 'zone2'),
    realZoned('node-y', 'zone2'),
  ];
  const owned = (name: string, labels: Record<string, string>, nodeName?: string): Pod => {
    const p = makePod({ name, labels, nodeName });
    p.metadata!.ownerReferences = [
      { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs', controller: true },
    ];
    return p;
  };

  it('System defaulting: hostname (skew 3) and zone (skew 5) soft spreading by the Service/ReplicaSet selector', () => {
    const pods = [
      owned('w1', { app: 'web', tier: 'fe' }, 'node-a'),
      owned('w2', { app: 'web', tier: 'fe' }, 'node-a'),
      makePod({ name: 'x', labels: { app: 'web' }, nodeName: 'node-x' }), // not matched: lacks tier
    ];
    const pod = owned('new', { app: 'web', tier: 'fe' });
    // hostname weight log(6)=1.79, zone weight log(4)=1.386.
    // a: 2·1.79+2 + 2·1.386+4 = 12.36 → 12; b: 2 + 2.77+4 = 8.77 → 9; x, y: 2+4 = 6.
    expect(scoreAll({ nodes: REAL_FOUR, pods, objects: objectsWith() }, pod)).toEqual({
      'node-a': 50,
      'node-b': 75,
      'node-x': 100,
      'node-y': 100,
    });
  });

  it('System defaulting scores nodes without a zone label on hostname only', () => {
    const nodes = [realZoned('node-a', 'zone1'), node('node-b', { [HOST]: 'node-b' })];
    const pods = [owned('w1', { app: 'web', tier: 'fe' }, 'node-b')];
    const pod = owned('new', { app: 'web', tier: 'fe' });
    // 2 nodes scored: hostname weight log(4); zone pairs zone1 and "" → weight log(4).
    // a: 0+2 + 0+4 = 6; b: 1.386+2 (no zone label) = 3.39 → 3 → a 100·(6+3-6)/6=50, b 100.
    expect(scoreAll({ nodes, pods, objects: objectsWith() }, pod)).toEqual({ 'node-a': 50, 'node-b': 100 });
  });

  it('no Service or controller selects the pod: defaults do not apply', () => {
    const pod = makePod({ name: 'lonely', labels: { app: 'none' } });
    const { handle, plugin } = setup({ nodes: FOUR_NODES, objects: objectsWith() });
    const state = new CycleState();
    plugin.preFilter(state, pod);
    expect(state.read<PreFilterState>(PRE_FILTER_STATE_KEY)!.constraints).toHaveLength(0);
    plugin.preScore(state, pod, handle.snapshot().list());
    expect(plugin.score(state, pod, handle.snapshot().get('node-a')!)[0]).toBe(0);
  });

  it('List defaulting with a DoNotSchedule default filters like the pod own constraint', () => {
    const pods = existing({ 'node-a': 2 }, { app: 'web' });
    const pod = makePod({ name: 'new', labels: { app: 'web' } });
    const args = {
      defaultingType: 'List',
      defaultConstraints: [{ maxSkew: 1, topologyKey: HOST, whenUnsatisfiable: 'DoNotSchedule' }],
    };
    expect(
      filterAll(
        { nodes: FOUR_NODES, pods, objects: objectsWith(), args: args as Partial<PodTopologySpreadArgs> },
        pod,
      ),
    ).toEqual({
      'node-a': 'skew',
      'node-b': 'ok',
      'node-x': 'ok',
      'node-y': 'ok',
    });
  });

  it('the pod own constraints replace the defaults', () => {
    const pods = existing({ 'node-a': 2 }, { app: 'web' });
    const pod = makePod({
      name: 'new',
      labels: { app: 'web' },
      spec: { containers: [], topologySpreadConstraints: [spread(5, ZONE, 'ScheduleAnyway')] },
    });
    const args = {
      defaultingType: 'List',
      defaultConstraints: [{ maxSkew: 1, topologyKey: HOST, whenUnsatisfiable: 'DoNotSchedule' }],
    };
    expect(
      filterAll(
        { nodes: FOUR_NODES, pods, objects: objectsWith(), args: args as Partial<PodTopologySpreadArgs> },
        pod,
      )['node-a'],
    ).toBe('ok');
  });
});

describe('args', () => {
  it('v1 defaulting: empty defaultingType becomes System', () => {
    expect(defaultArgs(undefined)).toEqual({ defaultConstraints: [], defaultingType: 'System' });
    expect(defaultArgs({ defaultingType: 'List' })).toEqual({
      defaultConstraints: [],
      defaultingType: 'List',
    });
  });
  it('upstream validation errors', () => {
    const args = defaultArgs({
      defaultConstraints: [
        { maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Sometimes', labelSelector: {} },
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
        { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
      ],
    });
    expect(validateArgs(args)).toEqual([
      { field: 'defaultingType', message: 'Invalid value: "System": when .defaultConstraints are not empty' },
      { field: 'defaultConstraints[0].maxSkew', message: 'Invalid value: 0: not in valid range (0, inf)' },
      { field: 'defaultConstraints[0].topologyKey', message: 'Required value: can not be empty' },
      {
        field: 'defaultConstraints[0].whenUnsatisfiable',
        message: 'Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"',
      },
      {
        field: 'defaultConstraints[0].labelSelector',
        message: 'Forbidden: constraint must not define a selector, as they deduced for each pod',
      },
      { field: 'defaultConstraints[2]', message: 'Duplicate value: "{zone, DoNotSchedule}"' },
    ]);
    expect(validateArgs({ defaultingType: 'Custom' as 'List', defaultConstraints: [] })).toEqual([
      { field: 'defaultingType', message: 'Unsupported value: "Custom": supported values: "System", "List"' },
    ]);
  });
});
