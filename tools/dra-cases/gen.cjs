#!/usr/bin/env node
/**
 * DRA golden-case inputs (family "dra") in the format of ../shared/conformance/generator/README.md,
 * for the oracle to record (docs/oracle.md). Deterministic per seed and GENERATOR_VERSION.
 *
 *   node tools/dra-cases/gen.cjs --seed 5            # one case input on stdout
 *   node tools/dra-cases/gen.cjs --from 1 --count 40 --out DIR
 *
 * Seeds from TEMPLATE_SEEDS on add ResourceClaimTemplates to the same clusters (drawn from a
 * second stream, so the seed's base cluster is the one seeds 1–60 would draw): pods generating
 * their claims from templates (a ReplicaSet's replicas sharing one, long names the controller
 * truncates, a template that does not exist), a pod whose status already names its generated
 * claim, one naming a claim it does not own, one with an orphaned generated claim to adopt.
 * Seeds from TAINT_SEEDS on taint devices instead (DRADeviceTaints: NoSchedule, NoExecute, None)
 * and give some requests tolerations (Exists or Equal, with or without key and effect).
 * Seeds from PARTITION_SEEDS on draw partitionable devices and consumable capacity instead
 * (DRAPartitionableDevices, DRAConsumableCapacity; on from 1.36): GPUs split into partitions that
 * consume a physical GPU's counters (a counter slice beside the device slice, sometimes a counter
 * missing: an invalid pool), a tray pool with per-device node selection, NICs allocated several
 * times with bandwidth capacity and request policies, running pods holding a whole GPU (all its
 * counters) or a bandwidth share, and requests with capacity requests.
 *
 * Seeds from TAINT_RULE_SEEDS on taint devices through DeviceTaintRules instead
 * (DRADeviceTaintRules, on from 1.37; 1.36 and earlier ignore them): rules selecting by driver,
 * pool, device name or any mix of them, an empty selector (every device) and one without a
 * selector (no device), with the taint variant's taints and tolerations, some slices' devices
 * also carrying their own taints.
 *
 * Seeds from EXTENDED_SEEDS on serve extended resources through DRA instead (DRAExtendedResource,
 * beta on from 1.36, GA in 1.37): the gpu class maps `example.com/gpu` (sometimes a newer class
 * takes the name over), some nodes advertise it through a device plugin (allocatable, sometimes
 * "0") and some only through their slices, running pods hold it either way (on DRA nodes through
 * the claim the scheduler wrote for them, named in their status), and pending pods ask for it in
 * one or more containers, init containers and sidecars, by a class's implicit name
 * (`deviceclass.resource.kubernetes.io/<class>`), beside a resource nothing provides, or with a
 * claim left from an earlier cycle; some also have claims of their own (only where no node's
 * device plugin provides what they ask: upstream's PreBind fails there).
 *
 * Seeds from BINDING_SEEDS on give devices binding conditions instead (DRADeviceBindingConditions,
 * on from 1.36; before, such devices are never allocated): some per-node GPUs wait for conditions
 * (and a failure condition, sometimes `bindsToNode`), a composable GPU pool reachable from all
 * nodes or one zone has only such devices (upstream visits it after the pools without them), and
 * claims allocated on composable GPUs before the run, bound (conditions True), failed (a failure
 * condition True), timed out (allocated in 2020, conditions never reported) or still waiting,
 * used by pending pods and sometimes held by a running pod. The oracle stands in for the driver:
 * it reports the conditions True when the scheduler writes the claim (tools/oracle/dra.go).
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
/** Seeds from here on draw the template variant (seeds below keep their version-1 inputs). */
const TEMPLATE_SEEDS = 101;
/** Seeds from here on draw the device-taint variant instead. */
const TAINT_SEEDS = 201;
/** Seeds from here on draw the partitionable-devices and consumable-capacity variant instead. */
const PARTITION_SEEDS = 301;
/** Seeds from here on draw the DeviceTaintRule variant instead. */
const TAINT_RULE_SEEDS = 401;
/** Seeds from here on draw the DRA-backed extended resources variant instead. */
const EXTENDED_SEEDS = 501;
/** Seeds from here on draw the binding-conditions variant instead. */
const BINDING_SEEDS = 601;
const GPU = 'gpu.example.com';
const NIC = 'nic.example.com';

const MODELS = ['a100', 'h100', 'l4'];
const MEMORY = { a100: ['40Gi', '80Gi'], h100: ['80Gi'], l4: ['24Gi'] };

/** The inputs a seed draws: the claims cluster, plus templates or device taints. */
const VARIANTS = ['claims', 'templates', 'taints', 'partitions', 'taintrules', 'extended', 'binding'];

function variantOf(seed) {
  if (seed >= BINDING_SEEDS) return 'binding';
  if (seed >= EXTENDED_SEEDS) return 'extended';
  if (seed >= TAINT_RULE_SEEDS) return 'taintrules';
  if (seed >= PARTITION_SEEDS) return 'partitions';
  if (seed >= TAINT_SEEDS) return 'taints';
  return seed >= TEMPLATE_SEEDS ? 'templates' : 'claims';
}

function gen(seed, variant = variantOf(seed)) {
  const c = genClaims(seed);
  if (variant === 'taints') addTaints(c, rng(seed * 130363 + 5));
  else if (variant === 'taintrules') addTaintRules(c, rng(seed * 7919 + 11));
  else if (variant === 'binding') addBindingConditions(c, rng(seed * 6700417 + 13));
  else if (variant === 'partitions') addPartitions(c, rng(seed * 15485863 + 7));
  else if (variant === 'templates') addTemplates(c, rng(seed * 104729 + 3));
  else if (variant === 'extended') addExtendedResources(c, rng(seed * 2750159 + 13));
  return c;
}

