import type { Pod, PriorityClass } from '@schedlab/k8s';
import { admitPod } from './chain';
import { admitDefaultTolerationSeconds } from './default-toleration-seconds';
import { ForbiddenError } from './errors';
import {
  LimitRange,
  applyLimitRangeDefaults,
  defaultLimitRangeItem,
  limitRangeViolations,
} from './limit-range';
import { QuotaTracker, ResourceQuota } from './resource-quota';
import { admitRuntimeClass } from './runtime-class';

type Res = { requests?: Record<string, string>; limits?: Record<string, string> };
const pod = (
  name: string,
  containers: Res[],
  extra: Partial<NonNullable<Pod['spec']>> = {},
  ns = 'default',
): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: ns },
  spec: {
    containers: containers.map((resources, i) => ({ name: `c${i}`, image: 'x', resources })),
    ...extra,
  },
});
const limitRange = (...limits: LimitRange['spec']['limits']): LimitRange => ({
  kind: 'LimitRange',
  metadata: { name: 'lr', namespace: 'default' },
  spec: { limits },
});

describe('DefaultTolerationSeconds', () => {
  it('adds not-ready and unreachable NoExecute for 300s', () => {
    expect(admitDefaultTolerationSeconds(pod('p', [{}])).spec!.tolerations).toEqual([
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
    ]);
  });
  it.each([
    [
      'an explicit not-ready toleration keeps its own seconds',
      [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 60,
        },
      ],
      ['node.kubernetes.io/unreachable'],
    ],
    ['an empty-key Exists toleration tolerates both', [{ operator: 'Exists' }], []],
    [
      'an empty-effect toleration for unreachable counts',
      [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }],
      ['node.kubernetes.io/not-ready'],
    ],
    [
      'a NoSchedule toleration does not',
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
      ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'],
    ],
  ])('%s', (_, tolerations, addedKeys) => {
    const out = admitDefaultTolerationSeconds(pod('p', [{}], { tolerations: tolerations as never }));
    expect(out.spec!.tolerations!.slice(tolerations.length).map((t) => t.key)).toEqual(addedKeys);
  });
});

