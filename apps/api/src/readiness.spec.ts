import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import {
  closedPort,
  createTestDatabase,
  testConfig,
  type TestDatabase,
  withDatabase,
} from '@schedlab/testing';
import { createApiApp } from './app';

describe('api health endpoints (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const apps: INestApplication[] = [];

  async function startApi(env: NodeJS.ProcessEnv) {
    const app = await createApiApp(testConfig({ DATABASE_URL: db.url, ...env }));
    apps.push(app);
    await app.init();
    return app.getHttpServer();
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await db?.drop();
  });

  it('GET /healthz answers 200 without touching dependencies', async () => {
    const server = await startApi({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    await request(server).get('/healthz').expect(200, { status: 'ok' });
  });

  it('GET /readyz answers 200 when PostgreSQL and Redis are up', async () => {
    const server = await startApi({});
    const res = await request(server).get('/readyz').expect(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'up', redis: 'up' }, down: [] });
  });

  it('GET /readyz answers 503 naming redis when Redis is unreachable', async () => {
    const server = await startApi({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    const res = await request(server).get('/readyz').expect(503);
    expect(res.body).toEqual({
      status: 'unavailable: redis down',
      checks: { postgres: 'up', redis: 'down' },
      down: ['redis'],
    });
  });

  it('GET /readyz answers 503 naming postgres when PostgreSQL is unreachable', async () => {
    const deadDatabase = withDatabase(`postgresql://postgres@127.0.0.1:${await closedPort()}`, db.name);
    const server = await startApi({ DATABASE_URL: deadDatabase });
    const res = await request(server).get('/readyz').expect(503);
    expect(res.body.down).toEqual(['postgres']);
    expect(res.body.status).toBe('unavailable: postgres down');
  });

  it('tags every response with a request id, keeping one the caller sent', async () => {
    const server = await startApi({});
    const res = await request(server).get('/healthz').set('x-request-id', 'trace-42').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-42');
  });

  it('serves the OpenAPI document at /docs', async () => {
    const server = await startApi({});
    await request(server).get('/docs').expect(200).expect('content-type', /html/);
    const spec = await request(server).get('/docs/openapi.json').expect(200);
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/v1/admin/tenants', '/v1/snapshots/{id}']),
    );
  });
});
