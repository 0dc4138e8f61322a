import type { INestApplication } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { type Prisma, PrismaService, packSnapshotItems } from '@schedlab/db';
import { parseKubernetesObjects } from '@schedlab/k8s';
import type { ReportInput, TimelineReportInput } from '@schedlab/report';
import { parse as parseYaml } from 'yaml';
import { executeEngineJob } from '@schedlab/runs';
import { createTestDatabase, testConfig, type TestDatabase, uniqueName } from '@schedlab/testing';
import { createApiApp } from '../app';
import { signReportLink } from './report-link';

const SECRET = 'report-link-secret-for-tests-0123456789';
const clusterSmall = readFileSync(path.resolve(__dirname, '../../../../examples/cluster-small.yaml'), 'utf8');

const embedded = (html: string) =>
  JSON.parse(
    /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1],
  ) as ReportInput;

describe('run reports over REST and signed links (real PostgreSQL)', () => {
  let db: TestDatabase;
  let app: INestApplication;
  let prisma: PrismaService;
  let server: ReturnType<INestApplication['getHttpServer']>;
  let owner: { tenantId: string; key: string };
  let stranger: { tenantId: string; key: string };
  let runId: string;

  async function tenant() {
    const created = await createTenantWithAdminKey(prisma, uniqueName('tenant'));
    return { tenantId: created.tenant.id, key: created.apiKey.secret };
  }

  /** A snapshot and a run stored the way the worker stores them (its own shaping code). */
  async function storeRun(tenantId: string, status: 'succeeded' | 'queued' = 'succeeded'): Promise<string> {
    const items = parseKubernetesObjects(clusterSmall).objects;
    const packed = packSnapshotItems(items);
    const snapshot = await prisma.snapshot.upsert({
      where: { tenantId_contentHash: { tenantId, contentHash: packed.contentHash } },
      update: {},
      create: {
        tenantId,
        name: 'cluster-small',
        contentHash: packed.contentHash,
        counts: {},
        sizeBytes: packed.sizeBytes,
        content: packed.content,
      },
    });
    const run = await prisma.run.create({
      data: {
        tenantId,
        type: 'simulate',
        snapshotId: snapshot.id,
        profileName: 'default',
        profileVersion: 1,
        status,
      },
    });
    if (status !== 'succeeded') return run.id;
    const output = executeEngineJob(
      { runId: run.id, type: 'simulate', content: packed.content, seed: 0, options: {} },
      () => undefined,
    );
    await prisma.$transaction([
      prisma.run.update({ where: { id: run.id }, data: { engineVersion: output.engineVersion } }),
      prisma.runResult.create({ data: { runId: run.id, summary: output.summary as Prisma.InputJsonValue } }),
      prisma.placement.createMany({
        data: output.placements.map((p) => ({ ...p, runId: run.id, victims: p.victims ?? undefined })),
      }),
      prisma.podExplanation.createMany({
        data: output.explanations.map((e) => ({
          ...e,
          runId: run.id,
          explanation: e.explanation as Prisma.InputJsonValue,
        })),
      }),
    ]);
    return run.id;
  }

  beforeAll(async () => {
    db = await createTestDatabase({ migrated: true });
    app = await createApiApp(
      testConfig({
        DATABASE_URL: db.url,
        REPORT_LINK_SECRET: SECRET,
        PUBLIC_API_URL: 'https://schedlab.example.com/',
      }),
    );
    await app.init();
    server = app.getHttpServer();
    prisma = app.get(PrismaService);
    owner = await tenant();
    stranger = await tenant();
    runId = await storeRun(owner.tenantId);
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('GET /v1/runs/{id}/report serves the self-contained HTML report rebuilt from the stored run', async () => {
    const res = await request(server)
      .get(`/v1/runs/${runId}/report`)
      .set('authorization', `Bearer ${owner.key}`)
      .expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const data = embedded(res.text);
    expect(data.runs).toHaveLength(1);
    const [run] = data.runs;
    expect(run.nodes).toHaveLength(9);
    expect(new Set(run.nodes.map((n) => n.zone))).toEqual(
      new Set(['eu-west-1a', 'eu-west-1b', 'eu-west-1c']),
    );
    const postgres = run.pods.find((p) => p.pod === 'db/postgres-1')!;
    expect(postgres.node).toBeNull();
    expect(postgres.message).toMatch(
      /^0\/9 nodes are available: .*6 node\(s\) didn't match Pod's node affinity\/selector/,
    );
    expect(postgres.filters).toHaveLength(9);
    // Scheduled pods: the best-scored nodes of the stored compact record, with plugin breakdown.
    const scheduled = run.pods.find((p) => p.node && p.scores.length > 1)!;
    expect(scheduled).toBeDefined();
    expect(scheduled.scores.some((s) => s.node === scheduled.node)).toBe(true);
    expect(Object.keys(scheduled.scores[0].plugins).length).toBeGreaterThan(1);
    // After the run node-b2 holds the preempting pod, not its victim.
    const b2 = run.nodes.find((n) => n.name === 'node-b2')!;
    expect(b2.pods).toContain('shop/checkout-5c7b9-0');
    expect(b2.pods).not.toContain('batch/report-builder-1');
  });

  it('a timeline run: the report draws its stored pending series and waiting-time histogram', async () => {
    const items = parseKubernetesObjects(clusterSmall).objects;
    const packed = packSnapshotItems(items);
    const snapshot = await prisma.snapshot.findFirstOrThrow({
      where: { tenantId: owner.tenantId, contentHash: packed.contentHash },
    });
    const timeline = parseYaml(
      readFileSync(path.resolve(__dirname, '../../../../examples/timeline/burst-0900.yaml'), 'utf8'),
    ) as Record<string, unknown>;
    const run = await prisma.run.create({
      data: {
        tenantId: owner.tenantId,
        type: 'timeline',
        snapshotId: snapshot.id,
        profileName: 'default',
        profileVersion: 1,
        status: 'succeeded',
        options: { timeline } as Prisma.InputJsonValue,
      },
    });
    const output = executeEngineJob(
      { runId: run.id, type: 'timeline', content: packed.content, seed: 0, options: { timeline } },
      () => undefined,
    );
    await prisma.runResult.create({
      data: {
        runId: run.id,
        summary: output.summary as Prisma.InputJsonValue,
        analysis: output.analysis as Prisma.InputJsonValue,
      },
    });
    const res = await request(server)
      .get(`/v1/runs/${run.id}/report`)
      .set('authorization', `Bearer ${owner.key}`)
      .expect(200);
    const data = embedded(res.text) as unknown as TimelineReportInput;
    const analysis = output.analysis as {
      series: { t: number[] };
      summary: { timeToSchedule: { histogram: unknown } };
    };
    expect(data.runs).toEqual([]);
    expect(data.timeline.t).toEqual(analysis.series.t);
    expect(data.timeline.t).toHaveLength(181);
    expect(data.timeline.histogram).toEqual(analysis.summary.timeToSchedule.histogram);
  });

  it("answers another tenant's run exactly like a missing one, and needs an API key", async () => {
    const foreign = await request(server)
      .get(`/v1/runs/${runId}/report`)
      .set('authorization', `Bearer ${stranger.key}`)
      .expect(404);
    const missingId = '00000000-0000-4000-8000-000000000000';
    const missing = await request(server)
      .get(`/v1/runs/${missingId}/report`)
      .set('authorization', `Bearer ${stranger.key}`)
      .expect(404);
    expect(foreign.body.error.code).toBe(missing.body.error.code);
    expect(foreign.body.error.message).toBe(missing.body.error.message.replace(missingId, runId));
    await request(server).get(`/v1/runs/${runId}/report`).expect(401);
  });

  it('answers 409 for a run that has not finished', async () => {
    const queued = await storeRun(owner.tenantId, 'queued');
    const res = await request(server)
      .get(`/v1/runs/${queued}/report`)
      .set('authorization', `Bearer ${owner.key}`)
      .expect(409);
    expect(res.body.error).toMatchObject({ code: 'run_not_finished', details: { status: 'queued' } });
  });

  it('GraphQL reportUrl gives a signed link a browser opens without an API key; tampering or expiry is refused', async () => {
    const gql = await request(server)
      .post('/graphql')
      .set('authorization', `Bearer ${owner.key}`)
      .send({
        query: 'query($id: ID!) { reportUrl(runId: $id) { url expiresAt } }',
        variables: { id: runId },
      })
      .expect(200);
    expect(gql.body.errors).toBeUndefined();
    const { url, expiresAt } = gql.body.data.reportUrl as { url: string; expiresAt: string };
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe(`https://schedlab.example.com/v1/reports/${runId}`);
    expect(Number(link.searchParams.get('expires')) * 1000).toBe(Date.parse(expiresAt));

    const page = await request(server).get(`${link.pathname}${link.search}`).expect(200);
    expect(embedded(page.text).runs[0].nodes).toHaveLength(9);

    const tampered = `${link.pathname}?expires=${Number(link.searchParams.get('expires')) + 3600}&sig=${link.searchParams.get('sig')}`;
    expect((await request(server).get(tampered).expect(403)).body.error.code).toBe('invalid_report_link');
    expect((await request(server).get(link.pathname).expect(403)).body.error.code).toBe(
      'invalid_report_link',
    );

    const past = signReportLink(SECRET, runId, Math.floor(Date.now() / 1000) - 3600);
    const expired = await request(server)
      .get(`${link.pathname}?expires=${past.expires}&sig=${past.sig}`)
      .expect(403);
    expect(expired.body.error.code).toBe('report_link_expired');
  });

  it("GraphQL reportUrl refuses another tenant's run as not found", async () => {
    const gql = await request(server)
      .post('/graphql')
      .set('authorization', `Bearer ${stranger.key}`)
      .send({ query: 'query($id: ID!) { reportUrl(runId: $id) { url } }', variables: { id: runId } })
      .expect(200);
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors[0].message).toBe(`Run ${runId} not found`);
  });
});
