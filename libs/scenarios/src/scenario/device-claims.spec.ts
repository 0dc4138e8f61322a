/**
 * DRA claims across scenario steps, on examples/dra-gpus.yaml (six gpu.example.com devices on
 * gpu-a, gpu-b and gpu-c; ml/serving-0 holds gpu-a/gpu-0; the first pass gives train-1..3 and
 * finetune-1 one each, so one gpu.example.com device is left).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseKubernetesObjects, type KubeObject } from '@schedlab/k8s';
import { setupEngine } from '@schedlab/scheduler';
import { capacity } from '../analyses/capacity';
import { deschedule } from '../analyses/deschedule';
import type { DeschedulerRunner } from '../analyses/descheduler-runner';
import { releaseDeviceClaims } from './device-claims';
import { runScenario } from './run';

const cluster: KubeObject[] = parseKubernetesObjects(
  readFileSync(join(__dirname, '../../../../examples/dra-gpus.yaml'), 'utf8'),
).objects;

const opts = { tieBreak: 'lowest-node-name' as const };

interface ClaimView {
  metadata?: { name?: string; ownerReferences?: { kind?: string; name?: string; uid?: string }[] };
  status?: {
    allocation?: { devices?: { results?: { pool: string; device: string }[] } };
    reservedFor?: { name?: string; uid?: string }[];
  };
}

const claimsOf = (items: readonly KubeObject[]) =>
  items.filter((i) => i.kind === 'ResourceClaim') as unknown as ClaimView[];

/** Every allocated device with the claims holding it. */
function holders(items: readonly KubeObject[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const c of claimsOf(items))
    for (const r of c.status?.allocation?.devices?.results ?? []) {
      const device = `${r.pool}/${r.device}`;
      out.set(device, [...(out.get(device) ?? []), c.metadata?.name ?? '']);
    }
  return out;
}

const gpuPod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ml' },
  spec: {
    resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'one-gpu' }],
    containers: [{ name: 't', image: 'x', resources: { requests: { cpu: '1' }, claims: [{ name: 'gpu' }] } }],
  },
});

const allocatedGpus = (run: ReturnType<typeof runScenario>) =>
  run.world
    .devices()
    .find((c) => c.deviceClass === 'gpu.example.com')!
    .nodes.reduce((n, c) => n + c.allocated, 0);

describe('DRA claims between scenario steps', () => {
  it('keeps what a pass allocated, so a later pod gets a free device or waits', () => {
    const run = runScenario(
      cluster,
      { steps: [{ apply: { objects: [gpuPod('train-4'), gpuPod('train-5')] } }] },
      opts,
    );
    const items = run.world.items;
    for (const [device, claims] of holders(items)) expect([device, claims.length]).toEqual([device, 1]);
    const pod4 = run.world.pod('ml/train-4')!;
    expect(pod4.spec?.nodeName).toBeDefined();
    // The generated claim is in the world, owned by the pod, named in its status, reserved for it.
    const statuses = (
      pod4.status as { resourceClaimStatuses?: { name: string; resourceClaimName: string }[] }
    ).resourceClaimStatuses;
    expect(statuses).toHaveLength(1);
    const claim = claimsOf(items).find((c) => c.metadata?.name === statuses![0].resourceClaimName)!;
    expect(claim.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Pod', name: 'train-4' });
    expect(claim.status?.reservedFor?.map((r) => r.name)).toEqual(['train-4']);
    expect(claim.status?.allocation?.devices?.results).toHaveLength(1);
    // Six devices, six holders: train-5 waits with DynamicResources' FitError.
    expect(run.world.pod('ml/train-5')?.spec?.nodeName).toBeUndefined();
    const last = run.steps[0].scheduling.filter((r) => r.pod === 'ml/train-5').at(-1)!;
    expect(last.message).toMatch(/cannot allocate all claims/);
    expect(allocatedGpus(run)).toBe(6);
  });

  it('frees a deleted pod’s generated claim and gives its device to a later pod', () => {
    const run = runScenario(
      cluster,
      {
        steps: [
          { apply: { objects: [gpuPod('train-4'), gpuPod('train-5')] } },
          { deletePod: { namespace: 'ml', name: 'train-2' } },
        ],
      },
      opts,
    );
    const items = run.world.items;
    expect(claimsOf(items).some((c) => c.metadata?.ownerReferences?.some((o) => o.name === 'train-2'))).toBe(
      false,
    );
    const train2Node = run.initial.find((r) => r.pod === 'ml/train-2')?.node;
    expect(train2Node).toBeDefined();
    expect(run.world.pod('ml/train-5')?.spec?.nodeName).toBe(train2Node);
    for (const [device, claims] of holders(items)) expect([device, claims.length]).toEqual([device, 1]);
    expect(holders(items).size).toBe(6);
    expect(allocatedGpus(run)).toBe(6);
    // train-5 waited in step 0 and got train-2's device in the step that deleted it.
    expect(run.steps[0].scheduling.filter((r) => r.pod === 'ml/train-5').at(-1)?.node).toBeNull();
    expect(run.steps[1].scheduling.find((r) => r.pod === 'ml/train-5')?.node).toBe(train2Node);
  });

  it('drain: the replacement of a StatefulSet pod gets a device of another node', () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'worker', namespace: 'ml', uid: 'sts-worker' },
      spec: {
        replicas: 1,
        serviceName: 'worker',
        selector: { matchLabels: { app: 'worker' } },
        template: { metadata: { labels: { app: 'worker' } }, spec: gpuPod('x').spec },
      },
    };
    const run = runScenario(
      cluster,
      {
        steps: [
          { apply: { objects: [sts] } },
          { deletePod: { namespace: 'ml', name: 'train-3' } },
          { drain: { nodes: ['gpu-b'] } },
        ],
      },
      opts,
    );
    expect(run.steps[0].scheduling.find((r) => r.pod === 'ml/worker-0')?.node).toBe('gpu-b');
    const worker = run.world.pod('ml/worker-0')!;
    expect(worker.spec?.nodeName).toBe('gpu-a');
    const claims = claimsOf(run.world.items).filter((c) =>
      c.metadata?.ownerReferences?.some((o) => o.name === 'worker-0'),
    );
    // One claim, the new incarnation's, reserved for its uid and allocated on gpu-a.
    expect(claims).toHaveLength(1);
    expect(claims[0].status?.reservedFor).toEqual([
      expect.objectContaining({ name: 'worker-0', uid: worker.metadata?.uid }),
    ]);
    expect(claims[0].status?.allocation?.devices?.results?.[0].pool).toBe('gpu-a');
    const gpuB = run.world
      .devices()
      .find((c) => c.deviceClass === 'gpu.example.com')!
      .nodes.find((n) => n.node === 'gpu-b')!;
    expect(gpuB).toMatchObject({ total: 2, allocated: 0, free: 2 });
  });
});

