import fc from 'fast-check';

/**
 * Arbitraries for the API fuzzer: requests built from the OpenAPI document and the GraphQL
 * schema (introspection), with realistic, random and malicious parameters, headers and bodies.
 */

export interface FuzzRequest {
  kind: 'rest' | 'graphql';
  /** What was aimed at, for the report: "GET /v1/snapshots/{id}" or "query snapshot". */
  target: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Ids and secrets the fuzzer may use, so requests reach past authentication and lookups. */
export interface FuzzWorld {
  keys: { admin: string; read: string; write: string; otherTenant: string; operator: string };
  ids: string[];
  names: string[];
  dumps: string[];
  profiles: string[];
}

// ---------------------------------------------------------------- hostile building blocks

const HOSTILE_STRINGS = [
  '',
  ' ',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '../../../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE snapshots; --',
  '\u0000',
  '\ud800',
  'ü'.repeat(300),
  'a'.repeat(5000),
  '__proto__',
  'constructor',
  '{{7*7}}',
  '${jndi:ldap://x/a}',
  '<script>alert(1)</script>',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '99999999999999999999999999',
  `sl_${'A'.repeat(43)}`,
  'whsec_aGVsbG8=',
  'null',
  'true',
  '[]',
  '{}',
  'default@999999999999',
  'x@latest',
  'node-a1',
  'Node_Ünïcode',
];

/** Raw (already percent-encoded or deliberately broken) path segments. */
const RAW_SEGMENTS = ['%', '%zz', '%E0%A4%A', '..%2F..%2F', '%00', '%2e%2e', 'a%20b', '%C0%AF', '.', '..'];

const jsonScalar = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308),
);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: jsonScalar },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(jsonScalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), jsonScalar, { maxKeys: 5 }) },
);

function aliasBomb(levels: number): string {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < levels; i++) {
    const prev = String.fromCharCode(96 + i);
    const cur = String.fromCharCode(97 + i);
    lines.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return lines.join('\n');
}

const MALICIOUS_BODIES: (string | Buffer)[] = [
  aliasBomb(9),
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `{"kind":"List","items":[${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}]}`,
  `a: ${'['.repeat(3000)}${']'.repeat(3000)}`,
  JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  '!!js/function "function(){return process.exit(1)}"',
  'a: !!binary aGVsbG8=\nb: !!set {x, y}\nc: !!timestamp 2001-12-14',
  '---\n---\n---\n',
  '\ufeff{"name":"bom"}',
  Buffer.from([0xff, 0xfe, 0x00, 0x01, 0xc3, 0x28, 0xa0, 0xa1]),
  Buffer.from('{"name":"\xff\xfe"}', 'latin1'),
  'key: value\n\tbad-indent: [',
  '{"a":1,"a":2}',
  '[1,2,3]',
  '"just a string"',
  'null',
  '12345678901234567890',
  'apiVersion: v1\nkind: List\nitems:\n' +
    '- {kind: Pod, metadata: {name: p}, spec: {containers: [{name: c}]}}\n'.repeat(2),
  'kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, resources: {requests: {cpu: 1e309}}}]}',
  'kind: Node\nmetadata: {name: n}\nstatus: {allocatable: {memory: 1Ei, cpu: "99999999999999999999999999"}}',
  'kind: pod\napiVersion: v1\nmetadata: {name: p}\nspec: {containers: [{name: c}]}',
  'kind: Node\nmetadata: {name: "Nöde 1"}',
];

/** encodeURIComponent that survives lone surrogates (sent as U+FFFD). */
function enc(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

// ---------------------------------------------------------------- headers

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/yaml',
  'application/yaml',
  'application/yaml',
  'application/yaml',
  'application/x-yaml',
  'text/yaml',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  '',
  '*/*',
];

function authHeader(world: FuzzWorld): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${world.keys.admin}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${world.keys.write}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${world.keys.read}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${world.keys.otherTenant}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${world.keys.operator}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Basic dXNlcjpwYXNz',
        'Bearer sl_short',
        `Bearer sl_${'A'.repeat(43)}`,
        `Bearer ${'A'.repeat(10_000)}`,
        'bearer  sl_x y',
        `Bearer ${world.keys.admin}x`,
      ),
    },
  );
}

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'x-request-id',
    'accept',
    'x-forwarded-for',
    'content-encoding',
    'origin',
    'x-api-key',
    'cookie',
  ),
  fc.oneof(
    fc.constantFrom(
      'gzip',
      'deflate',
      'br',
      'application/xml',
      'text/html',
      '../../',
      'a'.repeat(300),
      'id-1.2_3',
    ),
    fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
  ),
  { maxKeys: 2 },
);

