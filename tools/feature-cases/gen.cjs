#!/usr/bin/env node
/**
 * Golden-case inputs for the features that arrived after 1.26 (issue #16), in the case format of
 * ../shared/conformance/generator/README.md, for the oracle to record (docs/oracle.md).
 * Deterministic per family, seed and GENERATOR_VERSION; plain Node.js, no Kubernetes code.
 *
 *   node tools/feature-cases/gen.cjs --family requests --seed 6001      # one case on stdout
 *   node tools/feature-cases/gen.cjs --family gates --from 7001 --count 30 --out DIR
 *
 * Families (seed ranges of the recorded sets in conformance/v<release>/<family>/):
 *   requests        6001…  sidecars (restartable init containers) with requests and host ports,
 *                          init containers larger than the app, pod-level spec.resources,
 *                          overhead, pods without requests, running pods resized in place
 *   gates           7001…  spec.schedulingGates (PreEnqueue) among schedulable pods
 *   csi-capacity    8001…  CSIStorageCapacity + CSIDriver storageCapacity, WaitForFirstConsumer
 *                          classes, claims to provision, capacity too small on some nodes
 *   affinity-keys   9001…  pod (anti-)affinity with matchLabelKeys/mismatchLabelKeys, spread
 *                          with matchLabelKeys
 *   spread-policies 10001… nodeAffinityPolicy/nodeTaintsPolicy Honor/Ignore, minDomains,
 *                          DoNotSchedule and ScheduleAnyway
 *   preemption      11001… PDBs, preemptionPolicy Never, several priorities, victims' order,
 *                          the nominated node
 * Every family replays with the default profile, percentageOfNodesToScore 100, the lowest-name
 * tie-break and preemption on (README rule 6).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const GENERATOR_VERSION = 1;
const FAMILIES = ['requests', 'gates', 'csi-capacity', 'affinity-keys', 'spread-policies', 'preemption'];
const FIRST_SEED = {
  requests: 6001,
  gates: 7001,
  'csi-capacity': 8001,
  'affinity-keys': 9001,
  'spread-policies': 10001,
  preemption: 11001,
};

function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    sample: (list, k) => {
      const copy = list.slice();
      const out = [];
      while (out.length < k && copy.length) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]);
      return out;
    },
  };
  return r;
}

const ZONES = ['zone-a', 'zone-b', 'zone-c'];
const APPS = ['web', 'api', 'db', 'cache', 'batch'];
const TEAMS = ['red', 'blue'];
const IMAGE = 'registry.example.com/app/server:1.0';

// ---------------------------------------------------------------- cluster pieces

function priorityClasses(r, { globalDefault = false } = {}) {
  const out = [
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 100 },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'medium' }, value: 1000 },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 10000 },
    {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'high-nonpreempting' },
      value: 10000,
      preemptionPolicy: 'Never',
    },
  ];
  if (globalDefault && r.chance(0.5)) out[0].globalDefault = true;
  return out;
}

function cpuOf(r) {
  return r.pick(['2', '4', '4', '8']);
}
function memOf(r) {
  return r.pick(['4Gi', '8Gi', '8Gi', '16Gi']);
}

/** Nodes node-01…; zones round-robin; `opts.taint`, `opts.labels` add variety. */
function makeNodes(r, n, zones, opts = {}) {
  const nodes = [];
  for (let i = 1; i <= n; i++) {
    const name = `node-${String(i).padStart(2, '0')}`;
    const zone = zones[(i - 1) % zones.length];
    const cpu = opts.cpu ?? cpuOf(r);
    const memory = opts.memory ?? memOf(r);
    const pods = opts.pods ?? r.pick(['110', '110', '110', '8', '12']);
    const capacity = { cpu, memory, pods };
    if (opts.ephemeral) capacity['ephemeral-storage'] = r.pick(['20Gi', '50Gi']);
    if (opts.extended && r.chance(0.5)) capacity['example.com/foo'] = String(r.int(1, 4));
    if (opts.hugepages && r.chance(0.5)) capacity['hugepages-2Mi'] = r.pick(['256Mi', '1Gi']);
    const labels = {
      'kubernetes.io/hostname': name,
      'kubernetes.io/os': 'linux',
      'topology.kubernetes.io/zone': zone,
    };
    if (r.chance(0.4)) labels.disktype = r.pick(['ssd', 'hdd']);
    if (opts.pool && r.chance(0.6)) labels.pool = r.pick(['general', 'general', 'special']);
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels },
      spec: {},
      status: { capacity, allocatable: { ...capacity } },
    };
    const taintChance = opts.taintChance ?? 0.15;
    if (r.chance(taintChance)) {
      node.spec.taints = [
        r.pick([
          { key: 'dedicated', value: 'infra', effect: 'NoSchedule' },
          { key: 'dedicated', value: 'infra', effect: 'PreferNoSchedule' },
          { key: 'maintenance', effect: 'NoSchedule' },
        ]),
      ];
    }
    if (r.chance(opts.unschedulableChance ?? 0.05)) node.spec.unschedulable = true;
    nodes.push(node);
  }
  return nodes;
}