function genClaims(seed) {
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

const TEMPLATE_REPLICA_SET = 'trainer-7d9f8c6b5';

/**
 * The template variant: templates with the claim shapes of claimSpec, pods created from them as
 * a controller would (no status yet), and the statuses the resourceclaim controller may have left.
 */
function addTemplates(c, r) {
  const items = c.input.items;
  const templates = [];
  const nTemplates = r.int(1, 3);
  for (let t = 0; t < nTemplates; t++) {
    const claim = claimSpec(r, `tmpl-${t}`, false);
    const spec = { spec: claim.spec };
    if (r.chance(0.4)) spec.metadata = { labels: { team: r.pick(['ml', 'infra']) } };
    templates.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: { name: `gpu-template-${t}`, namespace: 'default' },
      spec,
    });
  }
  const names = templates.map((t) => t.metadata.name);
  const pods = [];
  const withTemplates = (p, entries) => {
    p.spec.resourceClaims = [...(p.spec.resourceClaims ?? []), ...entries];
    p.spec.containers[0].resources.claims = p.spec.resourceClaims.map((e) => ({ name: e.name }));
    return p;
  };
  // A ReplicaSet's replicas: one template, one claim each.
  const replicas = r.int(1, 4);
  const rsTemplate = r.pick(names);
  for (let i = 0; i < replicas; i++) {
    const p = withTemplates(pod(`${TEMPLATE_REPLICA_SET}-${'bcdfg'[i]}x${i}q${i}`, undefined, [], '1'), [
      { name: 'gpu', resourceClaimTemplateName: rsTemplate },
    ]);
    p.metadata.labels = { app: 'trainer' };
    p.metadata.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        name: TEMPLATE_REPLICA_SET,
        uid: 'uid-rs-trainer',
        controller: true,
      },
    ];
    pods.push(p);
  }
  // Long names: the controller cuts pod and entry names in proportion.
  if (r.chance(0.6)) {
    pods.push(
      withTemplates(pod('distributed-training-worker-with-a-very-long-name-0', undefined, [], '500m'), [
        { name: r.pick(['accelerator-claim-for-training', 'gpu']), resourceClaimTemplateName: r.pick(names) },
      ]),
    );
  }
  // Two templates, or a template beside a claim made by hand.
  if (r.chance(0.5)) {
    const direct = c.input.items
      .filter((o) => o.kind === 'ResourceClaim' && !o.status)
      .map((o) => o.metadata.name);
    const p = withTemplates(
      pod('mixed-0', undefined, direct.length && r.chance(0.5) ? [r.pick(direct)] : [], '1'),
      [
        { name: 'first', resourceClaimTemplateName: r.pick(names) },
        { name: 'second', resourceClaimTemplateName: r.pick(names) },
      ],
    );
    pods.push(p);
  }
  // A template that does not exist: the pod waits at PreEnqueue.
  if (r.chance(0.5)) {
    pods.push(
      withTemplates(pod('orphan-0', undefined, [], '1'), [
        { name: 'gpu', resourceClaimTemplateName: 'missing-template' },
      ]),
    );
  }
  const generatedFor = (podName, entry, template, owned) => {
    const claim = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: {
        name: `${podName}-${entry}-abcde`,
        namespace: 'default',
        annotations: { 'resource.kubernetes.io/pod-claim-name': entry },
      },
      spec: template.spec.spec,
    };
    if (owned)
      claim.metadata.ownerReferences = [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          name: podName,
          uid: `uid-pod-default-${podName}`,
          controller: true,
          blockOwnerDeletion: true,
        },
      ];
    return claim;
  };
  // Statuses the controller wrote earlier: the claim exists and is the pod's; or a claim of the
  // same name the pod does not own; or a claim created but never recorded (adopted).
  const extraClaims = [];
  const shapes = r.sample(['recorded', 'not-owner', 'adopt', 'not-needed'], r.int(0, 3));
  for (const shape of shapes) {
    const template = r.pick(templates);
    const podName = `prepared-${shape}`;
    const p = withTemplates(pod(podName, undefined, [], '500m'), [
      { name: 'gpu', resourceClaimTemplateName: template.metadata.name },
    ]);
    if (shape === 'not-needed') {
      p.status = { resourceClaimStatuses: [{ name: 'gpu' }] };
      // A later entry still to generate: 1.37's controller looks past the one not needed.
      if (r.chance(0.6))
        withTemplates(p, [{ name: 'later', resourceClaimTemplateName: template.metadata.name }]);
    } else {
      const claim = generatedFor(podName, 'gpu', template, shape !== 'not-owner');
      extraClaims.push(claim);
      if (shape !== 'adopt')
        p.status = { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: claim.metadata.name }] };
    }
    pods.push(p);
  }
  // Templates and generated claims before the pods; the new pods after the existing ones.
  const firstPod = items.findIndex((o) => o.kind === 'Pod');
  items.splice(firstPod < 0 ? items.length : firstPod, 0, ...templates, ...extraClaims);
  items.push(...pods);
  const pending = items.filter((o) => o.kind === 'Pod' && !o.spec.nodeName).length;
  const nClaims = items.filter((o) => o.kind === 'ResourceClaim').length;
  c.name = c.name.replace(/-\d+c-\d+p$/, `-${nClaims}c-${templates.length}t-${pending}p`);
}