function headersArb(world: FuzzWorld, withBody: boolean): fc.Arbitrary<Record<string, string>> {
  return fc
    .record({
      auth: authHeader(world),
      type: fc.constantFrom(...CONTENT_TYPES),
      extra: extraHeaders,
    })
    .map(({ auth, type, extra }) => {
      const headers: Record<string, string> = { ...extra };
      if (auth !== undefined) headers.authorization = auth;
      if (withBody && type) headers['content-type'] = type;
      return headers;
    });
}

// ---------------------------------------------------------------- REST from OpenAPI

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string; enum?: unknown[] };
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: unknown;
}

export interface RestOperation {
  method: string;
  path: string;
  parameters: OpenApiParameter[];
  hasBody: boolean;
}

export function restOperations(document: {
  paths: Record<string, Record<string, OpenApiOperation>>;
}): RestOperation[] {
  const ops: RestOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        hasBody: method === 'post' || method === 'put' || method === 'patch' || op.requestBody !== undefined,
      });
    }
  }
  return ops;
}

function paramValue(world: FuzzWorld, param: OpenApiParameter): fc.Arbitrary<string> {
  const known = /id$/i.test(param.name) ? world.ids : world.names;
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...known) },
    { weight: 1, arbitrary: fc.uuid().map(String) },
    ...(param.schema?.enum
      ? [{ weight: 3, arbitrary: fc.constantFrom(...param.schema.enum.map(String)) }]
      : []),
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.integer({ min: -5, max: 2000 }).map(String) },
  );
}

/** Realistic bodies per collection path, each then possibly mutated. */
function bodyTemplates(world: FuzzWorld): Record<string, unknown[]> {
  const id = world.ids[0];
  return {
    '/v1/snapshots': world.dumps,
    '/v1/profiles': world.profiles,
    '/v1/scenarios': [
      { name: 'drain', snapshotId: id, document: { steps: [{ drain: { nodes: ['node-a1'] } }] } },
      { name: 's', document: { steps: [] } },
    ],
    '/v1/runs': [
      { type: 'simulate', snapshotId: id, options: { explain: 'summary' } },
      {
        type: 'capacity',
        snapshotId: id,
        options: { podTemplate: { metadata: { name: 't' }, spec: { containers: [{ name: 'c' }] } } },
      },
      {
        type: 'nodes-needed',
        snapshotId: id,
        options: { templates: [{ name: 'a', allocatable: { cpu: '4' } }] },
      },
      { type: 'compare', snapshotId: id, profile: 'bin-packing', options: { afterProfile: 'spread' } },
    ],
    '/v1/api-keys': [
      { name: 'k', scopes: ['read'] },
      { name: 'k2', scopes: ['admin', 'write'] },
    ],
    '/v1/webhooks/endpoints': [
      { url: 'https://hooks.example.com/x', eventTypes: ['simulation.succeeded'] },
      { url: 'http://169.254.169.254/latest/meta-data', eventTypes: ['simulation.failed'] },
      { url: 'http://[::1]:22/', eventTypes: ['simulation.succeeded'] },
    ],
    '/v1/admin/tenants': [{ name: 'fuzz-tenant' }, { name: '' }],
    '/v1/sweeps': [{ snapshotId: id, seeds: [1, 2, 3] }],
  };
}

/** Sets a random path of a JSON value to a nasty value (or deletes it). */
function mutate(value: unknown): fc.Arbitrary<unknown> {
  if (typeof value !== 'object' || value === null) return fc.constant(value);
  const paths: (string | number)[][] = [];
  const walk = (v: unknown, path: (string | number)[]) => {
    if (paths.length > 200) return;
    paths.push(path);
    if (Array.isArray(v)) v.forEach((c, i) => walk(c, [...path, i]));
    else if (typeof v === 'object' && v !== null)
      for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
  };
  walk(value, []);
  return fc
    .tuple(fc.constantFrom(...paths), nastyValue, fc.boolean(), fc.string({ maxLength: 8 }))
    .map(([path, replacement, remove, extraKey]) => {
      const copy = structuredClone(value) as Record<string | number, unknown>;
      if (path.length === 0) {
        if (remove) return replacement;
        return { ...(copy as object), [extraKey || 'unexpected']: replacement };
      }
      let parent = copy as Record<string | number, unknown>;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      const last = path[path.length - 1]!;
      if (remove && !Array.isArray(parent)) delete parent[last];
      else parent[last] = replacement;
      return copy;
    });
}

