import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { type ServiceProcess, startService } from './service-process';

interface ApiListening {
  type: 'api-listening';
  endpoints: { graphql: string };
}

const examples = path.resolve(__dirname, '..', '..', '..', 'examples');
const OPERATOR_TOKEN = 'e2e-operator-token-0123456789';
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

/**
 * The curl walk-through of the README, as processes: operator creates a tenant, the tenant
 * imports examples/cluster-small.yaml, uploads a profile, submits a run that a worker process
 * executes, follows its progress over graphql-ws and reads placements and an explanation.
 */
describe('service API round trip (real PostgreSQL, Redis, api and worker processes)', () => {
  let db: TestDatabase;
  let api: ServiceProcess;
  let worker: ServiceProcess | undefined;
  let baseUrl: string;
  let graphqlUrl: string;

  async function call(method: string, url: string, token: string, body?: string, type = 'application/json') {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': type }) },
      body,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    const env = {
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
    worker = (await startService('worker', env)).service;
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.drop();
  });

  it('tenant → snapshot → profile → run executed by the worker → placements and explanation', async () => {
    const refused = await call('POST', '/v1/admin/tenants', 'wrong-token', JSON.stringify({ name: 'acme' }));
    expect(refused.status).toBe(401);
    const tenant = await call('POST', '/v1/admin/tenants', OPERATOR_TOKEN, JSON.stringify({ name: 'acme' }));
    expect(tenant.status).toBe(201);
    const key = tenant.body.apiKey.secret as string;

    const snapshot = await call(
      'POST',
      '/v1/snapshots?name=small',
      key,
      readFileSync(path.join(examples, 'cluster-small.yaml'), 'utf8'),
      'application/yaml',
    );
    expect(snapshot.status).toBe(201);
    const profile = await call('POST', '/v1/profiles?name=packed', key, BIN_PACKING, 'application/yaml');
    expect(profile.body.ref).toBe('packed@1');

    const run = await call(
      'POST',
      '/v1/runs',
      key,
      JSON.stringify({
        type: 'simulate',
        snapshotId: snapshot.body.id,
        profile: 'packed',
        options: { explain: 'full' },
      }),
    );
    expect(run.status).toBe(202);
    expect(run.body.status).toBe('queued');

    // Follow the run until it is final (the subscription completes then).
    const client = createClient({
      url: graphqlUrl.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
    });
    const statuses: string[] = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe<{ runProgress: { status: string } }>(
        { query: `subscription { runProgress(id: "${run.body.id}") { status percent } }` },
        {
          next: (m) =>
            m.errors
              ? reject(new Error(JSON.stringify(m.errors)))
              : statuses.push(m.data!.runProgress.status),
          error: reject,
          complete: resolve,
        },
      );
    }).finally(() => client.dispose());
    expect(statuses.at(-1)).toBe('succeeded');

    const done = await call('GET', `/v1/runs/${run.body.id}`, key);
    expect(done.body).toMatchObject({ status: 'succeeded', profile: 'packed@1' });
    expect(done.body.engineVersion).toBeTruthy();

    const placements = await call('GET', `/v1/runs/${run.body.id}/placements?limit=1000`, key);
    // Pods already bound in the dump (spec.nodeName) are cluster state, not scheduled again.
    const boundInDump = 11;
    expect(placements.body.items.length).toBe(snapshot.body.counts.Pod - boundInDump);
    const scheduled = placements.body.items.find((p: { status: string }) => p.status === 'scheduled');
    expect(scheduled.node).toBeTruthy();
    const onNode = await call('GET', `/v1/runs/${run.body.id}/placements?node=${scheduled.node}`, key);
    expect(onNode.body.items.every((p: { node: string }) => p.node === scheduled.node)).toBe(true);

    const explanation = await call(
      'GET',
      `/v1/runs/${run.body.id}/pods/${scheduled.namespace}/${scheduled.name}/explanation`,
      key,
    );
    expect(explanation.status).toBe(200);
    const result = await call('GET', `/v1/runs/${run.body.id}/result`, key);
    expect(result.status).toBe(200);
    expect(result.body.summary).toBeTruthy();
  });
});
