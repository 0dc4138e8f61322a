import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Queue } from 'bullmq';
import { redisOptionsFromUrl, RUNS_QUEUE } from '@schedlab/queues';
import { ApiHarness, bearer, type TestTenant } from './testing/api-harness';

const clusterSmall = readFileSync(path.resolve(__dirname, '../../../examples/cluster-small.yaml'), 'utf8');
const BIN_PACKING = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
  - schedulerName: default-scheduler
    pluginConfig:
      - name: NodeResourcesFit
        args:
          scoringStrategy:
            type: MostAllocated
`;
const MISSING = '00000000-0000-4000-8000-00000000dead';

describe('service API: runs, profiles, scenarios, keys, isolation (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;
  let rival: TestTenant;
  let snapshotId: string;
  let scenarioId: string;
  let profileId: string;
  let runId: string;

  const yaml = (req: ReturnType<ApiHarness['http']['post']>, key: string) =>
    req.set(bearer(key)).set('content-type', 'application/yaml');

  beforeAll(async () => {
    api = await ApiHarness.start();
    acme = await api.tenant('acme');
    rival = await api.tenant('rival');
    snapshotId = (
      await yaml(api.http.post('/v1/snapshots?name=small'), acme.key).send(clusterSmall).expect(201)
    ).body.id;
  });
  afterAll(() => api?.stop());

  describe('profiles', () => {
    it('lists the built-ins', async () => {
      const res = await api.http.get('/v1/profiles').set(bearer(acme.key)).expect(200);
      expect(res.body.map((p: { ref: string }) => p.ref)).toEqual(['bin-packing@1', 'default@1', 'spread@1']);
    });

    it('stores each upload as a new immutable version', async () => {
      const v1 = await yaml(api.http.post('/v1/profiles?name=packed'), acme.key)
        .send(BIN_PACKING)
        .expect(201);
      const v2 = await yaml(api.http.post('/v1/profiles?name=packed'), acme.key)
        .send(BIN_PACKING)
        .expect(201);
      expect([v1.body.ref, v2.body.ref]).toEqual(['packed@1', 'packed@2']);
      profileId = v1.body.id;
      expect((await api.http.get('/v1/profiles/packed').set(bearer(acme.key)).expect(200)).body.version).toBe(
        2,
      );
      expect((await api.http.get('/v1/profiles/packed@1').set(bearer(acme.key)).expect(200)).body.id).toBe(
        v1.body.id,
      );
      expect(
        (await api.http.get('/v1/profiles/packed@latest').set(bearer(acme.key)).expect(200)).body.version,
      ).toBe(2);
    });

    it("rejects what the engine rejects, with the engine's field and message, and stores nothing", async () => {
      const bad = BIN_PACKING.replace(
        'pluginConfig:',
        'plugins:\n      score:\n        enabled:\n          - name: NoSuchPlugin\n            weight: 1\n    pluginConfig:',
      );
      const res = await yaml(api.http.post('/v1/profiles?name=broken'), acme.key).send(bad).expect(400);
      expect(res.body.error.code).toBe('invalid_profile');
      expect(res.body.error.message).toContain('NoSuchPlugin');
      expect(res.body.error.details[0].field).toBe('profiles[0].plugins.score.enabled[0]');
      await api.http.get('/v1/profiles/broken').set(bearer(acme.key)).expect(404);
    });

    it('refuses the name of a built-in', async () => {
      const res = await yaml(api.http.post('/v1/profiles?name=default'), acme.key)
        .send(BIN_PACKING)
        .expect(409);
      expect(res.body.error.code).toBe('reserved_profile_name');
    });
  });

  describe('scenarios', () => {
    it('stores a scenario the engine accepts', async () => {
      const res = await api.http
        .post('/v1/scenarios')
        .set(bearer(acme.key))
        .send({ name: 'drain', snapshotId, document: { steps: [{ drain: { nodes: ['node-a'] } }] } })
        .expect(201);
      scenarioId = res.body.id;
      expect(res.body).toMatchObject({ name: 'drain', snapshotId });
    });

    it('names the field of an invalid scenario and stores nothing', async () => {
      const res = await api.http
        .post('/v1/scenarios')
        .set(bearer(acme.key))
        .send({ name: 'bad', document: { steps: [{ explode: {} }] } })
        .expect(400);
      expect(res.body.error.code).toBe('invalid_scenario');
      expect(res.body.error.details.field).toMatch(/^document\.steps\[0\]/);
      const list = await api.http.get('/v1/scenarios').set(bearer(acme.key)).expect(200);
      expect(list.body.items.map((s: { name: string }) => s.name)).toEqual(['drain']);
    });
  });

  describe('runs', () => {
    it('records the run, resolves the profile version and enqueues a job with jobId = runId', async () => {
      const res = await api.http
        .post('/v1/runs')
        .set(bearer(acme.key))
        .send({ type: 'simulate', snapshotId, profile: 'packed@1', seed: 7, options: { explain: 'summary' } })
        .expect(202);
      runId = res.body.id;
      expect(res.body).toMatchObject({ status: 'queued', profile: 'packed@1', seed: 7 });
      const row = await api.prisma.run.findUniqueOrThrow({ where: { id: runId } });
      expect(row).toMatchObject({ tenantId: acme.id, profileId, status: 'queued' });
      const queue = new Queue(RUNS_QUEUE, {
        connection: redisOptionsFromUrl(api.config.redisUrl),
        prefix: api.config.queuePrefix,
      });
      try {
        const job = await queue.getJob(runId);
        expect(job?.data).toEqual({ runId });
      } finally {
        await queue.close();
      }
      const got = await api.http.get(`/v1/runs/${runId}`).set(bearer(acme.key)).expect(200);
      expect(got.body.status).toBe('queued');
    });

    it('serves the deprecated /v1/simulations paths as /v1/runs, saying so in Deprecation and Link', async () => {
      const old = await api.http.get(`/v1/simulations/${runId}`).set(bearer(acme.key)).expect(200);
      expect(old.body).toMatchObject({ id: runId, status: 'queued' });
      expect(old.headers.deprecation).toMatch(/^@\d+$/);
      expect(old.headers.link).toBe('</v1/runs>; rel="successor-version"');
      const listed = await api.http.get('/v1/simulations?limit=1').set(bearer(acme.key)).expect(200);
      expect(listed.body.items).toHaveLength(1);
      const current = await api.http.get(`/v1/runs/${runId}`).set(bearer(acme.key)).expect(200);
      expect(current.headers.deprecation).toBeUndefined();
      // Only the whole path segment is the alias.
      await api.http.get('/v1/simulationsX').set(bearer(acme.key)).expect(404);
    });

    it('rejects unknown option fields per run type, naming them', async () => {
      const res = await api.http
        .post('/v1/runs')
        .set(bearer(acme.key))
        .send({ type: 'capacity', snapshotId, options: { podTemplat: {} } })
        .expect(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(
        expect.arrayContaining(['options.podTemplate', 'options']),
      );
    });

    it('accepts pvController: false and stores it with the run, and rejects a non-boolean', async () => {
      const ok = await api.http
        .post('/v1/runs')
        .set(bearer(acme.key))
        .send({ type: 'simulate', snapshotId, options: { pvController: false } })
        .expect(202);
      const row = await api.prisma.run.findUniqueOrThrow({ where: { id: ok.body.id } });
      expect(row.options).toMatchObject({ pvController: false });
      const bad = await api.http
        .post('/v1/runs')
        .set(bearer(acme.key))
        .send({ type: 'simulate', snapshotId, options: { pvController: 'no' } })
        .expect(400);
      expect(bad.body.error.details.map((d: { field: string }) => d.field)).toContain('options.pvController');
    });

    it('pages placements by cursor with filters, and groups unschedulable pods', async () => {
      // Results are written by the worker; here they are written directly as the worker would:
      // rows tagged with the attempt that finished the run, read once the run has succeeded.
      const finished = await api.prisma.run.create({
        data: {
          tenantId: acme.id,
          type: 'simulate',
          snapshotId,
          profileName: 'default',
          profileVersion: 1,
          status: 'succeeded',
          attempts: 1,
        },
      });
      const runId = finished.id;
      await api.prisma.placement.createMany({
        data: [0, 1, 2, 3, 4].map((i) => ({
          runId,
          attempt: 1,
          ordinal: i,
          podKey: `default/p${i}`,
          namespace: 'default',
          name: `p${i}`,
          status: i % 2 ? ('unschedulable' as const) : ('scheduled' as const),
          node: i % 2 ? null : 'node-a',
          message: i % 2 ? '0/3 nodes are available: 3 Insufficient cpu.' : null,
        })),
      });
      const first = await api.http
        .get(`/v1/runs/${runId}/placements?limit=2`)
        .set(bearer(acme.key))
        .expect(200);
      expect(first.body.items.map((p: { name: string }) => p.name)).toEqual(['p0', 'p1']);
      const second = await api.http
        .get(`/v1/runs/${runId}/placements?limit=2&cursor=${first.body.nextCursor}`)
        .set(bearer(acme.key))
        .expect(200);
      expect(second.body.items.map((p: { name: string }) => p.name)).toEqual(['p2', 'p3']);
      const unsched = await api.http
        .get(`/v1/runs/${runId}/placements?status=unschedulable`)
        .set(bearer(acme.key))
        .expect(200);
      expect(unsched.body).toMatchObject({ nextCursor: null });
      expect(unsched.body.items.map((p: { name: string }) => p.name)).toEqual(['p1', 'p3']);
      const groups = await api.http.get(`/v1/runs/${runId}/unschedulable`).set(bearer(acme.key)).expect(200);
      expect(groups.body).toEqual([
        {
          reason: '0/3 nodes are available: 3 Insufficient cpu.',
          count: 2,
          pods: ['default/p1', 'default/p3'],
        },
      ]);
    });

    it('cancels a queued run at once and announces it to simulation.cancelled endpoints', async () => {
      const endpoint = await api.prisma.webhookEndpoint.create({
        data: {
          tenantId: acme.id,
          url: 'https://hooks.example.com/schedlab',
          eventTypes: ['simulation.cancelled'],
          secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        },
      });
      const queued = await api.http
        .post('/v1/runs')
        .set(bearer(acme.key))
        .send({ type: 'simulate', snapshotId })
        .expect(202);
      const res = await api.http.post(`/v1/runs/${queued.body.id}/cancel`).set(bearer(acme.key)).expect(200);
      expect(res.body.status).toBe('cancelled');
      expect(res.body.cancelRequestedAt).not.toBeNull();
      await api.http.post(`/v1/runs/${queued.body.id}/cancel`).set(bearer(acme.key)).expect(409);
      const deliveries = await api.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id } });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].eventType).toBe('simulation.cancelled');
      expect(deliveries[0].payload).toMatchObject({
        type: 'simulation.cancelled',
        data: { runId: queued.body.id, status: 'cancelled' },
      });
    });
  });

  describe("another tenant's ids answer 404 exactly like missing ones", () => {
    const cases: Array<[string, () => string, string]> = [
      ['snapshot read', () => `/v1/snapshots/${snapshotId}`, 'get'],
      ['snapshot delete', () => `/v1/snapshots/${snapshotId}`, 'delete'],
      ['scenario read', () => `/v1/scenarios/${scenarioId}`, 'get'],
      ['scenario delete', () => `/v1/scenarios/${scenarioId}`, 'delete'],
      ['run read', () => `/v1/runs/${runId}`, 'get'],
      ['run cancel (update)', () => `/v1/runs/${runId}/cancel`, 'post'],
      ['run placements', () => `/v1/runs/${runId}/placements`, 'get'],
      ['run explanation', () => `/v1/runs/${runId}/pods/default/p0/explanation`, 'get'],
      ['profile read', () => '/v1/profiles/packed', 'get'],
    ];
    it.each(cases)('%s', async (_name, url, method) => {
      const theirs = await (api.http as any)[method](url()).set(bearer(rival.key)).expect(404);
      const missingUrl = url()
        .replace(/[0-9a-f-]{36}/, MISSING)
        .replace('/packed', '/nonexistent');
      const missing = await (api.http as any)[method](missingUrl).set(bearer(rival.key)).expect(404);
      expect(theirs.body.error.code).toBe('not_found');
      expect(missing.body.error.code).toBe('not_found');
    });

    it("lists show only the caller's own resources", async () => {
      for (const url of ['/v1/snapshots', '/v1/scenarios', '/v1/runs']) {
        const res = await api.http.get(url).set(bearer(rival.key)).expect(200);
        expect(res.body.items).toEqual([]);
      }
      const profiles = await api.http.get('/v1/profiles').set(bearer(rival.key)).expect(200);
      expect(profiles.body.map((p: { name: string }) => p.name)).not.toContain('packed');
      const keys = await api.http.get('/v1/api-keys').set(bearer(rival.key)).expect(200);
      expect(keys.body).toHaveLength(1);
    });

    it("cannot submit a run on another tenant's snapshot, scenario or profile", async () => {
      const own = (
        await yaml(api.http.post('/v1/snapshots?name=rival-small'), rival.key).send(clusterSmall).expect(201)
      ).body.id;
      for (const body of [
        { type: 'simulate', snapshotId },
        { type: 'simulate', snapshotId: own, scenarioId },
        { type: 'simulate', snapshotId: own, profile: 'packed@1' },
      ]) {
        const res = await api.http.post('/v1/runs').set(bearer(rival.key)).send(body).expect(404);
        expect(res.body.error.code).toBe('not_found');
      }
      expect(await api.prisma.run.count({ where: { tenantId: rival.id } })).toBe(0);
    });

    it("cannot revoke another tenant's key", async () => {
      const [key] = (await api.http.get('/v1/api-keys').set(bearer(acme.key)).expect(200)).body;
      await api.http.delete(`/v1/api-keys/${key.id}`).set(bearer(rival.key)).expect(404);
    });
  });

  describe('API keys and scopes', () => {
    it('shows a new key once, lists it by prefix, and a revoked key stops working', async () => {
      const created = await api.http
        .post('/v1/api-keys')
        .set(bearer(acme.key))
        .send({ name: 'reader', scopes: ['read'] })
        .expect(201);
      expect(created.body.secret.startsWith(created.body.prefix)).toBe(true);
      const listed = await api.http.get('/v1/api-keys').set(bearer(acme.key)).expect(200);
      const entry = listed.body.find((k: { id: string }) => k.id === created.body.id);
      expect(entry).toMatchObject({ prefix: created.body.prefix, scopes: ['read'] });
      expect(entry.secret).toBeUndefined();
      await api.http.get('/v1/snapshots').set(bearer(created.body.secret)).expect(200);
      const forbidden = await api.http
        .post('/v1/runs')
        .set(bearer(created.body.secret))
        .send({ type: 'simulate', snapshotId })
        .expect(403);
      expect(forbidden.body.error).toMatchObject({
        code: 'insufficient_scope',
        details: { required: 'write', granted: ['read'] },
      });
      await api.http.delete(`/v1/api-keys/${created.body.id}`).set(bearer(acme.key)).expect(200);
      const revoked = await api.http.get('/v1/snapshots').set(bearer(created.body.secret)).expect(401);
      expect(revoked.body.error.code).toBe('revoked_api_key');
    });

    it.each([
      [undefined, 'missing_credentials'],
      ['Basic abc', 'malformed_credentials'],
      ['Bearer not-a-key', 'malformed_api_key'],
      [`Bearer sl_${'A'.repeat(43)}`, 'invalid_api_key'],
    ])('Authorization %p answers 401 %s', async (header, code) => {
      const req = api.http.get('/v1/snapshots');
      if (header) req.set('Authorization', header);
      const res = await req.expect(401);
      expect(res.body.error.code).toBe(code);
      expect(res.body.error.requestId).toBeTruthy();
    });
  });

  it('documents the /v1 endpoints in the OpenAPI document', async () => {
    const spec = await api.http.get('/docs/openapi.json').expect(200);
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/snapshots',
        '/v1/snapshots/{id}',
        '/v1/profiles',
        '/v1/scenarios',
        '/v1/runs',
        '/v1/runs/{id}',
        '/v1/runs/{id}/placements',
        '/v1/runs/{id}/pods/{namespace}/{name}/explanation',
        '/v1/runs/{id}/cancel',
        '/v1/api-keys',
        '/v1/admin/tenants',
      ]),
    );
    expect(spec.body.paths['/v1/snapshots'].post.requestBody.content).toHaveProperty('application/yaml');
  });

  describe('bad input', () => {
    it('malformed JSON answers 400 with line and column', async () => {
      const res = await api.http
        .post('/v1/runs')
        .set(bearer(acme.key))
        .set('content-type', 'application/json')
        .send('{\n  "type": "simulate",\n  "snapshotId": oops\n}')
        .expect(400);
      expect(res.body.error.code).toBe('malformed_body');
      expect(res.body.error.details).toEqual({ line: 3, column: expect.any(Number) });
    });

    it('malformed YAML dump answers 400 with line and column and stores nothing', async () => {
      const before = await api.prisma.snapshot.count();
      const res = await yaml(api.http.post('/v1/snapshots?name=broken'), acme.key)
        .send('apiVersion: v1\nkind: Node\nmetadata: {name: [}\n')
        .expect(400);
      expect(res.body.error.code).toBe('malformed_body');
      expect(res.body.error.details.line).toBe(3);
      expect(await api.prisma.snapshot.count()).toBe(before);
    });

    it('an invalid object names the object and the field', async () => {
      const res = await yaml(api.http.post('/v1/snapshots?name=bad-pod'), acme.key)
        .send(
          'apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec:\n  containers:\n    - name: c\n      resources: {requests: {cpu: lots}}\n',
        )
        .expect(400);
      expect(res.body.error.code).toBe('invalid_object');
      expect(res.body.error.details).toMatchObject({ kind: 'Pod', namespace: 'shop', name: 'web' });
      expect(res.body.error.details.field).toContain('cpu');
    });

    it('unknown fields in our own inputs are rejected', async () => {
      const res = await api.http
        .post('/v1/scenarios')
        .set(bearer(acme.key))
        .send({ name: 'x', document: { steps: [] }, colour: 'red' })
        .expect(400);
      expect(res.body.error.message).toContain('colour');
    });

    it('a content type other than JSON or YAML answers 415', async () => {
      const res = await api.http
        .post('/v1/scenarios')
        .set(bearer(acme.key))
        .set('content-type', 'text/plain')
        .send('hello')
        .expect(415);
      expect(res.body.error.code).toBe('unsupported_media_type');
    });
  });
});

describe('limits (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;
  beforeAll(async () => {
    api = await ApiHarness.start({ API_BODY_LIMIT_BYTES: '2048', API_RATE_LIMIT_PER_MINUTE: '3' });
    acme = await api.tenant('acme');
  });
  afterAll(() => api?.stop());

  it('a body over the limit answers 413 naming the limit', async () => {
    const res = await api.http
      .post('/v1/snapshots?name=big')
      .set(bearer(acme.key))
      .set('content-type', 'application/yaml')
      .send('#'.repeat(4096))
      .expect(413);
    expect(res.body.error).toMatchObject({ code: 'payload_too_large', details: { limitBytes: 2048 } });
  });

  it('requests past the per-tenant limit answer 429 with Retry-After', async () => {
    let last;
    for (let i = 0; i < 4; i++) last = await api.http.get('/v1/snapshots').set(bearer(acme.key));
    expect(last!.status).toBe(429);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.body.error.code).toBe('rate_limited');
    const other = await api.tenant('other');
    await api.http.get('/v1/snapshots').set(bearer(other.key)).expect(200);
  });
});
