import { firstDifference } from '../compare';
import { replayCase } from '../replay';
import { readFileSync } from 'node:fs';
import path from 'node:path';

describe('firstDifference', () => {
  it('is undefined for deep-equal values regardless of key order', () => {
    expect(firstDifference({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBeUndefined();
  });

  it('names the path of the first differing field in key order', () => {
    expect(firstDifference({ scores: { 'node-1': 5, 'node-2': 7 } }, { scores: { 'node-1': 5, 'node-2': 8 } })).toEqual({
      path: 'scores.node-2',
      expected: 7,
      actual: 8,
    });
  });

  it('reports array elements and fields only one side has', () => {
    expect(firstDifference({ v: ['a', 'b'] }, { v: ['a'] })).toEqual({ path: 'v[1]', expected: 'b', actual: undefined });
    expect(firstDifference({}, { extra: 1 })).toEqual({ path: 'extra', expected: undefined, actual: 1 });
  });
});

describe('replayCase on a tampered golden case', () => {
  it('reports the pod and the field that no longer matches', () => {
    const file = path.resolve(__dirname, '../../../../../shared/conformance/cases/case-12.json');
    const golden = JSON.parse(readFileSync(file, 'utf8'));
    const first = golden.expected[0];
    const other = Object.keys(first.scores)[0];
    golden.expected[0] = { ...first, node: first.node === 'node-1' ? 'node-2' : 'node-1', scores: { ...first.scores, [other]: -1 } };
    const report = replayCase(golden);
    expect(report.exact).toBe(false);
    expect(report.mismatches[0].subject).toBe(first.pod);
    expect(report.mismatches[0].difference.path).toBe('node');
  });
});
