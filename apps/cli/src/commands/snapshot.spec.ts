import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { SimulationDocument } from '../output/placements';
import { describeCounts, takeSnapshot } from './snapshot';
import { schedlab, writeTemp } from '../testing/cli';
import {
  buildControlPlane,
  closedPort,
  goVersion,
  startTestCluster,
  type ObjectJson,
  type TestCluster,
} from '@schedlab/testing';

interface Dump {
  apiVersion: string;
  kind: string;
  items: {
    apiVersion: string;
    kind: string;
    metadata: Record<string, unknown> & { name: string; namespace?: string };
  }[];
}

const go = goVersion();
if (!go)
  // Stated once, loudly: without Go there is no kube-apiserver to build, so these specs are excluded.
  process.stderr.write(
    'snapshot.spec: `go` is not on PATH: the specs against a real kube-apiserver are excluded (install Go 1.26+ to run them)\n',
  );
const describeWithGo = go ? describe : describe.skip;

/** A cold build of kube-apiserver took 20 minutes on idle cores; a loaded machine takes longer. */
const BUILD_AND_START_MS = 75 * 60_000;

const ids = (dump: Dump, kind: string) =>
  dump.items
    .filter((o) => o.kind === kind)
    .map((o) => (o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name))
    .sort();

function node(name: string, zone: string, cpu: string): ObjectJson {
  const resources = { cpu, memory: '8Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone },
    },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

function pod(
  namespace: string,
  name: string,
  cpu: string,
  extra: { nodeName?: string; labels?: Record<string, string>; claim?: string } = {},
): ObjectJson {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: extra.labels ?? {} },
    spec: {
      ...(extra.nodeName ? { nodeName: extra.nodeName } : {}),
      containers: [
        {
          name: 'main',
          image: 'registry.example/app:1',
          resources: { requests: { cpu, memory: '256Mi' } },
          ...(extra.claim ? { volumeMounts: [{ name: 'data', mountPath: '/data' }] } : {}),
        },
      ],
      ...(extra.claim
        ? { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: extra.claim } }] }
        : {}),
    },
  };
}

/**
 * Two nodes (4 CPUs each), running pods using 3 CPUs of node-1 and 1 of node-2, and two pending
 * pods: web (2 CPUs) fits only node-2; db (0.5 CPU) needs claim team-a/data, whose only possible
 * volume is a local one on node-1. Plus what the dump must also carry (a PDB, a PriorityClass,
 * a DeviceClass) and what it must not (a Secret, a finished pod).
 */
