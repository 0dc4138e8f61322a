/**
 * Every error answer carries a requestId, and it is the id of the x-request-id response header
 * and of the request's log line, whichever layer refused the request: the body middleware (415,
 * 413, a JSON body that does not parse), the router (unknown routes), the auth guard (401, 403),
 * validation (400) and GraphQL (extensions.requestId). Real PostgreSQL and Redis.
 */
import { ApiHarness, bearer, type TestTenant } from './testing/api-harness';

interface LogLine {
  msg?: string;
  req?: { id?: string; url?: string };
  res?: { statusCode?: number };
}

describe('every error has a requestId: header, body and log line agree (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;
  let readOnlyKey: string;
  const logged: LogLine[] = [];
  let restoreStdout: () => void;

  beforeAll(async () => {
    // The request logger writes JSON lines to stdout; keep them to find each request's line.
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const lines = String(chunk)
        .split('\n')
        .filter((line) => line.length > 0);
      const json = lines.flatMap((line) => {
        try {
          return [JSON.parse(line) as LogLine];
        } catch {
          return [];
        }
      });
      logged.push(...json);
      // The log lines are kept, not shown; anything else reaches the terminal.
      if (json.length === lines.length && lines.length > 0) return true;
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    restoreStdout = () => (process.stdout.write = write);
    api = await ApiHarness.start({ LOG_LEVEL: 'info', API_BODY_LIMIT_BYTES: '2048' });
    acme = await api.tenant('acme');
    const key = await api.http
      .post('/v1/api-keys')
      .set(bearer(acme.key))
      .send({ name: 'reader', scopes: ['read'] })
      .expect(201);
    readOnlyKey = key.body.secret as string;
  });
  afterAll(async () => {
    restoreStdout?.();
    await api?.stop();
  });

  /** The error body's id, the header's and the completed-request log line's must be one id. */
  async function sameIdEverywhere(res: {
    status: number;
    headers: Record<string, string>;
    body: { error?: { requestId?: string } };
  }): Promise<string> {
    const id = res.body.error?.requestId;
    if (typeof id !== 'string') throw new Error(`no requestId in ${JSON.stringify(res.body)}`);
    expect(res.headers['x-request-id']).toBe(id);
    // pino-http logs when the response finishes; give the write a tick.
    await new Promise((resolve) => setImmediate(resolve));
    const lines = logged.filter((l) => l.req?.id === id);
    expect(lines.map((l) => l.res?.statusCode)).toContain(res.status);
    return id;
  }

  it('415 for a content type the API does not read', async () => {
    const res = await api.http
      .post('/v1/snapshots?name=x')
      .set(bearer(acme.key))
      .set('content-type', 'text/plain')
      .send('nodes: []');
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('unsupported_media_type');
    await sameIdEverywhere(res);
  });

  it('413 for a body past API_BODY_LIMIT_BYTES', async () => {
    const res = await api.http
      .post('/v1/snapshots?name=x')
      .set(bearer(acme.key))
      .set('content-type', 'application/json')
      .send(JSON.stringify({ items: 'x'.repeat(4096) }));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    await sameIdEverywhere(res);
  });

  it('400 for a JSON body that does not parse, on /v1 and on /graphql', async () => {
    const rest = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .set('content-type', 'application/json')
      .send('{"type": "simulate",');
    expect(rest.status).toBe(400);
    await sameIdEverywhere(rest);
    const graphql = await api.http
      .post('/graphql')
      .set(bearer(acme.key))
      .set('content-type', 'application/json')
      .send('{"query": ');
    expect(graphql.status).toBe(400);
    await sameIdEverywhere(graphql);
  });

  it('404 for a route that does not exist and for a run that does not', async () => {
    const route = await api.http.get('/v1/no-such-thing').set(bearer(acme.key));
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe('not_found');
    await sameIdEverywhere(route);
    const outside = await api.http.get('/nowhere');
    expect(outside.status).toBe(404);
    await sameIdEverywhere(outside);
    const run = await api.http.get('/v1/runs/00000000-0000-4000-8000-000000000000').set(bearer(acme.key));
    expect(run.status).toBe(404);
    await sameIdEverywhere(run);
  });

  it('401 without a key or with a wrong one, 403 for a key without the scope', async () => {
    const none = await api.http.get('/v1/runs');
    expect(none.status).toBe(401);
    await sameIdEverywhere(none);
    const wrong = await api.http.get('/v1/runs').set(bearer('sl_not-a-real-key-at-all-000000000000000'));
    expect(wrong.status).toBe(401);
    await sameIdEverywhere(wrong);
    const scope = await api.http
      .post('/v1/api-keys')
      .set(bearer(readOnlyKey))
      .send({ name: 'escalate', scopes: ['admin'] });
    expect(scope.status).toBe(403);
    await sameIdEverywhere(scope);
  });

  it('400 for a body that fails validation', async () => {
    const res = await api.http.post('/v1/runs').set(bearer(acme.key)).send({ type: 'simulate' });
    expect(res.status).toBe(400);
    await sameIdEverywhere(res);
  });

  it("a caller's own x-request-id is the one answered and logged", async () => {
    const res = await api.http.get('/v1/no-such-thing').set(bearer(acme.key)).set('x-request-id', 'trace-20');
    expect(res.status).toBe(404);
    expect(await sameIdEverywhere(res)).toBe('trace-20');
  });

  it("GraphQL errors carry the request's id in extensions (resolver errors, validation, auth)", async () => {
    const cases = [
      { key: acme.key, query: '{ run(id: "00000000-0000-4000-8000-000000000000") { id } }' },
      { key: acme.key, query: '{ noSuchField }' },
      { key: undefined, query: '{ runs { edges { node { id } } } }' },
      { key: readOnlyKey, query: 'mutation { createApiKey(name: "x", scopes: ["admin"]) { secret } }' },
    ];
    for (const { key, query } of cases) {
      const req = api.http.post('/graphql').send({ query });
      const res = await (key ? req.set(bearer(key)) : req);
      const errors = res.body.errors as { extensions?: { requestId?: string } }[] | undefined;
      const id = errors?.[0]?.extensions?.requestId ?? res.body.error?.requestId;
      expect({ query, id }).toEqual({ query, id: expect.any(String) });
      expect(res.headers['x-request-id']).toBe(id);
    }
  });
});