describe('DRA-backed extended resources between scenario steps (DRAExtendedResource)', () => {
  /** Asks for one device of the class by its implicit extended resource name. */
  const extendedPod = (name: string) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ml' },
    spec: {
      containers: [
        {
          name: 't',
          image: 'x',
          resources: {
            requests: { cpu: '1', 'deviceclass.resource.kubernetes.io/gpu.example.com': '1' },
            limits: { 'deviceclass.resource.kubernetes.io/gpu.example.com': '1' },
          },
        },
      ],
    },
  });

  it('the claim the scheduler writes stays in the world and goes with its pod, freeing the device', () => {
    const run = runScenario(
      cluster,
      {
        steps: [
          { apply: { objects: [extendedPod('ext-1'), extendedPod('ext-2')] } },
          { deletePod: { namespace: 'ml', name: 'ext-1' } },
        ],
      },
      opts,
    );
    // Step 0: ext-1 takes the last free device through its extended-resource claim, ext-2 waits.
    const ext1 = run.steps[0].scheduling.find((r) => r.pod === 'ml/ext-1');
    expect(ext1?.node).toEqual(expect.any(String));
    expect(Object.keys(ext1?.claims ?? {})[0]).toMatch(/^ml\/ext-1-extended-resources-[a-z0-9]{5}$/);
    expect(run.steps[0].scheduling.filter((r) => r.pod === 'ml/ext-2').at(-1)?.message).toMatch(
      /cannot allocate all claims/,
    );
    // Step 1: deleting ext-1 deletes its claim (owned by the pod), and ext-2 gets the device.
    const items = run.world.items;
    expect(claimsOf(items).some((c) => c.metadata?.ownerReferences?.some((o) => o.name === 'ext-1'))).toBe(
      false,
    );
    expect(run.steps[1].scheduling.find((r) => r.pod === 'ml/ext-2')?.node).toBe(ext1?.node);
    const owned = claimsOf(items).filter((c) => c.metadata?.ownerReferences?.some((o) => o.name === 'ext-2'));
    expect(owned).toHaveLength(1);
    expect(owned[0].status?.reservedFor?.map((r) => r.name)).toEqual(['ext-2']);
    for (const [device, claims] of holders(items)) expect([device, claims.length]).toEqual([device, 1]);
    expect(allocatedGpus(run)).toBe(6);
  });

  it('capacity: each copy gets its own claim, so the five free GPUs take five copies (none before 1.36)', () => {
    const request = { podTemplate: extendedPod('worker') as never, maxReplicas: 20 };
    const at137 = capacity(cluster, request, opts);
    expect(at137.replicas).toBe(5);
    expect(at137.stopReason).toMatch(/cannot allocate all claims/);
    const at135 = capacity(cluster, request, { ...opts, compatibilityVersion: '1.35' });
    expect(at135.replicas).toBe(0);
    expect(at135.stopReason).toMatch(/Insufficient deviceclass.resource.kubernetes.io\/gpu.example.com/);
  });
});

