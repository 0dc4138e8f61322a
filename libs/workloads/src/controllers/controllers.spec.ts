import type { DaemonSet, Deployment, Node, Pod, StatefulSet } from '@schedlab/k8s';
import type { Job } from 'kubernetes-types/batch/v1';
import { seededRandomInt as seededRandom } from '@schedlab/k8s';
import { SAFE_ALPHABET, fnv32a, safeEncodeString } from '../naming';
import {
  daemonPodTolerations,
  daemonSetPods,
  nodeShouldRunDaemonPod,
  pinToNode,
  reconcileDaemonSet,
} from './daemonset';
import { deploymentReplicaSet, expandDeployment } from './deployment';
import { podTemplateHash } from './hash';
import { jobPods } from './job';
import { recreateDeletedPods } from './recreate';
import { replicationControllerPods } from './replicaset';
import { StatefulSetController } from './statefulset';
import { MIRROR_ANNOTATION, mirrorPod } from './static-pods';

const template = (labels: Record<string, string>, extra: Partial<NonNullable<Pod['spec']>> = {}) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m' } } }], ...extra },
});

const node = (name: string, extra: Partial<Node> = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  ...extra,
});

describe('naming', () => {
  it('FNV-32a matches the reference vectors', () => {
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
    expect(fnv32a('foobar')).toBe(0xbf9cf968);
  });
  it('SafeEncodeString maps bytes modulo 27 onto the safe alphabet', () => {
    // '0' is byte 48 → 48 % 27 = 21 → '4'; '9' is 57 → 3 → 'f'.
    expect(safeEncodeString('09')).toBe('4f');
    expect(SAFE_ALPHABET).toHaveLength(27);
  });
});

describe('Deployment', () => {
  const deployment: Deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      namespace: 'shop',
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', team: 'a' },
    },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) },
  };

  it('creates <deployment>-<pod-template-hash> with the hash in labels, selector and template', () => {
    const rs = deploymentReplicaSet(deployment);
    const hash = podTemplateHash(deployment.spec!.template);
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    expect(rs.metadata!.name).toBe(`web-${hash}`);
    expect(rs.metadata!.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec!.selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec!.template!.metadata!.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.metadata!.annotations).toEqual({
      team: 'a',
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '3',
      'deployment.kubernetes.io/max-replicas': '4',
    });
    expect(rs.metadata!.ownerReferences).toEqual([
      expect.objectContaining({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        controller: true,
        blockOwnerDeletion: true,
      }),
    ]);
  });

  it('hash is independent of key order and changes with the template and the collision count', () => {
    const a = podTemplateHash({
      metadata: { labels: { a: '1', b: '2' } },
      spec: { containers: [{ name: 'c' }] },
    });
    const b = podTemplateHash({
      spec: { containers: [{ name: 'c' }] },
      metadata: { labels: { b: '2', a: '1' } },
    });
    expect(a).toBe(b);
    expect(
      podTemplateHash({ metadata: { labels: { a: '1' } }, spec: { containers: [{ name: 'c' }] } }),
    ).not.toBe(a);
    expect(
      podTemplateHash({ metadata: { labels: { a: '1', b: '2' } }, spec: { containers: [{ name: 'c' }] } }, 1),
    ).not.toBe(a);
  });

  it('pods are <rs>-<5 safe characters>, owned by the ReplicaSet, seeded', () => {
    const { replicaSet, pods } = expandDeployment(deployment, seededRandom(7));
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      expect(p.metadata!.name).toMatch(
        new RegExp(`^${replicaSet.metadata!.name}-[bcdfghjklmnpqrstvwxz2456789]{5}$`),
      );
      expect(p.metadata!.generateName).toBe(`${replicaSet.metadata!.name}-`);
      expect(p.metadata!.namespace).toBe('shop');
      expect(p.metadata!.labels).toEqual({
        app: 'web',
        'pod-template-hash': replicaSet.metadata!.labels!['pod-template-hash'],
      });
      expect(p.metadata!.ownerReferences).toEqual([
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: replicaSet.metadata!.name,
          uid: replicaSet.metadata!.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ]);
    }
    expect(new Set(pods.map((p) => p.metadata!.name)).size).toBe(3);
    expect(expandDeployment(deployment, seededRandom(7)).pods.map((p) => p.metadata!.name)).toEqual(
      pods.map((p) => p.metadata!.name),
    );
    expect(expandDeployment(deployment, seededRandom(8)).pods.map((p) => p.metadata!.name)).not.toEqual(
      pods.map((p) => p.metadata!.name),
    );
  });

  it('maxSurge: Recreate adds none, an integer or a rounded-up percentage', () => {
    const surge = (strategy: NonNullable<Deployment['spec']>['strategy'], replicas = 10) =>
      deploymentReplicaSet({ ...deployment, spec: { ...deployment.spec!, replicas, strategy } }).metadata!
        .annotations!['deployment.kubernetes.io/max-replicas'];
    expect(surge({ type: 'Recreate' })).toBe('10');
    expect(surge({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } })).toBe('12');
    expect(surge({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '33%' } })).toBe('14');
    expect(() => surge({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 'lots' } })).toThrow(
      'Deployment shop/web: spec.strategy.rollingUpdate.maxSurge',
    );
  });

  it('rejects a missing template and negative replicas, naming the field', () => {
    expect(() =>
      deploymentReplicaSet({ ...deployment, spec: { ...deployment.spec!, replicas: -1 } }),
    ).toThrow('Deployment shop/web: spec.replicas: Invalid value: -1');
    expect(() =>
      deploymentReplicaSet({ ...deployment, spec: { selector: {}, template: { spec: { containers: [] } } } }),
    ).toThrow('spec.template.spec.containers: Required value');
  });
});