describe('LimitRanger', () => {
  it('LimitRange defaulting: default from max, defaultRequest from default then min', () => {
    expect(defaultLimitRangeItem({ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } })).toEqual({
      type: 'Container',
      max: { cpu: '2' },
      min: { memory: '64Mi' },
      default: { cpu: '2' },
      defaultRequest: { cpu: '2', memory: '64Mi' },
    });
  });

  it('fills unset requests and limits per container and records the annotation', () => {
    const lr = limitRange({
      type: 'Container',
      default: { cpu: '500m', memory: '512Mi' },
      defaultRequest: { cpu: '100m', memory: '256Mi' },
    });
    const out = applyLimitRangeDefaults(pod('p', [{ requests: { cpu: '200m' }, limits: {} }]), [lr]);
    expect(out.spec!.containers[0].resources).toEqual({
      requests: { cpu: '200m', memory: '256Mi' },
      limits: { cpu: '500m', memory: '512Mi' },
    });
    expect(out.metadata!.annotations!['kubernetes.io/limit-ranger']).toBe(
      'LimitRanger plugin set: memory request for container c0; cpu, memory limit for container c0',
    );
    // Another namespace's LimitRange does not apply.
    expect(applyLimitRangeDefaults(pod('p', [{}], {}, 'other'), [lr]).spec!.containers[0].resources).toEqual(
      {},
    );
  });

  // Cases after upstream limitranger TestPodLimitFunc (facts: wording, per Container / per Pod, ratio).
  const violations: Array<[string, LimitRange, Pod, string[]]> = [
    [
      'container below min request',
      limitRange({ type: 'Container', min: { cpu: '100m' } }),
      pod('p', [{ requests: { cpu: '50m' } }]),
      ['minimum cpu usage per Container is 100m, but request is 50m'],
    ],
    [
      'container without request vs min',
      limitRange({ type: 'Container', min: { cpu: '100m' } }),
      pod('p', [{}]),
      ['minimum cpu usage per Container is 100m.  No request is specified'],
    ],
    [
      'container limit below min',
      limitRange({ type: 'Container', min: { memory: '100Mi' } }),
      pod('p', [{ requests: { memory: '200Mi' }, limits: { memory: '50Mi' } }]),
      ['minimum memory usage per Container is 100Mi, but limit is 50Mi'],
    ],
    [
      'container above max limit',
      limitRange({ type: 'Container', max: { memory: '1Gi' } }),
      pod('p', [{ limits: { memory: '2Gi' } }]),
      ['maximum memory usage per Container is 1Gi, but limit is 2Gi'],
    ],
    [
      'container without limit vs max',
      limitRange({ type: 'Container', max: { memory: '1Gi' } }),
      pod('p', [{ requests: { memory: '1Gi' } }]),
      ['maximum memory usage per Container is 1Gi.  No limit is specified'],
    ],
    [
      'ratio exceeded',
      limitRange({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }),
      pod('p', [{ requests: { cpu: '100m' }, limits: { cpu: '300m' } }]),
      ['cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000'],
    ],
    [
      'ratio without request',
      limitRange({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }),
      pod('p', [{ limits: { cpu: '300m' } }]),
      ['cpu max limit to request ratio per Container is 2, but no request is specified or request is 0'],
    ],
    [
      'ratio within bound',
      limitRange({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }),
      pod('p', [{ requests: { cpu: '150m' }, limits: { cpu: '300m' } }]),
      [],
    ],
    [
      'pod max over the sum of containers',
      limitRange({ type: 'Pod', max: { cpu: '1' } }),
      pod('p', [
        { requests: { cpu: '400m' }, limits: { cpu: '600m' } },
        { requests: { cpu: '400m' }, limits: { cpu: '600m' } },
      ]),
      ['maximum cpu usage per Pod is 1, but limit is 1200m'],
    ],
    [
      'pod max: sidecars run alongside app containers, init phases take the max',
      limitRange({ type: 'Pod', max: { cpu: '1' } }),
      {
        ...pod('p', [{ requests: { cpu: '500m' }, limits: { cpu: '500m' } }]),
        spec: {
          containers: [{ name: 'app', resources: { requests: { cpu: '500m' }, limits: { cpu: '500m' } } }],
          initContainers: [
            {
              name: 'proxy',
              restartPolicy: 'Always',
              resources: { requests: { cpu: '300m' }, limits: { cpu: '300m' } },
            },
            { name: 'migrate', resources: { requests: { cpu: '900m' }, limits: { cpu: '900m' } } },
          ],
        },
      },
      ['maximum cpu usage per Pod is 1, but limit is 1200m'],
    ],
    [
      'pod min ignores overhead',
      limitRange({ type: 'Pod', min: { cpu: '300m' } }),
      pod('p', [{ requests: { cpu: '200m' } }], { overhead: { cpu: '100m' } }),
      ['minimum cpu usage per Pod is 300m, but request is 200m'],
    ],
    [
      'several violations aggregate',
      limitRange({ type: 'Container', min: { cpu: '100m', memory: '64Mi' } }),
      pod('p', [{ requests: { cpu: '50m', memory: '32Mi' } }]),
      [
        'minimum cpu usage per Container is 100m, but request is 50m',
        'minimum memory usage per Container is 64Mi, but request is 32Mi',
      ],
    ],
  ];
  it.each(violations)('%s', (_, lr, p, expected) => {
    expect(limitRangeViolations(p, [lr])).toEqual(expected);
  });
});

describe('RuntimeClass', () => {
  const rc = {
    metadata: { name: 'kata' },
    handler: 'kata',
    overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: {
      nodeSelector: { runtime: 'kata' },
      tolerations: [{ key: 'kata', operator: 'Exists' as const }],
    },
  };
  it('sets overhead and merges node selector and tolerations', () => {
    const out = admitRuntimeClass(pod('p', [{}], { runtimeClassName: 'kata', nodeSelector: { zone: 'a' } }), [
      rc,
    ]);
    expect(out.spec!.overhead).toEqual({ cpu: '250m', memory: '120Mi' });
    expect(out.spec!.nodeSelector).toEqual({ zone: 'a', runtime: 'kata' });
    expect(out.spec!.tolerations).toEqual([{ key: 'kata', operator: 'Exists' }]);
  });
  it.each([
    [{ runtimeClassName: 'gvisor' }, 'pod rejected: RuntimeClass "gvisor" not found'],
    [
      { runtimeClassName: 'kata', overhead: { cpu: '1' } },
      "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
    ],
    [
      { runtimeClassName: 'kata', nodeSelector: { runtime: 'runc' } },
      'conflict: runtimeClass.scheduling.nodeSelector[runtime] = kata; pod.spec.nodeSelector[runtime] = runc',
    ],
  ])('rejects %j', (spec, message) => {
    expect(() => admitRuntimeClass(pod('p', [{}], spec as never), [rc])).toThrow(message);
  });
});

