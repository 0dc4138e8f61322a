/**
 * Filter tables ported from upstream filtering_test.go (TestRequiredAffinitySingleNode,
 * TestRequiredAffinityMultipleNodes, TestPreFilterStateAddRemovePod) as data, plus the
 * version switches, namespaceSelector merging and matchLabelKeys.
 */
import { CycleState } from '../../../cycle-state';
import { Code } from '../../../status';
import { PodInfo } from '../../../types';
import { validateArgs, defaultArgs } from '../args';
import {
  ERR_REASON_AFFINITY_RULES_NOT_MATCH as AFF,
  ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH as ANTI,
  ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH as EXISTING,
  PRE_FILTER_STATE_KEY,
  PreFilterState,
} from '../filtering';
import {
  affinity,
  existsReq,
  inReq,
  node,
  notExistsReq,
  notInReq,
  ns,
  pod,
  runFilter,
  setup,
  term,
} from './helpers';

const UNRESOLVABLE = (r: string) => `${Code.UnschedulableAndUnresolvable}:${r}`;
const UNSCHED = (r: string) => `${Code.Unschedulable}:${r}`;

const securityScan = { service: 'securityscan' };
const S1 = { security: 'S1' };
const node1 = node('machine1', { region: 'r1', zone: 'z11' });

interface Row {
  name: string;
  incoming: ReturnType<typeof pod>;
  pods: ReturnType<typeof pod>[];
  want: string;
}

