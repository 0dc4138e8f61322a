import { topScoredNodes } from '../explanation';
import type { ScoreResult } from '../framework/runtime/framework';

describe('topScoredNodes keeps every score as the number it is', () => {
  // Small integers are stored as such (no boxed double per field); every other number unchanged.
  const raw = [3, -0, 2.5, 2 ** 31, -7];
  const result: ScoreResult = {
    totals: raw.map((_, i) => ({ name: `node-${i}`, score: [6, 0, 5, 2 ** 32, -14][i] })),
    plugins: [
      {
        plugin: 'Example',
        weight: 2,
        raw: Float64Array.from(raw),
        weighted: Float64Array.from(raw, (v) => v * 2),
      },
    ],
  };

  it('reads the same totals, raw and weighted scores back', () => {
    const top = topScoredNodes(result, null, raw.length);
    const byNode = new Map(top.map((t) => [t.node, t]));
    raw.forEach((v, i) => {
      const node = byNode.get(`node-${i}`)!;
      expect(Object.is(node.plugins[0].raw, v)).toBe(true);
      expect(Object.is(node.plugins[0].weighted, v * 2)).toBe(true);
      expect(Object.is(node.total, result.totals[i].score)).toBe(true);
    });
    expect(top.map((t) => t.node)).toEqual(['node-3', 'node-0', 'node-2', 'node-1', 'node-4']);
  });
});
