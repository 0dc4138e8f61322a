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
    expect(res.body).toMatchObject({ name: 'small', labels: { env: 'test', team: 'platform' }, duplicate: false });
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
});
