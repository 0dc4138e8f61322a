/**
 * Synthetic clusters for the engine benchmarks, in the spirit of upstream scheduler_perf's
 * workloads. Everything is generated from a seed, so two runs schedule exactly the same input.
 */
import type { KubeObject } from '@schedlab/k8s';

/** Deterministic generator for synthetic requests (mulberry32); independent of the engine's own. */
class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  intn(n: number): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  }
}

export interface Workload {
  name: string;
  description: string;
  nodes: number;
  /** Pods scheduled (and timed). */
  pods: number;
  /** Builds the cluster dump: nodes, running pods and the pending pods to schedule. */
  build(seed: number): KubeObject[];
}

const ZONES = ['zone-a', 'zone-b', 'zone-c'];
const NODE_CPU_MILLIS = 32000;
const NODE_MEMORY_GI = 128;

function node(i: number, extraLabels: Record<string, string> = {}): KubeObject {
  const name = `node-${String(i).padStart(5, '0')}`;
  const allocatable = { cpu: `${NODE_CPU_MILLIS}m`, memory: `${NODE_MEMORY_GI}Gi`, pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'topology.kubernetes.io/zone': ZONES[i % ZONES.length],
        ...extraLabels,
      },
    },
    spec: {},
    status: { capacity: allocatable, allocatable },
  } as KubeObject;
}

export function nodeName(i: number): string {
  return `node-${String(i).padStart(5, '0')}`;
}

interface PodShape {
  name: string;
  labels?: Record<string, string>;
  cpuMillis: number;
  memoryMi: number;
  nodeName?: string;
  priorityClassName?: string;
  spec?: Record<string, unknown>;
}

function pod(p: PodShape): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: p.name, namespace: 'default', uid: `uid-${p.name}`, labels: p.labels ?? {} },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.k8s.io/pause:3.9',
          resources: { requests: { cpu: `${p.cpuMillis}m`, memory: `${p.memoryMi}Mi` } },
        },
      ],
      ...(p.nodeName ? { nodeName: p.nodeName } : {}),
      ...(p.priorityClassName ? { priorityClassName: p.priorityClassName } : {}),
      ...p.spec,
    },
  } as KubeObject;
}

/** Small, varied requests: 100m–1000m cpu, 128Mi–1Gi memory. */
function requests(rng: SeededRandom): { cpuMillis: number; memoryMi: number } {
  return { cpuMillis: 100 * (1 + rng.intn(10)), memoryMi: 128 * (1 + rng.intn(8)) };
}

function nodes(count: number): KubeObject[] {
  return Array.from({ length: count }, (_, i) => node(i));
}

function pendingPods(
  count: number,
  rng: SeededRandom,
  shape: (i: number) => Partial<PodShape> = () => ({}),
): KubeObject[] {
  return Array.from({ length: count }, (_, i) => pod({ name: `pod-${i}`, ...requests(rng), ...shape(i) }));
}