describe('ReplicationController', () => {
  it('defaults the selector from the template labels and owns its pods with apiVersion v1', () => {
    const pods = replicationControllerPods(
      {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'rc' },
        spec: { replicas: 2, template: template({ app: 'x' }) },
      },
      seededRandom(1),
    );
    expect(pods).toHaveLength(2);
    expect(pods[0].metadata!.ownerReferences![0]).toMatchObject({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      name: 'rc',
      controller: true,
    });
    expect(pods[0].metadata!.namespace).toBe('default');
  });
});

describe('StatefulSet', () => {
  const set = (extra: Partial<NonNullable<StatefulSet['spec']>> = {}): StatefulSet => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'data' },
    spec: {
      replicas: 3,
      serviceName: 'db-headless',
      selector: { matchLabels: { app: 'db' } },
      template: template(
        { app: 'db' },
        {
          volumes: [
            { name: 'data', emptyDir: {} },
            { name: 'cfg', emptyDir: {} },
          ],
        },
      ),
      volumeClaimTemplates: [
        {
          metadata: { name: 'data', labels: { tier: 'storage' } },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      ...extra,
    },
  });

  it('OrderedReady: ordinal N+1 only after N is scheduled; a failed pod halts the set', () => {
    const c = new StatefulSetController(set(), { random: seededRandom(0) });
    const s0 = c.step();
    expect(s0.create.map((p) => p.metadata!.name)).toEqual(['db-0']);
    expect(c.step().create).toEqual([]);
    c.observe('db-0', true);
    const s1 = c.step();
    expect(s1.create.map((p) => p.metadata!.name)).toEqual(['db-1']);
    c.observe('db-1', false);
    expect(c.step().create).toEqual([]);
    expect(c.settled()).toBe(true);
  });

  it('pods carry identity labels, hostname/subdomain and their claim volume; claims get the selector labels', () => {
    const c = new StatefulSetController(set(), { random: seededRandom(0) });
    const { create, claims } = c.step();
    const pod = create[0];
    expect(pod.metadata!.labels).toMatchObject({
      app: 'db',
      'statefulset.kubernetes.io/pod-name': 'db-0',
      'apps.kubernetes.io/pod-index': '0',
    });
    expect(pod.metadata!.labels!['controller-revision-hash']).toMatch(/^db-/);
    expect(pod.metadata!.ownerReferences![0]).toMatchObject({
      kind: 'StatefulSet',
      name: 'db',
      controller: true,
    });
    expect(pod.spec!.hostname).toBe('db-0');
    expect(pod.spec!.subdomain).toBe('db-headless');
    expect(pod.spec!.volumes).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } },
      { name: 'cfg', emptyDir: {} },
    ]);
    expect(claims).toHaveLength(1);
    expect(claims[0].metadata).toMatchObject({
      name: 'data-db-0',
      namespace: 'data',
      labels: { tier: 'storage', app: 'db' },
    });
    expect(claims[0].metadata!.ownerReferences).toBeUndefined();
  });

  it('Parallel creates every ordinal at once from spec.ordinals.start', () => {
    const c = new StatefulSetController(set({ podManagementPolicy: 'Parallel', ordinals: { start: 5 } }), {
      random: seededRandom(0),
    });
    expect(c.step().create.map((p) => p.metadata!.name)).toEqual(['db-5', 'db-6', 'db-7']);
  });

  it('retention: whenDeleted Delete owns claims by the set; scale-down removes highest ordinals and whenScaled decides the claims', () => {
    const c = new StatefulSetController(
      set({
        podManagementPolicy: 'Parallel',
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' },
      }),
      { random: seededRandom(0) },
    );
    const first = c.step();
    expect(first.claims[0].metadata!.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'StatefulSet', name: 'db', blockOwnerDeletion: true }),
    ]);
    const down = c.scale(1);
    expect(down.deletePods).toEqual(['db-2', 'db-1']);
    expect(down.deleteClaims).toEqual(['data-db-2', 'data-db-1']);
    const up = c.scale(2);
    expect(up.deletePods).toEqual([]);
    const again = c.step();
    expect(again.create.map((p) => p.metadata!.name)).toEqual(['db-1']);
    expect(again.claims.map((p) => p.metadata!.name)).toEqual(['data-db-1']);

    const retain = new StatefulSetController(set({ podManagementPolicy: 'Parallel' }), {
      random: seededRandom(0),
    });
    retain.step();
    expect(retain.scale(2).deleteClaims).toEqual([]);
  });

  it('rejects an unknown podManagementPolicy', () => {
    expect(
      () => new StatefulSetController(set({ podManagementPolicy: 'Random' }), { random: seededRandom(0) }),
    ).toThrow('StatefulSet data/db: spec.podManagementPolicy: Unsupported value: "Random"');
  });
});

