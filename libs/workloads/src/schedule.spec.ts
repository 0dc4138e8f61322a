import type { KubeObject } from '@schedlab/k8s';
import { expandWorkloadsFromText } from './input';
import { InvalidWorkloadsError, expandWorkloads } from './expand';
import { deleteAndRecreate, scheduleWorkloads } from './schedule';

const node = (name: string, zone: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone } },
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
  ...extra,
});
const container = (cpu = '100m') => [
  { name: 'app', image: 'nginx', resources: { requests: { cpu, memory: '64Mi' } } },
];
const deployment = (
  name: string,
  replicas: number,
  labels: Record<string, string>,
  spec: Record<string, unknown> = {},
): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: labels },
    template: { metadata: { labels }, spec: { containers: container(), ...spec } },
  },
});
const nodes = [node('node-a', 'z1'), node('node-b', 'z1'), node('node-c', 'z2')];
/** A ReplicaSet of one replica whose pods carry `app: <app>`. */
const replicaSet = (name: string, { app = name, namespace = 'default' } = {}): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  metadata: { name, namespace },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app } },
    template: { metadata: { labels: { app } }, spec: { containers: container() } },
  },
});
/** A controller reference to the ReplicaSet `name`; `extra` overrides any field. */
const controllerRef = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name,
  uid: `u-${name}`,
  controller: true,
  ...extra,
});
/** A pod bound to node-a, with these owner references (well-formed or not) when given. */
const runningPod = (name: string, ownerReferences?: unknown, namespace?: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      ...(ownerReferences === undefined ? {} : { ownerReferences }),
    },
    spec: { nodeName: 'node-a', containers: container() },
  }) as KubeObject;