export const WORKLOADS: readonly Workload[] = [
  {
    name: 'SchedulingBasic',
    description:
      'default profile, cpu/memory requests, adaptive percentageOfNodesToScore, 1,000 pods already running',
    nodes: 5000,
    pods: 10000,
    build(seed) {
      const rng = new SeededRandom(seed);
      const running = Array.from({ length: 1000 }, (_, i) =>
        pod({ name: `init-${i}`, ...requests(rng), nodeName: nodeName(i % 5000) }),
      );
      return [...nodes(5000), ...running, ...pendingPods(10000, rng)];
    },
  },
  {
    name: 'TopologySpreading',
    description: 'zone DoNotSchedule (maxSkew 1) + hostname ScheduleAnyway spread constraints',
    nodes: 5000,
    pods: 5000,
    build(seed) {
      const rng = new SeededRandom(seed);
      const labels = { app: 'spread' };
      const spec = {
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: 'topology.kubernetes.io/zone',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: labels },
          },
          {
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: labels },
          },
        ],
      };
      return [...nodes(5000), ...pendingPods(5000, rng, () => ({ labels, spec }))];
    },
  },
  {
    name: 'SchedulingPodAntiAffinity',
    description: 'required pod anti-affinity on hostname within 4 label groups',
    nodes: 5000,
    pods: 5000,
    build(seed) {
      const rng = new SeededRandom(seed);
      return [
        ...nodes(5000),
        ...pendingPods(5000, rng, (i) => {
          const labels = { group: `g${i % 4}` };
          return {
            labels,
            spec: {
              affinity: {
                podAntiAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: [
                    { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: labels } },
                  ],
                },
              },
            },
          };
        }),
      ];
    },
  },
  {
    name: 'SchedulingPreferredPodAffinity',
    description: 'preferred pod affinity (weight 1, zone) within 4 label groups',
    nodes: 5000,
    pods: 5000,
    build(seed) {
      const rng = new SeededRandom(seed);
      return [
        ...nodes(5000),
        ...pendingPods(5000, rng, (i) => {
          const labels = { group: `g${i % 4}` };
          return {
            labels,
            spec: {
              affinity: {
                podAffinity: {
                  preferredDuringSchedulingIgnoredDuringExecution: [
                    {
                      weight: 1,
                      podAffinityTerm: {
                        topologyKey: 'topology.kubernetes.io/zone',
                        labelSelector: { matchLabels: labels },
                      },
                    },
                  ],
                },
              },
            },
          };
        }),
      ];
    },
  },
  {
    name: 'PreemptionBasic',
    description: '500 nodes full of low-priority pods; high-priority pods preempt them',
    nodes: 500,
    pods: 500,
    build(seed) {
      const rng = new SeededRandom(seed);
      const classes = [
        { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 1 },
        {
          apiVersion: 'scheduling.k8s.io/v1',
          kind: 'PriorityClass',
          metadata: { name: 'high' },
          value: 1000,
        },
      ] as KubeObject[];
      // 4 × 8 cpu fills each 32-cpu node, so every high-priority pod needs a victim.
      const running = Array.from({ length: 2000 }, (_, i) =>
        pod({
          name: `low-${i}`,
          cpuMillis: 8000,
          memoryMi: 1024,
          nodeName: nodeName(i % 500),
          priorityClassName: 'low',
        }),
      );
      const high = pendingPods(500, rng, () => ({ cpuMillis: 7000, priorityClassName: 'high' }));
      return [...classes, ...nodes(500), ...running, ...high];
    },
  },
  {
    name: 'SchedulingCSIPVs',
    description: 'one unbound PVC per pod, WaitForFirstConsumer class, CSINode limits, dynamic provisioning',
    nodes: 5000,
    pods: 5000,
    build(seed) {
      const rng = new SeededRandom(seed);
      const driver = 'ebs.csi.aws.com';
      const objects: KubeObject[] = [
        {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'StorageClass',
          metadata: { name: 'csi-wffc' },
          provisioner: driver,
          volumeBindingMode: 'WaitForFirstConsumer',
        } as KubeObject,
        ...nodes(5000),
      ];
      for (let i = 0; i < 5000; i++) {
        objects.push({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSINode',
          metadata: { name: nodeName(i) },
          spec: { drivers: [{ name: driver, nodeID: nodeName(i), allocatable: { count: 39 } }] },
        } as KubeObject);
      }
      for (let i = 0; i < 5000; i++) {
        objects.push({
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          metadata: { name: `claim-${i}`, namespace: 'default', uid: `uid-claim-${i}` },
          spec: {
            storageClassName: 'csi-wffc',
            accessModes: ['ReadWriteOnce'],
            resources: { requests: { storage: '1Gi' } },
          },
        } as KubeObject);
      }
      objects.push(
        ...pendingPods(5000, rng, (i) => ({
          spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: `claim-${i}` } }] },
        })),
      );
      return objects;
    },
  },
  {
    name: 'Memory50kPods',
    description: 'memory check: 50,000 pods scheduled onto 5,000 nodes (peak RSS)',
    nodes: 5000,
    pods: 50000,
    build(seed) {
      const rng = new SeededRandom(seed);
      return [...nodes(5000), ...pendingPods(50000, rng)];
    },
  },
];

/**
 * A cluster as platform teams run them: 2,000 nodes in 3 zones and two pools, 200 Deployments
 * (a ReplicaSet and a Service each, so the system default spread applies to their pods) with
 * 20,000 pods running, and 5,000 new replicas pending: every 4th with a zone spread constraint,
 * every 5th with a pool node selector.
 */