describe('DaemonSet', () => {
  const ds = (extra: Partial<NonNullable<Pod['spec']>> = {}): DaemonSet => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'kube-system' },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: template({ app: 'agent' }, extra) },
  });

  // Cases in the spirit of upstream TestNodeShouldRunDaemonPod / taint tests.
  const cases: Array<{
    name: string;
    node: Node;
    spec?: Partial<NonNullable<Pod['spec']>>;
    run: boolean;
    keep: boolean;
  }> = [
    { name: 'plain node', node: node('n'), run: true, keep: true },
    {
      name: 'nodeSelector mismatch',
      node: node('n'),
      spec: { nodeSelector: { disk: 'ssd' } },
      run: false,
      keep: false,
    },
    {
      name: 'NoSchedule taint untolerated',
      node: node('n', { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } }),
      run: false,
      keep: true,
    },
    {
      name: 'NoExecute taint untolerated',
      node: node('n', { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoExecute' }] } }),
      run: false,
      keep: false,
    },
    {
      name: 'PreferNoSchedule ignored',
      node: node('n', { spec: { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] } }),
      run: true,
      keep: true,
    },
    {
      name: 'tolerated taint',
      node: node('n', { spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } }),
      spec: { tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }] },
      run: true,
      keep: true,
    },
    {
      name: 'unschedulable node (controller tolerates)',
      node: node('n', {
        spec: {
          unschedulable: true,
          taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }],
        },
      }),
      run: true,
      keep: true,
    },
    {
      name: 'not-ready NoExecute (controller tolerates)',
      node: node('n', { spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] } }),
      run: true,
      keep: true,
    },
    {
      name: 'network-unavailable without hostNetwork',
      node: node('n', {
        spec: { taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] },
      }),
      run: false,
      keep: true,
    },
    {
      name: 'network-unavailable with hostNetwork',
      node: node('n', {
        spec: { taints: [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }] },
      }),
      spec: { hostNetwork: true },
      run: true,
      keep: true,
    },
    { name: 'nodeName elsewhere', node: node('n'), spec: { nodeName: 'other' }, run: false, keep: false },
    {
      name: 'required node affinity mismatch',
      node: node('n'),
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
            },
          },
        },
      },
      run: false,
      keep: false,
    },
  ];
  it.each(cases)('nodeShouldRunDaemonPod: $name', ({ node: n, spec, run, keep }) => {
    expect(nodeShouldRunDaemonPod(n, ds(spec))).toEqual({ shouldRun: run, shouldContinueRunning: keep });
  });

  it('pins each pod with matchFields metadata.name and adds the controller tolerations once', () => {
    const pods = daemonSetPods(
      ds({ tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }] }),
      [node('a'), node('b')],
      seededRandom(3),
    );
    expect(pods).toHaveLength(2);
    expect(pods[0].spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] }],
    });
    expect(pods[0].spec!.tolerations).toEqual(daemonPodTolerations(false));
    expect(pods[0].metadata!.name).toMatch(/^agent-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pods[0].metadata!.labels).toMatchObject({ app: 'agent', 'pod-template-generation': '1' });
  });

  it('replaces matchFields in every existing required term, keeping matchExpressions', () => {
    const affinity = pinToNode(
      {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              {
                matchExpressions: [{ key: 'x', operator: 'Exists' }],
                matchFields: [{ key: 'metadata.name', operator: 'In', values: ['old'] }],
              },
              { matchExpressions: [{ key: 'y', operator: 'Exists' }] },
            ],
          },
        },
      },
      'n1',
    );
    expect(affinity.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms).toEqual([
      {
        matchExpressions: [{ key: 'x', operator: 'Exists' }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }],
      },
      {
        matchExpressions: [{ key: 'y', operator: 'Exists' }],
        matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }],
      },
    ]);
  });

  it('reacts to nodes added and removed', () => {
    const random = seededRandom(5);
    const first = reconcileDaemonSet(ds(), [node('a'), node('b')], [], random);
    const onA = first.create[0];
    const second = reconcileDaemonSet(ds(), [node('a'), node('c')], first.create, random);
    expect(
      second.create.map(
        (p) =>
          p.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms[0]
            .matchFields![0].values,
      ),
    ).toEqual([['c']]);
    expect(second.delete.map((p) => p.metadata!.name)).toEqual([first.create[1].metadata!.name]);
    expect(second.delete).not.toContain(onA);
  });
});

