import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { type ServiceProcess, startService } from './service-process';

interface ApiListening {
  type: 'api-listening';
  endpoints: { graphql: string; healthz: string };
}

interface PingJobJson {
  id: string;
  status: string;
  message: string;
  result: { echo: string; processedBy: string } | null;
  finishedAt: string | null;
}

/** The example endpoints are operator-only; the test plays the operator. */
const OPERATOR_TOKEN = 'e2e-operator-token-0123456789abcdef';

/** api → queue → worker → database → api, with each app in its own process. */
describe('ping job round trip (real PostgreSQL, Redis, api and worker processes)', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let api: ServiceProcess;
  let baseUrl: string;
  let graphqlUrl: string;
  const workers: ServiceProcess[] = [];

  async function post<T>(path: string, body: unknown): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as T;
  }

  /** Every state the api reports over graphql-ws until the subscription completes. */
  function pingJobUpdates(id: string): Promise<PingJobJson[]> {
    const client = createClient({
      url: graphqlUrl.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    const seen: PingJobJson[] = [];
    return new Promise<PingJobJson[]>((resolve, reject) => {
      client.subscribe<{ pingJobUpdates: PingJobJson }>(
        {
          query: `subscription ($id: ID!) {
            pingJobUpdates(id: $id) { id status message result { echo processedBy } finishedAt }
          }`,
          variables: { id },
        },
        {
          next: ({ data, errors }) =>
            errors ? reject(new Error(JSON.stringify(errors))) : seen.push(data!.pingJobUpdates),
          error: reject,
          complete: () => resolve(seen),
        },
      );
    }).finally(() => client.dispose());
  }

  async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const res = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    env = {
      DATABASE_URL: db.url,
      API_PORT: '0',
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: uniqueName('e2e'),
      OPERATOR_TOKEN,
    };
    const started = await startService<ApiListening>('api', env);
    api = started.service;
    graphqlUrl = started.ready.endpoints.graphql;
    baseUrl = new URL(graphqlUrl).origin;
    workers.push((await startService('worker', env)).service);
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), ...workers.map((w) => w.stop())]);
    await db?.drop();
  });

  it('queues a job over REST that a worker completes and REST then returns', async () => {
    const tenant = await post<{ id: string }>('/api/tenants', { name: 'rest-tenant' });
    const created = await post<PingJobJson>('/api/ping-jobs', {
      tenantId: tenant.id,
      message: 'hello over REST',
    });
    expect(created.status).toBe('QUEUED');

    // The subscription completes once the job is final; only then is the REST read meaningful.
    const updates = await pingJobUpdates(created.id);
    expect(updates.at(-1)?.status).toBe('SUCCEEDED');

    const res = await fetch(`${baseUrl}/api/ping-jobs/${created.id}`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
    });
    expect(res.status).toBe(200);
    const job = (await res.json()) as PingJobJson;
    expect(job).toMatchObject({
      id: created.id,
      status: 'SUCCEEDED',
      message: 'hello over REST',
      result: { echo: 'hello over REST' },
    });
    expect(job.result?.processedBy).toMatch(/:\d+$/);
    expect(job.finishedAt).not.toBeNull();
  });

  it('does the same through GraphQL: mutation, then subscription updates until it succeeds', async () => {
    const { createTenant } = await graphql<{ createTenant: { id: string } }>(
      'mutation ($name: String!) { createTenant(name: $name) { id } }',
      { name: 'graphql-tenant' },
    );
    const { createPingJob } = await graphql<{ createPingJob: PingJobJson }>(
      'mutation ($tenantId: ID!, $message: String!) { createPingJob(tenantId: $tenantId, message: $message) { id status } }',
      { tenantId: createTenant.id, message: 'hello over GraphQL' },
    );
    const updates = await pingJobUpdates(createPingJob.id);
    const final = updates.at(-1)!;
    expect(final).toMatchObject({
      id: createPingJob.id,
      status: 'SUCCEEDED',
      result: { echo: 'hello over GraphQL' },
    });
    // Anything before the final update is an earlier, unfinished state.
    expect(updates.slice(0, -1).every((u) => u.status === 'QUEUED' || u.status === 'RUNNING')).toBe(true);
  });

  it('refuses the example endpoints without the operator token', async () => {
    const tenant = await fetch(`${baseUrl}/api/tenants`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'anonymous' }),
    });
    expect(tenant.status).toBe(401);
    const job = await fetch(`${baseUrl}/api/ping-jobs/00000000-0000-4000-8000-000000000000`, {
      headers: { authorization: 'Bearer not-the-operator-token' },
    });
    expect(job.status).toBe(401);
    expect(((await job.json()) as { error: { code: string } }).error.code).toBe('invalid_operator_token');
  });

  it('rejects a ping job for a tenant that does not exist', async () => {
    const res = await fetch(`${baseUrl}/api/ping-jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` },
      body: JSON.stringify({ tenantId: '00000000-0000-4000-8000-000000000000', message: 'x' }),
    });
    expect(res.status).toBe(404);
  });
});