async function seed(cluster: TestCluster): Promise<{ draServed: boolean }> {
  for (const name of ['team-a', 'team-b'])
    await cluster.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await cluster.create('nodes', node('node-1', 'zone-a', '4'));
  await cluster.create('nodes', node('node-2', 'zone-b', '4'));
  await cluster.create('/apis/scheduling.k8s.io/v1/priorityclasses', {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'high' },
    value: 1000,
  });
  await cluster.create('/apis/storage.k8s.io/v1/storageclasses', {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'local' },
    provisioner: 'kubernetes.io/no-provisioner',
    volumeBindingMode: 'WaitForFirstConsumer',
  });
  await cluster.create('persistentvolumes', {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'local-node-1' },
    spec: {
      capacity: { storage: '10Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'local',
      local: { path: '/mnt/disk' },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] }] },
          ],
        },
      },
    },
  });
  await cluster.create('persistentvolumeclaims', {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: 'team-a' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'local',
      resources: { requests: { storage: '5Gi' } },
    },
  });
  await cluster.create('/apis/policy/v1/poddisruptionbudgets', {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'team-a' },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
  });
  await cluster.create('secrets', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'db-password', namespace: 'team-a' },
    stringData: { password: 'never-in-a-snapshot' },
  });
  // Bound pods are created with spec.nodeName: there is no scheduler or kubelet here.
  await cluster.create('pods', pod('team-a', 'batch-1', '1500m', { nodeName: 'node-1' }));
  await cluster.create('pods', pod('team-a', 'batch-2', '1500m', { nodeName: 'node-1' }));
  await cluster.create('pods', pod('team-b', 'cache-1', '1', { nodeName: 'node-2' }));
  const finished = await cluster.create('pods', pod('team-b', 'done-1', '3', { nodeName: 'node-2' }));
  await cluster.request('PUT', '/api/v1/namespaces/team-b/pods/done-1/status', {
    ...finished,
    status: { phase: 'Succeeded' },
  });
  await cluster.create('pods', pod('team-a', 'web-1', '2', { labels: { app: 'web' } }));
  await cluster.create('pods', pod('team-a', 'db-1', '500m', { claim: 'data' }));

  const groups = await cluster.request<{ groups: { name: string; versions: { version: string }[] }[] }>(
    'GET',
    '/apis',
  );
  const draServed = groups.groups.some(
    (g) => g.name === 'resource.k8s.io' && g.versions.some((v) => v.version === 'v1'),
  );
  if (draServed)
    await cluster.create('/apis/resource.k8s.io/v1/deviceclasses', {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: 'gpu.example.com' },
      spec: { selectors: [{ cel: { expression: "device.driver == 'gpu.example.com'" } }] },
    });
  if (draServed)
    await cluster.create('/apis/resource.k8s.io/v1/devicetaintrules', {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceTaintRule',
      metadata: { name: 'gpu-b-maintenance' },
      spec: {
        deviceSelector: { driver: 'gpu.example.com', pool: 'gpu-b' },
        taint: { key: 'maintenance', value: 'true', effect: 'NoSchedule' },
      },
    });
  return { draServed };
}

describe('describeCounts', () => {
  it('names each kind found with its count, in listing order, and leaves out the empty ones', () => {
    expect(describeCounts({ Node: 1, PriorityClass: 2, CSIStorageCapacity: 3, Secret: 0, Pod: 12 })).toBe(
      '1 Node, 2 PriorityClasses, 3 CSIStorageCapacities, 12 Pods',
    );
    expect(describeCounts({ Pod: 0 })).toBe('no objects');
  });
});

describe('schedlab snapshot without a reachable cluster', () => {
  it('fails with one line when nothing listens at the server', async () => {
    const port = await closedPort();
    const kubeconfig = writeTemp(
      'refused.kubeconfig',
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'gone', cluster: { server: `https://127.0.0.1:${port}` } }],
        users: [{ name: 'u', user: { token: 'token-never-printed' } }],
        contexts: [{ name: 'gone', context: { cluster: 'gone', user: 'u' } }],
        'current-context': 'gone',
      }),
    );
    const never = path.join(path.dirname(kubeconfig), 'never.yaml');
    const run = schedlab('snapshot', '--kubeconfig', kubeconfig, '-o', never);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `schedlab: kubeconfig ${kubeconfig}, context gone: discover API groups (/apis): cannot reach https://127.0.0.1:${port} (connection refused)\n`,
    );
    expect(run.stderr).not.toContain('token-never-printed');
    expect(() => readFileSync(never)).toThrow(/ENOENT/);
  });

  it('names a context the kubeconfig lacks', () => {
    const kubeconfig = writeTemp(
      'one-context.kubeconfig',
      'contexts: [{name: dev, context: {cluster: c}}]\n',
    );
    const run = schedlab('snapshot', '--kubeconfig', kubeconfig, '--context', 'prod');
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`schedlab: kubeconfig ${kubeconfig}: no context named prod\n`);
  });
});

