import { checkValueLimits, InputLimitError, inputLimits, jsonStringsWellFormed } from './input-limits';
import { ObjectValidationError, ParseError, parseKubernetesObjects } from './parse';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected a throw');
}

const pod = (name: string, extra: Record<string, unknown> = {}, namespace = 'default') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: { containers: [{ name: 'c' }], ...extra },
});
const node = (name: string, allocatable: Record<string, unknown> = { cpu: '4' }) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: { allocatable },
});
const list = (...items: unknown[]) => JSON.stringify({ kind: 'List', items });

describe('input limits', () => {
  it('depth: 10k-deep JSON and YAML are refused without overflowing the stack', () => {
    const json = thrown(() => parseKubernetesObjects(`${'['.repeat(10_000)}${']'.repeat(10_000)}`));
    expect(json).toBeInstanceOf(InputLimitError);
    expect(json).toMatchObject({ setting: 'SCHEDLAB_INPUT_MAX_DEPTH', max: 100 });
    const yaml = thrown(() => parseKubernetesObjects(`a: ${'['.repeat(10_000)}${']'.repeat(10_000)}`));
    // the YAML parser stops such a document itself (a syntax error), or our depth limit does
    expect(yaml instanceof InputLimitError || yaml instanceof ParseError).toBe(true);
  });

  it('names the path of a too-long string and of too-deep nesting', () => {
    const limits = inputLimits({ maxStringBytes: 10, maxDepth: 3 });
    expect(thrown(() => checkValueLimits({ a: [{ b: 'x'.repeat(11) }] }, limits))).toMatchObject({
      field: 'a[0].b',
      setting: 'SCHEDLAB_INPUT_MAX_STRING_BYTES',
    });
    expect(thrown(() => checkValueLimits({ a: [{ b: [1] }] }, limits))).toMatchObject({ field: 'a[0].b' });
    expect(() => checkValueLimits({ a: [{ b: 'ü'.repeat(5) }] }, limits)).not.toThrow();
    expect(thrown(() => checkValueLimits({ a: 'ü'.repeat(6) }, limits))).toBeInstanceOf(InputLimitError);
  });

  it('every kind of problem is found wherever it sits (keys, values, arrays), at any maxDepth', () => {
    const limits = inputLimits({ maxStringBytes: 10, maxDepth: 3 });
    const long = 'x'.repeat(11);
    const cases: [unknown, string, string][] = [
      [{ [long]: 1 }, 'SCHEDLAB_INPUT_MAX_STRING_BYTES', ''],
      [{ a: { [long]: 'v' } }, 'SCHEDLAB_INPUT_MAX_STRING_BYTES', 'a'],
      [{ a: ['ok', long] }, 'SCHEDLAB_INPUT_MAX_STRING_BYTES', 'a[1]'],
      [[['ok', [long]]], 'SCHEDLAB_INPUT_MAX_STRING_BYTES', '[0][1][0]'],
      [{ a: [[[]]] }, 'SCHEDLAB_INPUT_MAX_DEPTH', 'a[0][0]'],
      [[{ a: { b: {} } }], 'SCHEDLAB_INPUT_MAX_DEPTH', '[0].a.b'],
    ];
    for (const [value, setting, field] of cases)
      expect([value, thrown(() => checkValueLimits(value, limits))]).toMatchObject([
        value,
        { setting, field },
      ]);
    expect(thrown(() => checkValueLimits({ 'k\udc00': 1 }, limits))).toMatchObject({
      name: 'MalformedTextError',
    });
    expect(thrown(() => checkValueLimits({ a: ['\ud800'] }, limits))).toMatchObject({
      name: 'MalformedTextError',
      field: 'a[0]',
    });
    expect(() =>
      checkValueLimits({ a: [[]], b: ['x'.repeat(10)], ['k'.repeat(10)]: 1 }, limits),
    ).not.toThrow();
    // A maxDepth past what recursion can safely reach: only the iterative walk runs.
    let deep: unknown = [];
    for (let i = 1; i < 5_000; i++) deep = [deep];
    expect(() => checkValueLimits(deep, inputLimits({ maxDepth: 5_000 }))).not.toThrow();
    expect(thrown(() => checkValueLimits([deep], inputLimits({ maxDepth: 5_000 })))).toMatchObject({
      setting: 'SCHEDLAB_INPUT_MAX_DEPTH',
    });
  });

  it('YAML alias expansion (a billion laughs) is refused', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]']
      .concat(
        'bcdefg'.split('').map((l, i) => `${l}: &${l} [${Array(9).fill(`*${'abcdef'[i]}`).join(', ')}]`),
      )
      .join('\n');
    expect(thrown(() => parseKubernetesObjects(bomb))).toMatchObject({
      setting: 'SCHEDLAB_INPUT_MAX_YAML_ALIASES',
    });
  });

  it('a YAML alias without an anchor is a ParseError; a lone surrogate a MalformedTextError naming the field', () => {
    expect(thrown(() => parseKubernetesObjects('*a'))).toBeInstanceOf(ParseError);
    expect(thrown(() => parseKubernetesObjects(list(pod('p', { nodeName: 'n\ud800' }))))).toMatchObject({
      name: 'MalformedTextError',
      field: 'items[0].spec.nodeName',
    });
  });

  it('a lone surrogate escaped in JSON text, in a value or a key, is a MalformedTextError', () => {
    // JSON.stringify writes a lone surrogate as an escape: the text itself is well-formed.
    const escapedValue = list(pod('p', { nodeName: 'n\ud800' }));
    expect(escapedValue).toContain('\\ud800');
    expect(thrown(() => parseKubernetesObjects(escapedValue))).toMatchObject({
      name: 'MalformedTextError',
      field: 'items[0].spec.nodeName',
    });
    const escapedKey = list(pod('p', { nodeSelector: { '\udc00k': 'v' } }));
    expect(thrown(() => parseKubernetesObjects(escapedKey))).toMatchObject({ name: 'MalformedTextError' });
    // An escaped pair is well-formed, and so is an escaped backslash before "ud800".
    const pair = parseKubernetesObjects(list(pod('p', { nodeSelector: { k: '\ud83d\ude00' } })));
    expect(pair.objects[0].spec).toMatchObject({ nodeSelector: { k: '\ud83d\ude00' } });
    expect(jsonStringsWellFormed(JSON.stringify({ a: '\\ud800' }))).toBe(false);
    expect(parseKubernetesObjects(list(pod('p', { nodeSelector: { k: '\\ud800' } }))).objects).toHaveLength(
      1,
    );
    expect(jsonStringsWellFormed(JSON.stringify({ a: 'plain ü €' }))).toBe(true);
  });

  it('object count', () => {
    const error = thrown(() =>
      parseKubernetesObjects(list(pod('a'), pod('b'), pod('c')), { limits: { maxObjects: 2 } }),
    );
    expect(error).toMatchObject({ setting: 'SCHEDLAB_INPUT_MAX_OBJECTS', field: '.items[2]' });
  });
});

