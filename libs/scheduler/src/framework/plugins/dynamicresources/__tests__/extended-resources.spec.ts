/**
 * Extended resources backed by DRA (DRAExtendedResource, on from 1.36). The request and mapping
 * rows are upstream's Test_createRequestsAndMappings_requests and _mappings tables
 * (pkg/scheduler/framework/plugins/dynamicresources/extendeddynamicresources_test.go, v1.37.2) as
 * data, with their pod wrappers' container names (con<i>, init-con<i>, sidecar-con<i>); the class
 * rows follow the extended-resource cache (k8s.io/dynamic-resource-allocation deviceclass/
 * extendedresourcecache); the simulation rows check Fit and DynamicResources together.
 */
import type { Pod } from '@schedlab/k8s';
import { ClusterObjects, ClusterStore } from '../../../../backend/cache/cluster-objects';
import { bindingWritesObjects } from '../../../../simulation/fast-forward';
import { simulate } from '../../../../simulation/simulate';
import { makeGpuSlice, makeNode, makePod } from '../../../../testing/builders';
import {
  extendedResourceClaimName,
  extendedResourceClasses,
  extendedResourceRequests,
  type ExtendedResourceClass,
} from '../extended-resources';

const GPU = 'example.com/gpu';
const IMPLICIT = 'deviceclass.resource.kubernetes.io/';

type Requests = Record<string, string>;
/** Upstream's PodWrapper: Res adds con<n>, InitReq init-con<n>, SidecarReq sidecar-con<n>. */
function podOf(...steps: ['res' | 'init' | 'sidecar', Requests][]): Pod {
  const containers: unknown[] = [];
  const initContainers: unknown[] = [];
  for (const [kind, requests] of steps) {
    if (kind === 'res') containers.push({ name: `con${containers.length}`, resources: { requests } });
    else
      initContainers.push({
        name: `${kind === 'init' ? 'init-con' : 'sidecar-con'}${initContainers.length}`,
        ...(kind === 'sidecar' ? { restartPolicy: 'Always' } : {}),
        resources: { requests },
      });
  }
  return {
    metadata: { name: 'pod', namespace: 'default', uid: 'pod-uid' },
    spec: { containers, initContainers },
  } as unknown as Pod;
}
const classOf =
  (mapping: Record<string, string>) =>
  (resource: string): ExtendedResourceClass | undefined =>
    mapping[resource] ? { metadata: { name: mapping[resource] } } : undefined;

const pod1 = podOf(['res', { [GPU]: '1', [`${GPU}1`]: '2' }]);
const pod2 = podOf(['res', { [GPU]: '1' }], ['res', { [`${GPU}1`]: '2' }]);
const podInit = podOf(['res', { [GPU]: '1' }], ['init', { [`${GPU}init`]: '2' }]);
const podInit2 = podOf(
  ['res', { [GPU]: '1' }],
  ['init', { [`${GPU}init`]: '1' }],
  ['init', { [`${GPU}init`]: '2' }],
);
const podInit3 = podOf(
  ['res', { [GPU]: '1' }],
  ['init', { [`${GPU}init`]: '1' }],
  ['sidecar', { [`${GPU}init`]: '1' }],
  ['init', { [`${GPU}init`]: '2' }],
);
const pod1InitImplicit = podOf(['init', { [`${GPU}init`]: '1', [`${IMPLICIT}classInit`]: '2' }]);
const podInitImplicit = podOf(
  ['res', { [GPU]: '1' }],
  ['init', { [`${GPU}init`]: '1' }],
  ['init', { [`${IMPLICIT}classInit`]: '2' }],
);

const devMap = { [GPU]: 'class' };
const devMap2 = { [GPU]: 'class', [`${GPU}1`]: 'class1' };
const devMapInit = { [GPU]: 'class', [`${GPU}init`]: 'classInit', [`${IMPLICIT}classInit`]: 'classInit' };
const req = (name: string, deviceClassName: string, count: number) => ({
  name,
  exactly: { deviceClassName, allocationMode: 'ExactCount', count },
});

