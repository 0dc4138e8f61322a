import { spawnSync } from 'node:child_process';
import path from 'node:path';
import {
  buildControlPlane,
  createTestDatabase,
  goVersion,
  startTestCluster,
  type TestCluster,
  type TestDatabase,
  uniqueName,
} from '@schedlab/testing';
import { type ServiceProcess, startService } from './service-process';

interface ApiListening {
  type: 'api-listening';
  endpoints: { graphql: string };
}

const bin = path.resolve(__dirname, '..', '..', 'cli', 'bin', 'schedlab.js');
const OPERATOR_TOKEN = 'e2e-operator-token-snapshot-upload';

const go = goVersion();
if (!go)
  // Stated once, loudly: without Go there is no kube-apiserver to build, so this spec is excluded.
  process.stderr.write(
    'snapshot-upload.spec: `go` is not on PATH: the spec against a real kube-apiserver is excluded (install Go 1.26+ to run it)\n',
  );
const describeWithGo = go ? describe : describe.skip;

/**
 * From a kubeconfig to a stored snapshot in one command: `schedlab snapshot --upload` lists a real
 * kube-apiserver and posts the dump to a real api process (PostgreSQL behind it).
 */
describeWithGo('schedlab snapshot --upload (real kube-apiserver, api process and PostgreSQL)', () => {
  let cluster: TestCluster;
  let db: TestDatabase;
  let api: ServiceProcess;
  let baseUrl: string;
  let key: string;

  beforeAll(async () => {
    cluster = await startTestCluster(await buildControlPlane(String(go)));
    await cluster.create('nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-1' },
      status: { allocatable: { cpu: '2', memory: '4Gi', pods: '110' } },
    });
    db = await createTestDatabase({ migrated: true });
    const started = await startService<ApiListening>('api', {
      DATABASE_URL: db.url,
      API_PORT: '0',
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: uniqueName('e2e'),
      OPERATOR_TOKEN,
    });
    api = started.service;
    baseUrl = new URL(started.ready.endpoints.graphql).origin;
    const tenant = await fetch(`${baseUrl}/v1/admin/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'acme' }),
    });
    key = ((await tenant.json()) as { apiKey: { secret: string } }).apiKey.secret;
  }, 75 * 60_000);

  afterAll(async () => {
    await api?.stop();
    await cluster?.stop();
    await db?.drop();
  });

  const snapshot = (...args: string[]) =>
    spawnSync(process.execPath, [bin, 'snapshot', '--kubeconfig', cluster.kubeconfig, ...args], {
      encoding: 'utf8',
      env: { ...process.env, SCHEDLAB_API_KEY: '' },
    });

  it('stores the live cluster as a snapshot the api serves', async () => {
    const run = snapshot('--upload', baseUrl, '--token', key, '--name', 'live', '--labels', 'env=test');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const id = /^snapshot ([0-9a-f-]{36}) \(live\)\n$/.exec(run.stdout)?.[1];
    expect(id).toBeDefined();
    const stored = await fetch(`${baseUrl}/v1/snapshots/${id}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(stored.status).toBe(200);
    const view = (await stored.json()) as {
      name: string;
      labels: Record<string, string>;
      counts: Record<string, number>;
    };
    expect(view).toMatchObject({ name: 'live', labels: { env: 'test' } });
    expect(view.counts).toMatchObject({ Node: 1, Namespace: 4, Service: 1 });

    // The same cluster again: the service recognises identical content.
    const again = snapshot('--upload', `${baseUrl}/v1`, '--token', key, '--name', 'live');
    expect(again.stdout).toBe(`snapshot ${id} (live): identical content was already stored\n`);
  });

  it('reports a refused API key in one line, without the key', () => {
    const wrongKey = 'sk_wrong_0123456789abcdef';
    const run = snapshot('--upload', baseUrl, '--token', wrongKey);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(`^schedlab: upload to ${baseUrl}/v1/snapshots: HTTP 401: [^\\n]+\\n$`),
    );
    expect(run.stderr).not.toContain(wrongKey);
  });
});