let startSecond = 0;
function startTime() {
  const s = startSecond++;
  const hh = String(Math.floor(s / 3600)).padStart(2, '0');
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `2029-12-31T${hh}:${mm}:${ss}Z`;
}

function milli(r, lo, hi, step = 50) {
  return `${r.int(lo / step, hi / step) * step}m`;
}
function mebi(r, lo, hi, step = 64) {
  return `${r.int(lo / step, hi / step) * step}Mi`;
}

function container(name, requests, extra = {}) {
  const c = { name, image: IMAGE };
  if (requests) c.resources = { requests };
  return Object.assign(c, extra);
}

function pod(name, { ns = 'default', labels, node, priorityClassName, spec = {}, status } = {}) {
  const p = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns } };
  if (labels) p.metadata.labels = labels;
  p.spec = {
    ...(node ? { nodeName: node } : {}),
    ...(priorityClassName ? { priorityClassName } : {}),
    ...spec,
  };
  if (!p.spec.containers) p.spec.containers = [container('main', null)];
  if (node) p.status = { phase: 'Running', startTime: startTime(), ...(status ?? {}) };
  return p;
}

function toleration(r) {
  return r.pick([
    { key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' },
    { key: 'maintenance', operator: 'Exists' },
    { key: 'dedicated', operator: 'Exists' },
  ]);
}

function wrap(family, seed, name, items, extraConfig = {}) {
  return {
    name,
    family,
    seed,
    generatorVersion: GENERATOR_VERSION,
    config: {
      featureGates: {},
      percentageOfNodesToScore: 100,
      tieBreak: 'lowest-node-name',
      order: 'priority-desc-then-list-order',
      ...extraConfig,
    },
    input: { apiVersion: 'v1', kind: 'List', metadata: {}, items },
  };
}

/** Sized running pods on random nodes, so resources are partly used. */
function fillerPods(
  r,
  nodes,
  count,
  { prefix = 'run', labelled = false, priorities = ['low', 'medium', undefined] } = {},
) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const node = r.pick(nodes).metadata.name;
    const app = r.pick(APPS);
    const labels = { app };
    if (labelled) labels.team = r.pick(TEAMS);
    out.push(
      pod(`${prefix}-${i}`, {
        labels,
        node,
        priorityClassName: r.pick(priorities),
        spec: { containers: [container('main', { cpu: milli(r, 100, 1500), memory: mebi(r, 128, 2048) })] },
      }),
    );
  }
  return out;
}

// ---------------------------------------------------------------- requests

function sidecar(r, name, withPort) {
  const c = container(name, r.chance(0.85) ? { cpu: milli(r, 50, 600), memory: mebi(r, 64, 512) } : null, {
    restartPolicy: 'Always',
  });
  if (withPort) c.ports = [{ containerPort: 9100, hostPort: r.pick([9100, 9100, 9200]), protocol: 'TCP' }];
  return c;
}

