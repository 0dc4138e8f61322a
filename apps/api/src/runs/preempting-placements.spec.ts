/**
 * A pod that got its node by preempting: its placement (REST and GraphQL) names the victims, the
 * nominated node and the message of the retry that placed it, not the FitError of the attempt
 * that started the preemption (that one stays in the explanation's firstAttempt). Real
 * PostgreSQL and Redis; the run is executed as a worker would (RunExecutor, engine thread).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiHarness, bearer, type TestTenant } from '../testing/api-harness';

const clusterSmall = readFileSync(path.resolve(__dirname, '../../../../examples/cluster-small.yaml'), 'utf8');
const PREEMPTOR = 'shop/checkout-5c7b9-0';

describe("a preempting pod's placement shows the attempt that placed it (real PostgreSQL and Redis)", () => {
  let api: ApiHarness;
  let acme: TestTenant;
  let runId: string;

  beforeAll(async () => {
    api = await ApiHarness.start();
    acme = await api.tenant('acme');
    const snapshot = await api.http
      .post('/v1/snapshots?name=small')
      .set(bearer(acme.key))
      .set('content-type', 'application/yaml')
      .send(clusterSmall)
      .expect(201);
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId: snapshot.body.id })
      .expect(202);
    runId = run.body.id as string;
    expect(await api.executeRun(runId)).toMatchObject({ status: 'succeeded' });
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('REST: victims, nominated node and the retry’s message; the explanation keeps the FitError', async () => {
    const page = await api.http
      .get(`/v1/runs/${runId}/placements?namespace=shop&limit=100`)
      .set(bearer(acme.key))
      .expect(200);
    const placement = (page.body.items as { namespace: string; name: string }[]).find(
      (p) => `${p.namespace}/${p.name}` === PREEMPTOR,
    );
    expect(placement).toMatchObject({
      status: 'scheduled',
      node: 'node-b2',
      nominatedNode: 'node-b2',
      victims: ['batch/report-builder-1'],
      message: `Successfully assigned ${PREEMPTOR} to node-b2`,
    });

    const explanation = await api.http
      .get(`/v1/runs/${runId}/pods/${PREEMPTOR}/explanation`)
      .set(bearer(acme.key))
      .expect(200);
    expect(JSON.stringify(explanation.body)).toContain(
      'preemption: found a potential placement for pod on node node-b2, preempting 1 victims',
    );

    // A pod that stayed pending still shows its FitError.
    const pending = await api.http
      .get(`/v1/runs/${runId}/placements?status=unschedulable&limit=100`)
      .set(bearer(acme.key))
      .expect(200);
    for (const p of pending.body.items as { message: string | null }[]) {
      expect(p.message).toMatch(/^0\/9 nodes are available: /);
    }
  });

  it('GraphQL: the same fields on the run’s placements', async () => {
    const res = await api.http
      .post('/graphql')
      .set(bearer(acme.key))
      .send({
        query: `query($id: ID!) { run(id: $id) { placements(namespace: "shop", first: 100) {
          edges { node { namespace name status node nominatedNode victims message } } } } }`,
        variables: { id: runId },
      })
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    const nodes = (res.body.data.run.placements.edges as { node: { namespace: string; name: string } }[]).map(
      (e) => e.node,
    );
    expect(nodes.find((n) => `${n.namespace}/${n.name}` === PREEMPTOR)).toEqual({
      namespace: 'shop',
      name: 'checkout-5c7b9-0',
      status: 'scheduled',
      node: 'node-b2',
      nominatedNode: 'node-b2',
      victims: ['batch/report-builder-1'],
      message: `Successfully assigned ${PREEMPTOR} to node-b2`,
    });
  });
});