const TAINTS = [
  { key: 'maintenance', value: 'planned', effect: 'NoSchedule' },
  { key: 'maintenance', value: 'now', effect: 'NoExecute' },
  { key: 'health', value: 'degraded', effect: 'NoSchedule' },
  { key: 'health', value: 'degraded', effect: 'None' },
];
const TOLERATIONS = [
  { key: 'maintenance', operator: 'Exists' },
  { key: 'maintenance', operator: 'Equal', value: 'planned', effect: 'NoSchedule' },
  { key: 'maintenance', operator: 'Equal', value: 'now' },
  { key: 'health', operator: 'Exists', effect: 'NoSchedule' },
  { operator: 'Exists' },
  { key: 'health', operator: 'Equal', value: 'ok' },
];

/** The taint variant: taints on some devices (current slices), tolerations on some requests. */
function addTaints(c, r) {
  const items = c.input.items;
  for (const o of items) {
    if (o.kind !== 'ResourceSlice') continue;
    for (const d of o.spec.devices) {
      if (!r.chance(0.35)) continue;
      d.taints = r.sample(TAINTS, r.int(1, 2)).map((t) => ({ ...t }));
    }
  }
  const tolerate = (req) => {
    if (r.chance(0.45)) req.tolerations = r.sample(TOLERATIONS, r.int(1, 2)).map((t) => ({ ...t }));
  };
  for (const o of items) {
    if (o.kind !== 'ResourceClaim' || o.status) continue;
    for (const req of o.spec.devices.requests) {
      if (req.exactly) tolerate(req.exactly);
      else for (const sub of req.firstAvailable ?? []) tolerate(sub);
    }
  }
  const tainted = items
    .filter((o) => o.kind === 'ResourceSlice')
    .reduce((n, o) => n + o.spec.devices.filter((d) => d.taints).length, 0);
  c.name = `${c.name}-${tainted}tainted`;
}

/**
 * The DeviceTaintRule variant: one to four rules, each selecting by a mix of driver, pool and device
 * name drawn from the slices (or a name nothing has), sometimes every device or none; the taint
 * variant's tolerations on some requests, and its own taints on a few devices.
 */
function addTaintRules(c, r) {
  const items = c.input.items;
  const slices = items.filter((o) => o.kind === 'ResourceSlice');
  const devices = slices.flatMap((s) => s.spec.devices.map((d) => ({ slice: s, device: d })));
  for (const { device } of devices) {
    if (r.chance(0.1)) device.taints = [{ ...r.pick(TAINTS) }];
  }
  const rules = [];
  const count = r.int(1, 4);
  for (let i = 0; i < count; i++) {
    // A cluster without slices still gets rules, naming what a GPU node would publish.
    const { slice, device } = devices.length
      ? r.pick(devices)
      : { slice: { spec: { driver: GPU, pool: { name: 'node-01' } } }, device: { name: 'gpu-0' } };
    let deviceSelector;
    const shape = r.int(0, 9);
    if (shape === 0) deviceSelector = {};
    else if (shape === 1) deviceSelector = undefined;
    else if (shape === 2) deviceSelector = { driver: slice.spec.driver };
    else if (shape === 3) deviceSelector = { pool: slice.spec.pool.name };
    else if (shape === 4) deviceSelector = { device: device.name };
    else if (shape === 5) deviceSelector = { driver: slice.spec.driver, pool: slice.spec.pool.name };
    else if (shape === 6) deviceSelector = { pool: slice.spec.pool.name, device: device.name };
    else if (shape === 7) deviceSelector = { driver: 'other.example.com' };
    else deviceSelector = { driver: slice.spec.driver, pool: slice.spec.pool.name, device: device.name };
    const { key, value, effect } = r.pick(TAINTS);
    rules.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceTaintRule',
      metadata: { name: `rule-${i}` },
      spec: { ...(deviceSelector ? { deviceSelector } : {}), taint: { key, value, effect } },
    });
  }
  const tolerate = (req) => {
    if (r.chance(0.4)) req.tolerations = r.sample(TOLERATIONS, r.int(1, 2)).map((t) => ({ ...t }));
  };
  for (const o of items) {
    if (o.kind !== 'ResourceClaim' || o.status) continue;
    for (const req of o.spec.devices.requests) {
      if (req.exactly) tolerate(req.exactly);
      else for (const sub of req.firstAvailable ?? []) tolerate(sub);
    }
  }
  // Cluster-scoped objects go before the pods, beside the slices.
  items.splice(
    items.findIndex((o) => o.kind === 'ResourceClaim'),
    0,
    ...rules,
  );
  c.name = `${c.name}-${rules.length}rules`;
}

const EXTENDED_GPU = 'example.com/gpu';
const IMPLICIT = 'deviceclass.resource.kubernetes.io/';
const EXTENDED_CLAIM_ANNOTATION = 'resource.kubernetes.io/extended-resource-claim';

/**
 * The DRA-backed extended resources variant (see the header): classes mapping resources, device
 * plugins on some nodes, running pods holding the resource both ways, pending pods asking for it.
 */