function requestsPodSpec(r, kind) {
  const app = () => ({ cpu: milli(r, 100, 1500), memory: mebi(r, 128, 2048) });
  switch (kind) {
    case 'sidecar': {
      const inits = [sidecar(r, 'proxy', r.chance(0.5))];
      if (r.chance(0.4)) inits.push(sidecar(r, 'logger', false));
      return { initContainers: inits, containers: [container('main', app())] };
    }
    case 'init-large':
      return {
        initContainers: [container('setup', { cpu: milli(r, 1000, 3500), memory: mebi(r, 1024, 6144) })],
        containers: [container('main', app())],
      };
    case 'init-mixed':
      // sidecar, then a regular init container that runs beside it, then another sidecar
      return {
        initContainers: [
          sidecar(r, 'proxy', r.chance(0.3)),
          container('migrate', { cpu: milli(r, 500, 3000), memory: mebi(r, 256, 4096) }),
          sidecar(r, 'agent', false),
        ],
        containers: [container('main', app())],
      };
    case 'pod-level': {
      const cpu = r.int(4, 30) * 100;
      const mem = r.int(4, 40) * 128;
      const resources = {};
      const shape = r.int(0, 3);
      if (shape === 0) resources.requests = { cpu: `${cpu}m`, memory: `${mem}Mi` };
      else if (shape === 1) resources.limits = { cpu: `${cpu}m`, memory: `${mem}Mi` };
      else if (shape === 2) resources.requests = { cpu: `${cpu}m` };
      else resources.requests = { memory: `${mem}Mi` };
      const containers = [container('main', r.chance(0.5) ? { cpu: `${Math.floor(cpu / 2)}m` } : null)];
      if (r.chance(0.4)) containers.push(container('helper', null));
      const spec = { resources, containers };
      if (r.chance(0.3)) spec.initContainers = [sidecar(r, 'proxy', false)];
      if (spec.initContainers && spec.initContainers[0].resources) {
        // keep the aggregate container requests within the pod-level ones (validation)
        spec.initContainers[0].resources = { requests: { cpu: '50m' } };
      }
      return spec;
    }
    case 'overhead':
      return {
        overhead: { cpu: milli(r, 100, 500), memory: mebi(r, 64, 256) },
        containers: [container('main', app())],
      };
    case 'no-requests':
      return { containers: [container('main', null)] };
    case 'limits-only':
      return {
        containers: [
          {
            name: 'main',
            image: IMAGE,
            resources: { limits: { cpu: milli(r, 200, 1500), memory: mebi(r, 256, 2048) } },
          },
        ],
      };
    case 'hostport': {
      const spec = {
        containers: [
          container('main', app(), {
            ports: [{ containerPort: 8080, hostPort: r.pick([8080, 9100]), protocol: 'TCP' }],
          }),
        ],
      };
      if (r.chance(0.3)) {
        // a regular init container's host port is not held while the pod runs
        spec.initContainers = [
          container(
            'fetch',
            { cpu: '100m' },
            { ports: [{ containerPort: 9200, hostPort: 9200, protocol: 'TCP' }] },
          ),
        ];
      }
      return spec;
    }
    case 'host-network':
      // with host networking the container port is the host port (v1 defaulting)
      return {
        hostNetwork: true,
        initContainers: r.chance(0.5) ? [sidecar(r, 'proxy', false)] : undefined,
        containers: [
          container('main', app(), {
            ports: [{ containerPort: r.pick([8080, 9100, 9200]), protocol: 'TCP' }],
          }),
        ],
      };
    case 'ephemeral':
      return {
        containers: [
          container('main', { cpu: milli(r, 100, 800), 'ephemeral-storage': `${r.int(1, 30)}Gi` }),
        ],
      };
    case 'hugepages': {
      // hugepages need limits (requests default to them); sometimes at pod level instead
      const hp = r.pick(['128Mi', '256Mi', '512Mi']);
      if (r.chance(0.5)) {
        const c = container('main', null);
        c.resources = {
          requests: { cpu: milli(r, 100, 800), memory: '256Mi' },
          limits: { 'hugepages-2Mi': hp, memory: '256Mi' },
        };
        return { containers: [c] };
      }
      return {
        resources: {
          requests: { cpu: milli(r, 300, 1500), memory: '512Mi' },
          limits: { memory: '1Gi', 'hugepages-2Mi': hp },
        },
        containers: [container('main', { cpu: '100m' })],
      };
    }
    case 'extended':
      return {
        containers: [
          container('main', { cpu: milli(r, 100, 800), 'example.com/foo': String(r.int(1, 2)) }, {}),
        ],
      };
    default:
      throw new Error(kind);
  }
}

const REQUEST_KINDS = [
  'sidecar',
  'sidecar',
  'init-large',
  'init-mixed',
  'pod-level',
  'pod-level',
  'overhead',
  'no-requests',
  'limits-only',
  'hostport',
  'host-network',
  'ephemeral',
  'extended',
  'hugepages',
];

/** A running pod resized in place: spec says one thing, the status reports another. */
function resizedPod(r, name, node) {
  const specCpu = r.int(2, 20) * 100;
  const specMem = r.int(2, 24) * 128;
  const allocCpu = r.int(2, 20) * 100;
  const allocMem = r.int(2, 24) * 128;
  const actualCpu = r.pick([allocCpu, specCpu, r.int(2, 20) * 100]);
  const withSidecar = r.chance(0.3);
  const spec = { containers: [container('main', { cpu: `${specCpu}m`, memory: `${specMem}Mi` })] };
  const statuses = [
    {
      name: 'main',
      ready: true,
      restartCount: 0,
      image: IMAGE,
      imageID: '',
      allocatedResources: { cpu: `${allocCpu}m`, memory: `${allocMem}Mi` },
      resources: { requests: { cpu: `${actualCpu}m`, memory: `${allocMem}Mi` } },
    },
  ];
  if (r.chance(0.3)) delete statuses[0].allocatedResources;
  if (r.chance(0.2)) delete statuses[0].resources;
  const status = { containerStatuses: statuses };
  if (withSidecar) {
    const sc = r.int(1, 6) * 100;
    spec.initContainers = [
      container('proxy', { cpu: `${sc}m`, memory: '128Mi' }, { restartPolicy: 'Always' }),
    ];
    status.initContainerStatuses = [
      {
        name: 'proxy',
        ready: true,
        restartCount: 0,
        image: IMAGE,
        imageID: '',
        started: true,
        allocatedResources: { cpu: `${r.int(1, 6) * 100}m`, memory: '128Mi' },
        resources: { requests: { cpu: `${r.int(1, 6) * 100}m`, memory: '128Mi' } },
      },
    ];
  }
  const cond = r.int(0, 3);
  if (cond === 0)
    status.conditions = [
      {
        type: 'PodResizePending',
        status: 'True',
        reason: 'Infeasible',
        message: "Node didn't have enough capacity",
      },
    ];
  else if (cond === 1) status.conditions = [{ type: 'PodResizePending', status: 'True', reason: 'Deferred' }];
  else if (cond === 2) status.conditions = [{ type: 'PodResizeInProgress', status: 'True' }];
  return pod(name, {
    labels: { app: 'resized' },
    node,
    priorityClassName: r.pick(['low', undefined]),
    spec,
    status,
  });
}

