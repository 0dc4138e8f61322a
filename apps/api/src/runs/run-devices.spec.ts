/**
 * DRA devices of a simulate run through the service: the device summary per class and node on the
 * run's result, each placed pod's devices on its placement (REST and GraphQL), and the report's
 * devices section. Real PostgreSQL and Redis; the run is executed as a worker would.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DRA_GPUS_DEVICES, DRA_GPUS_POD_DEVICES } from '@schedlab/testing';
import { ApiHarness, bearer, type TestTenant } from '../testing/api-harness';
import { runDevicesOf } from './run-devices.model';

const draGpus = readFileSync(path.resolve(__dirname, '../../../../examples/dra-gpus.yaml'), 'utf8');

const SUMMARY = DRA_GPUS_DEVICES;
/** Pod name → its placement's devices. */
const POD_DEVICES: Record<string, unknown> = Object.fromEntries(
  Object.entries(DRA_GPUS_POD_DEVICES).map(([pod, d]) => [
    pod.split('/')[1],
    d && [
      {
        claim: d.claim,
        request: 'gpu',
        driver: 'gpu.example.com',
        pool: d.pool,
        device: d.device,
        adminAccess: false,
      },
    ],
  ]),
);

describe('DRA devices of a simulate run (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;
  let runId: string;

  beforeAll(async () => {
    api = await ApiHarness.start();
    acme = await api.tenant('acme');
    const snapshot = await api.http
      .post('/v1/snapshots?name=dra')
      .set(bearer(acme.key))
      .set('content-type', 'application/yaml')
      .send(draGpus)
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

  it('REST: devices per class and node on the result, and each placement its devices', async () => {
    const result = await api.http.get(`/v1/runs/${runId}/result`).set(bearer(acme.key)).expect(200);
    expect(result.body.devices).toEqual(SUMMARY);
    const page = await api.http.get(`/v1/runs/${runId}/placements`).set(bearer(acme.key)).expect(200);
    const items = page.body.items as { name: string; devices: unknown }[];
    expect(Object.fromEntries(items.map((p) => [p.name, p.devices]))).toEqual(POD_DEVICES);
    // A page of one (the second pod) finds its pod's devices too.
    const first = await api.http
      .get(`/v1/runs/${runId}/placements?limit=1`)
      .set(bearer(acme.key))
      .expect(200);
    const second = await api.http
      .get(
        `/v1/runs/${runId}/placements?limit=1&cursor=${encodeURIComponent(first.body.nextCursor as string)}`,
      )
      .set(bearer(acme.key))
      .expect(200);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.items[0].devices).toEqual(POD_DEVICES[second.body.items[0].name as string]);
    expect(second.body.items[0].devices).not.toBeNull();
  });

  it('GraphQL: RunResult.devices and Placement.devices', async () => {
    const res = await api.http
      .post('/graphql')
      .set(bearer(acme.key))
      .send({
        query: `query($id: ID!) { run(id: $id) {
          result { devices { deviceClass nodes { node total allocated free unavailableFree taintedFree } } }
          placements(first: 10) { edges { node { name devices { claim request driver pool device adminAccess } } } } } }`,
        variables: { id: runId },
      })
      .expect(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.run.result.devices).toEqual(SUMMARY);
    const edges = res.body.data.run.placements.edges as { node: { name: string; devices: unknown } }[];
    expect(Object.fromEntries(edges.map((e) => [e.node.name, e.node.devices]))).toEqual(POD_DEVICES);
  });

  it('the HTML report embeds the devices per class and each pod its devices', async () => {
    const res = await api.http.get(`/v1/runs/${runId}/report`).set(bearer(acme.key)).expect(200);
    const data = JSON.parse(
      /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(res.text)?.[1] ?? 'null',
    ) as { runs: { devices?: unknown; pods: { pod: string; devices?: { device: string }[] }[] }[] };
    expect(data.runs[0].devices).toEqual(SUMMARY);
    expect(data.runs[0].pods.find((p) => p.pod === 'ml/train-3')?.devices).toEqual([
      {
        claim: 'ml/train-3-gpu-jwcvl',
        request: 'gpu',
        driver: 'gpu.example.com',
        pool: 'gpu-a',
        device: 'gpu-1',
      },
    ]);
  });
});

describe('runDevicesOf', () => {
  it('gives a run stored before unavailableFree was counted null there, not 0', () => {
    const node = { node: 'gpu-a', total: 2, allocated: 1, free: 1, taintedFree: 0 };
    expect(runDevicesOf({ devices: [{ deviceClass: 'gpu', nodes: [node] }] })).toEqual([
      { deviceClass: 'gpu', nodes: [{ ...node, unavailableFree: null }] },
    ]);
    expect(
      runDevicesOf({ devices: [{ deviceClass: 'gpu', nodes: [{ ...node, unavailableFree: 1 }] }] }),
    ).toEqual([{ deviceClass: 'gpu', nodes: [{ ...node, unavailableFree: 1 }] }]);
    expect(runDevicesOf({})).toBeNull();
  });
});
