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
 * scheduler_perf's shapes (test/integration/scheduler_perf of k8s.io/kubernetes v1.37, its
 * `5000Nodes` workloads), for the side by side with upstream (bench/upstream.ts). Their nodes are
 * node-default.yaml's (4 cpu, 32Gi, 110 pods) with a hostname label and, round-robin, one of three
 * zones; their pods are pod-default.yaml's (100m / 500Mi, port 80) or the shape's template. The
 * `initPods` of scheduler_perf, which it schedules before measuring, are given here as running
 * pods already bound (one per node, node i for pod i), and its `measurePods` as the pending pods.
 */
const PERF_NODE_CPU = '4';
const PERF_NODE_MEMORY = '32Gi';
const CSI_DRIVER = 'ebs.csi.aws.com';

function perfNode(i: number, extraAllocatable: Record<string, string> = {}): KubeObject {
  const name = nodeName(i);
  const allocatable = { cpu: PERF_NODE_CPU, memory: PERF_NODE_MEMORY, pods: '110', ...extraAllocatable };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': ZONES[i % ZONES.length] },
    },
    spec: {},
    status: {
      capacity: allocatable,
      allocatable,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  } as KubeObject;
}

/** pod-default.yaml: pause, port 80, 100m / 500Mi requests and limits. */
function perfPod(
  name: string,
  namespace: string,
  opts: { labels?: Record<string, string>; nodeName?: string; spec?: Record<string, unknown> } = {},
): KubeObject {
  const resources = { cpu: '100m', memory: '500Mi' };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, uid: `uid-${namespace}-${name}`, labels: opts.labels ?? {} },
    spec: {
      containers: [
        {
          name: 'pause',
          image: 'registry.k8s.io/pause:3.10.2',
          ports: [{ containerPort: 80 }],
          resources: { requests: resources, limits: resources },
        },
      ],
      ...(opts.nodeName ? { nodeName: opts.nodeName } : {}),
      ...opts.spec,
    },
  } as KubeObject;
}

/** pod-with-pod-anti-affinity.yaml. */
const ANTI_AFFINITY_SPEC = {
  affinity: {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        {
          labelSelector: { matchLabels: { color: 'green' } },
          topologyKey: 'kubernetes.io/hostname',
          namespaces: ['sched-1', 'sched-0'],
        },
      ],
    },
  },
};

/** pod-with-topology-spreading.yaml. */
const SPREAD_SPEC = {
  topologySpreadConstraints: [
    {
      maxSkew: 5,
      topologyKey: 'topology.kubernetes.io/zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { color: 'blue' } },
    },
  ],
};

/**
 * Preferred node affinity: scheduler_perf has only the required form (SchedulingNodeAffinity,
 * pod-with-node-affinity.yaml: zone In [zone1, zone2]); here the same zones as two preferred terms
 * of different weights, so NodeAffinity scores.
 */
const PREFERRED_NODE_AFFINITY_SPEC = {
  affinity: {
    nodeAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: 80,
          preference: {
            matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] }],
          },
        },
        {
          weight: 20,
          preference: {
            matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-b'] }],
          },
        },
      ],
    },
  },
};

/**
 * pv-csi.yaml and pvc.yaml bound to each other as scheduler_perf's CreatePodWithPersistentVolume
 * binds them (PV claimRef, claim volumeName and bind-completed annotation, both phase Bound; the
 * CSI volume handle is the PV's name), and the pod that mounts the claim.
 */
function csiPodWithVolume(i: number, namespace: string, nodeName?: string): KubeObject[] {
  const pvName = `${namespace}-vol-${i}`;
  const claim = `pvc-${i}`;
  const pv = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: pvName },
    spec: {
      accessModes: ['ReadOnlyMany'],
      capacity: { storage: '1Gi' },
      csi: { driver: CSI_DRIVER, volumeHandle: pvName },
      persistentVolumeReclaimPolicy: 'Retain',
      claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace, name: claim },
    },
    status: { phase: 'Bound' },
  } as KubeObject;
  const pvc = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claim,
      namespace,
      annotations: { 'pv.kubernetes.io/bind-completed': 'true' },
    },
    spec: {
      accessModes: ['ReadOnlyMany'],
      resources: { requests: { storage: '1Gi' } },
      volumeName: pvName,
    },
    status: { phase: 'Bound', accessModes: ['ReadOnlyMany'], capacity: { storage: '1Gi' } },
  } as KubeObject;
  const p = perfPod(`pod-${i}`, namespace, {
    nodeName,
    spec: { volumes: [{ name: 'vol', persistentVolumeClaim: { claimName: claim } }] },
  });
  return [pv, pvc, p];
}