/**
 * A running pod with pod-level resources resized in place: pod-level spec requests, and the
 * pod-level status.allocatedResources / status.resources the kubelet reports (counted with
 * InPlacePodLevelResourcesVerticalScaling, on from 1.36).
 */
function resizedPodLevelPod(r, name, node) {
  const q = () => ({ cpu: `${r.int(2, 20) * 100}m`, memory: `${r.int(2, 24) * 128}Mi` });
  const spec = {
    resources: { requests: q() },
    containers: [container('main', null), container('helper', null)],
  };
  const status = {};
  if (r.chance(0.8)) status.allocatedResources = q();
  if (r.chance(0.8)) status.resources = { requests: q() };
  if (r.chance(0.5)) {
    status.containerStatuses = [
      {
        name: 'main',
        ready: true,
        restartCount: 0,
        image: IMAGE,
        imageID: '',
        allocatedResources: { cpu: `${r.int(1, 5) * 100}m` },
      },
    ];
  }
  const cond = r.int(0, 2);
  if (cond === 0) status.conditions = [{ type: 'PodResizePending', status: 'True', reason: 'Infeasible' }];
  else if (cond === 1) status.conditions = [{ type: 'PodResizeInProgress', status: 'True' }];
  return pod(name, {
    labels: { app: 'resized' },
    node,
    priorityClassName: r.pick(['low', undefined]),
    spec,
    status,
  });
}

function genRequests(seed) {
  const r = rng(seed * 31 + 7);
  const zones = ZONES.slice(0, r.int(1, 3));
  const nodes = makeNodes(r, r.int(3, 6), zones, {
    ephemeral: r.chance(0.5),
    extended: true,
    hugepages: true,
    taintChance: 0.1,
  });
  const items = [...priorityClasses(r), ...nodes];
  const running = [];
  const nRun = r.int(1, 6);
  for (let i = 0; i < nRun; i++) {
    const node = r.pick(nodes).metadata.name;
    const roll = r.next();
    if (roll < 0.3) running.push(resizedPod(r, `resized-${i}`, node));
    else if (roll < 0.45) running.push(resizedPodLevelPod(r, `resized-${i}`, node));
    else {
      const kind = r.pick(REQUEST_KINDS.filter((k) => k !== 'ephemeral' && k !== 'extended'));
      running.push(
        pod(`run-${i}`, {
          labels: { app: r.pick(APPS) },
          node,
          priorityClassName: r.pick(['low', 'medium', undefined]),
          spec: requestsPodSpec(r, kind),
        }),
      );
    }
  }
  items.push(...running);
  const nPend = r.int(3, 8);
  for (let i = 0; i < nPend; i++) {
    const kind = r.pick(REQUEST_KINDS);
    const spec = requestsPodSpec(r, kind);
    if (r.chance(0.2)) spec.tolerations = [toleration(r)];
    items.push(
      pod(`${kind}-${i}`, {
        labels: { app: r.pick(APPS) },
        priorityClassName: r.pick(['low', 'medium', 'high', undefined, undefined]),
        spec,
      }),
    );
  }
  return wrap(
    'requests',
    seed,
    `requests-${nodes.length}n-${zones.length}z-${running.length}r-${nPend}p`,
    items,
  );
}

// ---------------------------------------------------------------- gates

function genGates(seed) {
  const r = rng(seed * 37 + 11);
  const zones = ZONES.slice(0, r.int(1, 3));
  const nodes = makeNodes(r, r.int(2, 6), zones, { cpu: r.pick(['2', '4']) });
  const items = [
    ...priorityClasses(r, { globalDefault: true }),
    ...nodes,
    ...fillerPods(r, nodes, r.int(0, 5)),
  ];
  const nPend = r.int(3, 9);
  let gated = 0;
  for (let i = 0; i < nPend; i++) {
    const isGated = r.chance(0.4);
    const spec = {
      containers: [container('main', { cpu: milli(r, 200, 2000), memory: mebi(r, 128, 2048) })],
    };
    if (isGated) {
      gated++;
      spec.schedulingGates = r.sample(
        [
          { name: 'example.com/quota' },
          { name: 'example.com/image-ready' },
          { name: 'scheduling.example.com/wait' },
        ],
        r.int(1, 2),
      );
    }
    const app = r.pick(APPS);
    if (r.chance(0.3)) {
      spec.affinity = {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      };
    }
    if (r.chance(0.2)) spec.nodeSelector = { disktype: 'ssd' };
    items.push(
      pod(`${isGated ? 'gated' : 'ready'}-${i}`, {
        labels: { app },
        priorityClassName: r.pick(['low', 'medium', 'high', undefined]),
        spec,
      }),
    );
  }
  return wrap('gates', seed, `gates-${nodes.length}n-${zones.length}z-${nPend}p-${gated}g`, items);
}