describe('end to end with the engine', () => {
  it('system default spreading: Deployment pods are constrained through their ReplicaSet, bare pods with the same labels are not', () => {
    const bare: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: container() },
    };
    const sim = scheduleWorkloads([...nodes, deployment('web', 3, { app: 'web' }), bare], {
      seed: 1,
      explain: 'full',
    });
    expect(sim.summary.scheduled).toBe(4);
    const third = sim.results[2];
    expect(third.pod).toMatch(/^default\/web-/);
    const spreadThird = third.rawScores.PodTopologySpread;
    expect(spreadThird).toBeDefined();
    expect(new Set(Object.values(spreadThird)).size).toBeGreaterThan(1);
    const barePod = sim.results.find((r) => r.pod === 'default/bare')!;
    // No Service or controller selects the bare pod: the default constraints do not apply, the plugin skips it.
    expect(barePod.rawScores.PodTopologySpread).toBeUndefined();
  });

  it('with a Service selecting both, the ReplicaSet selector still narrows what Deployment pods count', () => {
    const service: KubeObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { app: 'web' } },
    };
    // Pods of an older ReplicaSet (another pod-template-hash) already run on node-c.
    const old = (i: number): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `web-old-${i}`,
        namespace: 'default',
        labels: { app: 'web', 'pod-template-hash': 'old' },
      },
      spec: { nodeName: 'node-c', containers: container() },
    });
    const bare: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare', namespace: 'default', labels: { app: 'web' } },
      spec: { containers: container() },
    };
    const sim = scheduleWorkloads(
      [...nodes, service, old(1), old(2), deployment('web', 1, { app: 'web' }), bare],
      {
        seed: 1,
        explain: 'full',
      },
    );
    const depPod = sim.results.find((r) => r.pod.startsWith('default/web-') && r.pod !== 'default/bare')!;
    const barePod = sim.results.find((r) => r.pod === 'default/bare')!;
    // The Deployment pod ignores the old pods (different hash); the bare pod, selected only by the Service, counts them.
    expect(depPod.rawScores.PodTopologySpread).toBeDefined();
    expect(barePod.rawScores.PodTopologySpread).toBeDefined();
    expect(depPod.rawScores.PodTopologySpread['node-c']).toBeLessThan(
      barePod.rawScores.PodTopologySpread['node-c'],
    );
    expect(barePod.node).not.toBe('node-c');
  });

  it('a DaemonSet lands exactly one pod on each node it may run on', () => {
    const tainted = node('node-gpu', 'z2', {
      spec: { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] },
    });
    const cordoned = node('node-cordoned', 'z2', {
      spec: {
        unschedulable: true,
        taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
      },
    });
    const ds: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { containers: container() } },
      },
    };
    const sim = scheduleWorkloads([...nodes, tainted, cordoned, ds], { seed: 3 });
    const placed = sim.results
      .filter((r) => r.outcome === 'scheduled')
      .map((r) => r.node)
      .sort();
    expect(placed).toEqual(['node-a', 'node-b', 'node-c', 'node-cordoned']);
    expect(sim.summary).toMatchObject({ pods: 4, scheduled: 4 });
    const pods = sim.expansion.pods;
    // Each pod was pinned to the node it landed on, and carries the controller's tolerations plus the 300s defaults.
    for (const r of sim.results) {
      const pod = pods.find((p) => `kube-system/${p.metadata!.name}` === r.pod)!;
      expect(
        pod.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms[0]
          .matchFields![0].values,
      ).toEqual([r.node]);
      expect(pod.spec!.tolerations!.map((t) => t.key)).toEqual([
        'node.kubernetes.io/not-ready',
        'node.kubernetes.io/unreachable',
        'node.kubernetes.io/disk-pressure',
        'node.kubernetes.io/memory-pressure',
        'node.kubernetes.io/pid-pressure',
        'node.kubernetes.io/unschedulable',
      ]);
    }
  });

  it('a ResourceQuota scoped to a PriorityClass rejects the excess high-priority pods with the apiserver message', () => {
    const items: KubeObject[] = [
      ...nodes,
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 },
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'high-pods', namespace: 'default' },
        spec: {
          hard: { pods: '2', 'requests.cpu': '10' },
          scopeSelector: {
            matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
          },
        },
      },
      deployment('critical', 4, { app: 'critical' }, { priorityClassName: 'high' }),
      deployment('batch', 3, { app: 'batch' }),
    ];
    const sim = scheduleWorkloads(items, { seed: 2 });
    expect(sim.expansion.rejected).toHaveLength(2);
    for (const r of sim.expansion.rejected) {
      expect(r.plugin).toBe('ResourceQuota');
      expect(r.message).toMatch(
        /^pods "critical-[a-z0-9]+-[bcdfghjklmnpqrstvwxz2456789]{5}" is forbidden: exceeded quota: high-pods, requested: pods=1, used: pods=2, limited: pods=2$/,
      );
    }
    const scheduled = sim.results.filter((r) => r.outcome === 'scheduled');
    expect(scheduled.filter((r) => r.pod.startsWith('default/critical-'))).toHaveLength(2);
    expect(scheduled.filter((r) => r.pod.startsWith('default/batch-'))).toHaveLength(3);
    expect(
      scheduled.filter((r) => r.pod.startsWith('default/critical-')).every((r) => r.priority === 1000),
    ).toBe(true);
    // Rejected pods never reach the scheduler.
    const rejectedNames = sim.expansion.rejected.map((r) => r.object.replace('Pod ', ''));
    expect(sim.results.some((r) => rejectedNames.includes(r.pod))).toBe(false);
  });

  it('StatefulSet OrderedReady advances one ordinal per scheduled pod and halts at the first unschedulable one', () => {
    const set: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 4,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: container('3') } },
      },
    };
    // Two nodes with 4 cpu each: only two 3-cpu pods fit.
    const sim = scheduleWorkloads([node('n1', 'z1'), node('n2', 'z1'), set], { seed: 0 });
    expect(sim.results.map((r) => [r.pod, r.outcome])).toEqual([
      ['default/db-0', 'scheduled'],
      ['default/db-1', 'scheduled'],
      ['default/db-2', 'unschedulable'],
    ]);
    expect(sim.haltedStatefulSets).toEqual(['default/db']);
    const parallel = scheduleWorkloads(
      [
        node('n1', 'z1'),
        node('n2', 'z1'),
        { ...set, spec: { ...(set.spec as object), podManagementPolicy: 'Parallel' } } as KubeObject,
      ],
      { seed: 0 },
    );
    expect(parallel.results).toHaveLength(4);
  });
});

