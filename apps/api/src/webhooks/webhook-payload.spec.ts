/**
 * A run's webhook payload is a summary and links, whatever the cluster's size: a 2,000-node
 * simulate run executed as a worker would (RunExecutor, engine thread) records a delivery of a
 * few KiB (its stored summary, with every node's utilization, is hundreds of times that), and
 * every link in it answers through the API. Real PostgreSQL and Redis.
 */
import { syntheticCluster } from '@schedlab/runs';
import { ApiHarness, bearer, type TestTenant } from '../testing/api-harness';

const PUBLIC_API_URL = 'https://schedlab.example';
const PAYLOAD_LIMIT_BYTES = 8 * 1024;

/** Pods no node can hold (64 CPUs on 8-CPU nodes), so the payload has reasons to summarise. */
const tooBig = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'batch' },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu: '64' } } }] },
});

interface Payload {
  type: string;
  timestamp: string;
  data: {
    runId: string;
    type: string;
    status: string;
    timings: Record<string, string | number | null>;
    summary: Record<string, unknown> | null;
    error: string | null;
    links: Record<string, string>;
  };
}

describe('webhook payloads carry a summary and links (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;

  beforeAll(async () => {
    api = await ApiHarness.start({ WEBHOOK_ALLOW_LOOPBACK: 'true', PUBLIC_API_URL });
    acme = await api.tenant('acme');
    // Nothing listens there: the deliveries stay pending in PostgreSQL, where the spec reads them.
    await api.http
      .post('/v1/webhooks/endpoints')
      .set(bearer(acme.key))
      .send({
        url: 'http://127.0.0.1:9/hooks',
        eventTypes: ['simulation.succeeded', 'simulation.cancelled'],
      })
      .expect(201);
  });
  afterAll(async () => {
    await api?.stop();
  });

  async function deliveryOf(runId: string): Promise<{ payload: Payload; bytes: number }> {
    const rows = await api.prisma.webhookDelivery.findMany();
    const row = rows.find((r) => (r.payload as unknown as Payload).data.runId === runId);
    if (!row) throw new Error(`no delivery recorded for run ${runId}`);
    return {
      payload: row.payload as unknown as Payload,
      bytes: Buffer.byteLength(JSON.stringify(row.payload)),
    };
  }

  /** A link under PUBLIC_API_URL, requested through the api with the tenant's key. */
  const follow = (link: string) => {
    expect(link.startsWith(`${PUBLIC_API_URL}/v1/`)).toBe(true);
    return api.http.get(link.slice(PUBLIC_API_URL.length)).set(bearer(acme.key));
  };

  it('a 2,000-node run: under 8 KiB with counts and headline figures and timings; every link resolves', async () => {
    const { items } = syntheticCluster({ nodes: 2000, pods: 300 });
    const snapshot = await api.http
      .post('/v1/snapshots?name=big')
      .set(bearer(acme.key))
      .set('content-type', 'application/json')
      .send(
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'List',
          items: [...items, tooBig('huge-1'), tooBig('huge-2')],
        }),
      )
      .expect(201);
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId: snapshot.body.id })
      .expect(202);
    const runId = run.body.id as string;
    expect(
      await api.executeRun(runId, { runTimeoutMs: 300_000, publicApiUrl: PUBLIC_API_URL }),
    ).toMatchObject({ status: 'succeeded' });

    const { payload, bytes } = await deliveryOf(runId);
    expect(bytes).toBeLessThan(PAYLOAD_LIMIT_BYTES);
    // What the payload used to carry: the stored summary, every node's utilization included.
    const stored = (await follow(`${PUBLIC_API_URL}/v1/runs/${runId}/result`).expect(200)).body.summary;
    expect(Object.keys(stored.utilization.nodes)).toHaveLength(2000);
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeGreaterThan(50 * bytes);

    expect(payload.type).toBe('simulation.succeeded');
    expect(payload.data).toMatchObject({ runId, type: 'simulate', status: 'succeeded', error: null });
    const summary = payload.data.summary ?? {};
    expect(summary).toMatchObject({
      pods: 302,
      scheduled: 300,
      unschedulable: 2,
      preempting: 0,
      preempted: 0,
      gated: 0,
      errors: 0,
    });
    expect(summary.topUnschedulableReasons).toEqual([
      { reason: expect.stringMatching(/^0\/2000 nodes are available: 2000 Insufficient cpu/), count: 2 },
    ]);
    const utilization = summary.utilization as { cpu: number; stdDev: { cpu: number } };
    expect(utilization.cpu).toBeCloseTo(stored.utilization.cluster.cpu.ratio, 12);
    expect(utilization.stdDev.cpu).toBeCloseTo(stored.utilization.stdDev.cpu, 12);
    expect(JSON.stringify(payload)).not.toContain('node-1999');

    const { timings } = payload.data;
    const row = (await follow(payload.data.links.self).expect(200)).body;
    expect(timings.createdAt).toBe(row.createdAt);
    expect(timings.finishedAt).toBe(row.finishedAt);
    expect(timings.durationMs).toBe(Date.parse(row.finishedAt) - Date.parse(row.startedAt));

    expect(Object.keys(payload.data.links).sort()).toEqual(['placements', 'report', 'self']);
    expect(row.id).toBe(runId);
    const placements = await follow(payload.data.links.placements).expect(200);
    expect(placements.body.items.length).toBeGreaterThan(0);
    const report = await follow(payload.data.links.report).expect(200);
    expect(report.headers['content-type']).toMatch(/^text\/html/);
  });

  it('a run cancelled while queued: its event has no summary, and its links resolve', async () => {
    const snapshot = await api.http
      .post('/v1/snapshots?name=tiny')
      .set(bearer(acme.key))
      .set('content-type', 'application/json')
      .send(
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'List',
          items: syntheticCluster({ nodes: 2, pods: 1 }).items,
        }),
      )
      .expect(201);
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId: snapshot.body.id })
      .expect(202);
    const runId = run.body.id as string;
    await api.http.post(`/v1/runs/${runId}/cancel`).set(bearer(acme.key)).expect(200);

    const { payload } = await deliveryOf(runId);
    expect(payload.type).toBe('simulation.cancelled');
    expect(payload.data).toMatchObject({ runId, status: 'cancelled', summary: null });
    expect(payload.data.timings.startedAt).toBeNull();
    expect((await follow(payload.data.links.self).expect(200)).body.status).toBe('cancelled');
  });
});
