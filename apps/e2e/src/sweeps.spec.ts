import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { createPrismaClient } from '@schedlab/db';
import { createTestDatabase, type TestDatabase, uniqueName } from '@schedlab/testing';
import { eventually, seedTenantWithSnapshot, workerEnv } from './run-fixtures';
import { type ServiceProcess, startService } from './service-process';

interface SweepJson {
  id: string;
  parent: { status: string };
  runs: Array<{ id: string; status: string; profile: string; seed: number; parentId: string }>;
  comparison: {
    summary: { children: number; succeeded: number; baselineRunId: string };
    runs: Array<{
      runId: string;
      profile: string;
      seed: number;
      scheduled: number;
      movedFromBaseline: number;
      cpuStdDev: number;
    }>;
  } | null;
}

/** A sweep over two profiles × two seeds: four child runs and a comparison once all finish. */
describe('sweeps (real PostgreSQL, Redis, api and two worker processes)', () => {
  let db: TestDatabase;
  let prisma: ReturnType<typeof createPrismaClient>;
  const services: ServiceProcess[] = [];
  let baseUrl: string;
  let owner: { tenantId: string; apiKey: string; snapshotId: string };
  let hooks: Server;
  const received: { body: string; headers: Record<string, string> }[] = [];
  let hookUrl: string;

  const call = async <T>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  };

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    prisma = createPrismaClient(db.url);
    owner = await seedTenantWithSnapshot(prisma, { nodes: 6, pods: 40 });
    hooks = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body, headers: req.headers as Record<string, string> });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/`;
    const env = workerEnv(db.url, uniqueName('sweep'), {
      API_PORT: '0',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    });
    const api = await startService<{ type: string; endpoints: { graphql: string } }>('api', env);
    services.push(api.service);
    baseUrl = new URL(api.ready.endpoints.graphql).origin;
    for (let i = 0; i < 2; i++) services.push((await startService('worker', env)).service);
  });

  afterAll(async () => {
    await Promise.all(services.map((s) => s.stop()));
    await new Promise((resolve) => hooks?.close(resolve));
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('runs every profile × seed as a child run and compares them when all finish', async () => {
    const endpoint = await call<{ secret: string }>('POST', '/v1/webhooks/endpoints', {
      url: hookUrl,
      eventTypes: ['sweep.completed'],
    });
    expect(endpoint.status).toBe(201);
    const submitted = await call<SweepJson>('POST', '/v1/sweeps', {
      snapshotId: owner.snapshotId,
      profiles: ['default', 'bin-packing'],
      seeds: [0, 1],
      options: { explain: 'summary' },
    });
    expect(submitted.status).toBe(202);
    expect(submitted.body.runs).toHaveLength(4);
    expect(submitted.body.runs.every((r) => r.parentId === submitted.body.id)).toBe(true);

    const sweep = await eventually(async () => {
      const res = await call<SweepJson>('GET', `/v1/sweeps/${submitted.body.id}`);
      return res.body.parent.status === 'succeeded' ? res.body : undefined;
    });
    expect(sweep.runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(sweep.comparison!.summary).toMatchObject({
      children: 4,
      succeeded: 4,
      baselineRunId: sweep.runs[0]!.id,
    });
    const byRun = new Map(sweep.comparison!.runs.map((r) => [r.runId, r]));
    expect(byRun.get(sweep.runs[0]!.id)).toMatchObject({
      profile: 'default@1',
      seed: 0,
      scheduled: 40,
      movedFromBaseline: 0,
    });
    // Bin-packing (MostAllocated) concentrates pods the default profile spreads: some must move.
    const binPacking = sweep.comparison!.runs.filter((r) => r.profile.startsWith('bin-packing'));
    expect(binPacking.every((r) => r.scheduled === 40 && r.movedFromBaseline > 0)).toBe(true);
    expect(await prisma.runResult.count({ where: { runId: { in: sweep.runs.map((r) => r.id) } } })).toBe(4);

    await eventually(async () => (received.length > 0 ? true : undefined));
    const event = new Webhook(endpoint.body.secret).verify(received[0]!.body, received[0]!.headers) as {
      type: string;
      data: { runId: string };
    };
    expect(event).toMatchObject({ type: 'sweep.completed', data: { runId: sweep.id } });
  });

  it('rejects a sweep of fewer than two runs, naming the field', async () => {
    const res = await call<{ error: { code: string } }>('POST', '/v1/sweeps', {
      snapshotId: owner.snapshotId,
      profiles: ['default'],
      seeds: [3],
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/profiles/);
    expect(await prisma.run.count({ where: { seed: 3 } })).toBe(0);
  });

  it('answers 404 for an unknown profile, and stores nothing', async () => {
    const before = await prisma.run.count();
    const res = await call<{ error: { code: string } }>('POST', '/v1/sweeps', {
      snapshotId: owner.snapshotId,
      profiles: ['default', 'no-such-profile'],
      seeds: [0],
    });
    expect(res.status).toBe(404);
    expect(await prisma.run.count()).toBe(before);
  });
});