describe('deschedule analysis with DRA claims', () => {
  /** Evicts every ReplicaSet-owned pod of the node the policy names. */
  const evictOwnedOn: DeschedulerRunner = (objects, policy) => ({
    evictions: objects
      .filter(
        (o) =>
          o.kind === 'Pod' &&
          (o as { spec?: { nodeName?: string } }).spec?.nodeName === (policy as { node: string }).node &&
          o.metadata?.ownerReferences?.some((r) => r.kind === 'ReplicaSet'),
      )
      .map((o) => ({
        pod: `${o.metadata?.namespace}/${o.metadata?.name}`,
        node: (policy as { node: string }).node,
        profile: 'test',
        strategy: 'EvictOwned',
        reason: 'test',
      })),
    limits: [],
    refused: 0,
  });

  it('an evicted pod’s device goes to its replacement, and the claims carry into the result', () => {
    const worker = {
      ...gpuPod('worker-abcde'),
      metadata: {
        name: 'worker-abcde',
        namespace: 'ml',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'worker', uid: 'rs', controller: true },
        ],
      },
    } as unknown as KubeObject;
    // The sixth and last free GPU goes to worker-abcde.
    const started = runScenario([...cluster, worker], { steps: [] }, opts);
    const node = started.world.pod('ml/worker-abcde')?.spec?.nodeName;
    expect(node).toBeDefined();
    expect(holders(started.world.items).size).toBe(6);
    const report = deschedule(
      started.world.items,
      { policy: { node }, now: '2030-01-01T00:10:00Z' },
      opts,
      setupEngine({}),
      evictOwnedOn,
    );
    expect(report.evictions).toHaveLength(1);
    // Only the evicted pod's own device was free: the replacement gets it.
    expect(report.evictions[0]).toMatchObject({ outcome: 'rescheduled', newNode: node });
    const claims = claimsOf(report.items);
    expect(claims.some((c) => c.metadata?.ownerReferences?.some((o) => o.name === 'worker-abcde'))).toBe(
      false,
    );
    const replacement = report.evictions[0].replacement;
    const held = claims.filter((c) =>
      c.metadata?.ownerReferences?.some((o) => `ml/${o.name}` === replacement),
    );
    expect(held).toHaveLength(1);
    expect(held[0].status?.allocation?.devices?.results).toHaveLength(1);
    for (const [device, n] of holders(report.items)) expect([device, n.length]).toEqual([device, 1]);
    expect(holders(report.items).size).toBe(6);
  });
});

describe('releaseDeviceClaims (the resourceclaim controller and garbage collector)', () => {
  const allocation = { devices: { results: [{ request: 'gpu', driver: 'd', pool: 'p', device: 'g0' }] } };
  const podObj = (name: string, extra: Record<string, unknown> = {}) =>
    ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'ns', uid: `u-${name}` },
      spec: { nodeName: 'n1', containers: [] },
      ...extra,
    }) as KubeObject;
  const claim = (name: string, reservedFor: string[], owner?: string) =>
    ({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: {
        name,
        namespace: 'ns',
        ...(owner
          ? {
              ownerReferences: [
                { apiVersion: 'v1', kind: 'Pod', name: owner, uid: `u-${owner}`, controller: true },
              ],
            }
          : {}),
      },
      status: {
        allocation,
        ...(reservedFor.length
          ? { reservedFor: reservedFor.map((p) => ({ resource: 'pods', name: p, uid: `u-${p}` })) }
          : {}),
      },
    }) as KubeObject;
  const statusOf = (items: KubeObject[], name: string) =>
    (items.find((i) => i.kind === 'ResourceClaim' && i.metadata?.name === name) as ClaimView | undefined)
      ?.status;

  // [case, pods present, claim, expected status (undefined: claim deleted)]
  const rows: [string, KubeObject[], KubeObject, unknown][] = [
    [
      'shared claim, one user gone',
      [podObj('a')],
      claim('shared', ['a', 'b']),
      {
        allocation,
        reservedFor: [{ resource: 'pods', name: 'a', uid: 'u-a' }],
      },
    ],
    ['shared claim, every user gone: deallocated, kept', [], claim('shared', ['a', 'b']), {}],
    [
      'user replaced by another uid',
      [podObj('a', { metadata: { name: 'a', namespace: 'ns', uid: 'other' } })],
      claim('c', ['a']),
      {},
    ],
    ['user finished', [podObj('a', { status: { phase: 'Succeeded' } })], claim('c', ['a']), {}],
    ['allocated, never reserved: left allocated', [], claim('c', []), { allocation }],
    ['generated claim, owner gone', [], claim('gen', ['a'], 'a'), undefined],
    [
      'generated claim, owner still running',
      [podObj('a')],
      claim('gen', ['a'], 'a'),
      {
        allocation,
        reservedFor: [{ resource: 'pods', name: 'a', uid: 'u-a' }],
      },
    ],
    [
      'generated claim, owner failed',
      [podObj('a', { status: { phase: 'Failed' } })],
      claim('gen', ['a'], 'a'),
      undefined,
    ],
  ];
  it.each(rows)('%s', (_case, pods, c, expected) => {
    const out = releaseDeviceClaims([...pods, c]);
    expect(statusOf(out, c.metadata!.name!)).toEqual(expected);
    expect(out.filter((i) => i.kind === 'Pod')).toEqual(pods);
  });
});