describe('static pods and deletions', () => {
  it('mirror pods are not scheduled but take room on their node', () => {
    const big = (name: string) =>
      ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'default' },
        spec: { containers: container('3') },
      }) as KubeObject;
    const staticPod = {
      metadata: { name: 'etcd', namespace: 'kube-system' },
      spec: { containers: container('2') },
    };
    const sim = scheduleWorkloads([node('n1', 'z1'), node('n2', 'z1'), big('p1')], {
      seed: 0,
      explain: 'full',
      staticPods: [{ nodeName: 'n1', pod: staticPod }],
    });
    expect(sim.results.map((r) => r.pod)).toEqual(['default/p1']);
    expect(sim.results[0].node).toBe('n2');
    expect(sim.results[0].filterReasons['n1']).toEqual(['Insufficient cpu']);
    const n1 = sim.simulator.snapshot.get('n1')!;
    expect(n1.pods.map((p) => p.pod.metadata!.name)).toEqual(['etcd-n1']);
    expect(() =>
      scheduleWorkloads([node('n1', 'z1')], { staticPods: [{ nodeName: 'nope', pod: staticPod }] }),
    ).toThrow('static pod for node nope');
  });

  it('deleted pods are recreated by their controllers and rescheduled; bare pods are gone', () => {
    const bare: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'bare', namespace: 'default' },
      spec: { containers: container() },
    };
    const set: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: container() } },
      },
    };
    const sim = scheduleWorkloads([...nodes, deployment('web', 2, { app: 'web' }), set, bare], { seed: 5 });
    expect(sim.summary.scheduled).toBe(4);
    const web = sim.results.filter((r) => r.pod.startsWith('default/web-')).map((r) => r.pod);
    const out = deleteAndRecreate(sim, [web[0], 'default/db-0', 'default/bare'], { seed: 9 });
    expect(out.gone).toEqual(['default/bare']);
    expect(out.recreated.map((r) => r.deleted).sort()).toEqual([web[0], 'default/db-0'].sort());
    const webReplacement = out.recreated.find((r) => r.deleted === web[0])!;
    expect(webReplacement.replacement).not.toBe(web[0]);
    expect(webReplacement.replacement.startsWith(web[0].slice(0, web[0].length - 5))).toBe(true);
    expect(out.recreated.find((r) => r.deleted === 'default/db-0')!.replacement).toBe('default/db-0');
    expect(out.recreated.every((r) => r.result?.outcome === 'scheduled')).toBe(true);
    expect(() => deleteAndRecreate(sim, ['default/ghost'])).toThrow('no running pod default/ghost');
  });
});

describe('input handling', () => {
  const yaml = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
---
apiVersion: v1
kind: List
items:
- apiVersion: batch/v1
  kind: Job
  metadata: {name: pi, namespace: jobs}
  spec:
    parallelism: 2
    completions: 5
    template: {spec: {restartPolicy: Never, containers: [{name: c, image: perl}]}}
`;
  it('multi-document YAML with Lists: workloads expanded, unknown kinds reported and skipped', () => {
    const r = expandWorkloadsFromText(yaml, { seed: 4 });
    expect(r.pods).toHaveLength(4);
    expect(r.replicaSets).toHaveLength(1);
    expect(r.jobs.map((j) => j.metadata!.name)).toEqual(['pi']);
    expect(r.skipped).toEqual([
      { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', reason: 'unknown kind' },
    ]);
  });

  const broken = `${yaml}---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: -2
  selector: {matchLabels: {app: db}}
  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: x}]}}
`;
  it('an invalid object stops the whole file, naming kind, namespace, name and field', () => {
    expect(() => expandWorkloadsFromText(broken)).toThrow(InvalidWorkloadsError);
    expect(() => expandWorkloadsFromText(broken)).toThrow(
      'StatefulSet data/db: spec.replicas: Invalid value: -2',
    );
  });

  it('bestEffort applies the valid objects and reports the invalid ones', () => {
    const r = expandWorkloadsFromText(broken, { bestEffort: true });
    expect(r.pods).toHaveLength(4);
    expect(r.rejected).toEqual([
      { object: 'StatefulSet data/db', message: expect.stringContaining('spec.replicas: Invalid value: -2') },
    ]);
    const schemaBroken = `${yaml}---