describe('ResourceQuota', () => {
  const quota = (
    name: string,
    hard: Record<string, string>,
    extra: Partial<NonNullable<ResourceQuota['spec']>> = {},
    used?: Record<string, string>,
  ): ResourceQuota => ({
    kind: 'ResourceQuota',
    metadata: { name, namespace: 'default' },
    spec: { hard, ...extra },
    ...(used ? { status: { used } } : {}),
  });

  it('admits until hard is reached, then prints exceeded quota like the apiserver', () => {
    const t = new QuotaTracker([quota('compute', { 'requests.cpu': '1', pods: '10' })]);
    const p = (n: string) => pod(n, [{ requests: { cpu: '400m' } }]);
    expect(t.admit({ ...p('a'), kind: 'Pod' })).toBeUndefined();
    expect(t.admit({ ...p('b'), kind: 'Pod' })).toBeUndefined();
    expect(t.admit({ ...p('c'), kind: 'Pod' })).toBe(
      'exceeded quota: compute, requested: requests.cpu=400m, used: requests.cpu=800m, limited: requests.cpu=1',
    );
    expect(t.usage()).toEqual({ 'default/compute': { 'requests.cpu': '800m', pods: '2' } });
  });

  it('starts from status.used, else from existing pods', () => {
    const fromStatus = new QuotaTracker([quota('q', { pods: '3' }, {}, { pods: '3' })]);
    expect(fromStatus.admit({ ...pod('a', [{}]), kind: 'Pod' })).toBe(
      'exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3',
    );
    const fromPods = new QuotaTracker(
      [quota('q', { pods: '2', 'limits.memory': '1Gi' })],
      [
        { ...pod('x', [{ limits: { memory: '512Mi' } }]), kind: 'Pod' },
        { ...pod('done', [{ limits: { memory: '512Mi' } }]), kind: 'Pod', status: { phase: 'Succeeded' } },
      ],
    );
    expect(fromPods.admit({ ...pod('a', [{ limits: { memory: '768Mi' } }]), kind: 'Pod' })).toBe(
      'exceeded quota: q, requested: limits.memory=768Mi, used: limits.memory=512Mi, limited: limits.memory=1Gi',
    );
  });

  it('requires every container to state quota-limited cpu/memory', () => {
    const t = new QuotaTracker([quota('compute', { 'limits.memory': '1Gi', 'requests.cpu': '2' })]);
    expect(t.admit({ ...pod('a', [{ requests: { cpu: '1' } }]), kind: 'Pod' })).toBe(
      'failed quota: compute: must specify limits.memory',
    );
  });

  it('scopes: PriorityClass selector, BestEffort, Terminating', () => {
    const t = new QuotaTracker([
      quota(
        'high',
        { pods: '1' },
        {
          scopeSelector: {
            matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
          },
        },
      ),
      quota('besteffort', { pods: '1' }, { scopes: ['BestEffort'] }),
      quota('terminating', { 'requests.cpu': '1' }, { scopes: ['Terminating'] }),
    ]);
    const high = (n: string) => ({
      ...pod(n, [{ requests: { cpu: '100m' } }], { priorityClassName: 'high' }),
      kind: 'Pod',
    });
    expect(t.admit(high('h1'))).toBeUndefined();
    expect(t.admit(high('h2'))).toBe(
      'exceeded quota: high, requested: pods=1, used: pods=1, limited: pods=1',
    );
    expect(
      t.admit({ ...pod('low', [{ requests: { cpu: '100m' } }], { priorityClassName: 'low' }), kind: 'Pod' }),
    ).toBeUndefined();
    expect(t.admit({ ...pod('be1', [{}]), kind: 'Pod' })).toBeUndefined();
    expect(t.admit({ ...pod('be2', [{}]), kind: 'Pod' })).toBe(
      'exceeded quota: besteffort, requested: pods=1, used: pods=1, limited: pods=1',
    );
    expect(
      t.admit({ ...pod('t', [{ requests: { cpu: '2' } }], { activeDeadlineSeconds: 60 }), kind: 'Pod' }),
    ).toBe(
      'exceeded quota: terminating, requested: requests.cpu=2, used: requests.cpu=0, limited: requests.cpu=1',
    );
  });

  it('object counts and storage for claims', () => {
    const t = new QuotaTracker([
      quota('objects', {
        'count/deployments.apps': '1',
        persistentvolumeclaims: '5',
        'requests.storage': '15Gi',
      }),
    ]);
    const d = { kind: 'Deployment', metadata: { name: 'web', namespace: 'default' } };
    expect(t.admit(d)).toBeUndefined();
    expect(t.admit({ ...d, metadata: { name: 'api', namespace: 'default' } })).toBe(
      'exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1',
    );
    const claim = (n: string) => ({
      kind: 'PersistentVolumeClaim',
      metadata: { name: n, namespace: 'default' },
      spec: { resources: { requests: { storage: '10Gi' } } },
    });
    expect(t.admit(claim('a'))).toBeUndefined();
    expect(t.admit(claim('b'))).toBe(
      'exceeded quota: objects, requested: requests.storage=10Gi, used: requests.storage=10Gi, limited: requests.storage=15Gi',
    );
  });
});