describe('apiserver validation of a dump', () => {
  it('refuses a duplicate kind/namespace/name, naming it', () => {
    const e = thrown(() => parseKubernetesObjects(list(pod('web'), pod('web')))) as ObjectValidationError;
    expect(e).toBeInstanceOf(ObjectValidationError);
    expect(e).toMatchObject({ kind: 'Pod', namespace: 'default', name: 'web', field: 'metadata.name' });
    expect(e.message).toContain('Duplicate value: "web"');
    // a missing namespace is "default"
    const implicit = { ...pod('web'), metadata: { name: 'web' } };
    expect(thrown(() => parseKubernetesObjects(list(pod('web'), implicit)))).toBeInstanceOf(
      ObjectValidationError,
    );
    expect(thrown(() => parseKubernetesObjects(list(node('n'), node('n'))))).toMatchObject({ kind: 'Node' });
    expect(parseKubernetesObjects(list(pod('web'), pod('web', {}, 'b'), node('web'))).objects).toHaveLength(
      3,
    );
  });

  it.each([
    [node('Upper'), 'metadata.name'],
    [node('nöde'), 'metadata.name'],
    [node('a_b'), 'metadata.name'],
    [node(`${'a'.repeat(254)}`), 'metadata.name'],
    [pod('ok', {}, 'ns.with.dots'), 'metadata.namespace'],
    [pod('ok', { nodeName: 'Node 1' }), 'spec.nodeName'],
    [{ apiVersion: 'v1', kind: 'Service', metadata: { name: '1svc', namespace: 'd' } }, 'metadata.name'],
  ])('refuses names the apiserver refuses (%#)', (obj, field) => {
    expect(thrown(() => parseKubernetesObjects(list(obj)))).toMatchObject({ field });
  });

  it('accepts DNS subdomain names with dots', () => {
    expect(parseKubernetesObjects(list(node('ip-10-0-0-1.eu-west-1.compute.internal'))).objects).toHaveLength(
      1,
    );
  });

  it('a misspelled kind is an error; other unknown kinds are skipped', () => {
    for (const [kind, apiVersion, meant] of [
      ['pod', 'v1', 'Pod'],
      ['Pods', 'v1', 'Pod'],
      ['Nodes', undefined, 'Node'],
      ['Deploymnet', 'apps/v1', 'Deployment'],
      ['PriortyClass', 'scheduling.k8s.io/v1', 'PriorityClass'],
    ] as const) {
      const e = thrown(() => parseKubernetesObjects(list({ ...pod('x'), kind, apiVersion })));
      expect(e).toMatchObject({ field: 'kind' });
      expect((e as Error).message).toContain(`did you mean "${meant}"`);
    }
    const r = parseKubernetesObjects(
      list(
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'd' } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd' } },
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'd' } },
        { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'e', namespace: 'd' } },
      ),
    );
    expect(r.skipped.map((s) => s.kind)).toEqual(['Role', 'ConfigMap', 'Secret', 'Endpoints']);
  });

  it.each(['1e309', '99999999999999999999999999', '9007199254740992', '-1', '-100m'])(
    'refuses memory %s outside [0, 2^53-1] naming the field',
    (q) => {
      expect(thrown(() => parseKubernetesObjects(list(node('n', { memory: q }))))).toMatchObject({
        field: 'status.allocatable.memory',
      });
    },
  );

  it('refuses 1Ei of memory, accepts 4Pi, and cpu up to 2^53-1 millicores', () => {
    expect(thrown(() => parseKubernetesObjects(list(node('n', { memory: '1Ei' }))))).toBeInstanceOf(
      ObjectValidationError,
    );
    expect(
      parseKubernetesObjects(list(node('n', { memory: '4Pi', cpu: '9007199254740m' }))).objects,
    ).toHaveLength(1);
    expect(thrown(() => parseKubernetesObjects(list(node('n', { cpu: '9007199254741' }))))).toMatchObject({
      field: 'status.allocatable.cpu',
    });
    const podReq = pod('p', { containers: [{ name: 'c', resources: { requests: { cpu: '1e309' } } }] });
    expect(thrown(() => parseKubernetesObjects(list(podReq)))).toMatchObject({
      field: 'spec.containers[0].resources.requests.cpu',
    });
  });
});
