import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseKubernetesObjects, type KubeObject } from '@schedlab/k8s';
import { syntheticCluster } from '@schedlab/runs';
import { simulate } from '@schedlab/scheduler';
import { settleImmediateClaims } from '@schedlab/storage';
import { ApiHarness, bearer, type TestTenant } from '../testing/api-harness';

const clusterSmall = readFileSync(path.resolve(__dirname, '../../../../examples/cluster-small.yaml'), 'utf8');

/** JSON as the API serialises it (undefined fields dropped). */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

/**
 * Pod explanations over REST and GraphQL against real PostgreSQL, Redis and engine threads: the
 * stored compact record, and the full record replayed on demand, which must equal what the
 * engine records for the pod with explain `full` (same snapshot, profile, options and seed).
 */
describe('pod explanations: compact stored, full replayed on demand', () => {
  let api: ApiHarness;
  let acme: TestTenant;

  const get = (url: string) => api.http.get(url).set(bearer(acme.key));

  /** Submits over the API and executes the run in-process, as a worker would. */
  async function finishedRun(
    items: KubeObject[],
    submit: { profile?: string; seed?: number; options?: object },
  ): Promise<{ id: string; expected: Map<string, unknown> }> {
    const snapshotId = (
      await api.http
        .post('/v1/snapshots?name=explain')
        .set(bearer(acme.key))
        .set('content-type', 'application/json')
        .send({ apiVersion: 'v1', kind: 'List', items })
        .expect(201)
    ).body.id;
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId, ...submit })
      .expect(202);
    expect(await api.executeRun(run.body.id)).toMatchObject({ status: 'succeeded' });
    // What the engine records at level `full` through the worker's pipeline (PV controller first).
    const stored = await api.prisma.run.findUniqueOrThrow({
      where: { id: run.body.id },
      select: { seed: true, options: true, profile: { select: { config: true } } },
    });
    const { explain: _stored, ...options } = stored.options as Record<string, unknown>;
    const full = simulate(settleImmediateClaims(items, { seed: stored.seed }).items, {
      ...options,
      seed: stored.seed,
      schedulerConfiguration: stored.profile?.config ?? undefined,
      explain: 'full',
    });
    return { id: run.body.id, expected: new Map(full.results.map((r) => [r.pod, asJson(r)])) };
  }

  beforeAll(async () => {
    api = await ApiHarness.start();
    acme = await api.tenant('acme');
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('the full record of every pod of a small run (scheduled, unschedulable, preempting) equals the engine’s at explain full', async () => {
    const { id, expected } = await finishedRun(parseKubernetesObjects(clusterSmall).objects, {});
    expect(expected.size).toBeGreaterThan(3);
    for (const [pod, record] of expected) {
      const [namespace, name] = pod.split('/');
      const full = await get(`/v1/runs/${id}/pods/${namespace}/${name}/explanation?detail=full`).expect(200);
      expect(full.body).toEqual(record);
      // The compact view is the stored row: the same decision, without the per-node maps of scored pods.
      const compact = await get(`/v1/runs/${id}/pods/${namespace}/${name}/explanation`).expect(200);
      expect(compact.body).toMatchObject({ pod, outcome: (record as { outcome: string }).outcome });
      expect(compact.body).not.toHaveProperty('pluginScores');
    }
    const preempting = [...expected.values()].find((r) => (r as { victims?: string[] }).victims?.length);
    expect(preempting).toBeDefined();
  });

  it('replays with the run’s profile, seed and options: first, middle and last pod of a 250-node run', async () => {
    const items = syntheticCluster({ nodes: 250, pods: 900 }).items as KubeObject[];
    const { id, expected } = await finishedRun(items, {
      profile: 'bin-packing',
      seed: 7,
      options: { tieBreak: 'random', percentageOfNodesToScore: 30 },
    });
    for (const pod of ['default/pod-0', 'default/pod-450', 'default/pod-899']) {
      const name = pod.split('/')[1];
      const full = await get(`/v1/runs/${id}/pods/default/${name}/explanation?detail=full`).expect(200);
      expect(full.body).toEqual(expected.get(pod));
    }
    const last = expected.get('default/pod-899') as {
      node: string;
      scores: Record<string, number>;
      filterReasons: Record<string, string[]>;
    };
    // One node's part: the chosen node's plugin breakdown, from the same replay (cached).
    const chosen = await get(`/v1/runs/${id}/pods/default/pod-899/explanation?node=${last.node}`).expect(200);
    expect(chosen.body).toMatchObject({
      pod: 'default/pod-899',
      node: last.node,
      selected: true,
      verdict: { status: 'feasible', total: last.scores[last.node] },
    });
    // A node the search never reached (percentageOfNodesToScore 30%).
    const unreached = Array.from({ length: 250 }, (_, i) => `node-${i}`).find(
      (n) => !(n in last.scores) && !(n in last.filterReasons),
    );
    expect(unreached).toBeDefined();
    const notEvaluated = await get(
      `/v1/runs/${id}/pods/default/pod-899/explanation?node=${unreached}`,
    ).expect(200);
    expect(notEvaluated.body.verdict).toEqual({ status: 'not-evaluated' });

    // GraphQL: the same records.
    const gql = await api.http
      .post('/graphql')
      .set(bearer(acme.key))
      .send({
        query: `query($id: ID!) { run(id: $id) {
          full: explanation(namespace: "default", name: "pod-450", detail: full)
          node: explanation(namespace: "default", name: "pod-899", node: "${last.node}")
          compact: explanation(namespace: "default", name: "pod-450")
        } }`,
        variables: { id },
      })
      .expect(200);
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.run.full).toEqual(expected.get('default/pod-450'));
    expect(gql.body.data.run.node).toEqual(chosen.body);
    expect(gql.body.data.run.compact.explanation.topScores.length).toBeLessThanOrEqual(11);

    // Bad input: 4xx naming the field, never a replay.
    const badNode = await get(`/v1/runs/${id}/pods/default/pod-1/explanation?node=Not_A_Node`).expect(400);
    expect(JSON.stringify(badNode.body.error)).toContain('node');
    const badDetail = await get(`/v1/runs/${id}/pods/default/pod-1/explanation?detail=all`).expect(400);
    expect(JSON.stringify(badDetail.body.error)).toContain('detail');
    const missingNode = await get(`/v1/runs/${id}/pods/default/pod-1/explanation?node=node-9999`).expect(404);
    expect(missingNode.body.error.details).toMatchObject({ field: 'node' });
    await get(`/v1/runs/${id}/pods/default/no-such-pod/explanation?detail=full`).expect(404);
  });

  it('maps explain full to compact at submit (full detail is served per pod on demand)', async () => {
    const snapshotId = (
      await api.http
        .post('/v1/snapshots?name=small')
        .set(bearer(acme.key))
        .set('content-type', 'application/yaml')
        .send(clusterSmall)
        .expect((res) => expect([200, 201]).toContain(res.status))
    ) // the same content is stored once
    .body.id;
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId, options: { explain: 'full' } })
      .expect(202);
    expect(run.body.options).toEqual({ explain: 'compact' });
    const bad = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId, options: { explain: 'everything' } })
      .expect(400);
    expect(JSON.stringify(bad.body.error)).toContain('explain');
    // Not finished yet: no explanation to serve.
    const pending = await get(`/v1/runs/${run.body.id}/pods/db/postgres-1/explanation?detail=full`).expect(
      409,
    );
    expect(pending.body.error.code).toBe('result_not_ready');
  });
});

