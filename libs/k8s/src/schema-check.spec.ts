import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { KIND_CHECKS, METADATA_CHECK } from './kind-checks.generated';
import { parseKubernetesObjects, type KubeObject } from './parse';
import { CheckEmitter, checksModuleSource, refinedAs } from './schema-check';
import {
  REFINEMENTS,
  codePointLength,
  isObject,
  isPlainData,
  labelSelectorProblem,
} from './schema-refinements';
import { KIND_SCHEMAS, metadataSchema } from './schemas';

/** The check CheckEmitter writes for `schema`, compiled here (the generated module's code, untyped). */
function compileCheck(schema: z.ZodType): (value: unknown) => boolean {
  const emitter = new CheckEmitter(false);
  const name = emitter.nameOf(schema);
  const build = new Function(
    'REFINEMENTS',
    'codePointLength',
    'isObject',
    'isPlainData',
    `${emitter.declarations()}\nreturn ${name};`,
  ) as (...helpers: unknown[]) => (value: unknown) => boolean;
  return build(REFINEMENTS, codePointLength, isObject, isPlainData);
}

/** The generated check for a kind schema or metadataSchema; compiled afresh for any other. */
function conformsTo(schema: z.ZodType, value: unknown): boolean {
  if (schema === metadataSchema) return METADATA_CHECK(value);
  const kind = Object.keys(KIND_SCHEMAS).find((k) => KIND_SCHEMAS[k] === schema);
  return (kind !== undefined ? KIND_CHECKS[kind] : compileCheck(schema))(value);
}

const examples = join(__dirname, '../../../examples');

/** Every object of the example dumps (the files that parse as dumps: not policies or timelines). */
function exampleObjects(): KubeObject[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name.endsWith('.yaml')) files.push(join(dir, entry.name));
    }
  };
  walk(examples);
  return files.flatMap((file) => {
    try {
      return parseKubernetesObjects(readFileSync(file, 'utf8')).objects;
    } catch {
      return []; // a profile, policy, scenario or timeline file: not a dump
    }
  });
}

const objects = exampleObjects();

/** mulberry32: the same mutations on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALUES: (() => unknown)[] = [
  () => null,
  () => undefined,
  () => '',
  () => 'x',
  () => '-1',
  () => '1Gi',
  () => '1.5',
  () => '2e400',
  () => 'In',
  () => 'Exists',
  () => 'Equal',
  () => 'NoSchedule',
  () => 'DoNotSchedule',
  () => 'Always',
  () => 0,
  () => 1,
  () => -1,
  () => 1.5,
  () => 101,
  () => 70000,
  () => NaN,
  () => Infinity,
  () => 2 ** 60,
  () => true,
  () => false,
  () => ({}),
  () => [],
  () => [''],
  () => [{}],
  () => ['a', 'b'],
  () => ({ key: '' }),
  () => ({ key: 'k', operator: 'In', values: [] }),
  () => ({ matchLabels: { a: 'b' } }),
  () => ({ matchLabels: { 'a b': 'c' } }),
  () => Object.create(null) as unknown,
  () => new Date(0),
  () => new Map(),
];

/** Every path to a value inside `root` (object keys and array indexes). */
function paths(root: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (Array.isArray(v)) v.forEach((x, i) => (out.push([...path, i]), walk(x, [...path, i])));
    else if (typeof v === 'object' && v !== null)
      for (const key of Object.keys(v)) {
        out.push([...path, key]);
        walk((v as Record<string, unknown>)[key], [...path, key]);
      }
  };
  walk(root, []);
  return out;
}