const requestRows: {
  name: string;
  pod: Pod;
  resources: string[];
  mapping: Record<string, string>;
  want: ReturnType<typeof req>[];
}[] = [
  { name: 'nil', pod: pod1, resources: [], mapping: {}, want: [] },
  {
    name: 'one resource match',
    pod: pod1,
    resources: [GPU],
    mapping: devMap,
    want: [req('container-0-request-0', 'class', 1)],
  },
  {
    name: 'one resource match, one resource not match',
    pod: pod1,
    resources: [GPU, `${GPU}1`],
    mapping: devMap,
    want: [req('container-0-request-0', 'class', 1)],
  },
  {
    name: 'two resources match',
    pod: pod1,
    resources: [GPU, `${GPU}1`],
    mapping: devMap2,
    want: [req('container-0-request-0', 'class', 1), req('container-0-request-1', 'class1', 2)],
  },
  {
    name: 'two containers match',
    pod: pod2,
    resources: [GPU, `${GPU}1`],
    mapping: devMap2,
    want: [req('container-0-request-0', 'class', 1), req('container-1-request-0', 'class1', 2)],
  },
  {
    name: 'one init container, one regular container',
    pod: podInit,
    resources: [GPU, `${GPU}init`],
    mapping: devMapInit,
    want: [req('container-0-request-0', 'classInit', 2), req('container-1-request-0', 'class', 1)],
  },
  {
    name: 'two init containers, one regular container',
    pod: podInit2,
    resources: [GPU, `${GPU}init`],
    mapping: devMapInit,
    want: [req('container-1-request-0', 'classInit', 2), req('container-2-request-0', 'class', 1)],
  },
  {
    name: 'three init containers, one sidecar, one regular container',
    pod: podInit3,
    resources: [GPU, `${GPU}init`],
    mapping: devMapInit,
    want: [
      req('container-1-request-0', 'classInit', 1),
      req('container-2-request-0', 'classInit', 2),
      req('container-3-request-0', 'class', 1),
    ],
  },
];

const m = (containerName: string, resourceName: string, requestName: string) => ({
  containerName,
  resourceName,
  requestName,
});
const mappingRows: {
  name: string;
  pod: Pod;
  resources: string[];
  mapping: Record<string, string>;
  want: ReturnType<typeof m>[];
}[] = [
  {
    name: 'one container, two requests',
    pod: pod1,
    resources: [GPU, `${GPU}1`],
    mapping: devMap2,
    want: [m('con0', GPU, 'container-0-request-0'), m('con0', `${GPU}1`, 'container-0-request-1')],
  },
  {
    name: 'one container, one explicit and one implicit request',
    pod: pod1InitImplicit,
    resources: [GPU, `${GPU}init`, `${IMPLICIT}classInit`],
    mapping: devMapInit,
    want: [
      m('init-con0', `${IMPLICIT}classInit`, 'container-0-request-0'),
      m('init-con0', `${GPU}init`, 'container-0-request-1'),
    ],
  },
  {
    name: 'two containers, two requests',
    pod: pod2,
    resources: [GPU, `${GPU}1`],
    mapping: devMap2,
    want: [m('con0', GPU, 'container-0-request-0'), m('con1', `${GPU}1`, 'container-1-request-0')],
  },
  {
    name: 'one init container, one regular container, one request',
    pod: podInit,
    resources: [GPU, `${GPU}init`],
    mapping: devMapInit,
    want: [m('init-con0', `${GPU}init`, 'container-0-request-0'), m('con0', GPU, 'container-1-request-0')],
  },
  {
    name: 'three containers (two are init container), two requests',
    pod: podInit2,
    resources: [GPU, `${GPU}init`],
    mapping: devMapInit,
    want: [
      m('init-con0', `${GPU}init`, 'container-1-request-0'),
      m('init-con1', `${GPU}init`, 'container-1-request-0'),
      m('con0', GPU, 'container-2-request-0'),
    ],
  },
  {
    name: 'three containers (two are init container), both explicit and implicit resources',
    pod: podInitImplicit,
    resources: [GPU, `${GPU}init`, `${IMPLICIT}classInit`],
    mapping: devMapInit,
    want: [
      m('init-con0', `${GPU}init`, 'container-0-request-0'),
      m('init-con1', `${IMPLICIT}classInit`, 'container-1-request-0'),
      m('con0', GPU, 'container-2-request-0'),
    ],
  },
  {
    name: 'four containers (two are init container, one sidecar), three requests',
    pod: podInit3,
    resources: [GPU, `${GPU}init`],
    mapping: devMapInit,
    want: [
      m('init-con0', `${GPU}init`, 'container-1-request-0'),
      m('sidecar-con1', `${GPU}init`, 'container-1-request-0'),
      m('init-con2', `${GPU}init`, 'container-2-request-0'),
      m('con0', GPU, 'container-3-request-0'),
    ],
  },
];

