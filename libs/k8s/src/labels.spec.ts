import type { LabelSelector } from './types';
import {
  everything,
  parseSelectorText,
  SelectorTextError,
  LabelSelectorError,
  mergeSelectorsAnd,
  nothing,
  requiredLabelOf,
  selectorFromLabelSelector,
  selectorFromSet,
} from './labels';

describe('selectorFromLabelSelector (metav1.LabelSelectorAsSelector)', () => {
  it('null/undefined selects nothing, {} selects everything', () => {
    expect(selectorFromLabelSelector(null).matches({ a: 'b' })).toBe(false);
    expect(selectorFromLabelSelector(undefined).matches({})).toBe(false);
    expect(selectorFromLabelSelector(null).isEmpty()).toBe(false);
    const all = selectorFromLabelSelector({});
    expect(all.matches({})).toBe(true);
    expect(all.matches(undefined)).toBe(true);
    expect(all.isEmpty()).toBe(true);
    expect(selectorFromLabelSelector({ matchLabels: {}, matchExpressions: [] }).isEmpty()).toBe(true);
  });

  // Matching cases in the spirit of labels/selector_test.go TestSelectorMatches / TestRequirementMatches.
  const cases: [string, LabelSelector, Record<string, string> | undefined, boolean][] = [
    ['matchLabels equal', { matchLabels: { x: 'y' } }, { x: 'y' }, true],
    ['matchLabels extra labels ok', { matchLabels: { x: 'y' } }, { x: 'y', z: 'w' }, true],
    ['matchLabels different value', { matchLabels: { x: 'y' } }, { x: 'z' }, false],
    ['matchLabels missing key', { matchLabels: { x: 'y' } }, { z: 'y' }, false],
    ['matchLabels all must match', { matchLabels: { x: 'y', z: 'w' } }, { x: 'y', z: 'v' }, false],
    ['matchLabels undefined labels', { matchLabels: { x: 'y' } }, undefined, false],
    ['In hit', { matchExpressions: [{ key: 'x', operator: 'In', values: ['a', 'b'] }] }, { x: 'b' }, true],
    ['In miss', { matchExpressions: [{ key: 'x', operator: 'In', values: ['a', 'b'] }] }, { x: 'c' }, false],
    ['In absent key', { matchExpressions: [{ key: 'x', operator: 'In', values: ['a'] }] }, {}, false],
    [
      'In empty-string value',
      { matchExpressions: [{ key: 'x', operator: 'In', values: [''] }] },
      { x: '' },
      true,
    ],
    [
      'NotIn absent key matches',
      { matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['a'] }] },
      {},
      true,
    ],
    [
      'NotIn other value matches',
      { matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['a'] }] },
      { x: 'b' },
      true,
    ],
    [
      'NotIn listed value',
      { matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['a'] }] },
      { x: 'a' },
      false,
    ],
    ['Exists', { matchExpressions: [{ key: 'x', operator: 'Exists' }] }, { x: '' }, true],
    ['Exists absent', { matchExpressions: [{ key: 'x', operator: 'Exists' }] }, { y: 'x' }, false],
    ['DoesNotExist absent', { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, { y: 'x' }, true],
    [
      'DoesNotExist present',
      { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] },
      { x: 'y' },
      false,
    ],
    [
      'DoesNotExist on undefined labels',
      { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] },
      undefined,
      true,
    ],
    [
      'matchLabels AND matchExpressions',
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe'] }] },
      { app: 'web', tier: 'be' },
      false,
    ],
    [
      'all requirements satisfied',
      {
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['fe'] },
          { key: 'canary', operator: 'DoesNotExist' },
        ],
      },
      { app: 'web', tier: 'fe' },
      true,
    ],
    [
      'prototype keys are not labels',
      { matchExpressions: [{ key: 'constructor', operator: 'Exists' }] },
      {},
      false,
    ],
  ];
  it.each(cases)('%s', (_name, sel, labels, want) => {
    expect(selectorFromLabelSelector(sel).matches(labels)).toBe(want);
  });

  it.each([
    [
      { matchExpressions: [{ key: 'x', operator: 'Gt', values: ['1'] }] },
      'matchExpressions[0].operator',
      /not a valid label selector operator/,
    ],
    [
      { matchExpressions: [{ key: 'x', operator: 'In', values: [] }] },
      'matchExpressions[0].values',
      /can't be empty/,
    ],
    [{ matchExpressions: [{ key: 'x', operator: 'NotIn' }] }, 'matchExpressions[0].values', /can't be empty/],
    [
      { matchExpressions: [{ key: 'x', operator: 'Exists', values: ['a'] }] },
      'matchExpressions[0].values',
      /must be empty/,
    ],
    [{ matchExpressions: [{ key: 'a b', operator: 'Exists' }] }, 'matchExpressions[0].key', /name part/],
    [{ matchLabels: { x: 'bad value!' } }, 'matchLabels', /valid label/],
    // Names an object inherits are no operators either.
    [
      { matchExpressions: [{ key: 'x', operator: 'constructor', values: ['a'] }] },
      'matchExpressions[0].operator',
      /: "constructor" is not a valid label selector operator$/,
    ],
    [
      { matchExpressions: [{ key: 'x', operator: 'toString' }] },
      'matchExpressions[0].operator',
      /: "toString" is not a valid label selector operator$/,
    ],
  ] as [LabelSelector, string, RegExp][])('rejects %j naming %s', (sel, field, msg) => {
    let err: unknown;
    try {
      selectorFromLabelSelector(sel);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LabelSelectorError);
    expect((err as LabelSelectorError).field).toBe(field);
    expect((err as LabelSelectorError).message).toMatch(msg);
  });

  it('renders requirements sorted by key like upstream String()', () => {
    const sel = selectorFromLabelSelector({
      matchLabels: { z: '1' },
      matchExpressions: [
        { key: 'a', operator: 'NotIn', values: ['y', 'x'] },
        { key: 'm', operator: 'Exists' },
        { key: 'n', operator: 'DoesNotExist' },
        { key: 'b', operator: 'In', values: ['q'] },
      ],
    });
    expect(sel.toString()).toBe('a notin (x,y),b in (q),m,!n,z=1');
  });
});

