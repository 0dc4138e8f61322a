import { packSnapshotItems, unpackSnapshotItems } from './snapshot-content';

describe('snapshot content', () => {
  it('packs snapshot content canonically: key order does not change the hash', () => {
    const one = packSnapshotItems([{ kind: 'Node', metadata: { name: 'n', labels: { a: '1', b: '2' } } }]);
    const two = packSnapshotItems([{ metadata: { labels: { b: '2', a: '1' }, name: 'n' }, kind: 'Node' }]);
    expect(one.contentHash).toBe(two.contentHash);
    expect(unpackSnapshotItems(one.content)).toEqual([
      { kind: 'Node', metadata: { labels: { a: '1', b: '2' }, name: 'n' } },
    ]);
    expect(packSnapshotItems([{ kind: 'Node', metadata: { name: 'm' } }]).contentHash).not.toBe(
      one.contentHash,
    );
  });
});
