/**
 * Scoring tables ported from upstream scoring_test.go (TestPreferredAffinity,
 * TestPreferredAffinityWithHardPodAffinitySymmetricWeight) as data, run with 1.26 semantics.
 */
import { Code } from '../../../status';
import { affinity, existsReq, inReq, node, notExistsReq, notInReq, ns, pod, runScore, term } from './helpers';

const rgChina = { region: 'China' };
const rgIndia = { region: 'India' };
const azAz1 = { az: 'az1' };
const azAz2 = { az: 'az2' };
const rgChinaAzAz1 = { region: 'China', az: 'az1' };
const S1 = { security: 'S1' };
const S2 = { security: 'S2' };

const stayWithS1InRegion = affinity({ preferred: [[5, term('region', [inReq('security', 'S1')])]] });
const stayWithS2InRegion = affinity({ preferred: [[6, term('region', [inReq('security', 'S2')])]] });
const affinity3 = affinity({
  preferred: [
    [8, term('region', [notInReq('security', 'S1'), inReq('security', 'S2')])],
    [2, term('region', [existsReq('security'), notExistsReq('wrongkey')])],
  ],
});
const hardAffinity = affinity({
  required: [
    term('region', [inReq('security', 'S1', 'value2')]),
    term('region', [existsReq('security'), notExistsReq('wrongkey')]),
  ],
});
const awayFromS1InAz = affinity({ preferredAnti: [[5, term('az', [inReq('security', 'S1')])]] });
const awayFromS2InAz = affinity({ preferredAnti: [[5, term('az', [inReq('security', 'S2')])]] });
const stayWithS1InRegionAwayFromS2InAz = affinity({
  preferred: [[8, term('region', [inReq('security', 'S1')])]],
  preferredAnti: [[5, term('az', [inReq('security', 'S2')])]],
});
const nsSelTeam1 = { matchExpressions: [inReq('team', 'team1')] };
const affinityNamespaceSelector = affinity({
  preferred: [
    [
      5,
      term('region', [inReq('security', 'S1')], {
        namespaces: ['subteam2.team2'],
        namespaceSelector: nsSelTeam1,
      }),
    ],
  ],
});
const antiAffinityNamespaceSelector = affinity({
  preferredAnti: [
    [
      5,
      term('region', [inReq('security', 'S1')], {
        namespaces: ['subteam2.team2'],
        namespaceSelector: nsSelTeam1,
      }),
    ],
  ],
});
const namespaces = [
  ns('subteam1.team1', { team: 'team1' }),
  ns('subteam2.team1', { team: 'team1' }),
  ns('subteam1.team2', { team: 'team2' }),
  ns('subteam2.team2', { team: 'team2' }),
];

interface Row {
  name: string;
  incoming: ReturnType<typeof pod>;
  pods: ReturnType<typeof pod>[];
  nodes: ReturnType<typeof node>[];
  want: Record<string, number>;
  args?: unknown;
}