function bodyArb(world: FuzzWorld, path: string): fc.Arbitrary<string | Buffer> {
  const templates = bodyTemplates(world)[path] ?? [];
  const realistic = templates.length
    ? fc.constantFrom(...templates).chain((t) =>
        typeof t === 'string'
          ? fc.constant(t)
          : fc.oneof(
              fc.constant(JSON.stringify(t)),
              mutate(t).map((m) => JSON.stringify(m) ?? 'null'),
            ),
      )
    : fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
  return fc.oneof(
    { weight: 6, arbitrary: realistic },
    { weight: 2, arbitrary: fc.constantFrom(...MALICIOUS_BODIES) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)) },
  );
}

export function restRequest(world: FuzzWorld, op: RestOperation): fc.Arbitrary<FuzzRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const segment = (p: OpenApiParameter) =>
    fc.oneof(
      { weight: 9, arbitrary: paramValue(world, p).map((v) => enc(v)) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    );
  const query = fc
    .tuple(
      fc.subarray(queryParams),
      fc.array(
        fc.tuple(
          fc.constantFrom('limit', 'cursor', 'hard', 'zzz', 'labels', 'name', 'status'),
          fc.constantFrom(...HOSTILE_STRINGS),
        ),
        {
          maxLength: 2,
        },
      ),
    )
    .chain(([chosen, extra]) =>
      fc
        .tuple(...chosen.map((p) => paramValue(world, p).map((v) => [p.name, v] as [string, string])))
        .map((pairs) => [...pairs, ...(extra as [string, string][])]),
    );
  return fc
    .record({
      segments: fc.tuple(...pathParams.map(segment)),
      query,
      headers: headersArb(world, op.hasBody),
      body: op.hasBody ? fc.option(bodyArb(world, op.path), { freq: 8 }) : fc.constant(null),
    })
    .map(({ segments, query: pairs, headers, body }) => {
      let path = op.path;
      pathParams.forEach((p, i) => (path = path.replace(`{${p.name}}`, segments[i]!)));
      const qs = pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
      return {
        kind: 'rest' as const,
        target: `${op.method} ${op.path}`,
        method: op.method,
        path: qs ? `${path}?${qs}` : path,
        headers,
        ...(body === null ? {} : { body }),
      };
    });
}

// ---------------------------------------------------------------- GraphQL from introspection

interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface IntrospectionField {
  name: string;
  args: { name: string; type: TypeRef }[];
  type: TypeRef;
}
interface IntrospectionType {
  kind: string;
  name: string;
  fields: IntrospectionField[] | null;
  inputFields: { name: string; type: TypeRef }[] | null;
  enumValues: { name: string }[] | null;
}
export interface IntrospectionSchema {
  queryType: { name: string };
  mutationType: { name: string } | null;
  types: IntrospectionType[];
}

// Two queries, so each stays within the api's depth limit (8): types with their fields, then
// the arguments of the root fields.
const TYPE_REF =
  'fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';
export const INTROSPECTION_QUERY = `{ __schema { queryType { name } mutationType { name }
  types { kind name fields { name type { ...T } } inputFields { name type { ...T } } enumValues { name } } } }
${TYPE_REF}`;
export const ROOT_ARGS_QUERY = `{ q: __type(name: "Query") { fields { name args { name type { ...T } } } }
  m: __type(name: "Mutation") { fields { name args { name type { ...T } } } } }
${TYPE_REF}`;

/** Puts the root fields' arguments (second query) into the schema (first query). */
export function withRootArgs(
  schema: IntrospectionSchema,
  roots: Record<string, { fields: { name: string; args: IntrospectionField['args'] }[] } | null>,
): IntrospectionSchema {
  const argsOf = new Map<string, IntrospectionField['args']>();
  for (const root of Object.values(roots)) for (const f of root?.fields ?? []) argsOf.set(f.name, f.args);
  const rootNames = new Set([schema.queryType.name, schema.mutationType?.name]);
  for (const type of schema.types) {
    for (const field of type.fields ?? []) {
      field.args = rootNames.has(type.name) ? (argsOf.get(field.name) ?? []) : [];
    }
  }
  return schema;
}

function named(t: TypeRef): TypeRef {
  return t.ofType ? named(t.ofType) : t;
}

function typeString(t: TypeRef): string {
  if (t.kind === 'NON_NULL') return `${typeString(t.ofType!)}!`;
  if (t.kind === 'LIST') return `[${typeString(t.ofType!)}]`;
  return t.name!;
}