// TestRequiredAffinitySingleNode: one node {region: r1, zone: z11}.
const singleNode: Row[] = [
  {
    name: 'no required pod affinity can schedule onto a node with no existing pods',
    incoming: pod(undefined),
    pods: [],
    want: 'OK',
  },
  {
    name: 'affinity In operator matches the existing pod',
    incoming: pod(S1, {
      affinity: affinity({ required: [term('region', [inReq('service', 'securityscan', 'value2')])] }),
    }),
    pods: [pod(securityScan, { node: 'machine1' })],
    want: 'OK',
  },
  {
    name: 'affinity NotIn operator matches the existing pod',
    incoming: pod(S1, {
      affinity: affinity({ required: [term('region', [notInReq('service', 'securityscan3', 'value3')])] }),
    }),
    pods: [pod(securityScan, { node: 'machine1' })],
    want: 'OK',
  },
  {
    name: 'affinity does not match because of a different namespace',
    incoming: pod(S1, {
      affinity: affinity({
        required: [
          term('region', [inReq('service', 'securityscan', 'value2')], { namespaces: ['DiffNameSpace'] }),
        ],
      }),
    }),
    pods: [pod(securityScan, { node: 'machine1', ns: 'ns' })],
    want: UNRESOLVABLE(AFF),
  },
  {
    name: 'affinity does not match because the label selector does not match the existing pod',
    incoming: pod(securityScan, {
      affinity: affinity({ required: [term('region', [inReq('service', 'antivirusscan', 'value2')])] }),
    }),
    pods: [pod(securityScan, { node: 'machine1' })],
    want: UNRESOLVABLE(AFF),
  },
  {
    name: 'different label operators in multiple required terms are all satisfied',
    incoming: pod(S1, {
      affinity: affinity({
        required: [
          term('region', [existsReq('service'), notExistsReq('wrongkey')]),
          term('region', [inReq('service', 'securityscan'), notInReq('service', 'WrongValue')]),
        ],
      }),
    }),
    pods: [pod(securityScan, { node: 'machine1' })],
    want: 'OK',
  },
  {
    name: 'matchExpressions are ANDed: one failing requirement rejects the node',
    incoming: pod(S1, {
      affinity: affinity({
        required: [
          term('region', [existsReq('service'), notExistsReq('wrongkey')]),
          term('region', [inReq('service', 'securityscan2'), notInReq('service', 'WrongValue')]),
        ],
      }),
    }),
    pods: [pod(securityScan, { node: 'machine1' })],
    want: UNRESOLVABLE(AFF),
  },
  {
    name: 'satisfies affinity and anti-affinity with the existing pod',
    incoming: pod(S1, {
      affinity: affinity({
        required: [term('region', [inReq('service', 'securityscan', 'value2')])],
        requiredAnti: [term('node', [inReq('service', 'antivirusscan', 'value2')])],
      }),
    }),
    pods: [pod(securityScan, { node: 'machine1' })],
    want: 'OK',
  },
  {
    name: 'satisfies affinity, anti-affinity and anti-affinity symmetry',
    incoming: pod(S1, {
      affinity: affinity({
        required: [term('region', [inReq('service', 'securityscan', 'value2')])],
        requiredAnti: [term('node', [inReq('service', 'antivirusscan', 'value2')])],
      }),
    }),
    pods: [
      pod(securityScan, {
        node: 'machine1',
        affinity: affinity({ requiredAnti: [term('node', [inReq('service', 'antivirusscan', 'value2')])] }),
      }),
    ],
    want: 'OK',
  },
  {
    name: 'satisfies affinity but not anti-affinity',
    incoming: pod(S1, {
      affinity: affinity({
        required: [term('region', [inReq('service', 'securityscan', 'value2')])],
        requiredAnti: [term('zone', [inReq('service', 'securityscan', 'value2')])],
      }),
    }),
    pods: [pod(securityScan, { node: 'machine1' })],
    want: UNSCHED(ANTI),
  },
  {
    name: 'satisfies affinity and anti-affinity but not anti-affinity symmetry',
    incoming: pod(securityScan, {
      affinity: affinity({
        required: [term('region', [inReq('service', 'securityscan', 'value2')])],
        requiredAnti: [term('node', [inReq('service', 'antivirusscan', 'value2')])],
      }),
    }),
    pods: [
      pod(securityScan, {
        node: 'machine1',
        affinity: affinity({ requiredAnti: [term('zone', [inReq('service', 'securityscan', 'value2')])] }),
      }),
    ],
    want: UNSCHED(EXISTING),
  },
  {
    name: 'pod matches its own affinity but a matching pod exists elsewhere (not the first of its group)',
    incoming: pod(securityScan, {
      affinity: affinity({ required: [term('region', [notInReq('service', 'securityscan', 'value2')])] }),
    }),
    pods: [pod(securityScan, { node: 'machine2' })],
    want: UNRESOLVABLE(AFF),
  },
  {
    name: 'existing pod anti-affinity is respected when the pod has none (violated)',
    incoming: pod(securityScan),
    pods: [
      pod(securityScan, {
        node: 'machine1',
        affinity: affinity({ requiredAnti: [term('zone', [inReq('service', 'securityscan', 'value2')])] }),
      }),
    ],
    want: UNSCHED(EXISTING),
  },
  {
    name: 'existing pod anti-affinity is respected when the pod has none (satisfied)',
    incoming: pod(securityScan),
    pods: [
      pod(securityScan, {
        node: 'machine1',
        affinity: affinity({ requiredAnti: [term('zone', [notInReq('service', 'securityscan', 'value2')])] }),
      }),
    ],
    want: 'OK',
  },
  {
    name: 'anti-affinity of the incoming pod is checked before existing pods’ anti-affinity',
    incoming: pod(securityScan, {
      affinity: affinity({ requiredAnti: [term('region', [existsReq('security')])] }),
    }),
    pods: [
      pod(S1, {
        node: 'machine1',
        affinity: affinity({ requiredAnti: [term('zone', [existsReq('service')])] }),
      }),
    ],
    want: UNSCHED(ANTI),
  },
  {
    name: 'affinity is checked first and is unresolvable even when anti-affinity also fails',
    incoming: pod(securityScan, {
      affinity: affinity({
        required: [term('region', [inReq('service', 'nothing-matches')])],
        requiredAnti: [term('region', [existsReq('security')])],
      }),
    }),
    pods: [pod(S1, { node: 'machine1' }), pod({ service: 'x' }, { node: 'machine1' })],
    want: UNRESOLVABLE(AFF),
  },
];

describe('InterPodAffinity Filter on a single node (upstream TestRequiredAffinitySingleNode)', () => {
  it.each(singleNode.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    const { preFilter, perNode } = runFilter({ nodes: [node1], pods: r.pods }, r.incoming);
    expect(preFilter).toBeNull();
    expect(perNode.machine1).toBe(r.want);
  });
});

