import { NodeScoreCache } from '../node-score-cache';

describe('NodeScoreCache', () => {
  it('grows to the node count given at begin, keeping what was cached, and misses what was not', () => {
    const cache = new NodeScoreCache();
    const owners = Array.from({ length: 200 }, (_, i) => ({ i }));
    cache.begin('pod-a', 10);
    for (let i = 0; i < 10; i++) expect(cache.get(i, owners[i], 0)).toBeUndefined();
    for (let i = 0; i < 10; i++) cache.set(i, owners[i], 0, i * 2);
    cache.begin('pod-a', 200);
    for (let i = 0; i < 10; i++) expect(cache.get(i, owners[i], 0)).toBe(i * 2);
    for (let i = 10; i < 200; i++) expect(cache.get(i, owners[i], 0)).toBeUndefined();
    cache.set(199, owners[199], 3, 7);
    expect(cache.get(199, owners[199], 3)).toBe(7);
    expect(cache.get(199, owners[199], 4)).toBeUndefined();
    cache.begin('pod-b', 200);
    expect(cache.get(0, owners[0], 0)).toBeUndefined();
  });
});