// ---------------------------------------------------------------- csi-capacity

const DRIVER = 'disk.csi.example.com';
const LOCAL = 'local.csi.example.com';

function genCsiCapacity(seed) {
  const r = rng(seed * 41 + 13);
  const zones = ZONES.slice(0, r.int(1, 3));
  const nodes = makeNodes(r, r.int(2, 5), zones, { taintChance: 0.05, unschedulableChance: 0 });
  const items = [...priorityClasses(r), ...nodes];
  const capacityOn = r.chance(0.85);
  items.push({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIDriver',
    metadata: { name: DRIVER },
    spec: { storageCapacity: capacityOn, attachRequired: true },
  });
  items.push({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'CSIDriver',
    metadata: { name: LOCAL },
    spec: { storageCapacity: true, attachRequired: false },
  });
  const classes = ['zonal', 'local'];
  items.push({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name: 'zonal',
      ...(r.chance(0.5) ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}),
    },
    provisioner: DRIVER,
    volumeBindingMode: 'WaitForFirstConsumer',
    reclaimPolicy: 'Delete',
  });
  items.push({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name: 'local' },
    provisioner: LOCAL,
    volumeBindingMode: 'WaitForFirstConsumer',
    reclaimPolicy: 'Delete',
  });
  if (r.chance(0.3)) {
    classes.push('fast');
    items.push({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'fast' },
      provisioner: DRIVER,
      parameters: { type: 'ssd' },
      volumeBindingMode: 'WaitForFirstConsumer',
    });
  }
  for (const n of nodes) {
    const name = n.metadata.name;
    items.push({
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name },
      spec: {
        drivers: [
          { name: DRIVER, nodeID: name, topologyKeys: ['topology.kubernetes.io/zone'] },
          { name: LOCAL, nodeID: name, topologyKeys: ['kubernetes.io/hostname'] },
        ],
      },
    });
  }
  // Capacity objects: per zone for the zonal driver, per node for the local one; some missing.
  let capIdx = 0;
  const cap = (className, key, value, capacity, maximumVolumeSize) => {
    const o = {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: { name: `csisc-${capIdx++}`, namespace: r.pick(['kube-system', 'default']) },
      storageClassName: className,
      nodeTopology: { matchLabels: { [key]: value } },
    };
    if (capacity !== undefined) o.capacity = capacity;
    if (maximumVolumeSize !== undefined) o.maximumVolumeSize = maximumVolumeSize;
    items.push(o);
  };
  for (const z of zones) {
    if (r.chance(0.85))
      cap(
        'zonal',
        'topology.kubernetes.io/zone',
        z,
        r.pick(['5Gi', '20Gi', '100Gi', '1Gi']),
        r.chance(0.3) ? r.pick(['8Gi', '50Gi']) : undefined,
      );
    if (classes.includes('fast') && r.chance(0.7))
      cap('fast', 'topology.kubernetes.io/zone', z, r.pick(['10Gi', '2Gi']));
  }
  for (const n of nodes) {
    if (r.chance(0.8))
      cap('local', 'kubernetes.io/hostname', n.metadata.name, r.pick(['10Gi', '30Gi', '3Gi', '0']));
  }
  if (r.chance(0.3)) {
    // a capacity with no topology match, and one for a class that does not exist
    cap('zonal', 'topology.kubernetes.io/zone', 'zone-x', '1Ti');
  }
  // Sometimes available local PVs (static binding wins over provisioning; scored by PV size).
  if (r.chance(0.35)) {
    for (let k = 0; k < r.int(1, 2); k++) {
      const n = r.pick(nodes).metadata.name;
      items.push({
        apiVersion: 'v1',
        kind: 'PersistentVolume',
        metadata: { name: `pv-local-${k}` },
        spec: {
          capacity: { storage: r.pick(['5Gi', '20Gi']) },
          accessModes: ['ReadWriteOnce'],
          persistentVolumeReclaimPolicy: 'Delete',
          storageClassName: 'local',
          csi: { driver: LOCAL, volumeHandle: `vol-${k}` },
          nodeAffinity: {
            required: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [n] }] },
              ],
            },
          },
        },
        status: { phase: 'Available' },
      });
    }
  }
  items.push(...fillerPods(r, nodes, r.int(0, 4)));
  const nPend = r.int(2, 5);
  const claims = [];
  const pods = [];
  for (let i = 0; i < nPend; i++) {
    const vols = [];
    const nClaims = r.chance(0.25) ? 2 : r.chance(0.85) ? 1 : 0;
    for (let k = 0; k < nClaims; k++) {
      const cname = `data-${i}-${k}`;
      const cls = r.pick(classes);
      const pvc = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: cname, namespace: 'default' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage: r.pick(['1Gi', '2Gi', '4Gi', '10Gi', '25Gi']) } },
        },
      };
      if (!(cls === 'zonal' && r.chance(0.3))) pvc.spec.storageClassName = cls;
      claims.push(pvc);
      vols.push({ name: `v${k}`, persistentVolumeClaim: { claimName: cname } });
    }
    const spec = {
      containers: [container('main', { cpu: milli(r, 100, 1000), memory: mebi(r, 128, 1024) })],
    };
    if (vols.length) spec.volumes = vols;
    if (r.chance(0.2)) spec.nodeSelector = { 'topology.kubernetes.io/zone': r.pick(zones) };
    pods.push(
      pod(`app-${i}`, {
        labels: { app: r.pick(APPS) },
        priorityClassName: r.pick(['low', 'medium', undefined]),
        spec,
      }),
    );
  }
  items.push(...claims, ...pods);
  return wrap(
    'csi-capacity',
    seed,
    `csi-capacity-${nodes.length}n-${zones.length}z-${claims.length}c-${nPend}p`,
    items,
  );
}