describe('selectorFromSet / everything / nothing / merge', () => {
  it('empty set selects everything', () => {
    expect(selectorFromSet({}).matches({ a: 'b' })).toBe(true);
    expect(selectorFromSet(undefined).isEmpty()).toBe(true);
  });
  it('equality on every key', () => {
    const s = selectorFromSet({ a: '1', b: '2' });
    expect(s.matches({ a: '1', b: '2', c: '3' })).toBe(true);
    expect(s.matches({ a: '1' })).toBe(false);
    expect(s.toString()).toBe('a=1,b=2');
  });
  it('everything/nothing', () => {
    expect(everything().matches(undefined)).toBe(true);
    expect(nothing().matches({})).toBe(false);
  });
  it('mergeSelectorsAnd', () => {
    const m = mergeSelectorsAnd([
      selectorFromSet({ a: '1' }),
      selectorFromLabelSelector({ matchExpressions: [{ key: 'b', operator: 'Exists' }] }),
    ]);
    expect(m.matches({ a: '1', b: '' })).toBe(true);
    expect(m.matches({ a: '1' })).toBe(false);
    expect(mergeSelectorsAnd([everything(), nothing()]).matches({})).toBe(false);
    expect(mergeSelectorsAnd([]).isEmpty()).toBe(true);
  });
});

describe('parseSelectorText (kubectl selector strings)', () => {
  it('reads equality, inequality, set and existence requirements', () => {
    const sel = parseSelectorText('tier=web, zone in (a, b),!legacy,env!=dev');
    expect(sel.matches({ tier: 'web', zone: 'b', env: 'prod' })).toBe(true);
    expect(sel.matches({ tier: 'web', zone: 'c', env: 'prod' })).toBe(false);
    expect(sel.matches({ tier: 'web', zone: 'a', legacy: '1' })).toBe(false);
    expect(sel.matches({ tier: 'web', zone: 'a', env: 'dev' })).toBe(false);
  });
  it('selects everything when empty', () => {
    expect(parseSelectorText('').isEmpty()).toBe(true);
  });
  it('refuses what labels.Parse refuses, naming the part', () => {
    expect(() => parseSelectorText('a b c')).toThrow(SelectorTextError);
    expect(() => parseSelectorText('a b c')).toThrow('cannot parse selector requirement "a b c"');
    expect(() => parseSelectorText('-bad=x')).toThrow(/invalid selector "-bad=x"/);
  });
});

describe('requiredLabelOf', () => {
  it.each([
    [{ matchLabels: { app: 'web' } }, { key: 'app', value: 'web', sole: true }],
    [
      { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
      { key: 'app', value: 'web', sole: true },
    ],
    // A default spread selector: the Service's and the ReplicaSet's requirement are the same one.
    [
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
      { key: 'app', value: 'web', sole: true },
    ],
    [
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] },
      { key: 'app', value: 'web', sole: false },
    ],
    [{ matchLabels: { app: 'web', tier: 'front' } }, { key: 'app', value: 'web', sole: false }],
    [
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
      { key: 'app', value: 'web', sole: false },
    ],
    [{ matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'db'] }] }, undefined],
    [{ matchExpressions: [{ key: 'app', operator: 'Exists' }] }, undefined],
  ] as [LabelSelector, unknown][])('%j', (sel, want) => {
    expect(requiredLabelOf(selectorFromLabelSelector(sel))).toEqual(want);
  });
});
