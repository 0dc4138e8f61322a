/**
 * Peak memory of the api while importing a large, real-shaped kubectl dump (a measurement,
 * not a test): `node -r @swc-node/register bench/snapshot-import.ts [nodes] [pods]`
 * (SWC_NODE_PROJECT=tsconfig.base.json; defaults 5000 nodes, 50000 pods).
 *
 * The dump is generated into a temporary file by this process; the api runs as its own process
 * (apps/api/src/main.ts) on a fresh database, so its VmHWM (peak resident set, from /proc) is
 * the import's cost alone. Prints one JSON line with sizes, duration and peak RSS.
 */
import { fork } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createTenantWithAdminKey } from '@schedlab/tenancy';
import { createPrismaClient } from '@schedlab/db';
import { createTestDatabase, uniqueName } from '@schedlab/testing';

const root = path.resolve(__dirname, '..');

function node(i: number) {
  const zone = `zone-${String.fromCharCode(97 + (i % 3))}`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: `node-${i}`,
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: {
        'kubernetes.io/hostname': `node-${i}`,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': 'm6i.2xlarge',
        'topology.kubernetes.io/zone': zone,
        'topology.kubernetes.io/region': 'eu-west-1',
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      providerID: `aws:///${zone}/i-${i.toString(16).padStart(17, '0')}`,
      podCIDR: `10.${(i >> 8) & 255}.${i & 255}.0/24`,
    },
    status: {
      capacity: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' },
      allocatable: { cpu: '7910m', memory: '31Gi', pods: '110', 'ephemeral-storage': '95Gi' },
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: '2026-01-01T00:00:00Z',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.33.1',
        osImage: 'Bottlerocket OS 1.20',
        containerRuntimeVersion: 'containerd://1.7.20',
        architecture: 'amd64',
        operatingSystem: 'linux',
      },
    },
  };
}

function pod(i: number, nodes: number) {
  const app = `svc-${i % 500}`;
  const bound = i % 10 !== 0; // 90% running, 10% pending
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${app}-${i.toString(36)}`,
      namespace: `team-${i % 40}`,
      uid: `10000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app, 'app.kubernetes.io/name': app, 'pod-template-hash': '5d8f7c9b6' },
      annotations: {
        'kubectl.kubernetes.io/restartedAt': '2026-01-01T00:00:00Z',
        'prometheus.io/scrape': 'true',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${app}-5d8f7c9b6`,
          uid: `20000000-0000-4000-8000-${String(i % 500).padStart(12, '0')}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      ...(bound ? { nodeName: `node-${i % nodes}` } : {}),
      schedulerName: 'default-scheduler',
      priority: 0,
      containers: [
        {
          name: 'app',
          image: `registry.example.com/${app}:1.4.2`,
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ],
          resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '256Mi' } },
          volumeMounts: [
            {
              name: 'kube-api-access',
              mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
              readOnly: true,
            },
          ],
        },
      ],
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: { matchLabels: { app } },
        },
      ],
      volumes: [
        {
          name: 'kube-api-access',
          projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }] },
        },
      ],
    },
    status: bound
      ? {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          podIP: `10.1.${(i >> 8) & 255}.${i & 255}`,
          qosClass: 'Burstable',
          startTime: '2026-01-01T00:00:00Z',
        }
      : { phase: 'Pending', qosClass: 'Burstable' },
  };
}

/** VmHWM of a process in bytes: the largest resident set it has had. */
function peakRss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function main() {
  const nodes = Number(process.argv[2] ?? 5000);
  const pods = Number(process.argv[3] ?? 50000);
  const dir = mkdtempSync(path.join(tmpdir(), 'schedlab-bench-'));
  const dumpPath = path.join(dir, 'dump.json');
  const items: object[] = [];
  for (let i = 0; i < nodes; i++) items.push(node(i));
  for (let i = 0; i < pods; i++) items.push(pod(i, nodes));
  writeFileSync(dumpPath, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }, null, 2)); // kubectl indents too
  items.length = 0;
  const dumpBytes = statSync(dumpPath).size;

  const db = await createTestDatabase({ migrated: true });
  const prisma = createPrismaClient(db.url);
  const { apiKey } = await createTenantWithAdminKey(prisma, 'bench');
  const api = fork(path.join(root, 'apps/api/src/main.ts'), [], {
    cwd: root,
    env: {
      ...process.env,
      SWC_NODE_PROJECT: path.join(root, 'tsconfig.base.json'),
      DATABASE_URL: db.url,
      API_PORT: '0',
      LOG_LEVEL: 'warn',
      QUEUE_PREFIX: uniqueName('bench'),
    },
    execArgv: ['-r', '@swc-node/register'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const ready = await new Promise<{ endpoints: { graphql: string } }>((resolve, reject) => {
      api.once('message', (m) => resolve(m as never));
      api.once('exit', (code) => reject(new Error(`api exited with ${code}`)));
    });
    const baseUrl = new URL(ready.endpoints.graphql).origin;
    const rssBefore = peakRss(api.pid!);
    const started = process.hrtime.bigint();
    const res = await fetch(`${baseUrl}/v1/snapshots?name=bench`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey.secret}`,
        'content-type': 'application/json',
        'content-length': String(dumpBytes),
      },
      body: Readable.toWeb(createReadStream(dumpPath)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const body = (await res.json()) as { counts?: unknown; sizeBytes?: number; error?: unknown };
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const stored = await prisma.$queryRaw<
      { bytes: number }[]
    >`SELECT octet_length(content)::int AS bytes FROM snapshots`;
    const peak = peakRss(api.pid!);
    console.log(
      JSON.stringify({
        nodes,
        pods,
        status: res.status,
        counts: body.counts ?? body.error,
        dumpMiB: mib(dumpBytes),
        canonicalMiB: mib(body.sizeBytes ?? 0),
        storedGzipMiB: mib(stored[0]?.bytes ?? 0),
        importSeconds: Math.round(seconds * 10) / 10,
        apiPeakRssBeforeMiB: mib(rssBefore),
        apiPeakRssMiB: mib(peak),
        peakOverDump: Math.round((peak / dumpBytes) * 100) / 100,
      }),
    );
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    await prisma.$disconnect();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
