import { countBy } from './snapshot-counts';

describe('countBy', () => {
  it('counts under each key in first-seen order, keys named as members of Object.prototype too', () => {
    const kinds = ['Pod', 'constructor', 'Pod', 'toString', 'constructor', '__proto__'];
    const counts = countBy(kinds, (k) => k);
    expect(Object.entries(counts)).toEqual([
      ['Pod', 2],
      ['constructor', 2],
      ['toString', 1],
      ['__proto__', 1],
    ]);
  });
});