// ---------------------------------------------------------------- affinity-keys

function labelSelectorFor(r, app) {
  return r.pick([
    { matchLabels: { app } },
    { matchExpressions: [{ key: 'app', operator: 'In', values: [app] }] },
    {},
  ]);
}

function keyedTerm(r, app, topologyKey) {
  const t = { labelSelector: labelSelectorFor(r, app), topologyKey };
  const roll = r.int(0, 3);
  if (roll === 0 || roll === 3) t.matchLabelKeys = r.pick([['version'], ['team'], ['version', 'team']]);
  if (roll === 1 || roll === 3) t.mismatchLabelKeys = r.pick([['team'], ['tenant']]);
  if (roll === 2) t.matchLabelKeys = ['tenant'];
  if (r.chance(0.1)) delete t.labelSelector; // nil selector: matches nothing, keys are not applied
  if (r.chance(0.2)) t.namespaces = r.pick([['default'], ['team-a'], ['default', 'team-a']]);
  return t;
}

function keyedLabels(r, app) {
  const labels = { app };
  if (r.chance(0.8)) labels.version = r.pick(['v1', 'v2']);
  if (r.chance(0.8)) labels.team = r.pick(TEAMS);
  if (r.chance(0.4)) labels.tenant = r.pick(['t1', 't2']);
  return labels;
}

function genAffinityKeys(seed) {
  const r = rng(seed * 43 + 17);
  const zones = ZONES.slice(0, r.int(2, 3));
  const nodes = makeNodes(r, r.int(3, 7), zones, { cpu: '8', memory: '16Gi', pods: '110', taintChance: 0.1 });
  const items = [...priorityClasses(r), ...nodes];
  const apps = APPS.slice(0, r.int(2, 3));
  const nRun = r.int(2, 9);
  for (let i = 0; i < nRun; i++) {
    const app = r.pick(apps);
    const spec = { containers: [container('main', { cpu: milli(r, 100, 800), memory: mebi(r, 128, 1024) })] };
    if (r.chance(0.3)) {
      spec.affinity = {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            keyedTerm(r, app, r.pick(['kubernetes.io/hostname', 'topology.kubernetes.io/zone'])),
          ],
        },
      };
    }
    items.push(
      pod(`run-${i}`, {
        ns: r.chance(0.25) ? 'team-a' : 'default',
        labels: keyedLabels(r, app),
        node: r.pick(nodes).metadata.name,
        spec,
      }),
    );
  }
  const nPend = r.int(3, 8);
  for (let i = 0; i < nPend; i++) {
    const app = r.pick(apps);
    const spec = { containers: [container('main', { cpu: milli(r, 100, 800), memory: mebi(r, 128, 1024) })] };
    const affinity = {};
    const which = r.int(0, 4);
    const topo = () => r.pick(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
    if (which === 0 || which === 4) {
      affinity.podAffinity = r.chance(0.5)
        ? { requiredDuringSchedulingIgnoredDuringExecution: [keyedTerm(r, r.pick(apps), topo())] }
        : {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: r.int(1, 100), podAffinityTerm: keyedTerm(r, r.pick(apps), topo()) },
            ],
          };
    }
    if (which === 1 || which === 4) {
      affinity.podAntiAffinity = r.chance(0.5)
        ? { requiredDuringSchedulingIgnoredDuringExecution: [keyedTerm(r, app, topo())] }
        : {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: r.int(1, 100), podAffinityTerm: keyedTerm(r, app, topo()) },
            ],
          };
    }
    if (Object.keys(affinity).length) spec.affinity = affinity;
    if (which === 2 || which === 3) {
      const c = {
        maxSkew: r.int(1, 2),
        topologyKey: topo(),
        whenUnsatisfiable: r.pick(['DoNotSchedule', 'ScheduleAnyway']),
        labelSelector: r.chance(0.9) ? { matchLabels: { app } } : undefined,
        matchLabelKeys: r.pick([['version'], ['team'], ['pod-template-hash'], ['version', 'team']]),
      };
      if (!c.labelSelector) delete c.labelSelector;
      spec.topologySpreadConstraints = [c];
    }
    items.push(
      pod(`pend-${i}`, {
        ns: r.chance(0.2) ? 'team-a' : 'default',
        labels: keyedLabels(r, app),
        priorityClassName: r.pick(['low', 'medium', undefined]),
        spec,
      }),
    );
  }
  return wrap(
    'affinity-keys',
    seed,
    `affinity-keys-${nodes.length}n-${zones.length}z-${nRun}r-${nPend}p`,
    items,
  );
}