describe('Job', () => {
  const job = (spec: Partial<NonNullable<Job['spec']>>): Job => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'pi', uid: 'u-1' },
    spec: { template: template({ app: 'pi' }, { restartPolicy: 'Never' }), ...spec },
  });
  it.each([
    [{}, 1],
    [{ parallelism: 3 }, 3],
    [{ parallelism: 5, completions: 2 }, 2],
    [{ parallelism: 2, completions: 8 }, 2],
    [{ parallelism: 0 }, 0],
    [{ parallelism: 4, suspend: true }, 0],
  ])('spec %j starts %i pods', (spec, n) => {
    expect(jobPods(job(spec), seededRandom(0))).toHaveLength(n);
  });
  it('labels pods with the job selector and owns them', () => {
    const [p] = jobPods(job({}), seededRandom(0));
    expect(p.metadata!.labels).toEqual({
      app: 'pi',
      'batch.kubernetes.io/controller-uid': 'u-1',
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': 'u-1',
      'job-name': 'pi',
    });
    expect(p.metadata!.ownerReferences).toEqual([
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        name: 'pi',
        uid: 'u-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });
  it('Indexed jobs get an index annotation, hostname and <job>-<index>- names', () => {
    const pods = jobPods(job({ completionMode: 'Indexed', completions: 4, parallelism: 2 }), seededRandom(0));
    expect(pods.map((p) => p.metadata!.annotations!['batch.kubernetes.io/job-completion-index'])).toEqual([
      '0',
      '1',
    ]);
    expect(pods[1].metadata!.name).toMatch(/^pi-1-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(pods[1].spec!.hostname).toBe('pi-1');
  });
});

describe('static pods and recreation', () => {
  it('mirror pods are bound to their node, annotated and owned by it', () => {
    const m = mirrorPod(
      { metadata: { name: 'etcd', namespace: 'kube-system' }, spec: { containers: [{ name: 'etcd' }] } },
      node('cp-1'),
    );
    expect(m.metadata!.name).toBe('etcd-cp-1');
    expect(m.spec!.nodeName).toBe('cp-1');
    expect(m.metadata!.annotations![MIRROR_ANNOTATION]).toBeDefined();
    expect(m.metadata!.ownerReferences![0]).toMatchObject({ kind: 'Node', name: 'cp-1', controller: true });
  });

  it('controllers recreate their deleted pods; bare and mirror pods are gone', () => {
    const random = seededRandom(1);
    const rsPod = expandDeployment(
      {
        metadata: { name: 'web' },
        spec: { selector: { matchLabels: { app: 'w' } }, template: template({ app: 'w' }) },
      },
      random,
    ).pods[0];
    const bound = { ...rsPod, spec: { ...rsPod.spec!, nodeName: 'n1' } };
    const setPod = new StatefulSetController(
      {
        metadata: { name: 'db' },
        spec: {
          selector: { matchLabels: { app: 'db' } },
          serviceName: 's',
          template: template({ app: 'db' }),
        },
      },
      { random },
    ).step().create[0];
    const bare: Pod = {
      metadata: { name: 'bare', namespace: 'default' },
      spec: { containers: [{ name: 'c' }], nodeName: 'n1' },
    };
    const mirror = mirrorPod(
      { metadata: { name: 'etcd' }, spec: { containers: [{ name: 'etcd' }] } },
      node('n1'),
    );
    const r = recreateDeletedPods([bound, setPod, bare, mirror], random);
    expect(r.gone).toEqual(['default/bare', 'default/etcd-n1']);
    expect(r.recreated).toHaveLength(2);
    const [rs, ss] = r.recreated.map((x) => x.replacement);
    expect(rs.metadata!.name).not.toBe(rsPod.metadata!.name);
    expect(rs.metadata!.name!.startsWith(rsPod.metadata!.generateName!)).toBe(true);
    expect(rs.spec!.nodeName).toBeUndefined();
    expect(ss.metadata!.name).toBe('db-0');
  });
});
