/**
 * The documented storage what-ifs (docs/storage-what-ifs.md) through the service, end to end (real
 * PostgreSQL and Redis, the worker's RunExecutor and engine threads): each example's snapshot and
 * scenario are submitted over REST, the run executed as a worker would, and its storage read back
 * three ways — REST `…/storage` and `…/result`, GraphQL's typed `result { storage }`, and the HTML
 * report — each compared with what `schedlab simulate --scenario` prints for the same files.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ReportInput } from '@schedlab/report';
import type { StorageReport } from '@schedlab/scenarios';
import { dataLossRows } from '@schedlab/storage';
import { ApiHarness, bearer, type TestTenant } from '../testing/api-harness';

const root = path.resolve(__dirname, '../../../..');
const examples = path.join(root, 'examples');
const CLUSTER = 'storage-lifecycle.yaml';

/** `schedlab simulate --scenario … -o json`: the CLI's storage report for the same files. */
function cliStorage(scenarioFile: string): StorageReport {
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, 'apps/cli/bin/schedlab.js'),
      'simulate',
      '--cluster',
      path.join(examples, CLUSTER),
      '--scenario',
      path.join(examples, 'scenarios', scenarioFile),
      '-o',
      'json',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`schedlab exited ${r.status}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { scenario: { storage: StorageReport } }).scenario.storage;
}

const STORAGE_QUERY = `query($id: ID!) {
  run(id: $id) {
    result {
      storage {
        volumes { name claim phase reclaimPolicy storageClass capacity zone nodeAffinity localTo }
        claims { namespace name phase volume storageClass request waitingReason }
        events { step operation object type reason from message }
        warnings: events(type: "Warning") { object reason }
        dataLoss {
          destroyed { volume claim storageClass capacity zone reclaimPolicy outcome dataDestroyed why }
          retained { volume claim storageClass capacity zone reclaimPolicy outcome dataDestroyed why }
          stranded { volume claim storageClass capacity zone pods localTo why }
          waiting { claim storageClass pods why }
        }
      }
    }
  }
}`;

/** The CLI's data-loss report in the typed fields' words (`reason` is `why`, absent is null). */
function typedDataLoss(loss: StorageReport['dataLoss']) {
  const fate = ({ reason, zone, ...f }: StorageReport['dataLoss']['destroyed'][number]) => ({
    ...f,
    zone: zone ?? null,
    why: reason,
  });
  return {
    destroyed: loss.destroyed.map(fate),
    retained: loss.retained.map(fate),
    stranded: loss.stranded.map(({ reason, zone, localTo, ...s }) => ({
      ...s,
      zone: zone ?? null,
      localTo: localTo ?? null,
      why: reason,
    })),
    waiting: loss.waiting.map(({ reason, ...w }) => ({ ...w, why: reason })),
  };
}

describe('storage what-ifs through the API: REST, GraphQL and the report agree with the CLI (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;
  let snapshotId: string;

  const get = (url: string) => api.http.get(url).set(bearer(acme.key));
  const gql = (query: string, variables: Record<string, unknown>) =>
    api.http.post('/graphql').set(bearer(acme.key)).send({ query, variables });

  beforeAll(async () => {
    api = await ApiHarness.start();
    acme = await api.tenant('acme');
    snapshotId = (
      await api.http
        .post('/v1/snapshots?name=storage-lifecycle')
        .set(bearer(acme.key))
        .set('content-type', 'application/yaml')
        .send(readFileSync(path.join(examples, CLUSTER), 'utf8'))
        .expect(201)
    ).body.id;
  });
  afterAll(async () => {
    await api?.stop();
  });

  /**
   * The example's scenario stored and run over REST, executed as the worker does. The scenario is
   * posted as docs/storage-what-ifs.md does: a YAML body with the file indented under `document`.
   */
  async function finishedRun(scenarioFile: string): Promise<string> {
    const file = readFileSync(path.join(examples, 'scenarios', scenarioFile), 'utf8');
    const body = [
      `name: ${scenarioFile.replace(/\.yaml$/, '')}`,
      `snapshotId: ${snapshotId}`,
      'document:',
      ...file.split('\n').map((line) => `  ${line}`),
    ].join('\n');
    const scenario = await api.http
      .post('/v1/scenarios')
      .set(bearer(acme.key))
      .set('content-type', 'application/yaml')
      .send(body)
      .expect(201);
    expect(scenario.body.document).toEqual(parseYaml(file));
    const scenarioId = scenario.body.id;
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId, scenarioId, seed: 0 })
      .expect(202);
    await execute(run.body.id);
    return run.body.id;
  }

  /** Executes a queued run in-process, as a worker would (engine thread, rows written). */
  async function execute(runId: string): Promise<void> {
    expect(await api.executeRun(runId)).toMatchObject({ status: 'succeeded' });
  }

  it.each([
    // A namespace deletion under Delete vs Retain reclaim.
    ['storage-delete-namespace.yaml', { destroyed: 3, retained: 3, stranded: 0, waiting: 0 }],
    // A StatefulSet scale-down under both retention policies.
    ['storage-scale-down.yaml', { destroyed: 2, retained: 0, stranded: 0, waiting: 0 }],
    // A zone outage stranding pods on zonal volumes.
    ['storage-zone-outage.yaml', { destroyed: 0, retained: 0, stranded: 2, waiting: 0 }],
  ])(
    '%s: the same storage report over REST, GraphQL and in the HTML report as from the CLI',
    async (file, counts) => {
      const cli = cliStorage(file);
      expect({
        destroyed: cli.dataLoss.destroyed.length,
        retained: cli.dataLoss.retained.length,
        stranded: cli.dataLoss.stranded.length,
        waiting: cli.dataLoss.waiting.length,
      }).toEqual(counts);
      const runId = await finishedRun(file);

      // REST: the stored result holds the CLI's report as is, and …/storage types it.
      const result = await get(`/v1/runs/${runId}/result`).expect(200);
      expect(result.body.analysis.storage).toEqual(cli);
      const rest = (await get(`/v1/runs/${runId}/storage`).expect(200)).body;
      expect(rest.dataLoss).toEqual(typedDataLoss(cli.dataLoss));
      expect(rest.volumes).toEqual(cli.volumes);
      expect(rest.claims).toEqual(cli.claims);
      expect(rest.events).toEqual(
        cli.timeline.flatMap((s) => s.events.map((e) => ({ step: s.index, operation: s.operation, ...e }))),
      );

      // GraphQL: the typed fields say the same.
      const res = await gql(STORAGE_QUERY, { id: runId });
      expect(res.body.errors).toBeUndefined();
      const storage = res.body.data.run.result.storage;
      expect(storage.dataLoss).toEqual(typedDataLoss(cli.dataLoss));
      expect(storage.volumes).toEqual(cli.volumes);
      expect(storage.claims).toEqual(cli.claims);
      expect(storage.events).toEqual(rest.events);
      expect(storage.warnings).toEqual(
        rest.events
          .filter((e: { type: string }) => e.type === 'Warning')
          .map((e: { object: string; reason: string }) => ({ object: e.object, reason: e.reason })),
      );

      // The HTML report: the data-loss rows and timeline the CLI's --report draws.
      const html = (await get(`/v1/runs/${runId}/report`).expect(200)).text;
      const embedded = JSON.parse(
        /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1],
      ) as ReportInput;
      expect(embedded.storage?.dataLoss).toEqual(dataLossRows(cli.dataLoss));
      expect(embedded.storage?.timeline).toEqual(cli.timeline);
      // Its volumes per zone are the claims the cluster is left with.
      expect(
        embedded
          .storage!.volumes.filter((v) => v.claim)
          .map((v) => v.claim)
          .sort(),
      ).toEqual(cli.claims.map((c) => `${c.namespace}/${c.name}`).sort());
    },
  );

  it('the zone outage: pods on stranded volumes are pending in the report, and the filters narrow each list', async () => {
    const runId = await finishedRun('storage-zone-outage.yaml');
    const html = (await get(`/v1/runs/${runId}/report`).expect(200)).text;
    const embedded = JSON.parse(
      /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1],
    ) as ReportInput;
    const pending = embedded.runs[0].pods.filter((p) => p.node === null).map((p) => p.pod);
    expect(pending.sort()).toEqual(['ledger/ledger-1', 'shop/orders-1']);
    expect(embedded.runs[0].pods.find((p) => p.pod === 'shop/orders-1')?.message).toContain(
      "didn't match PersistentVolume's node affinity",
    );

    const zonal = (await get(`/v1/runs/${runId}/storage?zone=eu-west-1b`).expect(200)).body;
    expect(zonal.volumes.map((v: { claim: string }) => v.claim).sort()).toEqual([
      'ledger/data-ledger-1',
      'shop/data-orders-1',
    ]);
    const warnings = (await get(`/v1/runs/${runId}/storage?step=1&type=Warning`).expect(200)).body.events;
    expect(warnings.map((e: { object: string; reason: string }) => [e.object, e.reason])).toEqual([
      ['Pod/shop/orders-1', 'FailedScheduling'],
      ['Pod/ledger/ledger-1', 'FailedScheduling'],
    ]);
    const res = await gql(
      `query($id: ID!) { run(id: $id) { result { storage {
        volumes(zone: "eu-west-1b") { claim }
        claims(namespace: "shop") { name }
        events(step: 1, type: "Warning") { object }
      } } } }`,
      { id: runId },
    );
    expect(res.body.errors).toBeUndefined();
    const storage = res.body.data.run.result.storage;
    expect(storage.volumes.map((v: { claim: string }) => v.claim).sort()).toEqual(
      zonal.volumes.map((v: { claim: string }) => v.claim).sort(),
    );
    expect(storage.claims.map((c: { name: string }) => c.name)).toEqual([
      'data-orders-0',
      'data-orders-1',
      'data-orders-2',
    ]);
    expect(storage.events.map((e: { object: string }) => e.object)).toEqual(
      warnings.map((e: { object: string }) => e.object),
    );
    await get(`/v1/runs/${runId}/storage?type=Critical`).expect(400);
  });

  it('a run without a scenario has no storage report: 409 over REST, null in GraphQL', async () => {
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId })
      .expect(202);
    await execute(run.body.id);
    const refused = await get(`/v1/runs/${run.body.id}/storage`).expect(409);
    expect(refused.body.error.code).toBe('storage_unavailable');
    const res = await gql('query($id: ID!) { run(id: $id) { result { storage { volumes { name } } } } }', {
      id: run.body.id,
    });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.run.result.storage).toBeNull();
  });
});