// ---------------------------------------------------------------- spread-policies

function genSpreadPolicies(seed) {
  const r = rng(seed * 47 + 19);
  const zones = ZONES.slice(0, r.int(2, 3));
  const nodes = makeNodes(r, r.int(3, 8), zones, {
    cpu: '8',
    memory: '16Gi',
    pool: true,
    taintChance: 0.25,
    unschedulableChance: 0.05,
  });
  // some nodes without a zone label (missing required label)
  if (r.chance(0.2)) delete r.pick(nodes).metadata.labels['topology.kubernetes.io/zone'];
  const items = [...priorityClasses(r), ...nodes];
  const app = r.pick(APPS);
  const nRun = r.int(0, 8);
  for (let i = 0; i < nRun; i++) {
    items.push(
      pod(`run-${i}`, {
        labels: { app: r.chance(0.7) ? app : r.pick(APPS) },
        node: r.pick(nodes).metadata.name,
        spec: { containers: [container('main', { cpu: milli(r, 100, 1000), memory: mebi(r, 128, 1024) })] },
      }),
    );
  }
  const nPend = r.int(3, 9);
  for (let i = 0; i < nPend; i++) {
    const nc = r.chance(0.3) ? 2 : 1;
    const constraints = [];
    const keys = r.sample(['topology.kubernetes.io/zone', 'kubernetes.io/hostname'], nc);
    for (const topologyKey of keys) {
      const c = {
        maxSkew: r.int(1, 3),
        topologyKey,
        whenUnsatisfiable: r.pick(['DoNotSchedule', 'DoNotSchedule', 'ScheduleAnyway']),
        labelSelector: { matchLabels: { app } },
      };
      if (r.chance(0.5)) c.nodeAffinityPolicy = r.pick(['Honor', 'Ignore']);
      if (r.chance(0.5)) c.nodeTaintsPolicy = r.pick(['Honor', 'Ignore']);
      if (c.whenUnsatisfiable === 'DoNotSchedule' && r.chance(0.4)) c.minDomains = r.int(2, 5);
      constraints.push(c);
    }
    const spec = {
      containers: [container('main', { cpu: milli(r, 100, 1500), memory: mebi(r, 128, 1024) })],
      topologySpreadConstraints: constraints,
    };
    if (r.chance(0.4)) spec.nodeSelector = { pool: 'general' };
    else if (r.chance(0.25)) {
      spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'disktype', operator: r.pick(['In', 'NotIn']), values: ['ssd'] }] },
            ],
          },
        },
      };
    }
    if (r.chance(0.3)) spec.tolerations = [toleration(r)];
    items.push(
      pod(`spread-${i}`, { labels: { app }, priorityClassName: r.pick(['low', 'medium', undefined]), spec }),
    );
  }
  return wrap(
    'spread-policies',
    seed,
    `spread-policies-${nodes.length}n-${zones.length}z-${nRun}r-${nPend}p`,
    items,
  );
}

// ---------------------------------------------------------------- preemption

