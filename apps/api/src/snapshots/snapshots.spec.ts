import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiHarness, bearer, type TestTenant } from '../testing/api-harness';

const examples = path.resolve(__dirname, '../../../../examples');
const clusterSmall = readFileSync(path.join(examples, 'cluster-small.yaml'), 'utf8');

describe('snapshots API (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;

  beforeAll(async () => {
    api = await ApiHarness.start();
    acme = await api.tenant('acme');
  });
  afterAll(() => api?.stop());

  it('imports a kubectl-style YAML dump with counts and a content hash, then finds it again', async () => {
    const res = await api.http
      .post('/v1/snapshots?name=small&labels=env=test,team=platform')
      .set(bearer(acme.key))
      .set('content-type', 'application/yaml')
      .send(clusterSmall)
      .expect(201);
    expect(res.body).toMatchObject({
      name: 'small',
      labels: { env: 'test', team: 'platform' },
      duplicate: false,
    });
    expect(res.body.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.counts.Node).toBeGreaterThan(0);
    expect(res.body.counts.Pod).toBeGreaterThan(0);
    const got = await api.http.get(`/v1/snapshots/${res.body.id}`).set(bearer(acme.key)).expect(200);
    expect(got.body.contentHash).toBe(res.body.contentHash);
    const again = await api.http
      .post('/v1/snapshots?name=small-again')
      .set(bearer(acme.key))
      .set('content-type', 'application/yaml')
      .send(clusterSmall)
      .expect(200);
    expect(again.body).toMatchObject({ id: res.body.id, duplicate: true });
  });

  it('pages newest first by cursor, and soft delete hides a snapshot that hard delete then removes', async () => {
    const second = await api.http
      .post('/v1/snapshots?name=tiny')
      .set(bearer(acme.key))
      .set('content-type', 'application/json')
      .send({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
          { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' } },
        ],
      })
      .expect(201);
    expect(second.body.warnings).toEqual([expect.objectContaining({ kind: 'Event', count: 1 })]);
    const page1 = await api.http.get('/v1/snapshots?limit=1').set(bearer(acme.key)).expect(200);
    expect(page1.body.items.map((s: { name: string }) => s.name)).toEqual(['tiny']);
    const page2 = await api.http
      .get(`/v1/snapshots?limit=1&cursor=${page1.body.nextCursor}`)
      .set(bearer(acme.key))
      .expect(200);
    expect(page2.body).toMatchObject({ items: [{ name: 'small' }], nextCursor: null });
    await api.http.get('/v1/snapshots?cursor=garbage').set(bearer(acme.key)).expect(400);

    await api.http.delete(`/v1/snapshots/${second.body.id}`).set(bearer(acme.key)).expect(204);
    await api.http.get(`/v1/snapshots/${second.body.id}`).set(bearer(acme.key)).expect(404);
    expect(await api.prisma.snapshot.count({ where: { id: second.body.id } })).toBe(1);
    await api.http.delete(`/v1/snapshots/${second.body.id}?hard=true`).set(bearer(acme.key)).expect(204);
    expect(await api.prisma.snapshot.count({ where: { id: second.body.id } })).toBe(0);
  });

  it('lets an operator share a profile version with every tenant', async () => {
    const shared = await ApiHarness.start({ OPERATOR_TOKEN: 'operator-token-for-tests' });
    try {
      const owner = await shared.tenant('owner');
      const viewer = await shared.tenant('viewer');
      const profile = await shared.http
        .post('/v1/profiles?name=team-pack')
        .set(bearer(owner.key))
        .set('content-type', 'application/json')
        .send({ apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration' })
        .expect(201);
      await shared.http.get('/v1/profiles/team-pack').set(bearer(viewer.key)).expect(404);
      await shared.http
        .post(`/v1/admin/profiles/${profile.body.id}/shared`)
        .set(bearer(owner.key))
        .send({ shared: true })
        .expect(401);
      await shared.http
        .post(`/v1/admin/profiles/${profile.body.id}/shared`)
        .set(bearer('operator-token-for-tests'))
        .send({ shared: true })
        .expect(200);
      const seen = await shared.http.get('/v1/profiles/team-pack@1').set(bearer(viewer.key)).expect(200);
      expect(seen.body).toMatchObject({ shared: true, builtIn: false });
    } finally {
      await shared.stop();
    }
  });
});