function addExtendedResources(c, r) {
  const items = c.input.items;
  const byName = (kind, name) => items.find((o) => o.kind === kind && o.metadata.name === name);
  const nodes = items.filter((o) => o.kind === 'Node');
  const slices = items.filter((o) => o.kind === 'ResourceSlice' && !o.metadata.name.endsWith('-old'));
  const gpuClass = byName('DeviceClass', 'gpu');
  gpuClass.metadata.creationTimestamp = '2029-01-01T00:00:00Z';
  const mapped = r.chance(0.85);
  if (mapped) gpuClass.spec.extendedResourceName = EXTENDED_GPU;
  // A newer class taking the name over (its own implicit name stays; the old class's is then
  // order-dependent upstream, so no pod asks for deviceclass.resource.kubernetes.io/gpu).
  const takeover = mapped && r.chance(0.25);
  const classes = [];
  if (takeover) {
    const cls = deviceClass('gpu-v2', [
      `device.driver == "${GPU}"`,
      `device.attributes["${GPU}"].model != "l4"`,
    ]);
    cls.metadata.creationTimestamp = '2029-06-01T00:00:00Z';
    cls.spec.extendedResourceName = EXTENDED_GPU;
    classes.push(cls);
  }
  if (r.chance(0.3)) byName('DeviceClass', 'nic').spec.extendedResourceName = 'example.com/nic';
  // Device plugins: some nodes advertise the resource in their allocatable (or "0").
  const plugin = new Map();
  for (const n of nodes) {
    const hasSlice = slices.some((s) => s.spec.driver === GPU && s.spec.nodeName === n.metadata.name);
    const roll = r.int(0, 9);
    if (roll <= 2 || (!hasSlice && roll <= 5)) {
      const count = roll === 0 ? 0 : r.int(1, 4);
      plugin.set(n.metadata.name, count);
      n.status.capacity[EXTENDED_GPU] = String(count);
      n.status.allocatable[EXTENDED_GPU] = String(count);
    }
  }
  const pluginNodes = [...plugin.entries()].filter(([, v]) => v > 0).map(([k]) => k);
  // Devices already held by the base cluster's running pods.
  const held = new Set();
  for (const o of items)
    if (o.kind === 'ResourceClaim' && o.status?.allocation)
      for (const d of o.status.allocation.devices.results) held.add(`${d.pool}/${d.device}`);
  const claims = [];
  const running = [];
  const extendedPod = (name, containers, extra = {}) => {
    const p = pod(name, undefined, [], '500m');
    p.spec.containers = containers.map((res, i) => ({
      name: `c${i}`,
      image: 'registry.example.com/ml/train:1',
      resources: { requests: { cpu: '250m', memory: '512Mi', ...res }, limits: extendedOnly(res) },
    }));
    if (extra.init)
      p.spec.initContainers = extra.init.map((res, i) => ({
        name: `init-${i}`,
        image: 'registry.example.com/ml/prepare:1',
        ...(res.sidecar ? { restartPolicy: 'Always' } : {}),
        resources: {
          requests: { cpu: '100m', ...strip(res) },
          limits: extendedOnly(strip(res)),
        },
      }));
    return p;
  };
  // Running pods: on device-plugin nodes by the plugin's count; on DRA nodes through their claim.
  let k = 0;
  for (const name of pluginNodes) {
    if (!r.chance(0.5)) continue;
    const p = extendedPod(`plugin-user-${k++}`, [{ [EXTENDED_GPU]: String(r.int(1, plugin.get(name))) }]);
    p.spec.nodeName = name;
    p.status = { phase: 'Running', startTime: '2029-12-31T00:00:00Z' };
    running.push(p);
  }
  if (mapped) {
    for (const s of slices) {
      if (s.spec.driver !== GPU || !s.spec.nodeName || plugin.get(s.spec.nodeName) > 0) continue;
      if (!r.chance(0.45)) continue;
      const free = s.spec.devices.filter((d) => !held.has(`${s.spec.pool.name}/${d.name}`));
      if (!free.length) continue;
      const dev = free[free.length - 1];
      held.add(`${s.spec.pool.name}/${dev.name}`);
      const podName = `dra-user-${k++}`;
      const uid = `uid-pod-default-${podName}`;
      const claimName = `${podName}-extended-resources-q7x2z`;
      claims.push({
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceClaim',
        metadata: {
          name: claimName,
          namespace: 'default',
          annotations: { [EXTENDED_CLAIM_ANNOTATION]: 'true' },
          ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: podName, uid, controller: true }],
          finalizers: ['resource.kubernetes.io/delete-protection'],
        },
        spec: {
          devices: {
            requests: [
              {
                name: 'container-0-request-0',
                exactly: {
                  deviceClassName: takeover ? 'gpu-v2' : 'gpu',
                  allocationMode: 'ExactCount',
                  count: 1,
                },
              },
            ],
          },
        },
        status: {
          allocation: {
            devices: {
              results: [
                { request: 'container-0-request-0', driver: GPU, pool: s.spec.pool.name, device: dev.name },
              ],
            },
            nodeSelector: {
              nodeSelectorTerms: [
                { matchFields: [{ key: 'metadata.name', operator: 'In', values: [s.spec.nodeName] }] },
              ],
            },
          },
          reservedFor: [{ resource: 'pods', name: podName, uid }],
        },
      });
      const p = extendedPod(podName, [{ [EXTENDED_GPU]: '1' }]);
      p.metadata.uid = uid;
      p.spec.nodeName = s.spec.nodeName;
      p.status = {
        phase: 'Running',
        startTime: '2029-12-31T00:00:00Z',
        extendedResourceClaimStatus: {
          resourceClaimName: claimName,
          requestMappings: [
            { containerName: 'c0', resourceName: EXTENDED_GPU, requestName: 'container-0-request-0' },
          ],
        },
      };
      running.push(p);
    }
  }
  // Pending pods.
  const implicitClasses = ['gpu-large', 'nic', ...(takeover ? ['gpu-v2'] : mapped ? [] : ['gpu'])];
  const pending = [];
  const nPending = r.int(2, 6);
  for (let i = 0; i < nPending; i++) {
    const shape = r.int(0, 9);
    const gpu = () => String(r.int(1, 2));
    const name = `ext-${i}`;
    let p;
    if (shape <= 2) p = extendedPod(name, [{ [EXTENDED_GPU]: String(r.int(1, 3)) }]);
    else if (shape === 3) p = extendedPod(name, [{ [EXTENDED_GPU]: gpu() }, { [EXTENDED_GPU]: '1' }]);
    else if (shape === 4)
      p = extendedPod(name, [{ [EXTENDED_GPU]: '1' }], { init: [{ [EXTENDED_GPU]: String(r.int(1, 3)) }] });
    else if (shape === 5)
      p = extendedPod(name, [{ [EXTENDED_GPU]: '1' }], {
        init: [{ sidecar: true, [EXTENDED_GPU]: '1' }, { [EXTENDED_GPU]: gpu() }],
      });
    else if (shape === 6) p = extendedPod(name, [{ [IMPLICIT + r.pick(implicitClasses)]: '1' }]);
    else if (shape === 7)
      p = extendedPod(name, [{ [EXTENDED_GPU]: '1', [IMPLICIT + r.pick(implicitClasses)]: '1' }]);
    // Beside a resource no node has. (Two resources a node lacks are reported in Go map order,
    // random upstream, so only one of them may fail through NodeResourcesFit.)
    else if (shape === 8)
      p = extendedPod(name, [
        {
          [mapped && !pluginNodes.length ? EXTENDED_GPU : `${IMPLICIT}gpu-large`]: '1',
          'example.com/fpga': '1',
        },
      ]);
    else p = extendedPod(name, [{ 'example.com/nic': String(r.int(1, 2)) }]);
    if (r.chance(0.15)) p.spec.priorityClassName = 'high';
    pending.push(p);
  }
  // A claim of its own beside the extended resource, where no device plugin could serve it.
  const own = items.filter((o) => o.kind === 'ResourceClaim' && !o.status).map((o) => o.metadata.name);
  if (!pluginNodes.length && own.length && r.chance(0.5)) {
    const p = extendedPod(`mixed-0`, [{ [EXTENDED_GPU]: '1' }]);
    const claim = r.pick(own);
    p.spec.resourceClaims = [{ name: 'rc-0', resourceClaimName: claim }];
    p.spec.containers[0].resources.claims = [{ name: 'rc-0' }];
    // Mostly first in the queue, before the other pods take the devices.
    if (r.chance(0.7)) p.spec.priorityClassName = 'high';
    pending.push(p);
  }
  // A claim written in an earlier cycle whose pod never bound: Filter refuses it, PostFilter deletes it.
  if (mapped && r.chance(0.3)) {
    const podName = 'retry-0';
    const uid = `uid-pod-default-${podName}`;
    const stale = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: {
        name: `${podName}-extended-resources-m4k9t`,
        namespace: 'default',
        annotations: { [EXTENDED_CLAIM_ANNOTATION]: 'true' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: podName, uid, controller: true }],
      },
      spec: {
        devices: {
          requests: [
            {
              name: 'container-0-request-0',
              exactly: { deviceClassName: 'gpu', allocationMode: 'ExactCount', count: 1 },
            },
          ],
        },
      },
    };
    claims.push(stale);
    const p = extendedPod(podName, [{ [EXTENDED_GPU]: '1' }]);
    p.metadata.uid = uid;
    pending.push(p);
  }
  const firstClaim = items.findIndex((o) => o.kind === 'ResourceClaim');
  items.splice(firstClaim < 0 ? items.findIndex((o) => o.kind === 'Pod') : firstClaim, 0, ...classes);
  const firstPod = items.findIndex((o) => o.kind === 'Pod');
  items.splice(firstPod < 0 ? items.length : firstPod, 0, ...claims);
  items.push(...running, ...pending);
  // Scoring by the resource: DRA nodes count their class devices. (Not in BalancedAllocation:
  // 1.37.2's panics there, its scorer has no CEL cache for the class's selectors.)
  if (r.chance(0.35)) {
    const resources = [
      { name: 'cpu', weight: 1 },
      { name: 'memory', weight: 1 },
      { name: EXTENDED_GPU, weight: r.int(1, 5) },
    ];
    c.config.schedulerConfiguration = {
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      percentageOfNodesToScore: 100,
      profiles: [
        {
          schedulerName: 'default-scheduler',
          pluginConfig: [
            {
              name: 'NodeResourcesFit',
              args: { scoringStrategy: { type: r.pick(['MostAllocated', 'LeastAllocated']), resources } },
            },
          ],
        },
      ],
    };
  }
  c.name = `${c.name}-${pluginNodes.length}plugin-${running.length}held-${pending.length}ext`;
}

