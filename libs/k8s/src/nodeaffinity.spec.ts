import type { Node, NodeSelectorTerm, Pod, PreferredSchedulingTerm } from './types';
import { compileNodeSelector, compilePreferredSchedulingTerms, requiredNodeAffinityOf } from './nodeaffinity';

function node(name: string, labels?: Record<string, string>): Node {
  return { metadata: { name, labels } };
}

// Cases ported from component-helpers nodeaffinity_test.go TestNodeSelectorMatch and the
// scheduler's TestNodeMatchesNodeSelectorTerms.
const cases: [string, NodeSelectorTerm[], Node, boolean][] = [
  ['no terms', [], node('host_1', { a: 'b' }), false],
  ['empty term matches nothing', [{}], node('host_1', { a: 'b' }), false],
  [
    'term with empty lists matches nothing',
    [{ matchExpressions: [], matchFields: [] }],
    node('host_1'),
    false,
  ],
  [
    'node label matches matchExpressions',
    [{ matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }] }],
    node('host_1', { label_1: 'label_1_val' }),
    true,
  ],
  [
    'node field matches matchFields',
    [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] }],
    node('host_1'),
    true,
  ],
  [
    'invalid field requirement (two values) never matches',
    [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1', 'host_2'] }] }],
    node('host_1'),
    false,
  ],
  [
    'field NotIn own name',
    [{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['host_1'] }] }],
    node('host_1'),
    false,
  ],
  [
    'field NotIn other name',
    [{ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['host_2'] }] }],
    node('host_1'),
    true,
  ],
  [
    'label requirement does not look at fields',
    [{ matchExpressions: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] }],
    node('host_1'),
    false,
  ],
  [
    'labels and fields set, only fields match',
    [
      {
        matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }],
      },
    ],
    node('host_1'),
    false,
  ],
  [
    'labels and fields both match',
    [
      {
        matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }],
      },
    ],
    node('host_1', { label_1: 'label_1_val' }),
    true,
  ],
  [
    'labels match, field mismatches',
    [
      {
        matchExpressions: [{ key: 'label_1', operator: 'In', values: ['label_1_val'] }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_2'] }],
      },
    ],
    node('host_1', { label_1: 'label_1_val' }),
    false,
  ],
  [
    'terms are ORed',
    [
      { matchExpressions: [{ key: 'label_1', operator: 'In', values: ['nope'] }] },
      { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['host_1'] }] },
    ],
    node('host_1', { label_1: 'label_1_val' }),
    true,
  ],
  [
    'invalid term is skipped, valid one still matches',
    [
      { matchExpressions: [{ key: 'label_1', operator: 'Bogus' as never, values: ['x'] }] },
      { matchExpressions: [{ key: 'label_1', operator: 'Exists' }] },
    ],
    node('host_1', { label_1: 'v' }),
    true,
  ],
  [
    'Gt true',
    [{ matchExpressions: [{ key: 'gpus', operator: 'Gt', values: ['2'] }] }],
    node('n', { gpus: '3' }),
    true,
  ],
  [
    'Gt equal is false',
    [{ matchExpressions: [{ key: 'gpus', operator: 'Gt', values: ['2'] }] }],
    node('n', { gpus: '2' }),
    false,
  ],
  [
    'Lt true',
    [{ matchExpressions: [{ key: 'gpus', operator: 'Lt', values: ['2'] }] }],
    node('n', { gpus: '-1' }),
    true,
  ],
  [
    'Lt with non-integer label',
    [{ matchExpressions: [{ key: 'gpus', operator: 'Lt', values: ['2'] }] }],
    node('n', { gpus: '1.5' }),
    false,
  ],
  [
    'Gt with absent label',
    [{ matchExpressions: [{ key: 'gpus', operator: 'Gt', values: ['0'] }] }],
    node('n', {}),
    false,
  ],
  [
    'Gt with non-integer value is invalid',
    [{ matchExpressions: [{ key: 'gpus', operator: 'Gt', values: ['a'] }] }],
    node('n', { gpus: '3' }),
    false,
  ],
  [
    'Gt with two values is invalid',
    [{ matchExpressions: [{ key: 'gpus', operator: 'Gt', values: ['1', '2'] }] }],
    node('n', { gpus: '3' }),
    false,
  ],
  [
    'Gt compares int64 exactly',
    [{ matchExpressions: [{ key: 'v', operator: 'Gt', values: ['9007199254740992'] }] }],
    node('n', { v: '9007199254740993' }),
    true,
  ],
  [
    'Gt accepts signed and zero-padded labels like ParseInt',
    [{ matchExpressions: [{ key: 'v', operator: 'Gt', values: ['2'] }] }],
    node('n', { v: '+003' }),
    true,
  ],
  [
    'Lt rejects labels beyond int64',
    [{ matchExpressions: [{ key: 'v', operator: 'Lt', values: ['2'] }] }],
    node('n', { v: '-9223372036854775809' }),
    false,
  ],
  [
    'Lt at int64 min',
    [{ matchExpressions: [{ key: 'v', operator: 'Lt', values: ['2'] }] }],
    node('n', { v: '-9223372036854775808' }),
    true,
  ],
  [
    'In with empty values is invalid',
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }],
    node('n', { a: '' }),
    false,
  ],
  [
    'DoesNotExist',
    [{ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }],
    node('n', { b: '1' }),
    true,
  ],
  [
    'NotIn with absent key',
    [{ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }],
    node('n'),
    true,
  ],
];

