/**
 * The documented descheduler what-ifs (docs/descheduler.md) through the service, end to end (real
 * PostgreSQL and Redis, the worker's RunExecutor and engine threads): each example's dump is
 * imported, a deschedule run submitted with its policy over REST or GraphQL and executed as a
 * worker would, and the stored result, GraphQL's view and the HTML report compared with what
 * `schedlab deschedule -o json` prints for the same files.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { ReportInput } from '@schedlab/report';
import type { DeschedulingReport } from '@schedlab/scenarios';
import { ApiHarness, bearer, type TestTenant } from '../testing/api-harness';

const root = path.resolve(__dirname, '../../../..');
const examples = path.join(root, 'examples', 'descheduler');
const read = (file: string) => readFileSync(path.join(examples, file), 'utf8');

type Stored = Omit<DeschedulingReport, 'items'>;

/** `schedlab deschedule … -o json` for the same files. */
function cliReport(example: string): Stored & { compatibilityVersion: string } {
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, 'apps/cli/bin/schedlab.js'),
      'deschedule',
      '--policy',
      path.join(examples, `${example}-policy.yaml`),
      '--cluster',
      path.join(examples, `${example}.yaml`),
      '-o',
      'json',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`schedlab exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Stored & { compatibilityVersion: string };
}

/** JSON columns come back with the last bit of some floats lost; compare at 12 digits. */
const comparable = (value: unknown) =>
  JSON.parse(JSON.stringify(value), (_key, v: unknown) =>
    typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v,
  ) as unknown;

const moves = (report: Stored) => report.evictions.map((e) => [e.pod, e.oldNode, e.newNode]);

describe('descheduler what-ifs through the API agree with the CLI (real PostgreSQL and Redis)', () => {
  let api: ApiHarness;
  let acme: TestTenant;

  beforeAll(async () => {
    api = await ApiHarness.start();
    acme = await api.tenant('acme');
  });
  afterAll(async () => {
    await api?.stop();
  });

  const get = (url: string) => api.http.get(url).set(bearer(acme.key));
  const gql = (query: string, variables: Record<string, unknown>) =>
    api.http.post('/graphql').set(bearer(acme.key)).send({ query, variables });

  /** The example's dump imported once (the same content again answers 200 with the same id). */
  async function snapshotOf(example: string): Promise<string> {
    const res = await api.http
      .post(`/v1/snapshots?name=${example}`)
      .set(bearer(acme.key))
      .set('content-type', 'application/yaml')
      .send(read(`${example}.yaml`));
    expect([200, 201]).toContain(res.status);
    return res.body.id as string;
  }

  /** Executes a queued run in-process, as a worker would (engine thread, rows written). */
  async function execute(runId: string): Promise<void> {
    expect(await api.executeRun(runId)).toMatchObject({ status: 'succeeded' });
  }

  async function reportOf(runId: string): Promise<ReportInput> {
    const html = (await get(`/v1/runs/${runId}/report`).expect(200)).text;
    return JSON.parse(
      /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1],
    ) as ReportInput;
  }

  it("LowNodeUtilization over REST: the CLI's evictions and figures, stored, summarised and drawn", async () => {
    const cli = cliReport('low-node-utilization');
    const snapshotId = await snapshotOf('low-node-utilization');
    const policy = parseYaml(read('low-node-utilization-policy.yaml')) as unknown;
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'deschedule', snapshotId, options: { policy } })
      .expect(202);
    await execute(run.body.id);

    const result = (await get(`/v1/runs/${run.body.id}/result`).expect(200)).body;
    const { compatibilityVersion: _version, ...fromCli } = cli;
    expect(comparable(result.analysis)).toEqual(comparable(fromCli));
    expect(moves(result.analysis)).toEqual([
      ['shop/web-6d8f9-b2x4k', 'node-1', 'node-3'],
      ['shop/web-6d8f9-c9m7q', 'node-1', 'node-4'],
      ['shop/web-6d8f9-d4n8r', 'node-1', 'node-3'],
      ['shop/web-6d8f9-f7p2s', 'node-1', 'node-4'],
      ['shop/web-6d8f9-h8w9x', 'node-2', 'node-1'],
      ['shop/web-6d8f9-j2z4b', 'node-2', 'node-3'],
      ['shop/web-6d8f9-k5c7d', 'node-2', 'node-1'],
    ]);
    const cpu = (side: Stored['before']) => side.nodes.map((n) => [n.name, n.cpu.requested]);
    expect(cpu(result.analysis.before)).toEqual([
      ['node-1', 3600],
      ['node-2', 3600],
      ['node-3', 100],
      ['node-4', 600],
    ]);
    expect(cpu(result.analysis.after)).toEqual([
      ['node-1', 2600],
      ['node-2', 2100],
      ['node-3', 1600],
      ['node-4', 1600],
    ]);
    expect(result.summary).toEqual({
      evicted: 7,
      rescheduled: 7,
      unschedulable: 0,
      lost: 0,
      rounds: 1,
      converged: false,
      oscillations: 2,
    });

    const report = await reportOf(run.body.id);
    expect(report.descheduling?.evictions).toEqual(comparable(cli.evictions));
    expect(report.runs.map((r) => r.nodes.find((n) => n.name === 'node-3')?.requested.cpu)).toEqual([
      100, 1600,
    ]);
  });

  it('RemovePodsViolatingTopologySpreadConstraint over GraphQL: two pods to eu-west-1b, skew 4 → 0', async () => {
    const cli = cliReport('topology-spread');
    const snapshotId = await snapshotOf('topology-spread');
    const policy = parseYaml(read('topology-spread-policy.yaml')) as unknown;
    const submitted = await gql(
      `mutation($input: SubmitRunInput!) { submitRun(input: $input) { id type status } }`,
      { input: { type: 'deschedule', snapshotId, options: { policy, rounds: 3 } } },
    );
    expect(submitted.body.errors).toBeUndefined();
    const { id, type } = submitted.body.data.submitRun;
    expect(type).toBe('deschedule');
    await execute(id);

    const res = await gql(`query($id: ID!) { run(id: $id) { status result { summary analysis } } }`, { id });
    expect(res.body.errors).toBeUndefined();
    const { status, result } = res.body.data.run;
    expect(status).toBe('succeeded');
    const analysis = result.analysis as Stored;
    expect(moves(analysis)).toEqual([
      ['shop/api-5c9f7-c3n8p', 'node-a1', 'node-b2'],
      ['shop/api-5c9f7-b7k2m', 'node-a1', 'node-b1'],
    ]);
    expect(moves(analysis)).toEqual(moves(cli));
    expect(analysis.before.spread.map((s) => [s.counts, s.skew])).toEqual([
      [{ 'eu-west-1a': 5, 'eu-west-1b': 1 }, 4],
    ]);
    expect(analysis.after.spread.map((s) => [s.counts, s.skew])).toEqual([
      [{ 'eu-west-1a': 3, 'eu-west-1b': 3 }, 0],
    ]);
    expect(analysis.before.violations).toHaveLength(5);
    expect(analysis.after.violations).toEqual([]);
    // Three rounds asked for; the second evicts nothing, so the run settles.
    expect(result.summary).toMatchObject({ evicted: 2, converged: true, oscillations: 0 });

    // The typed fields say the same, and narrow the evictions.
    const typed = await gql(
      `query($id: ID!) { run(id: $id) { result { descheduling {
        evictions(outcome: "rescheduled") { pod oldNode newNode strategy replacement }
        fromB1: evictions(node: "node-b1") { pod }
        rounds { round refused limits }
        converged
        before { spread { counts skew } violations { pod kind plugin } nodes { name cpuRequested cpuRatio } }
        after { spread { counts skew } violations { pod } zones { zone pods cpuRatio } }
      } } } }`,
      { id },
    );
    expect(typed.body.errors).toBeUndefined();
    const d = typed.body.data.run.result.descheduling;
    expect(
      d.evictions.map((e: { pod: string; oldNode: string; newNode: string }) => [
        e.pod,
        e.oldNode,
        e.newNode,
      ]),
    ).toEqual(moves(analysis));
    expect(d.evictions[0].strategy).toBe('RemovePodsViolatingTopologySpreadConstraint');
    expect(d.fromB1).toEqual([]);
    expect(d.converged).toBe(true);
    expect(d.before.spread).toEqual([{ counts: { 'eu-west-1a': 5, 'eu-west-1b': 1 }, skew: 4 }]);
    expect(d.after.spread).toEqual([{ counts: { 'eu-west-1a': 3, 'eu-west-1b': 3 }, skew: 0 }]);
    expect(d.before.violations).toHaveLength(5);
    expect(d.before.violations[0]).toMatchObject({ kind: 'topologySpread', plugin: 'PodTopologySpread' });
    expect(d.after.violations).toEqual([]);
    expect(d.before.nodes.find((n: { name: string }) => n.name === 'node-a1')).toEqual({
      name: 'node-a1',
      cpuRequested: 750,
      cpuRatio: 0.1875,
    });
    expect(d.after.zones.map((z: { zone: string; pods: number }) => [z.zone, z.pods])).toEqual([
      ['eu-west-1a', 3],
      ['eu-west-1b', 3],
    ]);

    const report = await reportOf(id);
    expect(report.descheduling?.spread.after[0].skew).toBe(0);
    expect(report.runs[1]?.pods.map((p) => p.node)).toEqual(['node-b2', 'node-b1']);
  });

  it('a scenario step deschedule: stored with its policy inline, run by the worker, its report kept on the step', async () => {
    const snapshotId = await snapshotOf('topology-spread');
    const policy = parseYaml(read('topology-spread-policy.yaml')) as unknown;
    const steps = [{ cordon: { nodes: ['node-b1'] } }, { deschedule: { policy } }];
    const scenario = await api.http
      .post('/v1/scenarios')
      .set(bearer(acme.key))
      .send({ name: 'rebalance-zones', snapshotId, document: { steps } })
      .expect(201);
    const run = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'simulate', snapshotId, scenarioId: scenario.body.id })
      .expect(202);
    await execute(run.body.id);
    const analysis = (await get(`/v1/runs/${run.body.id}/result`).expect(200)).body.analysis;
    const descheduling = analysis.steps[1].descheduling as Stored;
    // Not a deschedule run: no typed descheduling field.
    const none = await gql(`query($id: ID!) { run(id: $id) { result { descheduling { converged } } } }`, {
      id: run.body.id,
    });
    expect(none.body.data.run.result.descheduling).toBeNull();
    // node-b1 is cordoned: both replacements go to node-b2, the only schedulable node of eu-west-1b.
    expect(moves(descheduling)).toEqual([
      ['shop/api-5c9f7-c3n8p', 'node-a1', 'node-b2'],
      ['shop/api-5c9f7-b7k2m', 'node-a1', 'node-b2'],
    ]);
    expect(descheduling.after.spread[0].skew).toBe(0);

    // The service reads no files, and a bad policy is refused when the scenario is stored.
    const fileOnly = await api.http
      .post('/v1/scenarios')
      .set(bearer(acme.key))
      .send({
        name: 'from-file',
        snapshotId,
        document: { steps: [{ deschedule: { policyFile: 'p.yaml' } }] },
      })
      .expect(400);
    expect(fileOnly.body.error.details.field).toBe('document.steps[0].deschedule.policy');
    const bad = await api.http
      .post('/v1/scenarios')
      .set(bearer(acme.key))
      .send({
        name: 'bad',
        snapshotId,
        document: { steps: [{ deschedule: { policy: { kind: 'DeschedulerPolicy' } } }] },
      })
      .expect(400);
    expect(bad.body.error.details.field).toBe('document.steps[0].deschedule.policy');
  });

  it('refuses a bad policy at submit, naming the field, profile and plugin', async () => {
    const snapshotId = await snapshotOf('topology-spread');
    const policy = parseYaml(read('topology-spread-policy.yaml')) as {
      profiles: { pluginConfig: { name: string; args?: Record<string, unknown> }[] }[];
    };
    policy.profiles[0].pluginConfig[1].args = { constraints: ['Sometimes'] };
    const res = await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'deschedule', snapshotId, options: { policy } })
      .expect(400);
    expect(JSON.stringify(res.body.error)).toContain(
      'profiles[0] \\"spread\\": pluginConfig \\"RemovePodsViolatingTopologySpreadConstraint\\": args.constraints',
    );
    await api.http
      .post('/v1/runs')
      .set(bearer(acme.key))
      .send({ type: 'deschedule', snapshotId, options: {} })
      .expect(400);
  });
});