describe('InterPodAffinity Filter on several nodes (upstream TestRequiredAffinityMultipleNodes)', () => {
  const labelRgChina = { region: 'China' };
  const labelRgChinaAzAz1 = { region: 'China', az: 'az1' };
  const labelRgIndia = { region: 'India' };
  const fooBar = { foo: 'bar' };
  const fooTerm = (key: string) => term(key, [inReq('foo', 'bar')]);

  it('a pod can be placed in every node of the region holding a matching pod', () => {
    const r = runFilter(
      {
        nodes: [node('nodeA', labelRgChina), node('nodeB', labelRgChinaAzAz1), node('nodeC', labelRgIndia)],
        pods: [pod(fooBar, { node: 'nodeA' })],
      },
      pod(undefined, { affinity: affinity({ required: [fooTerm('region')] }) }),
    );
    expect(r.perNode).toEqual({ nodeA: 'OK', nodeB: 'OK', nodeC: UNRESOLVABLE(AFF) });
  });

  it('the first pod of a self-affine group passes where the node has every topology key', () => {
    const incoming = pod(fooBar, { affinity: affinity({ required: [fooTerm('region'), fooTerm('zone')] }) });
    const r = runFilter(
      {
        nodes: [
          node('nodeA', { region: 'r1', zone: 'z1' }),
          node('nodeB', { region: 'r1' }), // missing the zone key
        ],
      },
      incoming,
    );
    expect(r.perNode).toEqual({ nodeA: 'OK', nodeB: UNRESOLVABLE(AFF) });
  });

  it('the self-affinity exception does not apply when the pod does not match its own terms', () => {
    const r = runFilter(
      { nodes: [node('nodeA', { region: 'r1' })] },
      pod({ foo: 'other' }, { affinity: affinity({ required: [fooTerm('region')] }) }),
    );
    expect(r.perNode).toEqual({ nodeA: UNRESOLVABLE(AFF) });
  });

  it('anti-affinity blocks the whole region of a matching pod, nodes without the key pass', () => {
    const r = runFilter(
      {
        nodes: [
          node('nodeA', labelRgChina),
          node('nodeB', labelRgChinaAzAz1),
          node('nodeC', labelRgIndia),
          node('nodeD', {}),
        ],
        pods: [pod(fooBar, { node: 'nodeA' })],
      },
      pod(undefined, { affinity: affinity({ requiredAnti: [fooTerm('region')] }) }),
    );
    expect(r.perNode).toEqual({ nodeA: UNSCHED(ANTI), nodeB: UNSCHED(ANTI), nodeC: 'OK', nodeD: 'OK' });
  });

  it('existing pods’ anti-affinity (symmetry) blocks their topology domain', () => {
    const r = runFilter(
      {
        nodes: [node('nodeA', { zone: 'z1' }), node('nodeB', { zone: 'z1' }), node('nodeC', { zone: 'z2' })],
        pods: [pod(undefined, { node: 'nodeA', affinity: affinity({ requiredAnti: [fooTerm('zone')] }) })],
      },
      pod(fooBar),
    );
    expect(r.perNode).toEqual({ nodeA: UNSCHED(EXISTING), nodeB: UNSCHED(EXISTING), nodeC: 'OK' });
  });
});

describe('InterPodAffinity namespaces', () => {
  const namespaces = [
    ns('team1-a', { team: 'team1' }),
    ns('team1-b', { team: 'team1' }),
    ns('team2-a', { team: 'team2' }),
  ];
  const nodes = [node('n1', { zone: 'a' }), node('n2', { zone: 'b' }), node('n3', { zone: 'c' })];
  const pods = [
    pod({ app: 'db' }, { node: 'n1', ns: 'team1-b' }),
    pod({ app: 'db' }, { node: 'n2', ns: 'team2-a' }),
  ];

  it('merges the incoming pod’s namespaceSelector into its namespaces', () => {
    const incoming = pod(undefined, {
      ns: 'team1-a',
      affinity: affinity({
        requiredAnti: [
          term('zone', [inReq('app', 'db')], { namespaceSelector: { matchLabels: { team: 'team1' } } }),
        ],
      }),
    });
    expect(runFilter({ nodes, pods, namespaces }, incoming).perNode).toEqual({
      n1: UNSCHED(ANTI),
      n2: 'OK',
      n3: 'OK',
    });
  });

  it('an empty namespaceSelector selects every namespace', () => {
    const incoming = pod(undefined, {
      ns: 'team1-a',
      affinity: affinity({ requiredAnti: [term('zone', [inReq('app', 'db')], { namespaceSelector: {} })] }),
    });
    expect(runFilter({ nodes, pods, namespaces }, incoming).perNode).toEqual({
      n1: UNSCHED(ANTI),
      n2: UNSCHED(ANTI),
      n3: 'OK',
    });
  });

  it('existing pods’ namespaceSelector is matched against the incoming pod’s namespace labels', () => {
    const existing = pod(undefined, {
      node: 'n1',
      ns: 'team2-a',
      affinity: affinity({
        requiredAnti: [
          term('zone', [inReq('app', 'web')], { namespaceSelector: { matchLabels: { team: 'team1' } } }),
        ],
      }),
    });
    const inTeam1 = runFilter(
      { nodes, pods: [existing], namespaces },
      pod({ app: 'web' }, { ns: 'team1-a' }),
    );
    expect(inTeam1.perNode.n1).toBe(UNSCHED(EXISTING));
    const inTeam2 = runFilter(
      { nodes, pods: [existing], namespaces },
      pod({ app: 'web' }, { ns: 'team2-a' }),
    );
    expect(inTeam2.perNode.n1).toBe('OK');
  });
});

