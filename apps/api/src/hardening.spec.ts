import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiHarness, bearer, type TestTenant } from './testing/api-harness';

const clusterSmall = readFileSync(path.resolve(__dirname, '../../../examples/cluster-small.yaml'), 'utf8');

/** Rows of every table a request could write, to prove a rejected request stored nothing. */
async function rowCounts(api: ApiHarness): Promise<Record<string, number>> {
  const p = api.prisma;
  const [snapshots, profiles, scenarios, runs, keys] = await Promise.all([
    p.snapshot.count(),
    p.schedulerProfile.count(),
    p.scenario.count(),
    p.run.count(),
    p.apiKey.count(),
  ]);
  return { snapshots, profiles, scenarios, runs, keys };
}

const node = (name: string, cpu = '4', memory = '16Gi') => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  status: { allocatable: { cpu, memory, pods: '110' } },
});
const pod = (name: string, namespace = 'default', cpu = '100m') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }] },
});
const list = (...items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });

describe('hardening (issue #13; real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;
  let runId: string;

  const importJson = (body: string, key = acme.key) =>
    api.http.post('/v1/snapshots?name=h').set(bearer(key)).set('content-type', 'application/json').send(body);
  const importYaml = (body: string) =>
    api.http
      .post('/v1/snapshots?name=h')
      .set(bearer(acme.key))
      .set('content-type', 'application/yaml')
      .send(body);
  const gql = (query: string, variables: Record<string, unknown> = {}, key = acme.key) =>
    api.http.post('/graphql').set(bearer(key)).send({ query, variables });

  /** A rejected request: the given 4xx, the error shape, and no row written anywhere. */
  async function rejected(
    send: () => PromiseLike<{ status: number; body: { error?: Record<string, unknown> } }>,
    status: number,
  ) {
    const before = await rowCounts(api);
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body.error).toEqual(
      expect.objectContaining({
        code: expect.any(String),
        message: expect.any(String),
        requestId: expect.any(String),
      }),
    );
    expect(await rowCounts(api)).toEqual(before);
    return res.body.error as { code: string; message: string; details?: Record<string, unknown> };
  }

  beforeAll(async () => {
    api = await ApiHarness.start({ INPUT_MAX_STRING_BYTES: '65536', INPUT_MAX_OBJECTS: '50' });
    acme = await api.tenant('acme');
    const snap = await importYaml(clusterSmall).expect(201);
    runId = (
      await api.http
        .post('/v1/runs')
        .set(bearer(acme.key))
        .send({ type: 'simulate', snapshotId: snap.body.id })
        .expect(202)
    ).body.id;
  });
  afterAll(() => api?.stop());

  describe('no 500 on hostile input', () => {
    it('a YAML alias bomb answers 400 naming the alias limit', async () => {
      const bomb = [
        'a: &a ["x","x","x","x","x","x","x","x","x"]',
        ...'bcdefghi'.split('').map((l, i) => {
          const prev = 'abcdefgh'[i];
          return `${l}: &${l} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`;
        }),
      ].join('\n');
      const error = await rejected(() => importYaml(bomb), 400);
      expect(error.code).toBe('input_too_complex');
      expect(error.details).toMatchObject({ setting: 'SCHEDLAB_INPUT_MAX_YAML_ALIASES' });
      const profile = await rejected(
        () =>
          api.http
            .post('/v1/profiles?name=bomb')
            .set(bearer(acme.key))
            .set('content-type', 'application/yaml')
            .send(bomb),
        400,
      );
      expect(profile.code).toBe('input_too_complex');
    });

    it('10k-deep JSON in a snapshot import answers 400 naming the depth limit', async () => {
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      const error = await rejected(() => importJson(deep), 400);
      expect(error).toMatchObject({
        code: 'input_too_complex',
        details: { setting: 'SCHEDLAB_INPUT_MAX_DEPTH' },
      });
      const nestedObject = `{"kind":"List","items":[${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}]}`;
      expect((await rejected(() => importJson(nestedObject), 400)).code).toBe('input_too_complex');
      // also as a scenario document and as run options (JSON bodies everywhere)
      const scen = `{"name":"x","document":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
      await rejected(
        () =>
          api.http
            .post('/v1/scenarios')
            .set(bearer(acme.key))
            .set('content-type', 'application/json')
            .send(scen),
        400,
      );
    });

    it('too many objects and too long strings answer 400 naming the setting', async () => {
      const many = list(...Array.from({ length: 51 }, (_, i) => pod(`p${i}`)));
      expect((await rejected(() => importJson(many), 400)).details).toMatchObject({
        setting: 'SCHEDLAB_INPUT_MAX_OBJECTS',
        limit: 50,
      });
      const long = pod('long');
      (long.metadata as Record<string, unknown>).annotations = { note: 'x'.repeat(70_000) };
      expect((await rejected(() => importJson(list(long)), 400)).details).toMatchObject({
        setting: 'SCHEDLAB_INPUT_MAX_STRING_BYTES',
        field: 'items[0].metadata.annotations.note',
      });
    });

    it('a body over the GraphQL limit answers 413 in the error shape', async () => {
      const res = await api.http
        .post('/graphql')
        .set(bearer(acme.key))
        .set('content-type', 'application/json')
        .send(`{"query":"{ __typename }","variables":{"x":"${'x'.repeat(17 * 1024 * 1024)}"}}`);
      expect(res.status).toBe(413);
      expect(res.body.error).toMatchObject({
        code: 'payload_too_large',
        details: { limitBytes: expect.any(Number) },
      });
    });

    it('malformed JSON to /graphql answers 400, not 500', async () => {
      const res = await api.http
        .post('/graphql')
        .set(bearer(acme.key))
        .set('content-type', 'application/json')
        .send('{"query": ');
      expect(res.status).toBe(400);
    });

    it('GraphQL snapshot(id: "not-a-uuid") answers not_found, placements(first: -1) invalid_request', async () => {
      const bad = await gql('{ snapshot(id: "not-a-uuid") { id } }');
      expect(bad.status).toBeLessThan(500);
      expect(bad.body.errors[0].extensions).toMatchObject({ code: 'not_found', status: 404 });
      for (const field of ['run', 'scenario']) {
        const r = await gql(`{ ${field}(id: "zzz") { id } }`);
        expect(r.body.errors[0].extensions).toMatchObject({ code: 'not_found', status: 404 });
      }
      for (const m of [
        'cancelRun(id: "zzz") { id }',
        'revokeApiKey(id: "zzz") { id }',
        'deleteSnapshot(id: "zzz")',
      ]) {
        const r = await gql(`mutation { ${m} }`);
        expect(r.body.errors[0].extensions).toMatchObject({ code: 'not_found', status: 404 });
      }
      const negative = await gql(
        'query($id: ID!) { run(id: $id) { placements(first: -1) { edges { node { name } } } } }',
        {
          id: runId,
        },
      );
      expect(negative.status).toBeLessThan(500);
      expect(negative.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', status: 400 });
    });
  });

  describe('found by the fuzzer', () => {
    it('a body whose content-encoding does not match answers 400, not 500', async () => {
      for (const encoding of ['gzip', 'br', 'deflate']) {
        const res = await api.http
          .post('/graphql')
          .set(bearer(acme.key))
          .set('content-type', 'application/json')
          .set('content-encoding', encoding)
          .send('{"query":"{ __typename }"}');
        expect(res.status).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'malformed_body', requestId: expect.any(String) });
      }
    });

    it('errors answered before routing still carry a requestId (415, undecodable path)', async () => {
      const media = await api.http
        .post('/v1/snapshots?name=x')
        .set(bearer(acme.key))
        .set('content-type', 'text/plain')
        .send('x');
      expect(media.status).toBe(415);
      expect(media.body.error.requestId).toEqual(media.headers['x-request-id']);
      const path = await api.http.get('/v1/runs/%zz/unschedulable').set(bearer(acme.key));
      expect(path.status).toBe(400);
      expect(path.body.error.requestId).toEqual(expect.any(String));
    });

    it('a GraphQL mutation with an unacceptable Accept header is refused before it runs', async () => {
      const before = await api.prisma.apiKey.count();
      const res = await api.http
        .post('/graphql')
        .set(bearer(acme.key))
        .set('accept', 'text/html')
        .send({ query: 'mutation { createApiKey(name: "lost") { secret } }' });
      expect(res.status).toBe(406);
      expect(res.body.error).toMatchObject({ code: 'not_acceptable', requestId: expect.any(String) });
      expect(await api.prisma.apiKey.count()).toBe(before);
      const ok = await api.http
        .post('/graphql')
        .set(bearer(acme.key))
        .set('accept', 'application/graphql-response+json, */*;q=0.1')
        .send({ query: '{ __typename }' });
      expect(ok.status).toBe(200);
    });

    it('headers past the parser limit answer 431 in the error shape', async () => {
      await api.app.listen(0, '127.0.0.1');
      const { port } = api.app.getHttpServer().address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/v1/snapshots`, {
        headers: { authorization: `Bearer ${'A'.repeat(20_000)}` },
      });
      expect(res.status).toBe(431);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('headers_too_large');
    });

    it('a YAML alias without its anchor answers 400 malformed_body on every YAML endpoint', async () => {
      for (const path of [
        '/v1/scenarios',
        '/v1/sweeps',
        '/v1/profiles?name=a',
        '/v1/snapshots?name=a',
        '/v1/api-keys',
      ]) {
        const error = await rejected(
          () => api.http.post(path).set(bearer(acme.key)).set('content-type', 'text/yaml').send('*nP5|(3v8'),
          400,
        );
        expect(error.code).toBe('malformed_body');
      }
    });

    it('a lone UTF-16 surrogate in a JSON string answers 400, REST and GraphQL', async () => {
      const rest = await rejected(
        () =>
          api.http
            .post('/v1/api-keys')
            .set(bearer(acme.key))
            .set('content-type', 'application/json')
            .send('{"name":"\\ud800"}'),
        400,
      );
      expect(rest).toMatchObject({ code: 'malformed_body', details: { field: 'name' } });
      const dump = await rejected(
        () => importJson(list({ ...node('n1'), metadata: { name: 'n1', labels: { a: '\ud800' } } })),
        400,
      );
      expect(dump.code).toBe('malformed_body');
      const before = await rowCounts(api);
      const res = await api.http
        .post('/graphql')
        .set(bearer(acme.key))
        .set('content-type', 'application/json')
        .send(
          '{"query":"mutation($n: String!) { createApiKey(name: $n) { id } }","variables":{"n":"\\ud800"}}',
        );
      expect(res.status).toBe(400);
      expect(await rowCounts(api)).toEqual(before);
    });

    it('a subscription over HTTP answers 400, not an internal error', async () => {
      const res = await gql(`subscription { runProgress(id: "${runId}") { status } }`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('subscription_over_http');
    });

    it('values PostgreSQL cannot hold answer 400 (NUL in a name)', async () => {
      const nul = await rejected(
        () =>
          api.http
            .post('/v1/snapshots?name=a%00b')
            .set(bearer(acme.key))
            .set('content-type', 'application/json')
            .send(list(node('nul-1'))),
        400,
      );
      expect(nul.code).toMatch(/invalid_value|invalid_request/);
    });
  });

  describe('GraphQL errors and cost', () => {
    it('errors carry no stacktrace unless NODE_ENV=development is set explicitly', async () => {
      // A deployment that sets no NODE_ENV (config defaults to development) must not leak paths.
      const saved = process.env.NODE_ENV;
      delete process.env.NODE_ENV;
      let plain: ApiHarness | undefined;
      try {
        plain = await ApiHarness.start();
        const t = await plain.tenant('plain');
        for (const query of ['{ snapshot(id: "not-a-uuid") { id } }', '{ snapshot(', '{ nope }']) {
          const res = await plain.http.post('/graphql').set(bearer(t.key)).send({ query });
          expect(res.body.errors.length).toBeGreaterThan(0);
          for (const e of res.body.errors) expect(e.extensions?.stacktrace).toBeUndefined();
        }
      } finally {
        process.env.NODE_ENV = saved;
        await plain?.stop();
      }
    });

    it('300 aliased simulation { result } are refused before execution, quickly', async () => {
      const fields = Array.from(
        { length: 300 },
        (_, i) => `r${i}: run(id: "${runId}") { result { summary } }`,
      );
      const started = Date.now();
      const res = await gql(`{ ${fields.join(' ')} }`);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(400);
      expect(['query_too_complex', 'too_many_aliases']).toContain(res.body.errors[0].extensions.code);
    });

    it('counts what result, explanations and placement pages really cost', async () => {
      const results = Array.from(
        { length: 60 },
        (_, i) => `r${i}: run(id: "${runId}") { result { summary } }`,
      );
      const res = await gql(`{ ${results.slice(0, 25).join(' ')} }`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('query_too_complex');
      const explanations = Array.from(
        { length: 40 },
        (_, i) => `e${i}: explanation(namespace: "default", name: "p${i}")`,
      );
      const ex = await gql(`{ run(id: "${runId}") { ${explanations.join(' ')} } }`);
      expect(ex.body.errors[0].extensions.code).toMatch(/query_too_complex|too_many_aliases/);
      const pages = await gql(
        `{ runs(first: 100) { edges { node { placements(first: 1000) { edges { node { name } } } } } } }`,
      );
      expect(pages.body.errors[0].extensions.code).toBe('query_too_complex');
      // an ordinary query still runs
      const ok = await gql(
        `{ run(id: "${runId}") { id result { summary } placements(first: 100) { edges { node { name } } } } }`,
      );
      expect(ok.body.errors).toBeUndefined();
    });

    it('refuses a batch (array body) of operations', async () => {
      const res = await api.http
        .post('/graphql')
        .set(bearer(acme.key))
        .send(Array.from({ length: 50 }, () => ({ query: '{ __typename }' })));
      expect(res.status).toBe(400);
    });
  });

  describe('apiserver validation at import', () => {
    it('a duplicate pod is refused naming the object, nothing stored', async () => {
      const error = await rejected(() => importJson(list(node('n1'), pod('web'), pod('web'))), 400);
      expect(error.code).toBe('invalid_object');
      expect(error.details).toMatchObject({
        kind: 'Pod',
        namespace: 'default',
        name: 'web',
        field: 'metadata.name',
      });
      expect(error.message).toMatch(/Duplicate/i);
      // the same name in another namespace, or of another kind, is fine
      await importJson(list(node('web'), pod('web'), pod('web', 'other'))).expect(201);
    });

    it('names must be RFC 1123 where the apiserver requires it', async () => {
      for (const [body, kind, field] of [
        [list(node('Node_ünïcode')), 'Node', 'metadata.name'],
        [list(node('n1'), pod('UPPER')), 'Pod', 'metadata.name'],
        [list(node('n1'), pod('ok', 'Bad_NS')), 'Pod', 'metadata.namespace'],
        [
          list(node('n1'), { ...pod('ok'), spec: { ...pod('ok').spec, nodeName: 'nöde' } }),
          'Pod',
          'spec.nodeName',
        ],
        [list(node('x'.repeat(254))), 'Node', 'metadata.name'],
      ] as const) {
        const error = await rejected(() => importJson(body), 400);
        expect(error.code).toBe('invalid_object');
        expect(error.details).toMatchObject({ kind, field });
      }
    });

    it('a misspelled kind is an error, an unrelated unknown kind is still skipped', async () => {
      const error = await rejected(() => importJson(list(node('n1'), { ...pod('p'), kind: 'pod' })), 400);
      expect(error).toMatchObject({ code: 'invalid_object', details: { field: 'kind' } });
      expect(error.message).toContain('"Pod"');
      await rejected(() => importJson(list(node('n1'), { ...node('n2'), kind: 'Nodes' })), 400);
      const ok = await importJson(
        list(node('n9'), {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'c', namespace: 'default' },
        }),
      ).expect(201);
      expect(ok.body.warnings[0]).toMatchObject({ kind: 'ConfigMap', count: 1 });
    });

    it.each([['1e309'], ['99999999999999999999999999'], ['1Ei'], ['-1']])(
      'cpu/memory %s out of the range the engine holds is refused naming the field',
      async (q) => {
        const error = await rejected(() => importJson(list(node('n1', q), pod('p'))), 400);
        expect(error.code).toBe('invalid_object');
        expect(error.details).toMatchObject({ kind: 'Node', name: 'n1', field: 'status.allocatable.cpu' });
        const mem = await rejected(() => importJson(list(node('n1', '4', q), pod('p'))), 400);
        expect(mem.details).toMatchObject({ field: 'status.allocatable.memory' });
        const req = await rejected(() => importJson(list(node('n1'), pod('p', 'default', q))), 400);
        expect(req.details).toMatchObject({
          kind: 'Pod',
          field: 'spec.containers[0].resources.requests.cpu',
        });
      },
    );

    it('the same snapshot through GraphQL is refused the same way', async () => {
      const res = await gql(
        'mutation($c: String!) { importSnapshot(name: "d", content: $c) { duplicate } }',
        {
          c: list(node('n1'), pod('web'), pod('web')),
        },
      );
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'invalid_object', status: 400 });
    });
  });

  describe('validation gaps', () => {
    it('a negative score weight answers 400 invalid_profile naming the field', async () => {
      const config = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    plugins:
      score:
        enabled:
          - name: NodeResourcesBalancedAllocation
            weight: -5
`;
      const error = await rejected(
        () =>
          api.http
            .post('/v1/profiles?name=neg')
            .set(bearer(acme.key))
            .set('content-type', 'application/yaml')
            .send(config),
        400,
      );
      expect(error.code).toBe('invalid_profile');
      expect(error.details).toEqual([
        expect.objectContaining({ field: 'profiles[0].plugins.score.enabled[0].weight' }),
      ]);
    });

    it('run options carrying objects are validated at submit: capacity podTemplate, nodes-needed templates', async () => {
      const snapshotId = (await api.prisma.snapshot.findFirstOrThrow({ where: { tenantId: acme.id } })).id;
      const submit = (body: object) => () => api.http.post('/v1/runs').set(bearer(acme.key)).send(body);
      const capacity = await rejected(
        submit({
          type: 'capacity',
          snapshotId,
          options: {
            podTemplate: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '1e309' } } }] } },
          },
        }),
        400,
      );
      expect(capacity.details).toEqual([
        expect.objectContaining({ field: 'options.podTemplate.spec.containers[0].resources.requests.cpu' }),
      ]);
      const templates = await rejected(
        submit({
          type: 'nodes-needed',
          snapshotId,
          options: { templates: [{ name: 'big', allocatable: { cpu: '4', memory: '1Ei' } }] },
        }),
        400,
      );
      expect(templates.details).toEqual([
        expect.objectContaining({ field: 'options.templates.0.allocatable.memory' }),
      ]);
      // The CLI's node template schema: a misspelt field, a taint effect and a CSI limit by name.
      const shaped = await rejected(
        submit({
          type: 'nodes-needed',
          snapshotId,
          options: {
            templates: [
              {
                name: 'big',
                allocatable: { cpu: '4' },
                taints: [{ key: 'gpu', effect: 'NoPlace' }],
                csiDrivers: [{ name: 'ebs.csi.aws.com', allocatableCount: -1 }],
                hourlyPrise: 1,
              },
            ],
          },
        }),
        400,
      );
      const fields = (shaped.details as unknown as { field: string }[]).map((d) => d.field);
      expect(fields.sort()).toEqual([
        'options.templates.0',
        'options.templates.0.csiDrivers.0.allocatableCount',
        'options.templates.0.taints.0.effect',
      ]);
      expect(JSON.stringify(shaped.details)).toContain('hourlyPrise');
      await api.http
        .post('/v1/runs')
        .set(bearer(acme.key))
        .send({
          type: 'nodes-needed',
          snapshotId,
          options: { templates: [{ name: 'ok', allocatable: { cpu: '4' } }] },
        })
        .expect(202);
    });

    it('a node filter that is not a node name answers 400', async () => {
      const error = await rejected(
        () =>
          api.http
            .get(`/v1/runs/${runId}/placements?node=${encodeURIComponent('nöde/../x')}`)
            .set(bearer(acme.key)),
        400,
      );
      expect(error.code).toBe('invalid_request');
    });

    it('a tenant cannot revoke its own last admin key', async () => {
      const keys = await api.http.get('/v1/api-keys').set(bearer(acme.key)).expect(200);
      const admin = keys.body.find((k: { scopes: string[] }) => k.scopes.includes('admin'));
      const error = await rejected(
        () => api.http.delete(`/v1/api-keys/${admin.id}`).set(bearer(acme.key)),
        409,
      );
      expect(error.code).toBe('last_admin_key');
      // with a second admin key, the first can go
      const second = await api.http
        .post('/v1/api-keys')
        .set(bearer(acme.key))
        .send({ name: 'second', scopes: ['admin'] })
        .expect(201);
      await api.http.delete(`/v1/api-keys/${admin.id}`).set(bearer(acme.key)).expect(200);
      const gqlRevoke = await gql(
        `mutation { revokeApiKey(id: "${second.body.id}") { id } }`,
        {},
        second.body.secret,
      );
      expect(gqlRevoke.body.errors[0].extensions).toMatchObject({ code: 'last_admin_key', status: 409 });
      acme = { ...acme, key: second.body.secret };
    });
  });
});

describe('GraphQL rate limit (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;
  beforeAll(async () => {
    api = await ApiHarness.start({ API_RATE_LIMIT_PER_MINUTE: '2' });
    acme = await api.tenant('acme');
  });
  afterAll(() => api?.stop());

  it('answers HTTP 429 with Retry-After like REST', async () => {
    const ask = () =>
      api.http
        .post('/graphql')
        .set(bearer(acme.key))
        .send({ query: '{ snapshots { edges { node { id } } } }' });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const last = await ask();
    expect(last.status).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.headers['x-ratelimit-limit']).toBe('2');
    expect(last.body.errors[0].extensions).toMatchObject({ code: 'rate_limited', status: 429 });
  });
});