describeWithGo('schedlab snapshot against a real kube-apiserver', () => {
  let cluster: TestCluster;
  let draServed = false;
  let dir: string;

  beforeAll(async () => {
    cluster = await startTestCluster(await buildControlPlane(String(go)));
    ({ draServed } = await seed(cluster));
    dir = path.dirname(writeTemp('placeholder', ''));
  }, BUILD_AND_START_MS);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('writes a List of every kind the engine reads, which simulate schedules as the cluster would', () => {
    const file = path.join(dir, 'cluster.yaml');
    const run = schedlab('snapshot', '--kubeconfig', cluster.kubeconfig, '-o', file);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    const text = readFileSync(file, 'utf8');
    const dump = parse(text) as Dump;
    expect(dump).toMatchObject({ apiVersion: 'v1', kind: 'List' });

    expect(ids(dump, 'Node')).toEqual(['node-1', 'node-2']);
    // The finished pod is left out, as kube-scheduler's own pod informer leaves it out.
    expect(ids(dump, 'Pod')).toEqual([
      'team-a/batch-1',
      'team-a/batch-2',
      'team-a/db-1',
      'team-a/web-1',
      'team-b/cache-1',
    ]);
    expect(ids(dump, 'Namespace')).toEqual(expect.arrayContaining(['default', 'team-a', 'team-b']));
    expect(ids(dump, 'PriorityClass')).toEqual(expect.arrayContaining(['high', 'system-node-critical']));
    expect(ids(dump, 'StorageClass')).toEqual(['local']);
    expect(ids(dump, 'PersistentVolume')).toEqual(['local-node-1']);
    expect(ids(dump, 'PersistentVolumeClaim')).toEqual(['team-a/data']);
    expect(ids(dump, 'PodDisruptionBudget')).toEqual(['team-a/web']);
    expect(ids(dump, 'Service')).toEqual(['default/kubernetes']);
    // kube-apiserver 1.37 serves resource.k8s.io/v1 by default.
    expect(draServed).toBe(true);
    expect(ids(dump, 'DeviceClass')).toEqual(['gpu.example.com']);
    expect(dump.items.find((o) => o.kind === 'DeviceClass')?.apiVersion).toBe('resource.k8s.io/v1');
    expect(ids(dump, 'DeviceTaintRule')).toEqual(['gpu-b-maintenance']);
    expect(dump.items.find((o) => o.kind === 'PodDisruptionBudget')?.apiVersion).toBe('policy/v1');
    expect(ids(dump, 'Secret')).toEqual([]);
    expect(text).not.toContain('never-in-a-snapshot');
    expect(dump.items.filter((o) => 'managedFields' in o.metadata)).toEqual([]);
    expect(dump.items.every((o) => typeof o.metadata.uid === 'string')).toBe(true);

    const simulate = schedlab('simulate', '--cluster', file, '-o', 'json');
    expect(simulate.stderr).toBe('');
    expect(simulate.status).toBe(0);
    const result = JSON.parse(simulate.stdout) as SimulationDocument;
    const placed = Object.fromEntries(result.placements.map((p) => [p.pod, p.node]));
    expect(placed).toEqual({ 'team-a/web-1': 'node-2', 'team-a/db-1': 'node-1' });
  });

  it('prints YAML on stdout by default and JSON into a *.json file, with the same objects', () => {
    const run = schedlab('snapshot', '--kubeconfig', cluster.kubeconfig);
    expect(run.status).toBe(0);
    const fromStdout = parse(run.stdout) as Dump;
    const file = path.join(dir, 'cluster.json');
    expect(schedlab('snapshot', '--kubeconfig', cluster.kubeconfig, '-o', file).status).toBe(0);
    const fromJson = JSON.parse(readFileSync(file, 'utf8')) as Dump;
    expect(fromJson.items.length).toBeGreaterThan(10);
    expect(fromJson).toEqual(fromStdout);
  });

  it('pages with limit/continue: one object per request gives the same dump', () => {
    const paged = schedlab('snapshot', '--kubeconfig', cluster.kubeconfig, '--page-size', '1');
    const whole = schedlab('snapshot', '--kubeconfig', cluster.kubeconfig);
    expect(paged.status).toBe(0);
    const pagedDump = parse(paged.stdout) as Dump;
    expect(ids(pagedDump, 'Pod')).toHaveLength(5);
    expect(pagedDump).toEqual(parse(whole.stdout));
  });

  it('shows progress per page on a terminal and nothing on a pipe', async () => {
    const flags = { kubeconfig: cluster.kubeconfig, pageSize: 2 };
    let terminal = '';
    const { listing } = await takeSnapshot(flags, { isTTY: true, write: (t: string) => (terminal += t) });
    expect(listing.counts.Pod).toBe(5);
    expect(terminal).toContain('\r\x1b[Klisting nodes: 2');
    expect(terminal).toContain('\r\x1b[Klisting pods: 2\r\x1b[Klisting pods: 4\r\x1b[Klisting pods: 5');
    expect(terminal.endsWith('\r\x1b[K')).toBe(true); // the line is erased before the dump or summary
    let pipe = '';
    await takeSnapshot(flags, { isTTY: false, write: (t: string) => (pipe += t) });
    expect(pipe).toBe('');
  });

  it('-n limits namespaced kinds to one namespace and keeps the cluster-scoped ones', () => {
    const run = schedlab('snapshot', '--kubeconfig', cluster.kubeconfig, '-n', 'team-b');
    expect(run.status).toBe(0);
    const dump = parse(run.stdout) as Dump;
    expect(ids(dump, 'Pod')).toEqual(['team-b/cache-1']);
    expect(ids(dump, 'PersistentVolumeClaim')).toEqual([]);
    expect(ids(dump, 'PodDisruptionBudget')).toEqual([]);
    expect(ids(dump, 'Node')).toEqual(['node-1', 'node-2']);
    expect(ids(dump, 'PersistentVolume')).toEqual(['local-node-1']);
  });

  it('fails with one line naming the kubeconfig, context, resource and HTTP 401, never the token', () => {
    const wrongToken = 'not-the-token-0123456789abcdef';
    const kubeconfig = cluster.writeKubeconfig('wrong', { token: wrongToken });
    const run = schedlab('snapshot', '--kubeconfig', kubeconfig);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `schedlab: kubeconfig ${kubeconfig}, context test-wrong: discover API groups (/apis): HTTP 401 Unauthorized\n`,
    );
    expect(run.stderr).not.toContain(wrongToken);
    expect(run.stderr).not.toContain(cluster.token);
  });

  it('reads the context --context names instead of the current one', () => {
    const config = parse(readFileSync(cluster.kubeconfig, 'utf8')) as {
      users: { name: string; user: object }[];
      contexts: { name: string; context: { cluster: string; user: string } }[];
      'current-context': string;
    };
    config.users.push({ name: 'stale', user: { token: 'expired-token' } });
    config.contexts.push({ name: 'stale', context: { cluster: 'test', user: 'stale' } });
    config['current-context'] = 'stale';
    const kubeconfig = writeTemp('two-contexts.kubeconfig', JSON.stringify(config));
    expect(schedlab('snapshot', '--kubeconfig', kubeconfig).stderr).toMatch(/context stale: .*HTTP 401/);
    const chosen = schedlab(
      'snapshot',
      '--kubeconfig',
      kubeconfig,
      '--context',
      'test-admin',
      '-n',
      'team-b',
    );
    expect(chosen.stderr).toBe('');
    expect(ids(parse(chosen.stdout) as Dump, 'Pod')).toEqual(['team-b/cache-1']);
  });

  it('authenticates with a client certificate from files the kubeconfig names', () => {
    const kubeconfig = cluster.writeKubeconfig('cert', {
      'client-certificate': cluster.files.clientCert,
      'client-key': cluster.files.clientKey,
    });
    const run = schedlab('snapshot', '--kubeconfig', kubeconfig, '-n', 'team-a');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(ids(parse(run.stdout) as Dump, 'Pod')).toHaveLength(4);
  });

  it('runs an exec credential plugin and uses the token it returns', () => {
    const plugin = writeTemp(
      'credential-plugin.cjs',
      [
        "const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO || '{}');",
        "if (info.kind !== 'ExecCredential') { console.error('no KUBERNETES_EXEC_INFO'); process.exit(3); }",
        'process.stdout.write(JSON.stringify({',
        "  apiVersion: info.apiVersion, kind: 'ExecCredential',",
        '  status: { token: process.env.TEST_CLUSTER_TOKEN },',
        '}));',
      ].join('\n'),
    );
    const exec = (env: { name: string; value: string }[]) =>
      cluster.writeKubeconfig('exec', {
        exec: {
          apiVersion: 'client.authentication.k8s.io/v1',
          command: process.execPath,
          args: [plugin],
          env,
          interactiveMode: 'Never',
        },
      });
    const ok = schedlab(
      'snapshot',
      '--kubeconfig',
      exec([{ name: 'TEST_CLUSTER_TOKEN', value: cluster.token }]),
    );
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ids(parse(ok.stdout) as Dump, 'Node')).toEqual(['node-1', 'node-2']);

    const refused = schedlab(
      'snapshot',
      '--kubeconfig',
      exec([{ name: 'TEST_CLUSTER_TOKEN', value: 'wrong' }]),
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      /context test-exec: discover API groups \(\/apis\): HTTP 401 Unauthorized\n$/,
    );
  });

  it('never leaves a half-written file when the cluster refuses', () => {
    const file = path.join(dir, 'kept.yaml');
    writeFileSync(file, 'previous: dump\n');
    const kubeconfig = cluster.writeKubeconfig('wrong2', { token: 'wrong' });
    expect(schedlab('snapshot', '--kubeconfig', kubeconfig, '-o', file).status).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe('previous: dump\n');
  });
});