/** The container's requests without the generator's sidecar mark. */
function strip(res) {
  return Object.fromEntries(Object.entries(res).filter(([k]) => k !== 'sidecar'));
}

/** Limits for the extended resources (they cannot be overcommitted: limits equal requests). */
function extendedOnly(res) {
  const out = {};
  for (const [k, v] of Object.entries(res)) if (k.includes('/')) out[k] = v;
  return out;
}

const ATTACHED = `${GPU}/attached`;
const READY = `${GPU}/ready`;
const ATTACH_FAILED = `${GPU}/attach-failed`;

/** A device's binding conditions: one or two to wait for, sometimes a failure condition. */
function withBinding(r, device, { failure = r.chance(0.6), bindsToNode = r.chance(0.4) } = {}) {
  device.bindingConditions = r.chance(0.5) ? [ATTACHED] : [ATTACHED, READY];
  if (failure) device.bindingFailureConditions = [ATTACH_FAILED];
  if (bindsToNode) device.bindsToNode = true;
  return device;
}

/**
 * The binding-conditions variant: binding conditions on some per-node GPUs, a composable GPU pool
 * (all nodes, or zone-a) whose devices all have them, claims allocated on composable GPUs before
 * the run in each binding state, and pending pods for them and for more GPUs.
 */
function addBindingConditions(c, r) {
  const items = c.input.items;
  const nodes = items.filter((o) => o.kind === 'Node').map((o) => o.metadata.name);
  for (const o of items) {
    if (o.kind !== 'ResourceSlice' || o.spec.driver !== GPU || o.metadata.name.endsWith('-old')) continue;
    if (!r.chance(0.4)) continue;
    for (const d of o.spec.devices) if (r.chance(0.5)) withBinding(r, d);
  }
  const firstPod = items.findIndex((o) => o.kind === 'Pod');
  const extra = [];
  const pending = [];
  const runners = [];
  // allocationMode All would take composable GPUs beside a node's own, whose models a
  // matchAttribute constraint then fails to match: an Error upstream (not a verdict), so no
  // composable pool beside it.
  const usesAll = items.some(
    (o) =>
      o.kind === 'ResourceClaim' && o.spec.devices.requests.some((q) => q.exactly?.allocationMode === 'All'),
  );
  if (r.chance(0.8) && !usesAll) {
    const allNodes = r.chance(0.6);
    const where = allNodes
      ? { allNodes: true }
      : {
          nodeSelector: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] },
                ],
              },
            ],
          },
        };
    const devices = [];
    for (let d = 0; d < r.int(1, 4); d++)
      devices.push(
        withBinding(r, {
          name: `cgpu-${d}`,
          attributes: { model: { string: 'h100' }, index: { int: d } },
          capacity: { memory: { value: '80Gi' } },
        }),
      );
    extra.push(slice('composable-gpus', GPU, 'composable', 1, 1, where, devices));
    // Claims allocated on composable GPUs before the run, in each binding state.
    const states = r.sample(
      ['bound', 'failed', 'timed-out', 'waiting'],
      r.int(0, Math.min(2, devices.length)),
    );
    states.forEach((state, k) => {
      const device = devices[devices.length - 1 - k];
      if (state === 'failed') device.bindingFailureConditions = [ATTACH_FAILED];
      const node = nodes[0];
      const result = { request: 'gpu', driver: GPU, pool: 'composable', device: device.name };
      result.bindingConditions = [...device.bindingConditions];
      if (device.bindingFailureConditions)
        result.bindingFailureConditions = [...device.bindingFailureConditions];
      const allocation = { devices: { results: [result] } };
      if (device.bindsToNode)
        allocation.nodeSelector = {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
        };
      else if (!allNodes) allocation.nodeSelector = where.nodeSelector;
      if (state === 'timed-out') allocation.allocationTimestamp = '2020-01-01T00:00:00Z';
      else if (state !== 'waiting' || r.chance(0.5)) allocation.allocationTimestamp = '2099-01-01T00:00:00Z';
      const conditions = (types, status) =>
        types.map((type) => ({
          type,
          status,
          reason: status === 'True' ? 'Done' : 'Pending',
          message: '',
          lastTransitionTime: '2020-01-01T00:00:00Z',
        }));
      const status = { allocation };
      if (state === 'bound')
        status.devices = [
          {
            driver: GPU,
            pool: 'composable',
            device: device.name,
            conditions: conditions(device.bindingConditions, 'True'),
          },
        ];
      if (state === 'failed')
        status.devices = [
          {
            driver: GPU,
            pool: 'composable',
            device: device.name,
            conditions: [
              ...conditions(device.bindingConditions, 'False'),
              ...conditions([ATTACH_FAILED], 'True'),
            ],
          },
        ];
      const name = `attached-${state}`;
      // A running pod may hold it; a pending pod uses it (not reserved for it yet).
      if (r.chance(0.35)) {
        const podName = `holder-${k}`;
        const uid = `uid-pod-default-${podName}`;
        status.reservedFor = [{ resource: 'pods', name: podName, uid }];
        runners.push(pod(podName, node, [name], '500m', undefined, uid));
      }
      extra.push({
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceClaim',
        metadata: { name, namespace: 'default' },
        spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } },
        status,
      });
      pending.push(pod(`binder-${k}`, undefined, [name], '500m'));
    });
  }
  // More GPU claims than the nodes' own GPUs may serve, one sometimes shared by a second pod.
  for (let k = 0; k < r.int(1, 3); k++) {
    const name = `attach-${k}`;
    const exactly = { deviceClassName: r.chance(0.3) ? 'gpu-large' : 'gpu' };
    if (r.chance(0.25)) exactly.count = 2;
    extra.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name, namespace: 'default' },
      spec: { devices: { requests: [{ name: 'gpu', exactly }] } },
    });
    pending.push(pod(`attacher-${k}`, undefined, [name], r.pick(['500m', '1'])));
    if (r.chance(0.3)) pending.push(pod(`co-attacher-${k}`, undefined, [name], '500m'));
  }
  items.splice(firstPod < 0 ? items.length : firstPod, 0, ...extra);
  items.push(...runners, ...pending);
  const waiting = items
    .filter((o) => o.kind === 'ResourceSlice')
    .reduce((n, o) => n + (o.spec.devices ?? []).filter((d) => d.bindingConditions).length, 0);
  c.name = `${c.name}-${waiting}binding`;
}

