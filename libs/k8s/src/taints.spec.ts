import type { Taint, Toleration } from './types';
import { findMatchingUntoleratedTaint, tolerationsTolerateTaint, tolerationToleratesTaint } from './taints';

// Cases from core/v1 toleration_test.go TestTolerationToleratesTaint.
const cases: [string, Toleration, Taint, boolean][] = [
  ['empty toleration and taint', {}, { key: '', effect: '' } as unknown as Taint, true],
  [
    'Exists ignores value',
    { key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    true,
  ],
  [
    'Equal with same value',
    { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
    { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    true,
  ],
  [
    'Equal with different value',
    { key: 'foo', operator: 'Equal', value: 'value1', effect: 'NoSchedule' },
    { key: 'foo', value: 'value2', effect: 'NoSchedule' },
    false,
  ],
  [
    'empty operator means Equal',
    { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    true,
  ],
  [
    'empty operator different value',
    { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    { key: 'foo', value: 'baz', effect: 'NoSchedule' },
    false,
  ],
  [
    'different effect',
    { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoExecute' },
    { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    false,
  ],
  [
    'empty effect matches all effects',
    { key: 'foo', operator: 'Equal', value: 'bar' },
    { key: 'foo', value: 'bar', effect: 'NoExecute' },
    true,
  ],
  [
    'empty key with Exists matches all keys',
    { operator: 'Exists' },
    { key: 'anything', value: 'v', effect: 'PreferNoSchedule' },
    true,
  ],
  [
    'empty key with Exists honors effect',
    { operator: 'Exists', effect: 'NoSchedule' },
    { key: 'k', effect: 'NoExecute' },
    false,
  ],
  ['different key', { key: 'foo', operator: 'Exists' }, { key: 'bar', effect: 'NoSchedule' }, false],
  [
    'unknown operator tolerates nothing',
    { key: 'foo', operator: 'Gt', value: '1' },
    { key: 'foo', value: '1', effect: 'NoSchedule' },
    false,
  ],
  [
    'missing values compare equal',
    { key: 'foo', operator: 'Equal' },
    { key: 'foo', effect: 'NoSchedule' },
    true,
  ],
];

describe('tolerationToleratesTaint', () => {
  it.each(cases)('%s', (_n, tol, taint, want) => {
    expect(tolerationToleratesTaint(tol, taint)).toBe(want);
  });
});

describe('tolerationsTolerateTaint / findMatchingUntoleratedTaint', () => {
  const taints: Taint[] = [
    { key: 'a', value: '1', effect: 'NoSchedule' },
    { key: 'b', value: '2', effect: 'PreferNoSchedule' },
    { key: 'c', value: '3', effect: 'NoExecute' },
  ];
  const noSchedule = (t: Taint) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

  it('no tolerations tolerate nothing', () => {
    expect(tolerationsTolerateTaint(undefined, taints[0])).toBe(false);
    expect(tolerationsTolerateTaint([], taints[0])).toBe(false);
  });
  it('returns the first untolerated taint that passes the filter', () => {
    expect(findMatchingUntoleratedTaint(taints, [], noSchedule)).toEqual(taints[0]);
    expect(findMatchingUntoleratedTaint(taints, [{ key: 'a', operator: 'Exists' }], noSchedule)).toEqual(
      taints[2],
    );
    expect(
      findMatchingUntoleratedTaint(
        taints,
        [
          { key: 'a', operator: 'Exists' },
          { key: 'c', value: '3' },
        ],
        noSchedule,
      ),
    ).toBeUndefined();
  });
  it('filtered-out taints are ignored and no filter means all', () => {
    expect(findMatchingUntoleratedTaint([taints[1]], [], noSchedule)).toBeUndefined();
    expect(findMatchingUntoleratedTaint([taints[1]], [])).toEqual(taints[1]);
    expect(findMatchingUntoleratedTaint(undefined, [])).toBeUndefined();
  });
});