describe('InterPodAffinity PreFilter versions and extensions', () => {
  const nodes = [node('n1', { zone: 'a' }), node('n2', { zone: 'b' })];

  it('v1.26 never skips PreFilter; newer releases skip when nothing concerns the pod', () => {
    const pods = [pod({ app: 'x' }, { node: 'n1' })];
    expect(runFilter({ nodes, pods, version: '1.26' }, pod({ app: 'y' })).preFilter).toBeNull();
    expect(runFilter({ nodes, pods, version: '1.34' }, pod({ app: 'y' })).preFilter?.code).toBe(Code.Skip);
  });

  it('does not skip when an existing pod’s anti-affinity matches the incoming pod', () => {
    const pods = [
      pod(undefined, {
        node: 'n1',
        affinity: affinity({ requiredAnti: [term('zone', [inReq('app', 'y')])] }),
      }),
    ];
    const r = runFilter({ nodes, pods, version: '1.34' }, pod({ app: 'y' }));
    expect(r.preFilter).toBeNull();
    expect(r.perNode).toEqual({ n1: UNSCHED(EXISTING), n2: 'OK' });
  });

  it('an invalid selector rejects the pod as unresolvable in PreFilter', () => {
    const bad = pod(undefined, {
      affinity: affinity({ required: [term('zone', [inReq('app', '{{.bad-value.}}')])] }),
    });
    const r = runFilter({ nodes }, bad);
    expect(r.preFilter?.code).toBe(Code.UnschedulableAndUnresolvable);
    expect(r.preFilter?.reasons[0]).toMatch(/^parsing pod: /);
  });

  // Upstream TestPreFilterStateAddRemovePod, in spirit: adding then removing a pod restores the counts,
  // and the clone taken before is not affected.
  it('addPod/removePod update all three counts and clones stay independent', () => {
    const incoming = pod(
      { service: 'securityscan' },
      {
        affinity: affinity({
          required: [term('region', [inReq('security', 'S1')])],
          requiredAnti: [term('zone', [inReq('security', 'S2')])],
        }),
      },
    );
    const regionNodes = [
      node('nodeA', { region: 'r1', zone: 'z1' }),
      node('nodeB', { region: 'r1', zone: 'z2' }),
    ];
    const { plugin, handle } = setup({
      nodes: regionNodes,
      pods: [pod({ security: 'S1' }, { node: 'nodeA' })],
    });
    const state = new CycleState();
    expect(plugin.preFilter(state, incoming).status).toBeNull();
    const s = state.read<PreFilterState>(PRE_FILTER_STATE_KEY)!;
    expect(s.affinityCounts.toRecord()).toEqual({ 'region=r1': 1 });
    expect(s.antiAffinityCounts.size).toBe(0);

    const before = state.clone();
    const nodeB = handle.snapshot().get('nodeB')!;
    const added = new PodInfo(
      pod(
        { security: 'S2' },
        {
          node: 'nodeB',
          affinity: affinity({ requiredAnti: [term('zone', [inReq('service', 'securityscan')])] }),
        },
      ),
    );
    expect(plugin.addPod(state, incoming, added, nodeB)).toBeNull();
    const after = state.read<PreFilterState>(PRE_FILTER_STATE_KEY)!;
    expect(after.antiAffinityCounts.toRecord()).toEqual({ 'zone=z2': 1 });
    expect(after.existingAntiAffinityCounts.toRecord()).toEqual({ 'zone=z2': 1 });
    expect(plugin.filter(state, incoming, nodeB)?.reasons).toEqual([ANTI]);

    const prior = before.read<PreFilterState>(PRE_FILTER_STATE_KEY)!;
    expect(prior.antiAffinityCounts.size).toBe(0);
    expect(prior.existingAntiAffinityCounts.size).toBe(0);

    expect(plugin.removePod(state, incoming, added, nodeB)).toBeNull();
    expect(after.antiAffinityCounts.size).toBe(0);
    expect(after.existingAntiAffinityCounts.size).toBe(0);
    expect(plugin.filter(state, incoming, nodeB)).toBeNull();

    // Removing the only pod matching the affinity: no match left anywhere, and the incoming pod does
    // not match its own terms, so both nodes fail.
    const nodeA = handle.snapshot().get('nodeA')!;
    expect(plugin.removePod(state, incoming, nodeA.pods[0], nodeA)).toBeNull();
    expect(after.affinityCounts.size).toBe(0);
    expect(plugin.filter(state, incoming, nodeA)?.code).toBe(Code.UnschedulableAndUnresolvable);
  });
});

