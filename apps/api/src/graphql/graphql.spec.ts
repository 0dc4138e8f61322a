import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Redis from 'ioredis';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { redisOptionsFromUrl, runProgressChannel } from '@schedlab/queues';
import { ApiHarness, bearer, type TestTenant } from '../testing/api-harness';
import { MAX_QUERY_DEPTH } from './query-limits';

const clusterSmall = readFileSync(path.resolve(__dirname, '../../../../examples/cluster-small.yaml'), 'utf8');

describe('GraphQL (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;
  let rival: TestTenant;
  let snapshotId: string;

  const gql = (key: string, query: string, variables: Record<string, unknown> = {}) =>
    api.http.post('/graphql').set(bearer(key)).send({ query, variables });

  beforeAll(async () => {
    api = await ApiHarness.start();
    acme = await api.tenant('acme');
    rival = await api.tenant('rival');
    await api.app.listen(0, '127.0.0.1');
  });
  afterAll(() => api?.stop());

  it('imports a snapshot and submits a run through mutations, then reads the run with its snapshot', async () => {
    const imported = await gql(
      acme.key,
      'mutation($c: String!) { importSnapshot(name: "small", content: $c, labels: {env: "dev"}) { duplicate snapshot { id counts labels } } }',
      { c: clusterSmall },
    ).expect(200);
    expect(imported.body.errors).toBeUndefined();
    snapshotId = imported.body.data.importSnapshot.snapshot.id;
    expect(imported.body.data.importSnapshot).toMatchObject({
      duplicate: false,
      snapshot: { labels: { env: 'dev' } },
    });
    const submitted = await gql(
      acme.key,
      'mutation($s: ID!) { submitRun(input: {type: simulate, snapshotId: $s, profile: "spread"}) { id status profile } }',
      { s: snapshotId },
    );
    expect(submitted.body.data.submitRun).toMatchObject({ status: 'queued', profile: 'spread@1' });
    const list = await gql(
      acme.key,
      '{ runs(first: 10) { edges { cursor node { id snapshot { id name } placements(first: 5) { edges { node { name } } pageInfo { hasNextPage endCursor } } } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }',
    );
    expect(list.body.errors).toBeUndefined();
    const { edges, pageInfo } = list.body.data.runs;
    expect(edges.map((e: { node: unknown }) => e.node)).toEqual([
      {
        id: submitted.body.data.submitRun.id,
        snapshot: { id: snapshotId, name: 'small' },
        placements: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } },
      },
    ]);
    // A Relay connection: the edge's cursor is the page's start and end.
    expect(pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: edges[0].cursor,
      endCursor: edges[0].cursor,
    });
  });

  it("answers another tenant's run as not found, with the error code in extensions", async () => {
    const [{ node: run }] = (await gql(acme.key, '{ runs { edges { node { id } } } }')).body.data.runs.edges;
    const res = await gql(rival.key, 'query($id: ID!) { run(id: $id) { id } }', { id: run.id });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('refuses a query without a key, naming the reason', async () => {
    const res = await api.http.post('/graphql').send({ query: '{ profiles { ref } }' });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'missing_credentials', status: 401 });
  });

  it('refuses operations that are too deep or too costly before running them', async () => {
    const deep = `{ runs { edges { node { snapshot { id } ${'placements { edges { node { name } } }'} } } } }`;
    expect((await gql(acme.key, deep)).body.errors).toBeUndefined();
    const tooDeep = `{ __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } }`;
    const deepRes = await gql(acme.key, tooDeep);
    expect(deepRes.body.errors[0].extensions).toMatchObject({
      code: 'query_too_deep',
      details: { limit: MAX_QUERY_DEPTH },
    });
    const costly = await gql(
      acme.key,
      '{ runs(first: 500) { edges { node { placements(first: 1000) { edges { node { name node } } } } } } }',
    );
    expect(costly.body.errors[0].extensions.code).toBe('query_too_complex');
  });

  it('streams progress that a worker publishes on Redis to a graphql-ws subscriber', async () => {
    const { id: runId } = (
      await gql(acme.key, 'mutation($s: ID!) { submitRun(input: {type: simulate, snapshotId: $s}) { id } }', {
        s: snapshotId,
      })
    ).body.data.submitRun;
    const { port } = api.app.getHttpServer().address() as AddressInfo;
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${acme.key}` },
    });
    const publisher = new Redis(redisOptionsFromUrl(api.config.redisUrl));
    const seen: Array<{ status: string; percent: number }> = [];
    try {
      await new Promise<void>((resolve, reject) => {
        client.subscribe<{ runProgress: { status: string; percent: number } }>(
          {
            query: `subscription { runProgress(id: "${runId}") { runId status percent podsProcessed } }`,
          },
          {
            next: (msg) => {
              if (msg.errors) return reject(new Error(JSON.stringify(msg.errors)));
              seen.push(msg.data!.runProgress);
              if (seen.length === 1) {
                // The first message is the row's current state; the listener is subscribed by then.
                const publish = (status: string, percent: number) =>
                  publisher.publish(
                    runProgressChannel(runId),
                    JSON.stringify({
                      runId,
                      status,
                      phase: 'scheduling',
                      percent,
                      podsProcessed: percent,
                      podsTotal: 100,
                    }),
                  );
                void publish('running', 40).then(() => publish('succeeded', 100));
              }
            },
            error: reject,
            complete: resolve,
          },
        );
      });
    } finally {
      await client.dispose();
      publisher.disconnect();
    }
    expect(seen).toEqual([
      expect.objectContaining({ status: 'queued', percent: 0 }),
      expect.objectContaining({ status: 'running', percent: 40 }),
      expect.objectContaining({ status: 'succeeded', percent: 100 }),
    ]);
  });

  it("will not subscribe to another tenant's run", async () => {
    const [{ node: run }] = (await gql(acme.key, '{ runs { edges { node { id } } } }')).body.data.runs.edges;
    const { port } = api.app.getHttpServer().address() as AddressInfo;
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${rival.key}` },
    });
    try {
      const errors = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: `subscription { runProgress(id: "${run.id}") { status } }` },
          {
            next: (msg) => resolve(msg.errors),
            error: resolve,
            complete: () => resolve('completed without error'),
          },
        );
      });
      expect(JSON.stringify(errors)).toContain('not found');
    } finally {
      await client.dispose();
    }
  });

  it('takes and answers the run type as the RunType enum, stored under the REST name', async () => {
    const submitted = await gql(
      acme.key,
      'mutation($s: ID!, $t: RunType!, $o: JSON) { submitRun(input: {type: $t, snapshotId: $s, options: $o}) { id type } }',
      { s: snapshotId, t: 'nodes_needed', o: { templates: [{ name: 'a', allocatable: { cpu: '4' } }] } },
    );
    expect(submitted.body.errors).toBeUndefined();
    const run = submitted.body.data.submitRun;
    expect(run.type).toBe('nodes_needed');
    const rest = await api.http.get(`/v1/runs/${run.id}`).set(bearer(acme.key)).expect(200);
    expect(rest.body.type).toBe('nodes-needed');
    // The REST spelling is not a GraphQL enum value: refused before the resolver, naming the variable.
    const refused = await gql(
      acme.key,
      'mutation($s: ID!, $t: RunType!) { submitRun(input: {type: $t, snapshotId: $s}) { id } }',
      { s: snapshotId, t: 'nodes-needed' },
    );
    expect(refused.body.errors[0].message).toContain('$t');
  });

  it('still answers the deprecated simulation spellings, marked deprecated in the schema', async () => {
    const submitted = await gql(
      acme.key,
      'mutation($input: SubmitSimulationInput!) { submitSimulation(input: $input) { id type } }',
      { input: { type: 'simulate', snapshotId } },
    );
    expect(submitted.body.errors).toBeUndefined();
    const { id } = submitted.body.data.submitSimulation;
    const read = await gql(
      acme.key,
      'query($id: ID!) { simulation(id: $id) { id } simulations(first: 1) { edges { node { id } } } }',
      { id },
    );
    expect(read.body.data.simulation).toEqual({ id });
    expect(read.body.data.simulations.edges).toEqual([{ node: { id } }]);
    const cancelled = await gql(acme.key, 'mutation($id: ID!) { cancelSimulation(id: $id) { status } }', {
      id,
    });
    expect(cancelled.body.data.cancelSimulation).toEqual({ status: 'cancelled' });
    const fields = await gql(
      acme.key,
      '{ __type(name: "Query") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }',
    );
    const byName = new Map(fields.body.data.__type.fields.map((f: { name: string }) => [f.name, f] as const));
    expect(byName.get('simulations')).toMatchObject({
      isDeprecated: true,
      deprecationReason: expect.stringContaining('runs'),
    });
    expect(byName.get('runs')).toMatchObject({ isDeprecated: false });
  });
});
