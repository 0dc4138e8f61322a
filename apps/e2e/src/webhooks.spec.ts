import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { createPrismaClient } from '@schedlab/db';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { eventually, seedTenantWithSnapshot, workerEnv } from './run-fixtures';
import { type ServiceProcess, startService } from './service-process';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 answering with the statuses it is told, in order (then the last). */
async function receiver(statuses: number[]): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const status = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${received.length}: ${status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, received };
}

/** Signed webhooks from real api and worker processes to receivers on loopback. */
describe('webhooks (real PostgreSQL, Redis, api and worker processes)', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let baseUrl: string;
  let owner: { tenantId: string; apiKey: string; snapshotId: string };
  const servers: Server[] = [];

  async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${owner.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  }

  async function register(url: string, eventTypes = ['simulation.succeeded']) {
    const res = await call<{ id: string; secret: string }>('POST', '/v1/webhooks/endpoints', {
      url,
      eventTypes,
    });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function submitRun(): Promise<string> {
    const res = await call<{ id: string }>('POST', '/v1/runs', {
      type: 'simulate',
      snapshotId: owner.snapshotId,
      options: { explain: 'summary' },
    });
    expect(res.status).toBe(202);
    return res.body.id;
  }

  async function track(statuses: number[]) {
    const r = await receiver(statuses);
    servers.push(r.server);
    return r;
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    owner = await seedTenantWithSnapshot(prisma, { nodes: 4, pods: 12 });
    const env = workerEnv(db.url, uniqueName('hooks'), {
      API_PORT: '0',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_DISABLE_AFTER_FAILURES: '50',
    });
    const started = await startService<{ type: string; endpoints: { graphql: string } }>('api', env);
    api = started.service;
    baseUrl = new URL(started.ready.endpoints.graphql).origin;
    worker = (await startService('worker', env)).service;
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    await prisma?.$disconnect();
    await db?.drop();
  });

  it.each([
    'http://10.0.0.1/',
    'http://[fd00::1]/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.1.1/',
  ])('refuses to register %s (a private, unique-local, metadata or CGNAT address)', async (url) => {
    const res = await call<{ error: { code: string; details: { field: string } } }>(
      'POST',
      '/v1/webhooks/endpoints',
      {
        url,
        eventTypes: ['simulation.succeeded'],
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'unsafe_webhook_url', details: { field: 'url' } });
  });

  it('rejects an unknown event type naming the field, and stores nothing', async () => {
    const res = await call<{ error: { code: string } }>('POST', '/v1/webhooks/endpoints', {
      url: 'http://127.0.0.1:9/',
      eventTypes: ['simulation.exploded'],
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('eventTypes');
    expect(await prisma.webhookEndpoint.count({ where: { tenantId: owner.tenantId } })).toBe(0);
  });

  it('delivers a run result that the receiver verifies with the Standard Webhooks procedure; redelivers with the same id after a rotation', async () => {
    const hook = await track([204]);
    const endpoint = await register(hook.url);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const listed = await call<Array<Record<string, unknown>>>('GET', '/v1/webhooks/endpoints');
    expect(listed.body.find((e) => e.id === endpoint.id)).not.toHaveProperty('secret'); // shown once only

    const runId = await submitRun();
    await eventually(async () => (hook.received.length > 0 ? true : undefined));
    const [first] = hook.received;
    const payload = new Webhook(endpoint.secret).verify(
      first!.body,
      first!.headers as Record<string, string>,
    ) as {
      type: string;
      data: { runId: string; status: string; summary: { scheduled: number }; links: { self: string } };
    };
    expect(payload).toMatchObject({
      type: 'simulation.succeeded',
      data: { runId, status: 'succeeded', summary: { scheduled: 12 } },
    });
    expect(payload.data.links.self).toMatch(new RegExp(`/v1/runs/${runId}$`));
    expect(() =>
      new Webhook(`whsec_${Buffer.from('wrong key, 32 bytes long......').toString('base64')}`).verify(
        first!.body,
        first!.headers as Record<string, string>,
      ),
    ).toThrow();

    const rotated = await call<{ secret: string }>(
      'POST',
      `/v1/webhooks/endpoints/${endpoint.id}/rotate-secret`,
    );
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const redelivered = await call<{ id: string }>(
      'POST',
      `/v1/webhooks/deliveries/${first!.headers['webhook-id']}/redeliver`,
    );
    expect(redelivered.status).toBe(202);
    await eventually(async () => (hook.received.length > 1 ? true : undefined));
    const second = hook.received[1]!;
    expect(second.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(
      new Webhook(rotated.body.secret).verify(second.body, second.headers as Record<string, string>),
    ).toMatchObject({ data: { runId } });
  });

  it('retries a receiver that fails its first attempts, with the same webhook-id, and logs every attempt', async () => {
    const hook = await track([503, 500, 200]);
    const endpoint = await register(hook.url);
    await submitRun();
    const deliveries = await eventually(async () => {
      const res = await call<
        Array<{
          status: string;
          attempts: Array<{ statusCode: number; latencyMs: number; responseSnippet: string }>;
        }>
      >('GET', `/v1/webhooks/endpoints/${endpoint.id}/deliveries`);
      return res.body[0]?.status === 'succeeded' ? res.body : undefined;
    });
    expect(deliveries[0]!.attempts.map((a) => a.statusCode)).toEqual([503, 500, 200]);
    expect(deliveries[0]!.attempts[0]!.responseSnippet).toBe('answer 1: 503');
    expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const endpointNow = await call<{ enabled: boolean; consecutiveFailures: number }>(
      'GET',
      `/v1/webhooks/endpoints/${endpoint.id}`,
    );
    expect(endpointNow.body).toMatchObject({ enabled: true, consecutiveFailures: 0 });
  });

  it('disables an endpoint that answers 410 Gone, and does not retry it', async () => {
    const hook = await track([410]);
    const endpoint = await register(hook.url);
    await submitRun();
    const disabled = await eventually(async () => {
      const res = await call<{ enabled: boolean; disabledReason: string | null }>(
        'GET',
        `/v1/webhooks/endpoints/${endpoint.id}`,
      );
      return res.body.enabled ? undefined : res.body;
    });
    expect(disabled.disabledReason).toMatch(/410/);
    expect(hook.received).toHaveLength(1);
    const deliveries = await call<Array<{ status: string }>>(
      'GET',
      `/v1/webhooks/endpoints/${endpoint.id}/deliveries`,
    );
    expect(deliveries.body[0]!.status).toBe('failed');
  });

  it("answers 404 for another tenant's endpoint, exactly as for a missing one", async () => {
    const hook = await track([204]);
    const endpoint = await register(hook.url);
    const other = await seedTenantWithSnapshot(prisma, { nodes: 1, pods: 1 });
    const asOther = await fetch(`${baseUrl}/v1/webhooks/endpoints/${endpoint.id}`, {
      headers: { authorization: `Bearer ${other.apiKey}` },
    });
    const missing = await fetch(`${baseUrl}/v1/webhooks/endpoints/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: `Bearer ${other.apiKey}` },
    });
    expect(asOther.status).toBe(404);
    expect(missing.status).toBe(404);
    const deleted = await call('DELETE', `/v1/webhooks/endpoints/${endpoint.id}`);
    expect(deleted.status).toBe(204);
    expect((await call('GET', `/v1/webhooks/endpoints/${endpoint.id}`)).status).toBe(404);
  });

  it('offers the same over GraphQL: register (secret once), list, disable', async () => {
    const hook = await track([204]);
    const gql = async <T>(query: string, variables: Record<string, unknown>) => {
      const res = await call<{ data: T; errors?: unknown }>('POST', '/graphql', { query, variables });
      expect(res.body.errors).toBeUndefined();
      return res.body.data;
    };
    const { registerWebhookEndpoint: created } = await gql<{
      registerWebhookEndpoint: { id: string; secret: string };
    }>(
      'mutation ($url: String!, $types: [String!]!) { registerWebhookEndpoint(url: $url, eventTypes: $types) { id secret } }',
      { url: hook.url, types: ['simulation.failed'] },
    );
    expect(created.secret).toMatch(/^whsec_/);
    const { setWebhookEndpointEnabled } = await gql<{
      setWebhookEndpointEnabled: { enabled: boolean; disabledReason: string };
    }>(
      'mutation ($id: ID!) { setWebhookEndpointEnabled(id: $id, enabled: false) { enabled disabledReason } }',
      { id: created.id },
    );
    expect(setWebhookEndpointEnabled).toEqual({ enabled: false, disabledReason: 'disabled by the tenant' });
    const { webhookEndpoints } = await gql<{ webhookEndpoints: Array<{ id: string; eventTypes: string[] }> }>(
      '{ webhookEndpoints { id eventTypes } }',
      {},
    );
    expect(webhookEndpoints.find((e) => e.id === created.id)?.eventTypes).toEqual(['simulation.failed']);
  });
});