function realisticCluster(seed: number): KubeObject[] {
  const rng = new SeededRandom(seed);
  const nodeCount = 2000;
  const apps = 200;
  const objects: KubeObject[] = Array.from({ length: nodeCount }, (_, i) =>
    node(i, { pool: i % 4 === 0 ? 'highmem' : 'general' }),
  );
  for (let a = 0; a < apps; a++) {
    const app = `app-${String(a).padStart(3, '0')}`;
    const labels = { app };
    objects.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: app, namespace: 'default' },
      spec: { selector: labels },
    } as KubeObject);
    objects.push({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: `${app}-7d4b9c`, namespace: 'default', uid: `uid-rs-${app}` },
      spec: {
        replicas: 125,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'app' }] } },
      },
    } as KubeObject);
  }
  const owned = (a: number, name: string, extra: Partial<PodShape>): KubeObject => {
    const app = `app-${String(a).padStart(3, '0')}`;
    const p = pod({ name, labels: { app }, ...requests(rng), ...extra });
    p.metadata!.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: `${app}-7d4b9c`,
        uid: `uid-rs-${app}`,
        controller: true,
      },
    ];
    return p;
  };
  for (let i = 0; i < 20000; i++)
    objects.push(owned(i % apps, `run-${i}`, { nodeName: nodeName((i * 7) % nodeCount) }));
  for (let i = 0; i < 5000; i++) {
    const a = i % apps;
    const spec: Record<string, unknown> = {};
    if (i % 4 === 0) {
      spec.topologySpreadConstraints = [
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: `app-${String(a).padStart(3, '0')}` } },
        },
      ];
    }
    if (i % 5 === 0) spec.nodeSelector = { pool: i % 10 === 0 ? 'highmem' : 'general' };
    objects.push(owned(a, `new-${i}`, { spec }));
  }
  return objects;
}

export const SHAPES: readonly Workload[] = [
  {
    name: 'SmokeBasic',
    description: 'SchedulingBasic at CI size: 200 nodes, 100 pods running, 1,000 pending',
    nodes: 200,
    pods: 1000,
    build(seed) {
      const rng = new SeededRandom(seed);
      const running = Array.from({ length: 100 }, (_, i) =>
        pod({ name: `init-${i}`, ...requests(rng), nodeName: nodeName(i % 200) }),
      );
      return [...nodes(200), ...running, ...pendingPods(1000, rng)];
    },
  },
  {
    name: 'Realistic',
    description:
      '2,000 nodes in 3 zones, 200 Deployments with 20,000 running pods, 5,000 pending (zone spread, node selectors)',
    nodes: 2000,
    pods: 5000,
    build: realisticCluster,
  },
  {
    name: 'Running40k',
    description: '5,000 nodes with 40,000 pods running, 10,000 pending',
    nodes: 5000,
    pods: 10000,
    build(seed) {
      const rng = new SeededRandom(seed);
      const running = Array.from({ length: 40000 }, (_, i) =>
        pod({ name: `run-${i}`, ...requests(rng), nodeName: nodeName(i % 5000) }),
      );
      return [...nodes(5000), ...running, ...pendingPods(10000, rng)];
    },
  },
];

/**
 * The capacity run of issue #22: 2,000 nodes with 4,000 pods running and no pending pods; `pods`
 * is the number of copies of CAPACITY_POD asked for (`schedlab capacity --max-replicas`).
 */
export const CAPACITY: Workload = {
  name: 'Capacity',
  description: '2,000 nodes with 4,000 pods running; 20,000 copies of a 100m/128Mi pod',
  nodes: 2000,
  pods: 20000,
  build(seed) {
    const rng = new SeededRandom(seed);
    const running = Array.from({ length: 4000 }, (_, i) =>
      pod({ name: `run-${i}`, ...requests(rng), nodeName: nodeName(i % 2000) }),
    );
    return [...nodes(2000), ...running];
  },
};

export const CAPACITY_POD: KubeObject = pod({ name: 'clone', cpuMillis: 100, memoryMi: 128 });

export function workloadByName(name: string): Workload {
  const w = [...WORKLOADS, ...SHAPES, CAPACITY].find((x) => x.name.toLowerCase() === name.toLowerCase());
  if (!w)
    throw new Error(
      `unknown workload "${name}"; known: ${[...WORKLOADS, ...SHAPES].map((x) => x.name).join(', ')}`,
    );
  return w;
}
