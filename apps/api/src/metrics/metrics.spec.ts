import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sampleValue } from '@schedlab/metrics';
import { createTestDatabase, testConfig, type TestDatabase } from '@schedlab/testing';
import { createApiApp } from '../app';

describe('api /metrics (a listening api on real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    app = await createApiApp(testConfig({ DATABASE_URL: db.url }));
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const scrape = async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('records each request under its route template and status, in the latency histogram and the counter', async () => {
    await fetch(`${base}/healthz`);
    await fetch(`${base}/healthz`);
    const snapshotStatus = (await fetch(`${base}/v1/snapshots/${randomUUID()}`)).status;
    await fetch(`${base}/no/such/${randomUUID()}`);
    await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });

    const text = await scrape();
    const health = { method: 'GET', route: '/healthz', status: '200', service: 'api' };
    expect(sampleValue(text, 'schedlab_http_requests_total', health)).toBe(2);
    expect(sampleValue(text, 'schedlab_http_request_duration_seconds_count', health)).toBe(2);
    expect(
      sampleValue(text, 'schedlab_http_request_duration_seconds_bucket', { ...health, le: '+Inf' }),
    ).toBe(2);
    expect(sampleValue(text, 'schedlab_http_request_duration_seconds_sum', health)).toBeGreaterThan(0);
    expect(
      sampleValue(text, 'schedlab_http_requests_total', {
        method: 'GET',
        route: '/v1/snapshots/:id',
        status: String(snapshotStatus),
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'schedlab_http_requests_total', {
        method: 'GET',
        route: '<unmatched>',
        status: '404',
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'schedlab_http_requests_total', { method: 'POST', route: '/graphql', status: '200' }),
    ).toBe(1);
    // Raw URLs never become labels.
    expect(text).not.toMatch(/route="[^"]*[0-9a-f]{8}-[0-9a-f]{4}-/);
    // Node's process metrics come along for the same registry.
    expect(text).toContain('schedlab_process_resident_memory_bytes{service="api"}');
  });
});
