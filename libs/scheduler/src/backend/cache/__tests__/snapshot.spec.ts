import { makeNode } from '../../../testing/builders';
import { Snapshot } from '../snapshot';

const zoned = (name: string, zone: string) =>
  makeNode({ name, labels: { 'topology.kubernetes.io/zone': zone } });

describe('Snapshot name ranks', () => {
  // The first half of the nodes in zone a, the rest in b: node-tree order interleaves them (1st of
  // a, 1st of b, 2nd of a …), and ranks must still follow the names.
  const ranks = (names: string[]) => {
    const snapshot = new Snapshot(names.map((n, i) => zoned(n, i < names.length / 2 ? 'a' : 'b')));
    return Object.fromEntries(snapshot.list().map((ni) => [ni.name, ni.nameRank]));
  };

  it('takes the input order where the names ascend, as a dump lists them', () => {
    expect(ranks(['n1', 'n2', 'n3', 'n4'])).toEqual({ n1: 0, n2: 1, n3: 2, n4: 3 });
  });

  it('sorts names given in any other order, as strings compare', () => {
    expect(ranks(['n3', 'n10', 'n1', 'n2'])).toEqual({ n1: 0, n10: 1, n2: 2, n3: 3 });
  });
});

describe('Snapshot node-tree order', () => {
  it('interleaves the zones, so the index of a node is not its input position', () => {
    const snapshot = new Snapshot(['n1', 'n2', 'n3', 'n4'].map((n, i) => zoned(n, i < 2 ? 'a' : 'b')));
    expect(snapshot.list().map((ni) => `${ni.index}:${ni.name}`)).toEqual(['0:n1', '1:n3', '2:n2', '3:n4']);
  });
});