export class GraphqlFuzz {
  private readonly types: Map<string, IntrospectionType>;
  constructor(
    private readonly schema: IntrospectionSchema,
    private readonly world: FuzzWorld,
  ) {
    this.types = new Map(schema.types.map((t) => [t.name, t]));
  }

  rootFields(): { operation: 'query' | 'mutation'; field: IntrospectionField }[] {
    const out: { operation: 'query' | 'mutation'; field: IntrospectionField }[] = [];
    for (const f of this.types.get(this.schema.queryType.name)?.fields ?? [])
      out.push({ operation: 'query', field: f });
    const mutation = this.schema.mutationType && this.types.get(this.schema.mutationType.name);
    for (const f of mutation?.fields ?? []) out.push({ operation: 'mutation', field: f });
    return out;
  }

  /** A value for an input type, valid-looking most of the time, hostile otherwise. */
  value(t: TypeRef, depth = 0): fc.Arbitrary<unknown> {
    if (t.kind === 'NON_NULL')
      return fc.oneof(
        { weight: 12, arbitrary: this.value(t.ofType!, depth) },
        { weight: 1, arbitrary: fc.constant(null) },
      );
    if (t.kind === 'LIST')
      return fc.array(this.value(t.ofType!, depth + 1), { maxLength: depth > 1 ? 1 : 3 });
    const name = t.name!;
    const type = this.types.get(name);
    const hostile = fc.constantFrom(...HOSTILE_STRINGS);
    switch (name) {
      case 'ID':
        return fc.oneof(
          { weight: 6, arbitrary: fc.constantFrom(...this.world.ids) },
          { weight: 2, arbitrary: hostile },
          { weight: 1, arbitrary: fc.uuid().map(String) },
        );
      case 'String':
        return fc.oneof(
          {
            weight: 4,
            arbitrary: fc.constantFrom(...this.world.names, ...this.world.profiles, ...this.world.dumps),
          },
          { weight: 3, arbitrary: hostile },
          { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(...MALICIOUS_BODIES.filter((b): b is string => typeof b === 'string')),
          },
        );
      case 'Int':
        return fc.oneof(
          fc.integer({ min: -10, max: 1200 }),
          fc.constantFrom(-1, 0, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 1e20, 0.5),
        );
      case 'Float':
        return fc.double();
      case 'Boolean':
        return fc.oneof(
          { weight: 5, arbitrary: fc.boolean() },
          { weight: 1, arbitrary: fc.constantFrom('true', 1) },
        );
      case 'JSON':
        return fc.oneof(
          nastyValue,
          fc.constantFrom({ env: 'dev' }, { explain: 'full' }, { steps: [] }),
          fc.constant(JSON.parse(`${'['.repeat(300)}${']'.repeat(300)}`) as unknown),
        );
    }
    if (type?.kind === 'ENUM')
      return fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...(type.enumValues ?? []).map((e) => e.name)) },
        { weight: 1, arbitrary: hostile },
      );
    if (type?.kind === 'INPUT_OBJECT' && depth < 3) {
      const fields = type.inputFields ?? [];
      return fc
        .tuple(...fields.map((f) => fc.option(this.value(f.type, depth + 1), { freq: 5 })))
        .map((values) =>
          Object.fromEntries(fields.map((f, i) => [f.name, values[i]]).filter(([, v]) => v !== null)),
        );
    }
    return nastyValue;
  }

  /** A selection set for an output type, to `depth` levels, with arguments on nested fields. */
  selection(t: TypeRef, depth: number): fc.Arbitrary<string> {
    const type = this.types.get(named(t).name!);
    if (!type || !type.fields) return fc.constant('');
    const scalars = type.fields.filter((f) => {
      const k = this.types.get(named(f.type).name!)?.kind;
      return (k === 'SCALAR' || k === 'ENUM') && f.args.every((a) => a.type.kind !== 'NON_NULL');
    });
    const objects =
      depth > 0 ? type.fields.filter((f) => this.types.get(named(f.type).name!)?.kind === 'OBJECT') : [];
    const scalarPart = scalars.length
      ? fc.subarray(
          scalars.map((f) => f.name),
          { minLength: 1 },
        )
      : fc.constant(['__typename']);
    const nested = fc
      .subarray(objects, { maxLength: Math.min(2, objects.length) })
      .chain((fields) =>
        fields.length === 0
          ? fc.constant([] as string[])
          : fc.tuple(
              ...fields.map((f) =>
                fc
                  .tuple(this.inlineArgs(f), this.selection(f.type, depth - 1))
                  .map(([args, sel]) => `${f.name}${args} { __typename ${sel} }`),
              ),
            ),
      );
    return fc.tuple(scalarPart, nested).map(([s, n]) => [...s, ...n].join(' '));
  }

  private inlineArgs(field: IntrospectionField): fc.Arbitrary<string> {
    if (field.args.length === 0) return fc.constant('');
    return fc
      .tuple(
        ...field.args.map((a) =>
          fc.option(this.value(a.type, 1), { freq: a.type.kind === 'NON_NULL' ? 10 : 2 }),
        ),
      )
      .map((values) => {
        const parts = field.args
          .map((a, i) => (values[i] === null ? '' : `${a.name}: ${literal(values[i])}`))
          .filter(Boolean);
        return parts.length ? `(${parts.join(', ')})` : '';
      });
  }

  request(): fc.Arbitrary<FuzzRequest> {
    const roots = this.rootFields();
    const generated = fc.constantFrom(...roots).chain(({ operation, field }) =>
      fc
        .record({
          args: fc.tuple(
            ...field.args.map((a) =>
              fc.option(this.value(a.type), { freq: a.type.kind === 'NON_NULL' ? 15 : 2 }),
            ),
          ),
          selection: this.selection(field.type, 2),
          headers: headersArb(this.world, true),
          asLiteral: fc.boolean(),
        })
        .map(({ args, selection, headers, asLiteral }) => {
          const used = field.args.map((a, i) => ({ a, v: args[i] })).filter(({ v }) => v !== null);
          const variables = Object.fromEntries(used.map(({ a, v }) => [a.name, v]));
          const decl =
            used.length && !asLiteral
              ? `(${used.map(({ a }) => `$${a.name}: ${typeString(a.type)}`).join(', ')})`
              : '';
          const callArgs = used.length
            ? `(${used.map(({ a, v }) => `${a.name}: ${asLiteral ? literal(v) : `$${a.name}`}`).join(', ')})`
            : '';
          const isObject = this.types.get(named(field.type).name!)?.kind === 'OBJECT';
          const query = `${operation}${decl} { ${field.name}${callArgs}${isObject ? ` { ${selection || '__typename'} }` : ''} }`;
          headers['content-type'] = headers['content-type']?.startsWith('application/json')
            ? headers['content-type']
            : 'application/json';
          return {
            kind: 'graphql' as const,
            target: `${operation} ${field.name}`,
            method: 'POST',
            path: '/graphql',
            headers,
            body: JSON.stringify({ query, ...(asLiteral ? {} : { variables }) }),
          };
        }),
    );
    const id = this.world.ids[0];
    const malicious = fc
      .tuple(
        fc.constantFrom(
          `{ ${Array.from({ length: 300 }, (_, i) => `a${i}: run(id: "${id}") { result { summary } }`).join(' ')} }`,
          `{ ${'runs { edges { node { snapshot { id } } } } '.repeat(1)}${'__typename '.repeat(5000)} }`,
          `{ __schema { types { fields { type { fields { type { fields { type { fields { type { name } } } } } } } } } } }`,
          'query Q { ...F } fragment F on Query { ...G } fragment G on Query { ...F }',
          `{ ${'a: __typename @include(if: true) '.repeat(500)} }`,
          `{ runs(first: 500) { edges { node { placements(first: 1000) { edges { node { name } } } } } } }`,
          `{ run(id: "${id}") { placements(first: -1) { edges { node { name } } } } }`,
          '{ snapshot(id: "not-a-uuid") { id } }',
          `${'{ a '.repeat(2000)}${'}'.repeat(2000)}`,
          '{ snapshot(',
          'mutation { revokeApiKey(id: "zzz") { id } }',
          'subscription { runProgress(id: "x") { status } }',
        ),
        headersArb(this.world, true),
        fc.constantFrom('json', 'batch', 'variables-string', 'raw'),
      )
      .map(([query, headers, shape]) => {
        headers['content-type'] = 'application/json';
        const body =
          shape === 'batch'
            ? JSON.stringify(Array.from({ length: 20 }, () => ({ query })))
            : shape === 'variables-string'
              ? JSON.stringify({ query, variables: '{"a":' })
              : shape === 'raw'
                ? query
                : JSON.stringify({ query });
        return {
          kind: 'graphql' as const,
          target: 'graphql malicious',
          method: 'POST',
          path: '/graphql',
          headers,
          body,
        };
      });
    return fc.oneof({ weight: 6, arbitrary: generated }, { weight: 1, arbitrary: malicious });
  }
}

/** A JS value as a GraphQL literal (JSON scalar objects become input-object literals). */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '0';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .filter(([k]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(k))
    .map(([k, x]) => `${k}: ${literal(x)}`)
    .join(', ')}}`;
}