describe('InterPodAffinity matchLabelKeys / mismatchLabelKeys', () => {
  const nodes = [node('n1', { zone: 'a' }), node('n2', { zone: 'b' })];
  const pods = [pod({ app: 'db', rev: 'v1' }, { node: 'n1' }), pod({ app: 'db', rev: 'v2' }, { node: 'n2' })];
  const incoming = pod(
    { app: 'db', rev: 'v2' },
    {
      affinity: affinity({ requiredAnti: [term('zone', [inReq('app', 'db')], { matchLabelKeys: ['rev'] })] }),
    },
  );

  it('gate on: the pod’s value of each key is ANDed into the selector', () => {
    const r = runFilter({ nodes, pods, gates: { MatchLabelKeysInPodAffinity: true } }, incoming);
    expect(r.perNode).toEqual({ n1: 'OK', n2: UNSCHED(ANTI) });
  });

  it('gate off: the keys are ignored', () => {
    const r = runFilter({ nodes, pods, gates: { MatchLabelKeysInPodAffinity: false } }, incoming);
    expect(r.perNode).toEqual({ n1: UNSCHED(ANTI), n2: UNSCHED(ANTI) });
  });

  it('mismatchLabelKeys excludes pods with the same value, also in existing pods’ terms', () => {
    const existing = pod(
      { tenant: 't1' },
      {
        node: 'n1',
        affinity: affinity({
          requiredAnti: [term('zone', [existsReq('tenant')], { mismatchLabelKeys: ['tenant'] })],
        }),
      },
    );
    const gates = { MatchLabelKeysInPodAffinity: true };
    expect(runFilter({ nodes, pods: [existing], gates }, pod({ tenant: 't1' })).perNode.n1).toBe('OK');
    expect(runFilter({ nodes, pods: [existing], gates }, pod({ tenant: 't2' })).perNode.n1).toBe(
      UNSCHED(EXISTING),
    );
  });
});

describe('InterPodAffinityArgs', () => {
  it('defaults hardPodAffinityWeight to 1 but keeps an explicit 0', () => {
    expect(defaultArgs(undefined)).toEqual({
      hardPodAffinityWeight: 1,
      ignorePreferredTermsOfExistingPods: false,
    });
    expect(defaultArgs({ hardPodAffinityWeight: 0 }).hardPodAffinityWeight).toBe(0);
  });

  it.each([
    [0, 0],
    [100, 0],
    [-1, 1],
    [101, 1],
  ])('hardPodAffinityWeight %d → %d errors', (w, n) => {
    const errs = validateArgs(defaultArgs({ hardPodAffinityWeight: w }));
    expect(errs).toHaveLength(n);
    if (n)
      expect(errs[0]).toEqual({
        field: 'hardPodAffinityWeight',
        message: `Invalid value: ${w}: not in valid range [0-100]`,
      });
  });
});