const rows: Row[] = [
  {
    name: 'all nodes are same priority as Affinity is nil',
    incoming: pod(S1),
    pods: [],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 0, node2: 0, node3: 0 },
  },
  {
    name: 'Affinity: pod that matches topology key & pods in nodes will get high score',
    incoming: pod(S1, { affinity: stayWithS1InRegion }),
    pods: [pod(S1, { node: 'node1' }), pod(S2, { node: 'node2' }), pod(S1, { node: 'node3' })],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 100, node2: 0, node3: 0 },
  },
  {
    name: 'All the nodes with the same topology value as a matching pod have the same score',
    incoming: pod(undefined, { affinity: stayWithS1InRegion }),
    pods: [pod(S1, { node: 'node1' })],
    nodes: [node('node1', rgChina), node('node2', rgChinaAzAz1), node('node3', rgIndia)],
    want: { node1: 100, node2: 100, node3: 0 },
  },
  {
    name: 'Affinity: the region with more matching pods gets the high score',
    incoming: pod(S1, { affinity: stayWithS2InRegion }),
    pods: ['node1', 'node1', 'node2', 'node3', 'node4', 'node5'].map((n) => pod(S2, { node: n })),
    nodes: [
      node('node1', rgChina),
      node('node2', rgIndia),
      node('node3', rgChina),
      node('node4', rgChina),
      node('node5', rgIndia),
    ],
    want: { node1: 100, node2: 0, node3: 100, node4: 100, node5: 0 },
  },
  {
    name: 'Affinity: different Label operators and values, including some match failures',
    incoming: pod(S1, { affinity: affinity3 }),
    pods: [pod(S1, { node: 'node1' }), pod(S2, { node: 'node2' }), pod(S1, { node: 'node3' })],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 20, node2: 100, node3: 0 },
  },
  {
    name: 'Affinity symmetry: preferred terms of existing pods',
    incoming: pod(S2),
    pods: [
      pod(S1, { node: 'node1', affinity: stayWithS1InRegion }),
      pod(S2, { node: 'node2', affinity: stayWithS2InRegion }),
    ],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 0, node2: 100, node3: 0 },
  },
  {
    name: 'Affinity symmetry with namespace selector',
    incoming: pod(S1, { ns: 'subteam1.team1' }),
    pods: [
      pod(S1, { node: 'node1', affinity: affinityNamespaceSelector }),
      pod(S2, { node: 'node2', affinity: stayWithS2InRegion }),
    ],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 100, node2: 0, node3: 0 },
  },
  {
    name: 'AntiAffinity symmetry with namespace selector',
    incoming: pod(S1, { ns: 'subteam1.team1' }),
    pods: [
      pod(S1, { node: 'node1', affinity: antiAffinityNamespaceSelector }),
      pod(S2, { node: 'node2', affinity: stayWithS2InRegion }),
    ],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 0, node2: 100, node3: 100 },
  },
  {
    name: 'Affinity symmetry: required terms of existing pods count at hardPodAffinityWeight',
    incoming: pod(S1),
    pods: [
      pod(S1, { node: 'node1', affinity: hardAffinity }),
      pod(S2, { node: 'node2', affinity: hardAffinity }),
    ],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 100, node2: 100, node3: 0 },
  },
  {
    name: 'Anti Affinity: pod that does not match existing pods in node will get high score',
    incoming: pod(S1, { affinity: awayFromS1InAz }),
    pods: [pod(S1, { node: 'node1' }), pod(S2, { node: 'node2' })],
    nodes: [node('node1', azAz1), node('node2', rgChina)],
    want: { node1: 0, node2: 100 },
  },
  {
    name: 'Anti Affinity: pod that does not match topology key & matches the pods gets the higher score',
    incoming: pod(S1, { affinity: awayFromS1InAz }),
    pods: [pod(S1, { node: 'node1' }), pod(S1, { node: 'node2' })],
    nodes: [node('node1', azAz1), node('node2', rgChina)],
    want: { node1: 0, node2: 100 },
  },
  {
    name: 'Anti Affinity: the node with more matching pods gets the low score',
    incoming: pod(S1, { affinity: awayFromS1InAz }),
    pods: [pod(S1, { node: 'node1' }), pod(S1, { node: 'node1' }), pod(S2, { node: 'node2' })],
    nodes: [node('node1', azAz1), node('node2', rgIndia)],
    want: { node1: 0, node2: 100 },
  },
  {
    name: 'Anti Affinity symmetry: the existing pods whose anti-affinity matches give a low score',
    incoming: pod(S2),
    pods: [
      pod(S1, { node: 'node1', affinity: awayFromS2InAz }),
      pod(S2, { node: 'node2', affinity: awayFromS1InAz }),
    ],
    nodes: [node('node1', azAz1), node('node2', azAz2)],
    want: { node1: 0, node2: 100 },
  },
  {
    name: 'Affinity and Anti Affinity: preferred terms of both kinds',
    incoming: pod(S1, { affinity: stayWithS1InRegionAwayFromS2InAz }),
    pods: [pod(S1, { node: 'node1' }), pod(S1, { node: 'node2' })],
    nodes: [node('node1', rgChina), node('node2', azAz1)],
    want: { node1: 100, node2: 0 },
  },
  {
    name: 'Affinity and Anti Affinity: pod and existing pods share labels',
    incoming: pod(S1, { affinity: stayWithS1InRegionAwayFromS2InAz }),
    pods: ['node1', 'node1', 'node2', 'node3', 'node3', 'node4', 'node5'].map((n) => pod(S1, { node: n })),
    nodes: [
      node('node1', rgChinaAzAz1),
      node('node2', rgIndia),
      node('node3', rgChina),
      node('node4', rgChina),
      node('node5', rgIndia),
    ],
    want: { node1: 100, node2: 0, node3: 100, node4: 100, node5: 0 },
  },
  {
    name: 'Affinity, Anti Affinity and symmetry together',
    incoming: pod(S1, { affinity: stayWithS1InRegionAwayFromS2InAz }),
    pods: [
      pod(S1, { node: 'node1' }),
      pod(S2, { node: 'node2' }),
      pod(undefined, { node: 'node3', affinity: stayWithS1InRegionAwayFromS2InAz }),
      pod(undefined, { node: 'node4', affinity: awayFromS1InAz }),
    ],
    nodes: [node('node1', rgChina), node('node2', azAz1), node('node3', rgIndia), node('node4', azAz2)],
    want: { node1: 100, node2: 0, node3: 100, node4: 0 },
  },
  {
    name: 'Avoid panic when partial nodes in a topology do not have pods with affinity',
    incoming: pod(S1),
    pods: [
      pod(S1, { node: 'node1' }),
      pod(undefined, { node: 'node2', affinity: stayWithS1InRegionAwayFromS2InAz }),
    ],
    nodes: [node('node1', rgChina), node('node2', rgChina)],
    want: { node1: 0, node2: 0 },
  },
  {
    name: 'Affinity with pods matching NamespaceSelector (merged into namespaces)',
    incoming: pod(S1, { ns: 'subteam1.team1', affinity: affinityNamespaceSelector }),
    pods: [
      pod(S1, { node: 'node1', ns: 'subteam1.team1' }),
      pod(S1, { node: 'node1', ns: 'subteam2.team1' }),
      pod(S1, { node: 'node2', ns: 'subteam1.team2' }),
    ],
    nodes: [node('node1', rgChina), node('node2', rgIndia)],
    want: { node1: 100, node2: 0 },
  },
  // TestPreferredAffinityWithHardPodAffinitySymmetricWeight
  {
    name: 'Hard pod affinity symmetry: weight 1 puts the matching regions on top',
    incoming: pod({ service: 'S1' }),
    pods: [
      pod(undefined, {
        node: 'node1',
        affinity: affinity({ required: [term('region', [inReq('service', 'S1')])] }),
      }),
      pod(undefined, {
        node: 'node2',
        affinity: affinity({ required: [term('region', [inReq('service', 'S1')])] }),
      }),
    ],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 100, node2: 100, node3: 0 },
    args: { hardPodAffinityWeight: 1 },
  },
  {
    name: 'Hard pod affinity symmetry: weight 0 ignores existing required terms',
    incoming: pod({ service: 'S1' }),
    pods: [
      pod(undefined, {
        node: 'node1',
        affinity: affinity({ required: [term('region', [inReq('service', 'S1')])] }),
      }),
      pod(undefined, {
        node: 'node2',
        affinity: affinity({ required: [term('region', [inReq('service', 'S1')])] }),
      }),
    ],
    nodes: [node('node1', rgChina), node('node2', rgIndia), node('node3', azAz1)],
    want: { node1: 0, node2: 0, node3: 0 },
    args: { hardPodAffinityWeight: 0 },
  },
];