function genPreemption(seed) {
  const r = rng(seed * 53 + 23);
  const zones = ZONES.slice(0, r.int(1, 3));
  const nNodes = r.int(2, 5);
  const nodes = makeNodes(r, nNodes, zones, {
    cpu: r.pick(['2', '4']),
    memory: '8Gi',
    pods: r.pick(['110', '6']),
    taintChance: 0.1,
    unschedulableChance: 0.03,
  });
  const items = [...priorityClasses(r), ...nodes];
  // Extra priority levels.
  items.push({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'lowest' },
    value: -10,
  });
  items.push({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'critical' },
    value: 1000000,
  });
  const prios = ['lowest', 'low', 'low', 'medium', 'high', undefined];
  const running = [];
  const nRun = r.int(nNodes * 2, nNodes * 4);
  for (let i = 0; i < nRun; i++) {
    const app = r.pick(APPS);
    const spec = {
      containers: [container('main', { cpu: milli(r, 200, 1200, 100), memory: mebi(r, 256, 2048, 256) })],
    };
    if (r.chance(0.1)) spec.containers[0].ports = [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }];
    const shape = r.next();
    if (shape < 0.1) {
      // pod-level requests: the victim frees those, not its containers' sum
      spec.resources = { requests: { cpu: milli(r, 300, 1500, 100), memory: mebi(r, 512, 2048, 256) } };
      spec.containers[0].resources = { requests: { cpu: '100m' } };
    } else if (shape < 0.3) {
      // resized in place: the status reports more (or less) than the spec
      const v = resizedPod(r, `victim-${i}`, r.pick(nodes).metadata.name);
      const pc = r.pick(prios);
      if (pc) v.spec.priorityClassName = pc;
      else delete v.spec.priorityClassName;
      v.metadata.labels = { app };
      running.push(v);
      continue;
    } else if (shape < 0.4) {
      spec.initContainers = [
        container('proxy', { cpu: milli(r, 100, 500, 100), memory: '128Mi' }, { restartPolicy: 'Always' }),
      ];
    }
    running.push(
      pod(`victim-${i}`, {
        labels: { app },
        node: r.pick(nodes).metadata.name,
        priorityClassName: r.pick(prios),
        spec,
      }),
    );
  }
  items.push(...running);
  const nPdb = r.int(0, 3);
  for (let i = 0; i < nPdb; i++) {
    const app = APPS[i];
    const pdb = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: `pdb-${app}`, namespace: 'default' },
      spec: { minAvailable: 1, selector: { matchLabels: { app } } },
      status: {
        disruptionsAllowed: r.int(0, 2),
        currentHealthy: 2,
        desiredHealthy: 1,
        expectedPods: 3,
        observedGeneration: 1,
      },
    };
    if (r.chance(0.2)) {
      const some = running.find((p) => p.metadata.labels.app === app);
      if (some) pdb.status.disruptedPods = { [some.metadata.name]: '2029-12-31T23:00:00Z' };
    }
    items.push(pdb);
  }
  const nPend = r.int(2, 6);
  for (let i = 0; i < nPend; i++) {
    const pc = r.pick(['high', 'high', 'critical', 'high-nonpreempting', 'medium', 'low']);
    const spec = {
      containers: [container('main', { cpu: milli(r, 500, 2500, 100), memory: mebi(r, 256, 4096, 256) })],
    };
    if (r.chance(0.1)) spec.containers[0].ports = [{ containerPort: 80, hostPort: 80, protocol: 'TCP' }];
    if (r.chance(0.15)) spec.nodeSelector = { disktype: 'ssd' };
    if (r.chance(0.1)) spec.tolerations = [toleration(r)];
    if (r.chance(0.15)) {
      spec.affinity = {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: r.pick(APPS) } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      };
    }
    items.push(pod(`preemptor-${i}`, { labels: { app: r.pick(APPS) }, priorityClassName: pc, spec }));
  }
  return wrap(
    'preemption',
    seed,
    `preemption-${nodes.length}n-${zones.length}z-${nRun}r-${nPdb}pdb-${nPend}p`,
    items,
    {
      preemption: true,
    },
  );
}

const GENERATORS = {
  requests: genRequests,
  gates: genGates,
  'csi-capacity': genCsiCapacity,
  'affinity-keys': genAffinityKeys,
  'spread-policies': genSpreadPolicies,
  preemption: genPreemption,
};

/** One case (without expected) for the family and seed. */
function genFeatureCase(family, seed) {
  const g = GENERATORS[family];
  if (!g) throw new Error(`unknown family ${family} (one of ${FAMILIES.join(', ')})`);
  startSecond = 0;
  return g(seed);
}

function main(argv) {
  const arg = (k) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const family = arg('--family');
  if (!family) throw new Error(`--family (${FAMILIES.join(', ')})`);
  if (arg('--seed')) {
    process.stdout.write(JSON.stringify(genFeatureCase(family, Number(arg('--seed'))), null, 1) + '\n');
    return;
  }
  const from = Number(arg('--from') ?? FIRST_SEED[family]);
  const count = Number(arg('--count') ?? 30);
  const out = arg('--out');
  if (!out) throw new Error('--out DIR');
  fs.mkdirSync(out, { recursive: true });
  for (let s = from; s < from + count; s++) {
    fs.writeFileSync(path.join(out, `case-${s}.json`), JSON.stringify(genFeatureCase(family, s)) + '\n');
  }
}

module.exports = { genFeatureCase, FAMILIES, FIRST_SEED, GENERATOR_VERSION, rng };
if (require.main === module) main(process.argv.slice(2));