apiVersion: v1
kind: Pod
metadata: {name: bad}
spec: {containers: [{name: c, resources: {requests: {cpu: lots}}}]}
`;
    expect(() => expandWorkloadsFromText(schemaBroken)).toThrow('Pod bad');
    const best = expandWorkloadsFromText(schemaBroken, { bestEffort: true });
    expect(best.pods).toHaveLength(4);
    expect(best.rejected[0].object).toBe('Pod bad');
  });

  it('Helm-rendered output: source comments and empty documents are fine', () => {
    const helm = `---
# Source: web/templates/service.yaml
apiVersion: v1
kind: Service
metadata:
  name: release-web
spec:
  selector: {app.kubernetes.io/name: web}
---
# Source: web/templates/empty.yaml
---
# Source: web/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: release-web
  labels: {helm.sh/chart: web-1.0.0}
spec:
  replicas: 2
  selector: {matchLabels: {app.kubernetes.io/name: web}}
  template:
    metadata: {labels: {app.kubernetes.io/name: web}}
    spec: {containers: [{name: web, image: nginx, resources: {requests: {cpu: 100m}}}]}
`;
    const r = expandWorkloadsFromText(helm, { seed: 1 });
    expect(r.pods).toHaveLength(2);
    expect(r.pods[0].metadata!.name).toMatch(/^release-web-[a-z0-9]+-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(r.passthrough.map((o) => o.kind)).toEqual(['Service']);
    const best = expandWorkloadsFromText(helm, { seed: 1, bestEffort: true });
    expect(best.pods.map((p) => p.metadata!.name)).toEqual(r.pods.map((p) => p.metadata!.name));
  });

  it('workloads whose pods are already in the input are not expanded again', () => {
    const rs = replicaSet('web-abc', { app: 'web' });
    const pod = runningPod('web-abc-xyz12', [controllerRef('web-abc')], 'default');
    const r = expandWorkloads([...nodes, rs, pod]);
    expect(r.pods).toEqual([]);
    expect(r.alreadyRunning).toEqual(['ReplicaSet default/web-abc']);
  });

  it('a workload runs already only where its controller reference matches kind, name and namespace', () => {
    const rs = (name: string, namespace = 'default') => replicaSet(name, { namespace });
    const pod = (name: string, owner: Record<string, unknown>, namespace?: string) =>
      runningPod(name, [owner], namespace);
    const ref = controllerRef;
    const items = [
      ...nodes,
      rs('a'),
      rs('b'),
      rs('c', 'other'),
      rs('d'),
      rs('e'),
      rs('f', 'other'),
      pod('a-1', ref('a')), // no namespace: "default"
      pod('b-1', ref('b', { controller: false })),
      pod('c-1', ref('c'), 'default'),
      pod('d-1', ref('d', { kind: 'StatefulSet' })),
      pod('e-1', ref('e', { name: 42 })),
      pod('f-1', ref('f'), 'other'),
    ];
    const r = expandWorkloads(items, { bestEffort: true });
    expect(r.alreadyRunning).toEqual(['ReplicaSet default/a', 'ReplicaSet other/f']);
    expect(r.pods.map((p) => p.metadata!.name!.split('-')[0]).sort()).toEqual(['b', 'c', 'd', 'e']);
    // A Deployment runs already once a ReplicaSet it controls is in the input.
    const owned = {
      ...rs('web-1'),
      metadata: { name: 'web-1', ownerReferences: [ref('web', { kind: 'Deployment' })] },
    };
    const withSet = expandWorkloads([...nodes, deployment('web', 1, { app: 'web' }), owned]);
    expect(withSet.alreadyRunning).toEqual(['Deployment default/web']);
    expect(expandWorkloads([...nodes, deployment('web', 1, { app: 'web' })]).alreadyRunning).toEqual([]);
  });

  it('a ResourceQuota counts the pods already running in its namespace (a pod without one is in "default")', () => {
    const quota: KubeObject = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'pods' },
      spec: { hard: { pods: '2' } },
    };
    const running = (name: string, namespace?: string) => runningPod(name, undefined, namespace);
    const expansion = (...items: KubeObject[]) =>
      expandWorkloads([...nodes, quota, ...items, deployment('web', 2, { app: 'web' })]);
    expect(expansion().pods).toHaveLength(2);
    expect(expansion(running('a', 'other'), running('b', 'other')).pods).toHaveLength(2);
    const counted = expansion(running('a'), running('b', 'other'));
    expect(counted.pods).toHaveLength(1);
    expect(counted.rejected.map((r) => r.plugin)).toEqual(['ResourceQuota']);
    expect(expansion(running('a'), running('b', 'default')).pods).toHaveLength(0);
  });

  it('an owner reference list that is not a list of objects fails as before, and only where it is read', () => {
    const set = replicaSet('a');
    const stray = (namespace: string, ownerReferences: unknown) =>
      runningPod('stray', ownerReferences, namespace);
    // In another namespace the scan never reads it.
    expect(expandWorkloads([...nodes, set, stray('other', { a: 1 })]).pods).toHaveLength(1);
    expect(expandWorkloads([...nodes, set, stray('other', [null])]).pods).toHaveLength(1);
    // In the workload's namespace it does, and fails.
    expect(() => expandWorkloads([...nodes, set, stray('default', { a: 1 })])).toThrow(TypeError);
    expect(() => expandWorkloads([...nodes, set, stray('default', [null])])).toThrow(TypeError);
    // Unless the workload's own pod comes first: the search stops there.
    const own = runningPod('a-1', [controllerRef('a')], 'default');
    expect(expandWorkloads([...nodes, set, own, stray('default', { a: 1 })]).alreadyRunning).toEqual([
      'ReplicaSet default/a',
    ]);
    expect(() => expandWorkloads([...nodes, set, stray('default', { a: 1 }), own])).toThrow(TypeError);
  });
});

const draItems = (replicas: number): KubeObject[] => {
  const gpuNode = (name: string): KubeObject => node(name, 'z1');
  const slice = (nodeName: string, devices: string[]): KubeObject => ({
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceSlice',
    metadata: { name: nodeName },
    spec: {
      driver: 'gpu.example.com',
      pool: { name: nodeName, generation: 1, resourceSliceCount: 1 },
      nodeName,
      devices: devices.map((name) => ({ name })),
    },
  });
  return [
    gpuNode('gpu-1'),
    gpuNode('gpu-2'),
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: 'gpu' },
      spec: { selectors: [{ cel: { expression: 'device.driver == "gpu.example.com"' } }] },
    },
    slice('gpu-1', ['gpu-0', 'gpu-1']),
    slice('gpu-2', ['gpu-0']),
    {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 'one-gpu', namespace: 'default' },
      spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu' } }] } } },
    },
    deployment(
      'trainer',
      replicas,
      { app: 'trainer' },
      {
        resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'one-gpu' }],
      },
    ),
  ];
};

describe('DRA claim templates', () => {
  it("a Deployment's pods each get their own claim from the template (resourceclaim controller)", () => {
    const sim = scheduleWorkloads(draItems(4), { tieBreak: 'lowest-node-name' });
    const scheduled = sim.results.filter((r) => r.outcome === 'scheduled');
    // Three devices, four replicas: each scheduled pod holds one device through its own claim.
    expect(scheduled).toHaveLength(3);
    const claimNames = scheduled.map((r) => Object.keys(r.claims ?? {}));
    for (const [i, r] of scheduled.entries())
      expect(claimNames[i]).toEqual([expect.stringMatching(new RegExp(`^${r.pod}-gpu-[a-z0-9]{5}$`))]);
    const devices = scheduled.flatMap((r) => Object.values(r.claims ?? {}).flat());
    expect(new Set(devices).size).toBe(3);
    const pending = sim.results.find((r) => r.outcome !== 'scheduled');
    expect(pending?.message).toContain('cannot allocate all claims');
  });
  it('a replacement for a deleted pod gets its own claim from the template', () => {
    const sim = scheduleWorkloads(draItems(2), { tieBreak: 'lowest-node-name' });
    const victim = sim.results[0].pod;
    const { recreated } = deleteAndRecreate(sim, [victim]);
    const replacement = recreated[0].result!;
    expect(replacement.outcome).toBe('scheduled');
    expect(Object.keys(replacement.claims ?? {})).toEqual([
      expect.stringMatching(new RegExp(`^${replacement.pod}-gpu-[a-z0-9]{5}$`)),
    ]);
  });
});