describe('InterPodAffinity scoring (upstream TestPreferredAffinity tables)', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, r) => {
    const { status, scores } = runScore(
      { nodes: r.nodes, pods: r.pods, namespaces, args: r.args },
      r.incoming,
    );
    expect(status).toBeNull();
    expect(scores).toEqual(r.want);
  });
});

describe('InterPodAffinity scoring details', () => {
  const nodes = [node('n1', { zone: 'a' }), node('n2', { zone: 'b' }), node('n3', { zone: 'c' })];

  it('scales between the min and max raw score (v1.26 init with MaxInt64/MinInt64, not 0)', () => {
    // Raw: a = 2×5 = 10, b = 5, c = 5 → min 5, max 10; a 0-based range would give b, c 50.
    const incoming = pod(S1, {
      affinity: affinity({ preferred: [[5, term('zone', [inReq('security', 'S1')])]] }),
    });
    const pods = [
      pod(S1, { node: 'n1' }),
      pod(S1, { node: 'n1' }),
      pod(S1, { node: 'n2' }),
      pod(S1, { node: 'n3' }),
    ];
    expect(runScore({ nodes, pods }, incoming).scores).toEqual({ n1: 100, n2: 0, n3: 0 });
  });

  it('truncates fractional normalized scores like Go int64(float64)', () => {
    // Raw: a 3, b 1, c 0 → 100·1/3 = 33.33 → 33.
    const incoming = pod(S1, {
      affinity: affinity({ preferred: [[1, term('zone', [inReq('security', 'S1')])]] }),
    });
    const pods = [
      pod(S1, { node: 'n1' }),
      pod(S1, { node: 'n1' }),
      pod(S1, { node: 'n1' }),
      pod(S1, { node: 'n2' }),
    ];
    expect(runScore({ nodes, pods }, incoming).scores).toEqual({ n1: 100, n2: 33, n3: 0 });
  });

  it('hardPodAffinityWeight scales existing pods’ required terms against preferred ones', () => {
    // n1: existing pod requires affinity to S1 (weight W); n2: existing pod prefers S1 with weight 10.
    const pods = [
      pod(undefined, {
        node: 'n1',
        affinity: affinity({ required: [term('zone', [inReq('security', 'S1')])] }),
      }),
      pod(undefined, {
        node: 'n2',
        affinity: affinity({ preferred: [[10, term('zone', [inReq('security', 'S1')])]] }),
      }),
    ];
    expect(runScore({ nodes, pods, args: { hardPodAffinityWeight: 5 } }, pod(S1)).scores).toEqual({
      n1: 50,
      n2: 100,
      n3: 0,
    });
    expect(runScore({ nodes, pods, args: { hardPodAffinityWeight: 20 } }, pod(S1)).scores).toEqual({
      n1: 100,
      n2: 50,
      n3: 0,
    });
  });

  it('v1.26: nothing to score → PreScore succeeds and every node scores 0', () => {
    const r = runScore({ nodes, pods: [pod(S1, { node: 'n1' })], version: '1.26' }, pod(S1));
    expect(r.status).toBeNull();
    expect(r.scores).toEqual({ n1: 0, n2: 0, n3: 0 });
  });

  it('newer releases: nothing to score → PreScore returns Skip', () => {
    const r = runScore({ nodes, pods: [pod(S1, { node: 'n1' })], version: '1.34' }, pod(S1));
    expect(r.status?.code).toBe(Code.Skip);
  });

  it('ignorePreferredTermsOfExistingPods drops existing pods’ terms for a pod without preferred terms', () => {
    const pods = [pod(undefined, { node: 'n1', affinity: stayWithS1InRegion })];
    const regionNodes = [node('n1', rgChina), node('n2', rgIndia)];
    expect(runScore({ nodes: regionNodes, pods }, pod(S1)).scores).toEqual({ n1: 100, n2: 0 });
    const ignored = runScore(
      { nodes: regionNodes, pods, args: { ignorePreferredTermsOfExistingPods: true } },
      pod(S1),
    );
    expect(ignored.scores).toEqual({ n1: 0, n2: 0 });
    const newer = runScore(
      { nodes: regionNodes, pods, version: '1.34', args: { ignorePreferredTermsOfExistingPods: true } },
      pod(S1),
    );
    expect(newer.status?.code).toBe(Code.Skip);
  });

  it('an invalid label selector in the incoming pod fails PreScore with an error', () => {
    const bad = affinity({ preferred: [[8, term('region', [inReq('security', '{{.bad-value.}}')])]] });
    const r = runScore({ nodes }, pod(undefined, { affinity: bad }));
    expect(r.status?.code).toBe(Code.Error);
    expect(r.status?.message()).toContain('Invalid value: "{{.bad-value.}}"');
  });
});