/** A copy of `obj` with one value replaced, removed, added or renamed. */
function mutate(obj: KubeObject, next: () => number): KubeObject {
  const copy = structuredClone(obj);
  const all = paths(copy);
  const path = all[Math.floor(next() * all.length)];
  let parent = copy as unknown as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) parent = parent[seg] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  const value = VALUES[Math.floor(next() * VALUES.length)]();
  const op = next();
  if (op < 0.55) parent[last] = value;
  else if (op < 0.7) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (op < 0.85 && !Array.isArray(parent)) {
    const target = parent[last];
    if (typeof target === 'object' && target !== null && !Array.isArray(target))
      (target as Record<string, unknown>)[['extra', 'operator', 'key', 'name'][Math.floor(next() * 4)]] =
        value;
    else parent[last] = value;
  } else if (!Array.isArray(parent)) {
    const moved = parent[last];
    delete parent[last];
    parent[['', 'a b', `${String(last)}s`][Math.floor(next() * 3)]] = moved;
  } else parent[last] = value;
  return copy;
}

describe('generated schema checks', () => {
  it('accepts every object of the example dumps, so they skip zod', () => {
    expect(objects.length).toBeGreaterThan(50);
    const kinds = new Set<string>();
    for (const obj of objects) {
      expect([obj.kind, obj.metadata.name, conformsTo(metadataSchema, obj.metadata)]).toEqual([
        obj.kind,
        obj.metadata.name,
        true,
      ]);
      expect([obj.kind, obj.metadata.name, conformsTo(KIND_SCHEMAS[obj.kind], obj)]).toEqual([
        obj.kind,
        obj.metadata.name,
        true,
      ]);
      kinds.add(obj.kind);
    }
    expect(kinds.size).toBeGreaterThan(10);
  });

  it('never accepts what zod rejects: 20,000 mutations of the example objects', () => {
    const next = random(22);
    let accepted = 0;
    let rejectedByBoth = 0;
    for (let i = 0; i < 20_000; i++) {
      const original = objects[Math.floor(next() * objects.length)];
      const obj = mutate(original, next);
      const schema = KIND_SCHEMAS[original.kind];
      for (const [s, value] of [
        [metadataSchema, obj.metadata],
        [schema, obj],
      ] as const) {
        const fast = conformsTo(s, value);
        const zod = s.safeParse(value).success;
        if (fast && !zod) throw new Error(`accepted what zod rejects: ${JSON.stringify(value)}`);
        if (fast) accepted++;
        if (!fast && !zod) rejectedByBoth++;
      }
    }
    // Both outcomes are exercised: most mutations stay valid, thousands are not.
    expect(accepted).toBeGreaterThan(10_000);
    expect(rejectedByBoth).toBeGreaterThan(2_000);
  });

  it('kind-checks.generated.ts is what the kind schemas give (UPDATE_KIND_CHECKS=1 writes it)', () => {
    const file = join(__dirname, 'kind-checks.generated.ts');
    // Formatted as the repository's other sources are, so the format check passes it too (by
    // prettier's CLI: its API loads itself with a dynamic import, which Jest does not run).
    const prettier = join(__dirname, '../../../node_modules/prettier/bin/prettier.cjs');
    const source = execFileSync(process.execPath, [prettier, '--stdin-filepath', file], {
      input: checksModuleSource(metadataSchema, KIND_SCHEMAS),
      encoding: 'utf8',
    });
    if (process.env.UPDATE_KIND_CHECKS) writeFileSync(file, source);
    expect(readFileSync(file, 'utf8')).toBe(source);
    expect(Object.keys(KIND_CHECKS)).toEqual(Object.keys(KIND_SCHEMAS));
  });

  it('parses a well-formed dump without loading zod, and loads it to word a problem', () => {
    const script = `
      const { parseKubernetesObjects } = require('./libs/k8s/src/parse.ts');
      const zodLoaded = () => Object.keys(require.cache).some((f) => f.includes('/node_modules/zod/'));
      const pod = (cpu) => JSON.stringify({ kind: 'Pod', metadata: { name: 'p' },
        spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }] } });
      const objects = parseKubernetesObjects(pod('100m')).objects.length;
      const before = zodLoaded();
      let message = '';
      try { parseKubernetesObjects(pod('1x')); } catch (e) { message = e.message; }
      console.log(JSON.stringify({ objects, before, after: zodLoaded(), message }));`;
    const root = join(__dirname, '../../..');
    const out = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: root,
      env: { ...process.env, SWC_NODE_PROJECT: join(root, 'tsconfig.base.json') },
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({
      objects: 1,
      before: false,
      after: true,
      message: expect.stringContaining('spec.containers[0].resources.requests.cpu'),
    });
  });

  it('leaves a refinement without a stand-in to zod', () => {
    let calls = 0;
    const schema = z.unknown().superRefine((v, ctx) => {
      calls++;
      if (v === 'bad') ctx.addIssue('bad');
    });
    expect(['ok', 'bad', 1].map((v) => conformsTo(schema, v))).toEqual([false, false, false]);
    expect(calls).toBe(0);
  });

  it("runs a schema's stand-in instead of its refinements, after its type check", () => {
    let refinements = 0;
    const schema = refinedAs(
      z.string().superRefine(() => void refinements++),
      'oneOf',
      ['a', 'b'],
      false,
    );
    expect(['a', 'b', 'c', '', 5, null].map((v) => conformsTo(schema, v))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(refinements).toBe(0);
  });

  it('checks each schema once: alike schemas share a function, a nested one is called by name', () => {
    const emitter = new CheckEmitter(true);
    const a = emitter.nameOf(z.looseObject({ x: z.string().min(1) }));
    const b = emitter.nameOf(z.looseObject({ x: z.string().min(1) }));
    expect(b).toBe(a);
    expect(emitter.declarations()).toContain('function c1(v: unknown): boolean');
    expect(emitter.declarations().match(/^function /gm)).toHaveLength(2);
  });

  it.each([
    ['a negative quantity in a resource list', KIND_SCHEMAS.Node, { status: { capacity: { cpu: '-1' } } }],
    ['a quantity past the exact range', KIND_SCHEMAS.Node, { status: { allocatable: { memory: '9E' } } }],
    [
      'a negative request',
      KIND_SCHEMAS.Pod,
      { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1', memory: '-1Mi' } } }] } },
    ],
  ])('resource lists: %s is left to zod, which rejects it', (_, schema, value) => {
    expect(conformsTo(schema, value)).toBe(false);
    expect(schema.safeParse(value).success).toBe(false);
  });

  it.each([
    ['a missing required key', z.looseObject({ a: z.string() }), {}, false],
    ['an absent optional key', z.looseObject({ a: z.string().nullish() }), {}, true],
    ['null for a nullish key', z.looseObject({ a: z.string().nullish() }), { a: null }, true],
    ['extra keys of a loose object', z.looseObject({ a: z.string() }), { a: 'x', b: 1 }, true],
    ['extra keys of a strict object', z.strictObject({ a: z.string() }), { a: 'x', b: 1 }, false],
    ['an empty string under min(1)', z.string().min(1), '', false],
    ['a fraction for int()', z.number().int(), 1.5, false],
    ['Infinity for a number', z.number(), Infinity, false],
    ['NaN for a number', z.number(), NaN, false],
    ['an empty array under min(1)', z.array(z.string()).min(1), [], false],
    ['one surrogate pair under min(2) (one code point)', z.string().min(2), '\ud83d\ude00', false],
    ['two code points, three units, under min(2)', z.string().min(2), 'a\ud83d\ude00', true],
    ['a lone surrogate pair half counts one', z.string().min(2), '\ud83da', true],
    ['exactly the inclusive bound', z.number().int().min(1).max(65535), 65535, true],
    ['past the inclusive bound', z.number().int().min(1).max(65535), 65536, false],
    ['at an exclusive bound', z.number().gt(0), 0, false],
    ['above an exclusive bound', z.number().lt(10).gt(0), 9.5, true],
    ['an unsafe integer for int()', z.number().int(), 2 ** 53, false],
    ['a record with a symbol key', z.record(z.string(), z.string()), { a: 'x', [Symbol('s')]: 'y' }, false],
    ['a number in a string record', z.record(z.string(), z.string()), { a: 1 }, false],
    ['a null-prototype record', z.record(z.string(), z.string()), Object.create(null) as unknown, true],
    ['a Date as a record', z.record(z.string(), z.string()), new Date(0), false],
    ['an array as an object', z.looseObject({}), [], false],
    [
      'a failing superRefine',
      z.unknown().superRefine((v, ctx) => void (v === 1 && ctx.addIssue('no'))),
      1,
      false,
    ],
    [
      'a passing superRefine without a stand-in (not modelled)',
      z.unknown().superRefine((v, ctx) => void (v === 1 && ctx.addIssue('no'))),
      2,
      false,
    ],
    [
      'a throwing refinement (zod throws too)',
      z.unknown().superRefine(() => {
        throw new Error('boom');
      }),
      1,
      false,
    ],
    ['a transform (not modelled)', z.string().transform((s) => s.length), 'x', false],
    ['a default (not modelled)', z.looseObject({ a: z.string().default('x') }), {}, false],
    ['a union (not modelled)', z.union([z.string(), z.number()]), 'x', false],
    ['a trimmed string (not modelled)', z.string().trim().min(1), ' x', false],
    ['a bad quantity', KIND_SCHEMAS.Node, { status: { capacity: { cpu: '1x' } } }, false],
    [
      'a bad selector operator',
      KIND_SCHEMAS.PodDisruptionBudget,
      { spec: { selector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } } },
      false,
    ],
  ])('%s', (_, schema, value, expected) => {
    expect(conformsTo(schema as z.ZodType, value)).toBe(expected);
    if (expected) expect((schema as z.ZodType).safeParse(value).success).toBe(true);
  });

  it('judges min length, bounds and integers as zod does, for every value of a grid', () => {
    const schemas = [
      z.string().min(1),
      z.string().min(3),
      z.array(z.number()).min(2),
      z.number().int(),
      z.number().min(-1).max(1),
      z.number().gt(-1).lt(1),
    ];
    const values = [
      '',
      'a',
      'ab',
      'abc',
      '\ud83d\ude00',
      '\ud83d\ude00\ud83d\ude00',
      '\udc00\ud800',
      [],
      [1],
      [1, 2],
    ];
    const numbers = [-2, -1, -0.5, 0, 0.5, 1, 2, 2 ** 53 - 1, 2 ** 53, -(2 ** 53)];
    for (const schema of schemas)
      for (const value of [...values, ...numbers])
        expect([value, conformsTo(schema, value)]).toEqual([value, schema.safeParse(value).success]);
  });

  it('judges label selectors as labelSelectorProblem does, the second time too (from its caches)', () => {
    const keys = ['app', 'example.com/tier', 'a b', '', 'x/', '/x', 'a/b/c', 'k'.repeat(64)];
    const values = ['web', '', 'a.b-c_d', 'bad value!', '-x', 'v'.repeat(64)];
    const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'in', 'constructor', 'toString'];
    const selectors: unknown[] = [null, {}, { matchLabels: null }, { matchExpressions: null }];
    for (const key of keys)
      for (const value of values) selectors.push({ matchLabels: { app: 'web', [key]: value } });
    for (const key of keys)
      for (const operator of operators)
        for (const exprValues of [undefined, [], ['web'], ['web', 'bad value!'], ['', 'v'.repeat(64)]])
          selectors.push({
            matchExpressions: [
              { key: 'app', operator: 'Exists' },
              { key, operator, values: exprValues },
            ],
          });
    const judge = REFINEMENTS.labelSelector();
    let valid = 0;
    for (const round of [1, 2]) {
      for (const selector of selectors) {
        const expected = labelSelectorProblem(selector) === undefined;
        expect([round, selector, judge(selector)]).toEqual([round, selector, expected]);
        if (expected && round === 1) valid++;
      }
    }
    // Both outcomes are exercised.
    expect(valid).toBeGreaterThan(20);
    expect(selectors.length - valid).toBeGreaterThan(100);
  });
});