/** The scheduler_perf shapes: 5,000 nodes; `init` running pods, `measure` pending. */
export function perfShape(
  kind: 'PodAntiAffinity' | 'PreferredNodeAffinity' | 'TopologySpreading' | 'CSIPVs',
  nodeCount: number,
  init: number,
  measure: number,
): KubeObject[] {
  const at = (i: number) => nodeName(i % nodeCount);
  switch (kind) {
    case 'PodAntiAffinity': {
      const labels = { color: 'green' };
      return [
        ...Array.from({ length: nodeCount }, (_, i) => perfNode(i)),
        ...Array.from({ length: init }, (_, i) =>
          perfPod(`anti-affinity-pod-${i}`, 'sched-0', { labels, nodeName: at(i), spec: ANTI_AFFINITY_SPEC }),
        ),
        ...Array.from({ length: measure }, (_, i) =>
          perfPod(`anti-affinity-pod-${i}`, 'sched-1', { labels, spec: ANTI_AFFINITY_SPEC }),
        ),
      ];
    }
    case 'PreferredNodeAffinity':
      return [
        ...Array.from({ length: nodeCount }, (_, i) => perfNode(i)),
        ...Array.from({ length: init }, (_, i) => perfPod(`init-${i}`, 'default', { nodeName: at(i) })),
        ...Array.from({ length: measure }, (_, i) =>
          perfPod(`node-affinity-${i}`, 'default', { spec: PREFERRED_NODE_AFFINITY_SPEC }),
        ),
      ];
    case 'TopologySpreading':
      return [
        ...Array.from({ length: nodeCount }, (_, i) => perfNode(i)),
        ...Array.from({ length: init }, (_, i) => perfPod(`pod-${i}`, 'default', { nodeName: at(i) })),
        ...Array.from({ length: measure }, (_, i) =>
          perfPod(`spreading-pod-${i}`, 'default', { labels: { color: 'blue' }, spec: SPREAD_SPEC }),
        ),
      ];
    case 'CSIPVs': {
      const objects: KubeObject[] = Array.from({ length: nodeCount }, (_, i) =>
        perfNode(i, { [`attachable-volumes-csi-${CSI_DRIVER}`]: '39' }),
      );
      for (let i = 0; i < nodeCount; i++) {
        objects.push({
          apiVersion: 'storage.k8s.io/v1',
          kind: 'CSINode',
          metadata: { name: nodeName(i) },
          spec: { drivers: [{ name: CSI_DRIVER, nodeID: nodeName(i), allocatable: { count: 39 } }] },
        } as KubeObject);
      }
      for (let i = 0; i < init; i++) objects.push(...csiPodWithVolume(i, 'sched-0', at(i)));
      for (let i = 0; i < measure; i++) objects.push(...csiPodWithVolume(i, 'sched-1'));
      return objects;
    }
  }
}

export const PERF_SHAPES: readonly Workload[] = [
  {
    name: 'SchedulingPodAntiAffinity_5000Nodes',
    description:
      'scheduler_perf SchedulingPodAntiAffinity/5000Nodes: required anti-affinity on hostname, 1,000 running, 1,000 pending',
    nodes: 5000,
    pods: 1000,
    build: () => perfShape('PodAntiAffinity', 5000, 1000, 1000),
  },
  {
    name: 'SchedulingPreferredNodeAffinity_5000Nodes',
    description:
      'scheduler_perf SchedulingNodeAffinity/5000Nodes with preferred terms (zone-a 80, zone-b 20): 5,000 running, 1,000 pending',
    nodes: 5000,
    pods: 1000,
    build: () => perfShape('PreferredNodeAffinity', 5000, 5000, 1000),
  },
  {
    name: 'TopologySpreading_5000Nodes',
    description:
      'scheduler_perf TopologySpreading/5000Nodes: zone DoNotSchedule maxSkew 5, 5,000 running, 2,000 pending',
    nodes: 5000,
    pods: 2000,
    build: () => perfShape('TopologySpreading', 5000, 5000, 2000),
  },
  {
    name: 'SchedulingCSIPVs_5000Nodes',
    description:
      'scheduler_perf SchedulingCSIPVs/5000Nodes: bound CSI PVs, CSINode limit 39, 5,000 running, 1,000 pending',
    nodes: 5000,
    pods: 1000,
    build: () => perfShape('CSIPVs', 5000, 5000, 1000),
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
  const w = [...WORKLOADS, ...SHAPES, ...PERF_SHAPES, CAPACITY].find(
    (x) => x.name.toLowerCase() === name.toLowerCase(),
  );
  if (!w)
    throw new Error(
      `unknown workload "${name}"; known: ${[...WORKLOADS, ...SHAPES, ...PERF_SHAPES, CAPACITY].map((x) => x.name).join(', ')}`,
    );
  return w;
}