describe('compileNodeSelector', () => {
  it.each(cases)('%s', (_n, terms, n, want) => {
    expect(compileNodeSelector({ nodeSelectorTerms: terms }).match(n)).toBe(want);
  });

  it('ignores matchFields when the node has no name (upstream quirk)', () => {
    const sel = compileNodeSelector({
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['x'] }] }],
    });
    expect(sel.match({ metadata: {} })).toBe(true);
  });

  it('reports parse errors with field paths', () => {
    const sel = compileNodeSelector({
      nodeSelectorTerms: [
        { matchExpressions: [{ key: 'a', operator: 'Foo' as never }] },
        { matchFields: [{ key: 'metadata.name', operator: 'Exists' }] },
        { matchExpressions: [{ key: 'a', operator: 'constructor' as never }] },
      ],
    });
    expect(sel.errors.map((e) => e.field)).toEqual([
      'nodeSelectorTerms[0].matchExpressions[0].operator',
      'nodeSelectorTerms[1].matchFields[0].operator',
      'nodeSelectorTerms[2].matchExpressions[0].operator',
    ]);
    expect(sel.errors[2].detail).toMatch(/^Unsupported value: "constructor": supported values: /);
  });
});

describe('compilePreferredSchedulingTerms', () => {
  const terms: PreferredSchedulingTerm[] = [
    { weight: 5, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
    { weight: 3, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } },
    { weight: 7, preference: {} },
    { weight: 0, preference: { matchExpressions: [{ key: 'ssd', operator: 'Exists' }] } },
    { weight: 2, preference: { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] } },
  ];
  it.each([
    [node('n1', { zone: 'a', ssd: '' }), 10],
    [node('n2', { zone: 'a' }), 5],
    [node('n2', { ssd: 'true' }), 3],
    [node('n2', {}), 0],
    [node('n1', {}), 2],
  ])('scores %j = %d', (n, want) => {
    expect(compilePreferredSchedulingTerms(terms).score(n)).toBe(want);
  });
  it('reports invalid terms', () => {
    const c = compilePreferredSchedulingTerms([
      { weight: 1, preference: { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['x'] }] } },
    ]);
    expect(c.errors).toHaveLength(1);
    expect(c.score(node('n', { a: '1' }))).toBe(0);
  });
});

describe('requiredNodeAffinityOf (GetRequiredNodeAffinity)', () => {
  const pod = (spec: Partial<Pod['spec']>): Pod => ({ spec: { containers: [], ...spec } as Pod['spec'] });
  it('no constraints matches every node', () => {
    expect(requiredNodeAffinityOf(pod({})).match(node('n'))).toBe(true);
  });
  it('nodeSelector needs every label', () => {
    const r = requiredNodeAffinityOf(pod({ nodeSelector: { a: '1', b: '2' } }));
    expect(r.match(node('n', { a: '1', b: '2' }))).toBe(true);
    expect(r.match(node('n', { a: '1' }))).toBe(false);
  });
  it('nodeSelector AND required affinity', () => {
    const r = requiredNodeAffinityOf(
      pod({
        nodeSelector: { a: '1' },
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'b', operator: 'Exists' }] }],
            },
          },
        },
      }),
    );
    expect(r.match(node('n', { a: '1', b: '' }))).toBe(true);
    expect(r.match(node('n', { a: '1' }))).toBe(false);
    expect(r.match(node('n', { b: '' }))).toBe(false);
  });
  it('required affinity with no terms matches nothing', () => {
    const r = requiredNodeAffinityOf(
      pod({
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
        },
      }),
    );
    expect(r.match(node('n'))).toBe(false);
  });
});
