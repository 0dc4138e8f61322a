import {
  LABEL_FAILURE_DOMAIN_BETA_ZONE,
  LABEL_TOPOLOGY_ZONE,
  SeededRandom,
  canonicalJson,
  namespaceOf,
  podKeyOf,
  podKeyOfReference,
  seededRandomInt,
  zoneOf,
} from './index';

describe('SeededRandom', () => {
  // The streams the workloads' generated names and the scheduler's tie-breaks were recorded with:
  // a change here moves every generated name or random tie-break of every seed.
  it('mulberry32 repeats the recorded stream for a seed', () => {
    const random = new SeededRandom(7);
    expect([0, 1, 2, 3, 4, 5].map(() => random.intn(1_000_000))).toEqual([
      11704, 61958, 976907, 699028, 521445, 405521,
    ]);
    const int = seededRandomInt(7);
    expect([0, 1, 2].map(() => int(1_000_000))).toEqual([11704, 61958, 976907]);
  });

  it('splitmix32 repeats the scheduler stream for a seed', () => {
    const random = new SeededRandom(7, 'splitmix32');
    expect([0, 1, 2, 3, 4, 5].map(() => random.intn(1_000_000))).toEqual([
      137064, 451082, 998101, 552324, 445999, 270601,
    ]);
  });

  it('keeps a 32-bit counter that wraps: seeds and counters past 2^31, past 2^32 or negative', () => {
    const negative = new SeededRandom(-1);
    expect([0, 1, 2, 3].map(() => negative.intn(1_000_000))).toEqual([896422, 189478, 715652, 944059]);
    expect(negative.counter).toBe(3031295955);
    const wide = new SeededRandom(2 ** 32 + 5, 'splitmix32');
    expect([0, 1, 2, 3].map(() => wide.intn(1_000_000))).toEqual([344317, 741812, 823620, 90228]);
    const nearTop = new SeededRandom(0xfffffff0, 'splitmix32');
    expect([0, 1, 2, 3].map(() => nearTop.intn(1_000_000))).toEqual([737010, 731120, 192260, 495756]);
    expect(nearTop.counter).toBe(2027808468);
  });

  it('a restored counter repeats the later draws', () => {
    const a = new SeededRandom(3);
    a.next();
    const b = new SeededRandom(0);
    b.counter = a.counter;
    expect([a.next(), a.next()]).toEqual([b.next(), b.next()]);
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: undefined }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":1}]},"b":1}',
    );
  });

  it('renders a Date as its ISO string, as JSON.stringify and Go do', () => {
    expect(canonicalJson({ at: new Date('2024-01-02T03:04:05Z') })).toBe('{"at":"2024-01-02T03:04:05.000Z"}');
  });

  it('renders a top-level undefined as null', () => {
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('well-known keys and labels', () => {
  it('keys a namespaced object, an absent or empty namespace meaning default', () => {
    expect(podKeyOf({ metadata: { namespace: 'shop', name: 'web' } })).toBe('shop/web');
    expect(podKeyOf({ metadata: { name: 'web' } })).toBe('default/web');
    expect(podKeyOf({ metadata: { namespace: '', name: 'web' } })).toBe('default/web');
    expect(namespaceOf({ metadata: {} })).toBe('default');
    expect(podKeyOfReference('web')).toBe('default/web');
    expect(podKeyOfReference('shop/web')).toBe('shop/web');
  });

  it("reads a node's zone from the GA label, else the beta one", () => {
    expect(
      zoneOf({ metadata: { labels: { [LABEL_TOPOLOGY_ZONE]: 'a', [LABEL_FAILURE_DOMAIN_BETA_ZONE]: 'b' } } }),
    ).toBe('a');
    expect(zoneOf({ metadata: { labels: { [LABEL_FAILURE_DOMAIN_BETA_ZONE]: 'b' } } })).toBe('b');
    expect(zoneOf({ metadata: {} })).toBeUndefined();
    expect(zoneOf(undefined)).toBeUndefined();
  });
});