describe('extendedResourceRequests (upstream createRequestsAndMappings rows)', () => {
  it.each(requestRows)('requests: $name', ({ pod, resources, mapping, want }) => {
    expect(extendedResourceRequests(pod, resources, classOf(mapping)).requests).toEqual(want);
  });

  it.each(mappingRows)('mappings: $name', ({ pod, resources, mapping, want }) => {
    // Upstream's test sorts by request name, then container name.
    const got = [...extendedResourceRequests(pod, resources, classOf(mapping)).mappings].sort(
      (a, b) => a.requestName.localeCompare(b.requestName) || (a.containerName < b.containerName ? -1 : 1),
    );
    expect(got).toEqual(want);
  });
});

describe('extendedResourceClasses', () => {
  const cls = (name: string, extendedResourceName?: string, creationTimestamp?: string) => ({
    metadata: { name, ...(creationTimestamp ? { creationTimestamp } : {}) },
    spec: extendedResourceName ? { extendedResourceName } : {},
  });
  const mapOf = (...classes: ReturnType<typeof cls>[]) => {
    const store = new ClusterStore<{ metadata?: { name?: string } }>();
    for (const c of classes) store.set(c);
    return new Map([...extendedResourceClasses(store)].map(([k, v]) => [k, v.metadata?.name]));
  };

  it('maps every class by its implicit name and its extendedResourceName', () => {
    expect(mapOf(cls('gpu', GPU), cls('nic'))).toEqual(
      new Map([
        [`${IMPLICIT}gpu`, 'gpu'],
        [GPU, 'gpu'],
        [`${IMPLICIT}nic`, 'nic'],
      ]),
    );
  });

  it('two classes naming one resource: the newer wins, whatever the order', () => {
    const old = cls('gpu-old', GPU, '2029-01-01T00:00:00Z');
    const young = cls('gpu-new', GPU, '2029-06-01T00:00:00Z');
    expect(mapOf(old, young).get(GPU)).toBe('gpu-new');
    expect(mapOf(young, old).get(GPU)).toBe('gpu-new');
  });

  it('created at the same time: the smaller name wins', () => {
    const t = '2029-01-01T00:00:00Z';
    expect(mapOf(cls('b', GPU, t), cls('a', GPU, t)).get(GPU)).toBe('a');
    expect(mapOf(cls('a', GPU, t), cls('b', GPU, t)).get(GPU)).toBe('a');
  });

  it("the written claim's name: generateName cut to 58 characters and 5 hash characters", () => {
    const name = extendedResourceClaimName('default', 'trainer-0');
    expect(name).toMatch(/^trainer-0-extended-resources-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(extendedResourceClaimName('default', 'trainer-0')).toBe(name);
    expect(extendedResourceClaimName('default', 'x'.repeat(60))).toHaveLength(63);
  });
});

describe('fast-forward replays', () => {
  it('a pod asking for a mapped resource writes a claim at binding, so its record is not enough', () => {
    const objects = new ClusterObjects();
    const pod = makePod({ name: 'p', requests: [{ [GPU]: '1' }] });
    expect(bindingWritesObjects(pod, objects)).toBe(false);
    objects.deviceClasses.set({ metadata: { name: 'other' } });
    expect(bindingWritesObjects(pod, objects)).toBe(false);
    objects.deviceClasses.set({ metadata: { name: 'gpu' }, spec: { extendedResourceName: GPU } } as never);
    expect(bindingWritesObjects(pod, objects)).toBe(true);
  });
});

describe('extended resources in a simulation', () => {
  const items = (pods: unknown[], pluginGpus = '1') => [
    // n1: a device plugin advertises the GPUs; n2: only DRA slices.
    makeNode({ name: 'n1', allocatable: { cpu: '4', memory: '8Gi', pods: '110', [GPU]: pluginGpus } }),
    makeNode({ name: 'n2' }),
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: 'gpu' },
      spec: {
        extendedResourceName: GPU,
        selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }],
      },
    },
    makeGpuSlice('n2', 2),
    ...pods,
  ];
  const gpuPod = (name: string, count: string, resource = GPU) =>
    makePod({ name, requests: [{ [resource]: count }] });
  const run = (version: string, list: unknown[]) =>
    simulate(list as never, { compatibilityVersion: version, tieBreak: 'lowest-node-name' });

  it('1.37: the device plugin node serves one pod, the slices the next two, then nothing is left', () => {
    const out = run(
      '1.37.2',
      items([gpuPod('a', '1'), gpuPod('b', '1'), gpuPod('c', '1'), gpuPod('d', '1')]),
    );
    expect(out.results.map((r) => r.node)).toEqual(['n1', 'n2', 'n2', null]);
    expect(out.results[0].claims).toBeUndefined();
    const claimB = `default/${extendedResourceClaimName('default', 'b')}`;
    expect(out.results[1].claims).toEqual({ [claimB]: ['container-0-request-0 gpu.example.com/n2/gpu-0'] });
    expect(out.results[3].message).toBe(
      '0/2 nodes are available: 1 Insufficient example.com/gpu, 1 cannot allocate all claims. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
    );
  });

  it('the implicit class name asks for devices of that class', () => {
    const out = run('1.37.2', items([gpuPod('a', '2', `${IMPLICIT}gpu`)]));
    expect(out.results[0].node).toBe('n2');
    expect(Object.values(out.results[0].claims ?? {})).toEqual([
      ['container-0-request-0 gpu.example.com/n2/gpu-0', 'container-0-request-0 gpu.example.com/n2/gpu-1'],
    ]);
  });

  it('a node advertising 0 leaves the resource to DRA; a resource nothing maps does not fit', () => {
    expect(run('1.37.2', items([gpuPod('a', '1')], '0')).results[0].node).toBe('n2');
    const fpga = run(
      '1.37.2',
      items([makePod({ name: 'f', requests: [{ [GPU]: '1', 'example.com/fpga': '1' }] })]),
    );
    expect(fpga.results[0].message).toContain('2 Insufficient example.com/fpga');
  });

  it('1.35 (no DRAExtendedResource): the slices do not count, the gate turns them on at 1.36', () => {
    expect(run('1.35', items([gpuPod('a', '2')])).results[0].message).toMatch(
      /^0\/2 nodes are available: 2 Insufficient example.com\/gpu\./,
    );
    expect(run('1.36.3', items([gpuPod('a', '2')])).results[0].node).toBe('n2');
    const off = simulate(items([gpuPod('a', '2')]) as never, {
      compatibilityVersion: '1.37.2',
      tieBreak: 'lowest-node-name',
      featureGates: { DRAExtendedResource: false },
    });
    expect(off.results[0].node).toBeNull();
  });

  it('MostAllocated over the resource counts the class devices of a node without a device plugin', () => {
    const config = {
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [
        {
          schedulerName: 'default-scheduler',
          pluginConfig: [
            {
              name: 'NodeResourcesFit',
              args: { scoringStrategy: { type: 'MostAllocated', resources: [{ name: GPU, weight: 1 }] } },
            },
          ],
        },
      ],
    };
    const fitScores = (version: string) => {
      const out = simulate(items([gpuPod('a', '1')], '4') as never, {
        compatibilityVersion: version,
        tieBreak: 'lowest-node-name',
        schedulerConfiguration: config,
        explain: 'full',
      });
      return { node: out.results[0].node, fit: out.results[0].pluginScores?.NodeResourcesFit };
    };
    // n1: 1 of the plugin's 4; n2: 1 of its 2 devices.
    expect(fitScores('1.37.2')).toEqual({ node: 'n2', fit: { n1: 25, n2: 50 } });
    // Without the gate n2 neither fits nor scores.
    expect(fitScores('1.35')).toEqual({ node: 'n1', fit: { n1: 25 } });
  });

  it("a pod with a claim of its own on a device plugin's node fails PreBind, as upstream", () => {
    const own = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: { name: 'own', namespace: 'default' },
      spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } },
    };
    const pod = makePod({ name: 'p', requests: [{ [GPU]: '1' }] });
    (pod.spec as { resourceClaims?: unknown[] }).resourceClaims = [{ name: 'own', resourceClaimName: 'own' }];
    // n1's plugin serves the GPU and its slice the claim: the extended-resource claim has no requests.
    const list = [...items([pod, own]), makeGpuSlice('n1', 1)];
    const out = run('1.37.2', list);
    expect(out.results[0]).toMatchObject({
      outcome: 'error',
      error:
        'running PreBind plugin "DynamicResources": nil or empty request mappings, no update of pod default/p ExtendedResourceClaimStatus',
    });
  });

  it('a claim left from an earlier cycle is refused on every node and deleted', () => {
    const uid = 'uid-retry';
    const stale = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaim',
      metadata: {
        name: 'retry-extended-resources-abcde',
        namespace: 'default',
        annotations: { 'resource.kubernetes.io/extended-resource-claim': 'true' },
        ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'retry', uid, controller: true }],
      },
      spec: {
        devices: {
          requests: [{ name: 'container-0-request-0', exactly: { deviceClassName: 'gpu', count: 1 } }],
        },
      },
    };
    const out = run(
      '1.37.2',
      items([makePod({ name: 'retry', uid, requests: [{ [GPU]: '1' }] }), stale], '0'),
    );
    expect(out.results[0].message).toBe(
      '0/2 nodes are available: 2 cannot schedule extended resource claim. deletion of ResourceClaim completed, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
  });
});
