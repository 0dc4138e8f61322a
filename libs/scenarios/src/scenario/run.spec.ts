import { node, pdb, pod, replicaSet } from '../testing/fixtures';
import { ScenarioError } from './parse';
import { runScenario } from './run';

const opts = { tieBreak: 'lowest-node-name' as const };
const podNode = (run: ReturnType<typeof runScenario>, key: string) => run.world.pod(key)?.spec?.nodeName;

describe('runScenario', () => {
  it('fails an invalid step with its index and reason', () => {
    const items = [node('a', { labels: { pool: 'web' } }), node('b')];
    const scenario = {
      steps: [
        { cordon: { nodes: ['a'] } },
        { label: { nodes: ['b'], labels: { x: 'y' } } },
        { uncordon: { nodes: ['a'] } },
        { drain: { nodes: { selector: 'pool=gpu' } } },
      ],
    };
    expect(() => runScenario(items, scenario, opts)).toThrow(
      'steps[3].drain.nodes: no node matches selector "pool=gpu"',
    );
    try {
      runScenario(items, scenario, opts);
    } catch (e) {
      expect((e as ScenarioError).stepIndex).toBe(3);
    }
    expect(() => runScenario(items, { steps: [{ cordon: { nodes: ['zz'] } }] })).toThrow(
      'steps[0].cordon.nodes: node "zz" is not in the cluster',
    );
    expect(() => runScenario(items, { steps: [{ explode: {} }] })).toThrow(
      /^steps\[0\]\.explode: unknown operation/,
    );
    expect(() => runScenario(items, { steps: [{ addNodes: { count: 0, template: 'x' } }] })).toThrow(
      /^steps\[0\]\.addNodes\.count: /,
    );
    expect(() => runScenario(items, { steps: [{ addNodes: { count: 1, template: 'x' } }] })).toThrow(
      'steps[0].addNodes.template: no node template "x" in nodeTemplates',
    );
    expect(() => runScenario(items, { steps: [{ zoneOutage: { zone: 'mars' } }] })).toThrow(
      'steps[0].zoneOutage.zone: no node is in zone "mars"',
    );
  });

  it('drain evicts through the PDB, reschedules controller pods, leaves DaemonSet pods, loses bare pods', () => {
    // web has 3 replicas and minAvailable 3: none of a's two web pods may go.
    const items = [
      node('a'),
      node('b'),
      replicaSet('web', 3, { app: 'web' }),
      replicaSet('api', 1, { app: 'api' }),
      pdb('web-pdb', { app: 'web' }, { minAvailable: 3 }),
      pod('web-1', { node: 'a', labels: { app: 'web' }, owner: { kind: 'ReplicaSet', name: 'web' } }),
      pod('web-2', { node: 'b', labels: { app: 'web' }, owner: { kind: 'ReplicaSet', name: 'web' } }),
      pod('web-3', { node: 'b', labels: { app: 'web' }, owner: { kind: 'ReplicaSet', name: 'web' } }),
      pod('api-1', { node: 'a', labels: { app: 'api' }, owner: { kind: 'ReplicaSet', name: 'api' } }),
      pod('ds-a', { node: 'a', cpu: '100m', owner: { kind: 'DaemonSet', name: 'ds' } }),
      pod('bare', { node: 'a' }),
    ];
    const run = runScenario(items, { steps: [{ drain: { nodes: ['a'] } }] }, opts);
    const changes = run.steps[0].changes;
    expect(changes).toContainEqual({
      type: 'evictionRefused',
      object: 'default/web-1',
      detail:
        "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web-pdb needs 3 healthy pods and has 3 currently",
    });
    expect(podNode(run, 'default/web-1')).toBe('a');
    expect(podNode(run, 'default/api-1')).toBe('b');
    expect(podNode(run, 'default/ds-a')).toBe('a');
    expect(run.world.pod('default/bare')).toBeUndefined();
    expect(changes).toContainEqual({
      type: 'podLost',
      object: 'default/bare',
      detail: 'no controller recreates a bare pod',
    });
    expect(changes).toContainEqual({
      type: 'podIgnored',
      object: 'default/ds-a',
      detail: 'DaemonSet-managed pod',
    });
    expect(run.world.node('a')?.spec?.unschedulable).toBe(true);
  });

  it('drain retries a blocked eviction once the first replacement is healthy again', () => {
    // maxUnavailable 1 over 2 replicas, both on a: evict one, wait for it on b, then the other.
    const items = [
      node('a'),
      node('b'),
      replicaSet('web', 2, { app: 'web' }),
      pdb('web-pdb', { app: 'web' }, { maxUnavailable: 1 }),
      pod('web-1', { node: 'a', labels: { app: 'web' }, owner: { kind: 'ReplicaSet', name: 'web' } }),
      pod('web-2', { node: 'a', labels: { app: 'web' }, owner: { kind: 'ReplicaSet', name: 'web' } }),
    ];
    const run = runScenario(items, { steps: [{ drain: { nodes: ['a'] } }] }, opts);
    expect(podNode(run, 'default/web-1')).toBe('b');
    expect(podNode(run, 'default/web-2')).toBe('b');
    expect(run.steps[0].changes.filter((c) => c.type === 'evictionRefused')).toEqual([]);
  });

  it('zoneOutage evicts after tolerationSeconds and reschedules in the surviving zone', () => {
    const items = [
      node('a1', { zone: 'a' }),
      node('b1', { zone: 'b' }),
      replicaSet('fast', 1, { app: 'fast' }),
      replicaSet('slow', 1, { app: 'slow' }),
      // fast: tolerates unreachable for 60s; slow: gets the 300s default; pinned: forever.
      pod('fast-1', {
        node: 'a1',
        owner: { kind: 'ReplicaSet', name: 'fast' },
        tolerations: [
          {
            key: 'node.kubernetes.io/unreachable',
            operator: 'Exists',
            effect: 'NoExecute',
            tolerationSeconds: 60,
          },
        ],
      }),
      pod('slow-1', { node: 'a1', owner: { kind: 'ReplicaSet', name: 'slow' } }),
      pod('pinned', {
        node: 'a1',
        tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }],
      }),
    ];
    const run = runScenario(
      items,
      {
        steps: [
          { zoneOutage: { zone: 'a' } },
          { advanceTime: { seconds: 59 } },
          { advanceTime: { seconds: 1 } },
          { advanceTime: { seconds: 240 } },
        ],
      },
      opts,
    );
    expect(run.world.node('a1')?.spec?.taints?.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/unreachable:NoSchedule',
      'node.kubernetes.io/unreachable:NoExecute',
    ]);
    expect(run.steps[1].changes.filter((c) => c.type === 'podEvicted')).toEqual([]);
    expect(run.steps[2].changes).toContainEqual({
      type: 'podEvicted',
      object: 'default/fast-1',
      detail: 'from a1: NoExecute taint tolerated for 60s',
    });
    expect(run.steps[2].changes).toContainEqual({
      type: 'podScheduled',
      object: 'default/fast-1',
      detail: 'b1',
    });
    expect(run.steps[3].changes).toContainEqual({
      type: 'podEvicted',
      object: 'default/slow-1',
      detail: 'from a1: NoExecute taint tolerated for 300s',
    });
    expect(podNode(run, 'default/slow-1')).toBe('b1');
    expect(podNode(run, 'default/pinned')).toBe('a1');
  });

  it('addNodes, taint, scale and apply change the cluster and the scheduler sees it', () => {
    const items = [
      node('a', { cpu: '2' }),
      replicaSet('web', 1, { app: 'web' }, '2'),
      pod('web-0', {
        node: 'a',
        cpu: '2',
        labels: { app: 'web' },
        owner: { kind: 'ReplicaSet', name: 'web' },
      }),
    ];
    const scenario = {
      nodeTemplates: [
        { name: 'm5', allocatable: { cpu: '2', memory: '8Gi', pods: '110' }, labels: { pool: 'm5' } },
      ],
      steps: [
        { addNodes: { template: 'm5', count: 2, zone: 'z1' } },
        {
          taint: {
            nodes: { selector: 'pool=m5' },
            taints: [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }],
          },
        },
        { scale: { kind: 'ReplicaSet', name: 'web', replicas: 2 } },
        { untaint: { nodes: ['m5-1'], taints: [{ key: 'dedicated' }] } },
        {
          apply: {
            manifests:
              'apiVersion: v1\nkind: Pod\nmetadata: {name: extra}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {replicas: 1, selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x}]}}}\n',
          },
        },
      ],
    };
    const run = runScenario(items, scenario, opts);
    expect(run.steps[0].changes.map((c) => c.object)).toEqual(['Node/m5-0', 'Node/m5-1']);
    expect(run.world.node('m5-0')?.metadata?.labels?.['topology.kubernetes.io/zone']).toBe('z1');
    const created = run.steps[2].changes.find((c) => c.type === 'podCreated')!;
    expect(run.steps[2].changes).toContainEqual({
      type: 'podUnschedulable',
      object: created.object,
      detail: expect.stringContaining('0/3 nodes are available'),
    });
    expect(run.steps[3].changes).toContainEqual({
      type: 'podScheduled',
      object: created.object,
      detail: 'm5-1',
    });
    // The Deployment controller runs: a ReplicaSet and its one pod are created.
    expect(run.steps[4].changes).toContainEqual({ type: 'objectApplied', object: 'Deployment/default/d' });
    expect(
      run.steps[4].changes.filter((c) => c.type === 'podCreated' && c.object.startsWith('default/d-')),
    ).toHaveLength(1);
    expect(run.steps[4].changes).toContainEqual(
      expect.objectContaining({ type: 'podUnschedulable', object: 'default/extra' }),
    );
  });

  describe('apply of workloads runs their controllers and admission', () => {
    const manifests = (...docs: string[]) => ({ apply: { manifests: docs.join('\n---\n') } });
    const container = '{containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}';

    it('a Deployment creates its ReplicaSet and admitted pods; quota refuses the rest with the API server message', () => {
      const quota = {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'q', namespace: 'default' },
        spec: { hard: { 'requests.cpu': '2' } },
      };
      const deployment = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 3, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: ${container}}}`;
      const run = runScenario([node('a', { cpu: '4' }), quota], { steps: [manifests(deployment)] }, opts);
      const changes = run.steps[0].changes;
      expect(changes.filter((c) => c.type === 'objectApplied').map((c) => c.object)).toEqual([
        'Deployment/default/web',
        expect.stringMatching(/^ReplicaSet\/default\/web-[a-z0-9]+$/),
      ]);
      const created = changes.filter((c) => c.type === 'podCreated').map((c) => c.object);
      expect(created).toHaveLength(2);
      for (const key of created) expect(podNode(run, key)).toBe('a');
      const refused = changes.filter((c) => c.type === 'objectRejected');
      expect(refused).toHaveLength(1);
      expect(refused[0].detail).toMatch(
        /is forbidden: exceeded quota: q, requested: requests.cpu=1, used: requests.cpu=2, limited: requests.cpu=2$/,
      );
    });

    it('an OrderedReady StatefulSet creates one ordinal per scheduled predecessor and halts at the first that does not fit', () => {
      const set = `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {replicas: 4, serviceName: db, selector: {matchLabels: {app: db}}, template: {metadata: {labels: {app: db}}, spec: ${container}}}`;
      const run = runScenario([node('a', { cpu: '2' })], { steps: [manifests(set)] }, opts);
      const changes = run.steps[0].changes;
      // 2 CPUs hold db-0 and db-1; db-2 is unschedulable, so db-3 is never created.
      expect(changes.filter((c) => c.type === 'podCreated').map((c) => c.object)).toEqual([
        'default/db-0',
        'default/db-1',
        'default/db-2',
      ]);
      expect(podNode(run, 'default/db-1')).toBe('a');
      expect(run.world.pod('default/db-2')?.spec?.nodeName).toBeUndefined();
      expect(run.world.pod('default/db-3')).toBeUndefined();
    });

    it('a DaemonSet gets one pod per node, bound to it', () => {
      const ds = `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec: {selector: {matchLabels: {app: agent}}, template: {metadata: {labels: {app: agent}}, spec: {containers: [{name: c, image: x}]}}}`;
      const run = runScenario([node('a'), node('b')], { steps: [manifests(ds)] }, opts);
      const placed = run.world
        .pods()
        .map((p) => p.spec?.nodeName)
        .sort();
      expect(placed).toEqual(['a', 'b']);
    });

    it('applying a workload that exists fails the step with its index', () => {
      const job = `apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {template: {spec: {restartPolicy: Never, ${container.slice(1, -1)}}}}`;
      expect(() => runScenario([node('a')], { steps: [manifests(job), manifests(job)] }, opts)).toThrow(
        /^steps\[1\]\.apply\.manifests: Job "default\/j" already exists/,
      );
    });
  });
});
