#!/usr/bin/env node
/**
 * DRA golden-case inputs (family "dra") in the format of ../shared/conformance/generator/README.md,
 * for the oracle to record (docs/oracle.md). Deterministic per seed and GENERATOR_VERSION.
 *
 *   node tools/dra-cases/gen.cjs --seed 5            # one case input on stdout
 *   node tools/dra-cases/gen.cjs --from 1 --count 40 --out DIR
 *
 * Inputs are built so that upstream's own choice is deterministic: the 1.34 allocator visits
 * pools in Go map order and a pool's slices in informer order, so every node sees at most one
 * pool per driver and every pool has one current slice (an outdated generation may sit beside it).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
// The feature families' seeded stream (mulberry32 with int/pick/chance), not a second copy of it.
const { rng } = require('../feature-cases/gen.cjs');

const GENERATOR_VERSION = 1;
const GPU = 'gpu.example.com';
const NIC = 'nic.example.com';

const MODELS = ['a100', 'h100', 'l4'];
const MEMORY = { a100: ['40Gi', '80Gi'], h100: ['80Gi'], l4: ['24Gi'] };

function gen(seed) {
  const r = rng(seed * 7919 + 17);
  // Upstream's Filter returns an Error (not a verdict) for allocationMode All over an
  // incomplete pool, so a case has one or the other.
  const useAll = r.chance(0.4);
  const zones = r.int(1, 2) === 1 ? ['zone-a'] : ['zone-a', 'zone-b'];
  const nNodes = r.int(2, 6);
  const items = [];
  items.push({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: 'high' },
    value: 1000,
  });
  const nodes = [];
  for (let i = 1; i <= nNodes; i++) {
    const name = `node-${String(i).padStart(2, '0')}`;
    const zone = zones[(i - 1) % zones.length];
    nodes.push({ name, zone });
    items.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'topology.kubernetes.io/zone': zone,
        },
      },
      spec: {},
      status: {
        capacity: { cpu: '16', memory: '64Gi', pods: '110' },
        allocatable: { cpu: '16', memory: '64Gi', pods: '110' },
      },
    });
  }
  // Device classes: CEL on the driver, one with an attribute selector, one with config.
  items.push(deviceClass('gpu', [`device.driver == "${GPU}"`]));
  items.push(
    deviceClass('gpu-large', [
      `device.driver == "${GPU}"`,
      `device.capacity["${GPU}"].memory.compareTo(quantity("80Gi")) >= 0`,
    ]),
  );
  items.push({
    ...deviceClass('nic', [`device.driver == "${NIC}"`]),
    spec: {
      selectors: [{ cel: { expression: `device.driver == "${NIC}"` } }],
      config: [{ opaque: { driver: NIC, parameters: { mtu: 9000 } } }],
    },
  });
  // Per-node GPU slices: pool = node name.
  const devicesByNode = {};
  for (const n of nodes) {
    if (r.chance(0.2)) continue; // no GPUs
    const model = r.pick(MODELS);
    const count = r.int(1, 4);
    const devices = [];
    for (let d = 0; d < count; d++) {
      const mem = r.pick(MEMORY[model]);
      const attrs = { model: { string: model }, index: { int: d } };
      if (r.chance(0.5)) attrs[`${GPU}/numa`] = { int: d % 2 };
      if (r.chance(0.3)) attrs.mig = { bool: r.chance(0.5) };
      if (r.chance(0.3)) attrs.driverVersion = { version: r.pick(['1.2.0', '1.10.3', '2.0.0']) };
      devices.push({ name: `gpu-${d}`, attributes: attrs, capacity: { memory: { value: mem } } });
    }
    devicesByNode[n.name] = devices;
    const incomplete = !useAll && r.chance(0.15);
    const outdated = r.chance(0.15);
    if (outdated) {
      items.push(
        slice(
          `${n.name}-gpu-old`,
          GPU,
          n.name,
          1,
          1,
          { nodeName: n.name },
          devices.concat([{ name: 'gpu-9', attributes: { model: { string: model } } }]),
        ),
      );
    }
    items.push(
      slice(
        `${n.name}-gpu`,
        GPU,
        n.name,
        outdated ? 2 : 1,
        incomplete ? 2 : 1,
        { nodeName: n.name },
        devices,
      ),
    );
  }
  // Network devices: one pool per zone (node selector) or one for all nodes.
  const nicPerZone = r.chance(0.5);
  const nicPools = nicPerZone
    ? zones.map((z) => ({
        pool: `fabric-${z}`,
        sel: {
          nodeSelector: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [z] }] },
            ],
          },
        },
      }))
    : [{ pool: 'fabric', sel: { allNodes: true } }];
  if (r.chance(0.8)) {
    for (const p of nicPools) {
      const devs = [];
      for (let d = 0; d < r.int(1, 3); d++)
        devs.push({ name: `nic-${d}`, attributes: { speed: { int: r.pick([10, 100]) } } });
      items.push(slice(`${p.pool}-nic`, NIC, p.pool, 1, 1, p.sel, devs));
    }
  }
  // Claims and pods.
  const claims = [];
  const pods = [];
  const nClaims = r.int(2, 7);
  for (let c = 0; c < nClaims; c++) claims.push(claimSpec(r, `claim-${c}`, useAll));
  // Pre-allocated claims held by running pods.
  const inUse = new Set();
  let running = 0;
  for (const n of nodes) {
    const devices = devicesByNode[n.name];
    if (!devices || !r.chance(0.35)) continue;
    const dev = devices[0];
    if (inUse.has(`${n.name}/${dev.name}`)) continue;
    inUse.add(`${n.name}/${dev.name}`);
    const claimName = `held-${n.name}`;
    const podName = `runner-${running++}`;
    const uid = `uid-pod-default-${podName}`;
    const shared = r.chance(0.5);
    claims.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: claimName, namespace: 'default' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } },
      status: {
        allocation: {
          devices: { results: [{ request: 'gpu', driver: GPU, pool: n.name, device: dev.name }] },
          nodeSelector: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: [n.name] }] },
            ],
          },
        },
        reservedFor: [{ resource: 'pods', name: podName, uid }],
      },
    });
    pods.push(pod(podName, n.name, [claimName], '1', undefined, uid));
    if (shared) pods.push(pod(`sharer-${n.name}`, undefined, [claimName], '500m'));
  }
  const names = claims.filter((c) => !c.status).map((c) => c.metadata.name);
  const nPending = r.int(2, 8);
  const used = new Set();
  for (let p = 0; p < nPending; p++) {
    const refs = [];
    const k = r.chance(0.2) ? 0 : r.chance(0.25) ? 2 : 1;
    for (let j = 0; j < k && names.length; j++) {
      const name = r.pick(names);
      // Mostly one pod per claim; sometimes a claim shared by two pending pods.
      if (used.has(name) && !r.chance(0.3)) continue;
      if (refs.includes(name)) continue;
      used.add(name);
      refs.push(name);
    }
    pods.push(
      pod(`job-${p}`, undefined, refs, r.pick(['500m', '1', '2']), r.chance(0.2) ? 'high' : undefined),
    );
  }
  items.push(...claims, ...pods);
  const pending = pods.filter((p) => !p.spec.nodeName).length;
  return {
    name: `dra-${nNodes}n-${zones.length}z-${claims.length}c-${pending}p`,
    family: 'dra',
    seed,
    generatorVersion: GENERATOR_VERSION,
    config: {
      percentageOfNodesToScore: 100,
      tieBreak: 'lowest-node-name',
      order: 'priority-desc-then-list-order',
    },
    input: { apiVersion: 'v1', kind: 'List', metadata: {}, items },
  };
}

function deviceClass(name, exprs) {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name },
    spec: { selectors: exprs.map((expression) => ({ cel: { expression } })) },
  };
}

function slice(name, driver, pool, generation, count, where, devices) {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name },
    spec: { driver, pool: { name: pool, generation, resourceSliceCount: count }, ...where, devices },
  };
}

const CLAIM_SELECTORS = [
  `device.attributes["${GPU}"].model == "a100"`,
  `device.attributes["${GPU}"].model != "l4"`,
  `device.capacity["${GPU}"].memory.compareTo(quantity("40Gi")) > 0`,
  `device.attributes["${GPU}"].index >= 1`,
  `"${GPU}/numa" in device.attributes && device.attributes["${GPU}"].numa == 0`,
  `!("mig" in device.attributes["${GPU}"]) || device.attributes["${GPU}"].mig == false`,
];

function claimSpec(r, name, useAll) {
  const requests = [];
  const constraints = [];
  const shape = r.int(0, 9);
  const gpuReq = (rname) => {
    const exactly = { deviceClassName: r.chance(0.2) ? 'gpu-large' : 'gpu' };
    if (useAll && r.chance(0.25)) exactly.allocationMode = 'All';
    else if (r.chance(0.35)) exactly.count = r.int(2, 3);
    if (r.chance(0.4)) exactly.selectors = [{ cel: { expression: r.pick(CLAIM_SELECTORS) } }];
    return { name: rname, exactly };
  };
  if (shape <= 3) requests.push(gpuReq('gpu'));
  else if (shape <= 5) {
    requests.push(gpuReq('gpu-a'), gpuReq('gpu-b'));
    if (r.chance(0.7)) constraints.push({ requests: ['gpu-a', 'gpu-b'], matchAttribute: `${GPU}/model` });
  } else if (shape === 6) {
    requests.push(gpuReq('gpu'), { name: 'nic', exactly: { deviceClassName: 'nic' } });
  } else if (shape === 7) {
    requests.push({
      name: 'gpu',
      firstAvailable: [
        { name: 'large', deviceClassName: 'gpu-large' },
        { name: 'two', deviceClassName: 'gpu', count: 2 },
        { name: 'one', deviceClassName: 'gpu' },
      ],
    });
  } else if (shape === 8) {
    requests.push({ name: 'nic', exactly: { deviceClassName: 'nic', count: r.int(1, 2) } });
  } else {
    requests.push({ name: 'gpu', exactly: { deviceClassName: r.chance(0.5) ? 'tpu' : 'gpu', count: 1 } });
  }
  const devices = { requests };
  if (constraints.length) devices.constraints = constraints;
  if (r.chance(0.1))
    devices.config = [
      { requests: [requests[0].name], opaque: { driver: GPU, parameters: { sharing: 'time-slicing' } } },
    ];
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: { name, namespace: 'default' },
    spec: { devices },
  };
}

function pod(name, nodeName, claimNames, cpu, priorityClassName, uid) {
  const p = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name.split('-')[0] } },
    spec: {
      containers: [
        {
          name: 'c0',
          image: 'registry.example.com/ml/train:1',
          resources: { requests: { cpu, memory: '1Gi' } },
        },
      ],
    },
  };
  if (uid) p.metadata.uid = uid;
  if (nodeName) p.spec.nodeName = nodeName;
  if (priorityClassName) p.spec.priorityClassName = priorityClassName;
  if (claimNames.length) {
    p.spec.resourceClaims = claimNames.map((c, i) => ({ name: `rc-${i}`, resourceClaimName: c }));
    p.spec.containers[0].resources.claims = claimNames.map((_, i) => ({ name: `rc-${i}` }));
  }
  if (nodeName) p.status = { phase: 'Running', startTime: '2029-12-31T00:00:00Z' };
  return p;
}

function main(argv) {
  const arg = (k) => {
    const i = argv.indexOf(k);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  if (arg('--seed')) {
    process.stdout.write(JSON.stringify(gen(Number(arg('--seed'))), null, 1) + '\n');
    return;
  }
  const from = Number(arg('--from') ?? 1);
  const count = Number(arg('--count') ?? 40);
  const out = arg('--out');
  if (!out) throw new Error('--out DIR');
  fs.mkdirSync(out, { recursive: true });
  for (let s = from; s < from + count; s++) {
    fs.writeFileSync(path.join(out, `case-${s}.json`), JSON.stringify(gen(s)) + '\n');
  }
}

module.exports = { gen, GENERATOR_VERSION };
if (require.main === module) main(process.argv.slice(2));