describeWithGo('schedlab snapshot against an apiserver under RBAC that does not serve DRA', () => {
  let cluster: TestCluster;

  beforeAll(async () => {
    cluster = await startTestCluster(await buildControlPlane(String(go)), {
      apiserverFlags: ['--runtime-config=resource.k8s.io/v1=false'],
      authorization: 'RBAC',
    });
    await cluster.create('nodes', node('node-1', 'zone-a', '2'));
  }, BUILD_AND_START_MS);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('skips the resource.k8s.io kinds with a one-line notice and lists the rest', () => {
    const run = schedlab('snapshot', '--kubeconfig', cluster.kubeconfig);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      'schedlab: the server does not serve resource.k8s.io (v1, v1beta2, v1beta1, v1alpha3): skipping DeviceClass, ResourceSlice, ResourceClaim, ResourceClaimTemplate, DeviceTaintRule\n',
    );
    const dump = parse(run.stdout) as Dump;
    expect(ids(dump, 'Node')).toEqual(['node-1']);
    expect(dump.items.filter((o) => o.apiVersion.startsWith('resource.k8s.io'))).toEqual([]);
  });

  it('fails with one line naming the resource and HTTP 403 for an account that may not list it', () => {
    const kubeconfig = cluster.writeKubeconfig('nobody', { token: cluster.unprivilegedToken });
    const run = schedlab('snapshot', '--kubeconfig', kubeconfig);
    expect(run.status).toBe(1);
    // Discovery is open to every authenticated user; the first list is not.
    expect(run.stderr).toBe(
      `schedlab: kubeconfig ${kubeconfig}, context test-nobody: list namespaces.v1 (/api/v1/namespaces): HTTP 403 Forbidden (namespaces is forbidden: User "nobody" cannot list resource "namespaces" in API group "" at the cluster scope)\n`,
    );
    expect(run.stderr).not.toContain(cluster.unprivilegedToken);
  });
});