describe('admission chain', () => {
  const classes: PriorityClass[] = [{ metadata: { name: 'high' }, value: 1000 }];
  const policy = (over: Partial<Parameters<typeof admitPod>[1]> = {}) => ({
    priorityClasses: classes,
    limitRanges: [],
    runtimeClasses: [],
    quotas: new QuotaTracker([]),
    ...over,
  });

  it('resolves priority, adds toleration seconds and defaults before validating', () => {
    const lr = limitRange({ type: 'Container', defaultRequest: { cpu: '100m' }, min: { cpu: '100m' } });
    const out = admitPod(pod('p', [{}], { priorityClassName: 'high' }), policy({ limitRanges: [lr] }));
    expect(out.spec!.priority).toBe(1000);
    expect(out.spec!.containers[0].resources!.requests).toEqual({ cpu: '100m' });
    expect(out.spec!.tolerations).toHaveLength(2);
  });

  it('quota sees the LimitRange defaults and RuntimeClass overhead', () => {
    const lr = limitRange({ type: 'Container', defaultRequest: { cpu: '300m' } });
    const rc = { metadata: { name: 'kata' }, handler: 'kata', overhead: { podFixed: { cpu: '250m' } } };
    const quotas = new QuotaTracker([
      { metadata: { name: 'cpu', namespace: 'default' }, spec: { hard: { 'requests.cpu': '1' } } },
    ]);
    const p = policy({ limitRanges: [lr], runtimeClasses: [rc], quotas });
    admitPod(pod('a', [{}], { runtimeClassName: 'kata' }), p);
    expect(() => admitPod(pod('b', [{}], { runtimeClassName: 'kata' }), p)).toThrow(
      'pods "b" is forbidden: exceeded quota: cpu, requested: requests.cpu=550m, used: requests.cpu=550m, limited: requests.cpu=1',
    );
  });

  it('rejections are Forbidden errors naming the plugin; mutating ones show the generateName prefix', () => {
    try {
      admitPod(
        {
          ...pod('', [{}], { priorityClassName: 'missing' }),
          metadata: { name: 'web-abc-x2x4z', generateName: 'web-abc-', namespace: 'default' },
        },
        policy(),
      );
      throw new Error('not rejected');
    } catch (e) {
      expect(e).toBeInstanceOf(ForbiddenError);
      expect((e as ForbiddenError).plugin).toBe('Priority');
      expect((e as Error).message).toBe(
        'pods "web-abc-" is forbidden: no PriorityClass with name missing was found',
      );
    }
    // Validating plugins run after name generation.
    const lr = limitRange({ type: 'Container', min: { cpu: '100m' } });
    const generated = { ...pod('web-abc-x2x4z', [{ requests: { cpu: '50m' } }]) };
    generated.metadata!.generateName = 'web-abc-';
    expect(() => admitPod(generated, policy({ limitRanges: [lr] }))).toThrow(
      'pods "web-abc-x2x4z" is forbidden: minimum cpu usage per Container is 100m, but request is 50m',
    );
  });
});