describe('pod explanation replays have a time limit', () => {
  let api: ApiHarness;
  let acme: TestTenant;

  beforeAll(async () => {
    api = await ApiHarness.start({ EXPLAIN_REPLAY_TIMEOUT_MS: '1' });
    acme = await api.tenant('acme');
  });
  afterAll(async () => {
    await api?.stop();
  });

  it('answers 503 replay_timeout past EXPLAIN_REPLAY_TIMEOUT_MS; the compact view still answers', async () => {
    const items = syntheticCluster({ nodes: 20, pods: 50 }).items as KubeObject[];
    const snapshotId = (
      await api.http
        .post('/v1/snapshots?name=bounded')
        .set(bearer(acme.key))
        .set('content-type', 'application/json')
        .send({ apiVersion: 'v1', kind: 'List', items })
        .expect(201)
    ).body.id;
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId })
      .expect(202);
    expect(await api.executeRun(run.body.id)).toMatchObject({ status: 'succeeded' });
    const url = `/v1/runs/${run.body.id}/pods/default/pod-49/explanation`;
    const full = await api.http.get(`${url}?detail=full`).set(bearer(acme.key)).expect(503);
    expect(full.body.error.code).toBe('replay_timeout');
    await api.http.get(url).set(bearer(acme.key)).expect(200);
  });
});
