import { createTestDatabase, type TestDatabase, uniqueName, withDatabase } from '@schedlab/testing';
import { type ServiceProcess, startService } from './service-process';

interface ApiListening {
  type: 'api-listening';
  endpoints: { graphql: string };
}

const OPERATOR_TOKEN = 'e2e-operator-token-do-not-log-0123456789';
const DB_PASSWORD = 'db-pass-do-not-log-4242';
const COOKIE_VALUE = 'cookie-value-do-not-log-9999';

/**
 * Secrets out of logs (issue #13): the real api and worker processes at debug level, sent
 * requests carrying an API key, the operator token, a cookie and a webhook secret, with a
 * password in DATABASE_URL; their whole stdout/stderr must contain none of them.
 */
describe('no secret in any log line (real api and worker processes)', () => {
  let db: TestDatabase;
  let api: ServiceProcess;
  let worker: ServiceProcess | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    // The local server trusts connections, so a password in the URL is carried but never checked.
    const url = new URL(db.url);
    url.password = DB_PASSWORD;
    url.username ||= 'postgres';
    const env = {
      DATABASE_URL: withDatabase(url.toString(), db.name),
      API_PORT: '0',
      LOG_LEVEL: 'debug',
      QUEUE_PREFIX: uniqueName('e2e'),
      OPERATOR_TOKEN,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    };
    const started = await startService<ApiListening>('api', env);
    api = started.service;
    baseUrl = new URL(started.ready.endpoints.graphql).origin;
    worker = (await startService('worker', env)).service;
  });

  afterAll(async () => {
    await Promise.all([api?.stop(), worker?.stop()]);
    await db?.drop();
  });

  it('redacts authorization, cookies, API keys, webhook secrets, the operator token and URL passwords', async () => {
    const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      fetch(`${baseUrl}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await send(
      'POST',
      '/v1/admin/tenants',
      { authorization: `Bearer ${OPERATOR_TOKEN}` },
      { name: 'acme' },
    );
    expect(created.status).toBe(201);
    const key: string = ((await created.json()) as { apiKey: { secret: string } }).apiKey.secret;
    expect(key).toMatch(/^sl_/);
    const auth = { authorization: `Bearer ${key}`, cookie: `session=${COOKIE_VALUE}` };
    const endpoint = await send('POST', '/v1/webhooks/endpoints', auth, {
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['simulation.succeeded'],
    });
    expect(endpoint.status).toBe(201);
    const whsec: string = ((await endpoint.json()) as { secret: string }).secret;
    expect(whsec).toMatch(/^whsec_/);
    // A careless client: the key in the query string, the webhook secret in a header, a
    // malformed authorization header, an unknown key, GraphQL with the key.
    expect((await send('GET', '/v1/snapshots', auth)).status).toBe(200);
    await send('GET', `/v1/snapshots?token=${key}`, { ...auth, 'x-webhook-secret': whsec });
    await send('GET', '/v1/snapshots', { authorization: `Token ${key}` });
    await send('GET', '/v1/snapshots', { authorization: `Bearer sl_${'A'.repeat(43)}` });
    await send('POST', '/graphql', auth, { query: '{ snapshots { edges { node { id } } } }' });
    await send('POST', '/v1/admin/tenants', { authorization: `Bearer ${OPERATOR_TOKEN}x` }, { name: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const logs = `${api.output()}\n${worker?.output() ?? ''}`;
    // The requests were logged (so the test looks at real lines), with headers redacted.
    expect(logs).toContain('"url":"/v1/snapshots"');
    expect(logs).toContain('[REDACTED]');
    for (const secret of [
      key,
      key.slice(3),
      whsec,
      whsec.slice(6),
      OPERATOR_TOKEN,
      DB_PASSWORD,
      COOKIE_VALUE,
    ]) {
      expect({ secret, found: logs.includes(secret) }).toEqual({ secret, found: false });
    }
    expect(logs).not.toMatch(/sl_[A-Za-z0-9_-]{20,}/);
  });
});