/** A partition of the profile (whole GPUs and other drivers' devices have no profile). */
const profileIs = (profile) =>
  `"profile" in device.attributes["${GPU}"] && device.attributes["${GPU}"].profile == "${profile}"`;

/** MIG-like profiles of one physical GPU: the counters each partition consumes. */
const PROFILES = [
  { name: '1g', memory: 10, slices: 1 },
  { name: '2g', memory: 20, slices: 2 },
  { name: '3g', memory: 40, slices: 3 },
];
const BANDWIDTH_POLICIES = [
  undefined,
  { default: '1G', validRange: { min: '1G', step: '1G' } },
  { default: '2G', validRange: { min: '1G', max: '20G', step: '2G' } },
  { default: '1G', validValues: ['1G', '5G', '10G', '25G'] },
];

/**
 * The partition variant: per-node GPU pools become partitionable (a counter slice with one
 * counter set per physical GPU, the whole GPU and its partitions consuming from it), a shared
 * tray pool selects nodes per device, NICs are allocated several times by bandwidth, and some
 * requests ask for capacity.
 */
function addPartitions(c, r) {
  const items = c.input.items;
  const nodes = items.filter((o) => o.kind === 'Node').map((o) => o.metadata.name);
  const usesAll = items.some(
    (o) =>
      o.kind === 'ResourceClaim' && o.spec.devices.requests.some((q) => q.exactly?.allocationMode === 'All'),
  );
  const newSlices = [];
  for (const o of items) {
    if (o.kind !== 'ResourceSlice' || o.spec.driver !== GPU || o.metadata.name.endsWith('-old')) continue;
    if (!r.chance(0.75)) continue;
    const node = o.spec.nodeName;
    const counterSets = [];
    const devices = [];
    for (const whole of o.spec.devices) {
      const model = whole.attributes.model.string;
      const memory = Number(whole.capacity.memory.value.replace('Gi', ''));
      const set = `${whole.name}-counters`;
      counterSets.push({
        name: set,
        counters: { memory: { value: `${memory}Gi` }, slices: { value: '7' } },
      });
      whole.consumesCounters = [
        { counterSet: set, counters: { memory: { value: `${memory}Gi` }, slices: { value: '7' } } },
      ];
      devices.push(whole);
      const profiles = r.sample(PROFILES, r.int(1, 3));
      for (const prof of profiles) {
        const copies = r.int(1, 3);
        for (let k = 0; k < copies; k++) {
          const mem = Math.min(prof.memory, memory);
          devices.push({
            name: `${whole.name}-${prof.name}-${k}`,
            attributes: { ...whole.attributes, model: { string: model }, profile: { string: prof.name } },
            capacity: { memory: { value: `${mem}Gi` } },
            consumesCounters: [
              {
                counterSet: set,
                counters: { memory: { value: `${mem}Gi` }, slices: { value: String(prof.slices) } },
              },
            ],
          });
        }
      }
    }
    // Sometimes a device consumes a counter its set does not declare: the pool is invalid.
    // (Not beside allocationMode All, which upstream answers with an Error for an invalid pool.)
    if (r.chance(0.08) && !usesAll)
      devices[devices.length - 1].consumesCounters[0].counters.power = { value: '1' };
    o.spec.devices = r.chance(0.5) ? devices : devices.slice(1).concat(devices.slice(0, 1));
    const count = o.spec.pool.resourceSliceCount + 1;
    o.spec.pool.resourceSliceCount = count;
    newSlices.push(
      slice(
        `${node}-gpu-counters`,
        GPU,
        o.spec.pool.name,
        o.spec.pool.generation,
        count,
        { nodeName: node },
        undefined,
      ),
    );
    newSlices[newSlices.length - 1].spec.sharedCounters = counterSets;
    delete newSlices[newSlices.length - 1].spec.devices;
  }
  // A tray of accelerators wired to some nodes: per-device node selection, one counter set.
  if (r.chance(0.6)) {
    const trayDevices = [];
    const nTray = r.int(2, 4);
    for (let d = 0; d < nTray; d++) {
      const where = r.chance(0.25)
        ? { allNodes: true }
        : r.chance(0.2)
          ? {
              nodeSelector: {
                nodeSelectorTerms: [
                  {
                    matchExpressions: [
                      { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] },
                    ],
                  },
                ],
              },
            }
          : { nodeName: r.pick(nodes) };
      trayDevices.push({
        name: `tray-${d}`,
        attributes: { model: { string: 'l4' }, index: { int: d } },
        capacity: { memory: { value: '24Gi' } },
        consumesCounters: [
          { counterSet: 'tray-power', counters: { watts: { value: String(r.pick([150, 200, 300])) } } },
        ],
        ...where,
      });
    }
    const trayCounters = slice('tray-counters', GPU, 'tray', 1, 2, { allNodes: true }, undefined);
    trayCounters.spec.sharedCounters = [
      { name: 'tray-power', counters: { watts: { value: String(r.pick([300, 450, 600])) } } },
    ];
    delete trayCounters.spec.devices;
    newSlices.push(
      trayCounters,
      slice('tray-devices', GPU, 'tray', 1, 2, { perDeviceNodeSelection: true }, trayDevices),
    );
  }
  // NICs shared by bandwidth.
  let sharedNic;
  for (const o of items) {
    if (o.kind !== 'ResourceSlice' || o.spec.driver !== NIC) continue;
    for (const d of o.spec.devices) {
      if (!r.chance(0.7)) continue;
      d.allowMultipleAllocations = true;
      const policy = r.pick(BANDWIDTH_POLICIES);
      d.capacity = { bandwidth: { value: `${d.attributes.speed.int}G` } };
      if (policy) d.capacity.bandwidth.requestPolicy = JSON.parse(JSON.stringify(policy));
      if (!sharedNic && o.spec.allNodes) sharedNic = { pool: o.spec.pool.name, device: d.name };
    }
  }
  // Claims: capacity requests on NIC requests, memory requests on GPU requests, partitions by profile.
  for (const o of items) {
    if (o.kind !== 'ResourceClaim' || o.status) continue;
    const reqs = o.spec.devices.requests.flatMap((q) => (q.exactly ? [q.exactly] : (q.firstAvailable ?? [])));
    for (const q of reqs) {
      if (q.deviceClassName === 'nic' && r.chance(0.7))
        q.capacity = { requests: { bandwidth: r.pick(['1G', '3G', '5G', '8G', '40G']) } };
      else if (q.deviceClassName?.startsWith('gpu') && r.chance(0.3)) {
        if (r.chance(0.5)) q.capacity = { requests: { memory: r.pick(['10Gi', '20Gi', '50Gi']) } };
        else
          q.selectors = [
            ...(q.selectors ?? []),
            { cel: { expression: profileIs(r.pick(['1g', '2g', '3g'])) } },
          ];
      }
    }
  }
  // Two more claims for NIC shares, and a running pod holding a share of a shared NIC.
  const firstPod = items.findIndex((o) => o.kind === 'Pod');
  const extra = [];
  for (let k = 0; k < r.int(0, 2); k++) {
    extra.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: `bandwidth-${k}`, namespace: 'default' },
      spec: {
        devices: {
          requests: [
            {
              name: 'nic',
              exactly: {
                deviceClassName: 'nic',
                ...(r.chance(0.8)
                  ? { capacity: { requests: { bandwidth: r.pick(['2G', '4G', '6G']) } } }
                  : {}),
              },
            },
          ],
        },
      },
    });
  }
  const runners = [];
  if (sharedNic && r.chance(0.6)) {
    const podName = 'streamer-0';
    const uid = `uid-pod-default-${podName}`;
    extra.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'held-bandwidth', namespace: 'default' },
      spec: {
        devices: {
          requests: [
            { name: 'nic', exactly: { deviceClassName: 'nic', capacity: { requests: { bandwidth: '6G' } } } },
          ],
        },
      },
      status: {
        allocation: {
          devices: {
            results: [
              {
                request: 'nic',
                driver: NIC,
                pool: sharedNic.pool,
                device: sharedNic.device,
                shareID: '6f1c2a40-0000-4000-8000-00000000000' + r.int(1, 9),
                consumedCapacity: { bandwidth: r.pick(['6G', '8G', '10G']) },
              },
            ],
          },
        },
        reservedFor: [{ resource: 'pods', name: podName, uid }],
      },
    });
    runners.push(pod(podName, nodes[0], ['held-bandwidth'], '500m', undefined, uid));
  }
  items.splice(firstPod < 0 ? items.length : firstPod, 0, ...newSlices, ...extra);
  // Pending pods for the new claims, and some more for partitions by profile.
  const pending = [];
  extra
    .filter((o) => !o.status)
    .forEach((o, k) => pending.push(pod(`net-${k}`, undefined, [o.metadata.name], '500m')));
  if (r.chance(0.6)) {
    const profile = r.pick(['1g', '2g', '3g']);
    const claim = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: `slice-${profile}`, namespace: 'default' },
      spec: {
        devices: {
          requests: [
            {
              name: 'gpu',
              exactly: {
                deviceClassName: 'gpu',
                count: r.int(1, 3),
                selectors: [{ cel: { expression: profileIs(profile) } }],
              },
            },
          ],
        },
      },
    };
    items.splice(firstPod < 0 ? items.length : items.findIndex((o) => o.kind === 'Pod'), 0, claim);
    pending.push(pod(`mig-0`, undefined, [claim.metadata.name], '500m'));
  }
  items.push(...runners, ...pending);
  const parts = items
    .filter((o) => o.kind === 'ResourceSlice')
    .reduce((n, o) => n + (o.spec.devices ?? []).filter((d) => d.consumesCounters).length, 0);
  const shares = items
    .filter((o) => o.kind === 'ResourceSlice')
    .reduce((n, o) => n + (o.spec.devices ?? []).filter((d) => d.allowMultipleAllocations).length, 0);
  c.name = `${c.name}-${parts}part-${shares}shared`;
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

module.exports = {
  gen,
  GENERATOR_VERSION,
  TEMPLATE_SEEDS,
  TAINT_SEEDS,
  PARTITION_SEEDS,
  TAINT_RULE_SEEDS,
  EXTENDED_SEEDS,
  BINDING_SEEDS,
  VARIANTS,
};
if (require.main === module) main(process.argv.slice(2));
