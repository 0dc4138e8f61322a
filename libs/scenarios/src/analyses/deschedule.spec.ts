import type { KubeObject, Pod } from '@schedlab/k8s';
import { setupEngine } from '@schedlab/scheduler';
import { node, pod } from '../testing/fixtures';
import { parseScenario } from '../scenario/parse';
import { runScenario } from '../scenario/run';
import { deschedule } from './deschedule';
import { runDescheduler, type DeschedulerRunner } from './descheduler-runner';

const engine = { tieBreak: 'lowest-node-name' as const };
const setup = setupEngine({});

/**
 * A one-strategy descheduler for these tests: evicts the bound pods of the nodes named in the
 * policy (controller-owned ones only with `ownedOnly`, as the DefaultEvictor would), the ones
 * NodeFit says fit on some other node when `nodeFit` is set.
 */
const drainNodes: DeschedulerRunner = (objects, policy, { podFitsNode }) => {
  const { nodes, nodeFit, ownedOnly } = policy as { nodes: string[]; nodeFit?: boolean; ownedOnly?: boolean };
  const all = objects.filter((o) => o.kind === 'Node') as never[];
  const evictions = (objects.filter((o) => o.kind === 'Pod') as unknown as Pod[])
    .filter((p) => nodes.includes(p.spec?.nodeName ?? ''))
    .filter((p) => !ownedOnly || p.metadata?.ownerReferences)
    .filter(
      (p) =>
        !nodeFit ||
        all.some(
          (n: { metadata: { name: string } }) =>
            n.metadata.name !== p.spec!.nodeName && podFitsNode(p, n as never),
        ),
    )
    .map((p) => ({
      pod: `${p.metadata!.namespace}/${p.metadata!.name}`,
      node: p.spec!.nodeName!,
      profile: 'test',
      strategy: 'DrainNodes',
      reason: 'NodeDrained',
    }));
  return { evictions, limits: [], refused: 0 };
};

const owned = (kind: string, name: string) => ({ kind, name });

describe('deschedule: evicted pods recreated by their controllers and scheduled by the engine', () => {
  const items: KubeObject[] = [
    node('a', { zone: 'z1', cpu: '4' }),
    node('b', { zone: 'z2', cpu: '4' }),
    pod('web-abcde', { node: 'a', cpu: '1', labels: { app: 'web' }, owner: owned('ReplicaSet', 'web') }),
    pod('db-0', { node: 'a', cpu: '1', owner: owned('StatefulSet', 'db') }),
    pod('bare', { node: 'a', cpu: '1' }),
    pod('huge', { node: 'a', cpu: '1', owner: owned('ReplicaSet', 'huge') }),
    pod('filler', { node: 'b', cpu: '2' }),
  ];

  it('reports each eviction: strategy, reason, old node, and the new node, the FitError or the loss', () => {
    const report = deschedule(
      items,
      { policy: { nodes: ['a'] }, now: '2030-01-01T00:10:00Z' },
      engine,
      setup,
      drainNodes,
    );
    const byPod = Object.fromEntries(report.evictions.map((e) => [e.pod, e]));
    expect(report.evictions.map((e) => e.pod)).toEqual([
      'default/web-abcde',
      'default/db-0',
      'default/bare',
      'default/huge',
    ]);
    expect(byPod['default/bare']).toMatchObject({ outcome: 'lost', oldNode: 'a' });
    expect(byPod['default/bare'].replacement).toBeUndefined();
    // The StatefulSet pod comes back under its own name; the ReplicaSet's under a generated one.
    expect(byPod['default/db-0']).toMatchObject({ replacement: 'default/db-0', owner: 'StatefulSet/db' });
    expect(byPod['default/web-abcde'].replacement).toMatch(/^default\/web-[a-z0-9]{5}$/);
    expect(byPod['default/web-abcde'].replacement).not.toBe('default/web-abcde');
    // b has 2 cpu free: the first two replacements in queue order fit there or back on a.
    const placed = report.evictions.filter((e) => e.outcome === 'rescheduled');
    expect(placed.length).toBe(3);
    for (const e of placed) expect(['a', 'b']).toContain(e.newNode);
    expect(report.summary).toEqual({ evicted: 4, rescheduled: 3, unschedulable: 0, lost: 1, rounds: 1 });
    expect(report.evictions[0]).toMatchObject({ strategy: 'DrainNodes', reason: 'NodeDrained', round: 1 });
  });

  it('gives the FitError of a replacement that fits nowhere, and keeps it pending', () => {
    // b is too small for x: once evicted, x's replacement goes straight back to a.
    const back = deschedule(
      [
        node('a', { cpu: '2' }),
        node('b', { cpu: '1' }),
        pod('x', { node: 'a', cpu: '2', owner: owned('ReplicaSet', 'x') }),
      ],
      { policy: { nodes: ['a'] } },
      engine,
      setup,
      drainNodes,
    );
    expect(back.evictions).toHaveLength(1);
    expect(back.evictions[0]).toMatchObject({ outcome: 'rescheduled', newNode: 'a', sameNode: true });

    const full = [
      node('a', { cpu: '2' }),
      node('b', { cpu: '1' }),
      pod('x', { node: 'a', cpu: '2', owner: owned('ReplicaSet', 'x') }),
    ];
    const cordoned = full.map((o) =>
      o.metadata?.name === 'a' ? { ...o, spec: { unschedulable: true } } : o,
    ) as KubeObject[];
    const stuck = deschedule(cordoned, { policy: { nodes: ['a'] } }, engine, setup, drainNodes);
    expect(stuck.evictions[0].outcome).toBe('unschedulable');
    expect(stuck.evictions[0].fitError).toBe(
      '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    expect(stuck.after.pending).toEqual([stuck.evictions[0].replacement]);
    expect(stuck.before.pending).toEqual([]);
  });

  it('retries the pending pods with the replacements, in queue order: a higher-priority pending pod takes the room', () => {
    const pending = pod('urgent', { cpu: '2' }) as unknown as Pod;
    pending.spec!.priorityClassName = 'urgent';
    pending.spec!.priority = 100;
    const cluster = [
      {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'urgent' },
        value: 100,
      } as KubeObject,
      node('a', { cpu: '2' }),
      node('b', { cpu: '1' }),
      pod('x-aaaaa', { node: 'a', cpu: '2', owner: owned('ReplicaSet', 'x') }),
      pending as unknown as KubeObject,
    ];
    const report = deschedule(
      cluster,
      { policy: { nodes: ['a'], ownedOnly: true } },
      engine,
      setup,
      drainNodes,
    );
    expect(report.before.pending).toEqual(['default/urgent']);
    expect(report.rounds[0].pendingScheduled).toEqual([{ pod: 'default/urgent', node: 'a' }]);
    expect(report.evictions[0]).toMatchObject({ pod: 'default/x-aaaaa', outcome: 'unschedulable' });
    expect(report.evictions[0].fitError).toMatch(/^0\/2 nodes are available: 2 Insufficient cpu\./);
    expect(report.after.pending).toEqual([report.evictions[0].replacement]);
  });

  it('reads pods as the API server holds them: a limits-only GPU is requested, so a second GPU pod stays pending', () => {
    const gpuNode = node('gpu', { cpu: '8' }) as unknown as {
      status: Record<string, Record<string, string>>;
    };
    gpuNode.status.allocatable['nvidia.com/gpu'] = '1';
    gpuNode.status.capacity['nvidia.com/gpu'] = '1';
    const trainer = (name: string, at?: string) => {
      const p = pod(name, { node: at, cpu: '1' }) as unknown as Pod;
      p.spec!.containers[0].resources = { requests: { cpu: '1' }, limits: { 'nvidia.com/gpu': '1' } };
      return p as unknown as KubeObject;
    };
    const cluster = [
      gpuNode as unknown as KubeObject,
      node('a', { cpu: '4' }),
      node('b', { cpu: '4' }),
      trainer('trainer-1', 'gpu'),
      trainer('trainer-2'),
      pod('x-aaaaa', { node: 'a', cpu: '1', owner: owned('ReplicaSet', 'x') }),
    ];
    const report = deschedule(
      cluster,
      { policy: { nodes: ['a'], ownedOnly: true } },
      engine,
      setup,
      drainNodes,
    );
    expect(report.evictions.map((e) => [e.pod, e.outcome])).toEqual([['default/x-aaaaa', 'rescheduled']]);
    // Retried with the replacement, trainer-2 finds the only GPU taken, as trainer-1 requests it.
    expect(report.rounds[0].pendingScheduled).toBeUndefined();
    expect(report.after.pending).toEqual(['default/trainer-2']);
  });

  it("passes the engine's NodeFit to the descheduler", () => {
    const cluster = [
      node('a', { cpu: '4' }),
      node('b', { cpu: '1' }),
      pod('small', { node: 'a', cpu: '500m', owner: owned('ReplicaSet', 's') }),
      pod('large', { node: 'a', cpu: '2', owner: owned('ReplicaSet', 'l') }),
    ];
    const report = deschedule(
      cluster,
      { policy: { nodes: ['a'], nodeFit: true } },
      engine,
      setup,
      drainNodes,
    );
    expect(report.evictions.map((e) => e.pod)).toEqual(['default/small']);
    expect(report.evictions[0]).toMatchObject({ newNode: 'b' });
  });

  it('iterates rounds until one evicts nothing, and reports a line evicted again and a return to its old node', () => {
    // Round 1 evicts from a; the replacement lands on b. Round 2 evicts from b... the policy
    // alternates by round through the nodes list, so the line goes a → b → a.
    let calls = 0;
    const alternate: DeschedulerRunner = (objects, _policy, o) => {
      calls++;
      if (calls > 2) return { evictions: [], limits: [], refused: 0 };
      return drainNodes(objects, { nodes: [calls === 1 ? 'a' : 'b'], ownedOnly: true }, o);
    };
    const cluster = [
      node('a', { cpu: '2' }),
      node('b', { cpu: '2' }),
      pod('w-aaaaa', { node: 'a', cpu: '1', owner: owned('ReplicaSet', 'w') }),
      pod('blocker', { node: 'a', cpu: '1500m' }),
    ];
    const report = deschedule(
      cluster,
      { policy: {}, rounds: 5, now: 0, intervalSeconds: 60 },
      engine,
      setup,
      alternate,
    );
    expect(report.rounds.map((r) => [r.round, r.now, r.evictions.length])).toEqual([
      [1, '1970-01-01T00:00:00Z', 1],
      [2, '1970-01-01T00:01:00Z', 1],
    ]);
    expect(report.converged).toBe(true);
    const [first, second] = report.evictions;
    expect(first).toMatchObject({ oldNode: 'a', newNode: 'b' });
    expect(second.pod).toBe(first.replacement);
    // The blocker leaves a with 0.5 cpu: the second replacement does not fit on a; b has room again.
    expect(second).toMatchObject({ oldNode: 'b', newNode: 'b', sameNode: true });
    expect(report.oscillation).toEqual([
      {
        kind: 'evictedAgain',
        pod: 'default/w-aaaaa',
        workload: 'ReplicaSet/w',
        rounds: [1, 2],
        nodes: ['a', 'b'],
      },
      {
        kind: 'returnedToOldNode',
        pod: second.replacement,
        workload: 'ReplicaSet/w',
        rounds: [2, 2],
        nodes: ['b'],
      },
    ]);
  });

  /** A pod of ReplicaSet s spread over zones (maxSkew 1), on node `at`. */
  const zoneSpreadPod = (name: string, at: string): KubeObject => {
    const p = pod(name, {
      node: at,
      cpu: '500m',
      labels: { app: 's' },
      owner: owned('ReplicaSet', 's'),
    }) as unknown as Pod;
    p.spec!.topologySpreadConstraints = [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        labelSelector: { matchLabels: { app: 's' } },
      },
    ];
    return p as unknown as KubeObject;
  };

  it('counts spread domains named as members of Object.prototype ("constructor", "toString")', () => {
    const cluster = [
      node('a', { zone: 'constructor' }),
      node('b', { zone: 'toString' }),
      zoneSpreadPod('s-1', 'a'),
      zoneSpreadPod('s-2', 'a'),
    ];
    const report = deschedule(cluster, { policy: { nodes: [] } }, engine, setup, drainNodes);
    expect(report.before.spread).toEqual([
      expect.objectContaining({ counts: { constructor: 2, toString: 0 }, skew: 2 }),
    ]);
  });

  it('reports utilization per node and zone, spread skews and violations, before and after', () => {
    const cluster = [
      node('a', { zone: 'z1' }),
      node('b', { zone: 'z1' }),
      node('c', { zone: 'z2' }),
      zoneSpreadPod('s-1', 'a'),
      zoneSpreadPod('s-2', 'a'),
      zoneSpreadPod('s-3', 'b'),
    ];
    const report = deschedule(cluster, { policy: { nodes: ['b'] } }, engine, setup, drainNodes);
    expect(report.before.spread).toEqual([
      expect.objectContaining({
        selector: 'app=s',
        topologyKey: 'topology.kubernetes.io/zone',
        counts: { z1: 3, z2: 0 },
        skew: 3,
      }),
    ]);
    expect(report.before.violations.map((v) => [v.pod, v.kind, v.plugin])).toEqual([
      ['default/s-1', 'topologySpread', 'PodTopologySpread'],
      ['default/s-2', 'topologySpread', 'PodTopologySpread'],
      ['default/s-3', 'topologySpread', 'PodTopologySpread'],
    ]);
    expect(report.evictions[0]).toMatchObject({ oldNode: 'b', newNode: 'c' });
    expect(report.after.spread[0]).toMatchObject({ counts: { z1: 2, z2: 1 }, skew: 1 });
    expect(report.after.violations).toEqual([]);
    expect(report.before.nodes.find((n) => n.name === 'b')).toMatchObject({
      zone: 'z1',
      pods: 1,
      cpu: { requested: 500, allocatable: 4000, ratio: 0.125 },
    });
    expect(report.after.nodes.find((n) => n.name === 'b')).toMatchObject({ pods: 0, cpu: { requested: 0 } });
    expect(report.after.zones).toEqual([
      expect.objectContaining({ zone: 'z1', nodes: 2, pods: 2 }),
      expect.objectContaining({
        zone: 'z2',
        nodes: 1,
        pods: 1,
        cpu: { requested: 500, allocatable: 4000, ratio: 0.125 },
      }),
    ]);
  });
});

describe('deschedule with @schedlab/descheduler and the engine answering NodeFit', () => {
  const taintPolicy = (nodeFit: boolean) => ({
    apiVersion: 'descheduler/v1alpha2',
    kind: 'DeschedulerPolicy',
    profiles: [
      {
        name: 'taints',
        pluginConfig: [
          { name: 'DefaultEvictor', args: { nodeFit } },
          { name: 'RemovePodsViolatingNodeTaints' },
        ],
        plugins: { deschedule: { enabled: ['RemovePodsViolatingNodeTaints'] } },
      },
    ],
  });
  const tainted = (o: KubeObject): KubeObject =>
    o.metadata?.name === 'a'
      ? ({
          ...o,
          spec: { taints: [{ key: 'maintenance', value: 'soon', effect: 'NoSchedule' }] },
        } as KubeObject)
      : o;
  const cluster = [
    node('a', { cpu: '4' }),
    node('b', { cpu: '2' }),
    pod('fits-aaaaa', { node: 'a', cpu: '1', owner: owned('ReplicaSet', 'fits') }),
    pod('toobig-bbbbb', { node: 'a', cpu: '3', owner: owned('ReplicaSet', 'toobig') }),
    pod('bare', { node: 'a', cpu: '500m' }),
  ].map(tainted);

  it('evicts what violates the taint, where the engine finds room, and recreates it there', () => {
    const report = deschedule(cluster, { policy: taintPolicy(true) }, engine, setup, runDescheduler);
    // toobig fits on no other node (the engine's NodeResourcesFit): nodeFit keeps it; a bare pod is never evicted.
    expect(report.evictions.map((e) => [e.pod, e.strategy, e.oldNode, e.newNode, e.outcome])).toEqual([
      ['default/fits-aaaaa', 'RemovePodsViolatingNodeTaints', 'a', 'b', 'rescheduled'],
    ]);
    expect(report.before.violations.map((v) => [v.pod, v.kind])).toEqual([
      ['default/fits-aaaaa', 'taint'],
      ['default/toobig-bbbbb', 'taint'],
      ['default/bare', 'taint'],
    ]);
    expect(report.after.violations.map((v) => v.pod)).toEqual(['default/toobig-bbbbb', 'default/bare']);
  });

  it('without nodeFit, evicts the pod that fits nowhere and reports its FitError', () => {
    const report = deschedule(
      cluster,
      { policy: taintPolicy(false), rounds: 3 },
      engine,
      setup,
      runDescheduler,
    );
    const toobig = report.evictions.find((e) => e.pod === 'default/toobig-bbbbb')!;
    expect(toobig.outcome).toBe('unschedulable');
    expect(toobig.fitError).toMatch(
      /^0\/2 nodes are available: 1 Insufficient cpu, 1 node\(s\) had untolerated taint/,
    );
    // Round 2 finds nothing more to evict: the pending replacement is not bound anywhere.
    expect(report.converged).toBe(true);
    expect(report.summary).toMatchObject({ evicted: 2, rescheduled: 1, unschedulable: 1, lost: 0 });
  });

  it('fails on an invalid policy, naming profile, plugin and field', () => {
    const bad = taintPolicy(true);
    (bad.profiles[0].pluginConfig[0].args as Record<string, unknown>).nodeFit = 'yes';
    expect(() => deschedule(cluster, { policy: bad }, engine, setup, runDescheduler)).toThrow(
      /profiles\[0\] "taints": pluginConfig "DefaultEvictor": args\.nodeFit: /,
    );
  });
});

describe('the scenario step deschedule', () => {
  const cluster = [
    node('a', { cpu: '4' }),
    node('b', { cpu: '4' }),
    pod('web-aaaaa', { node: 'a', cpu: '1', owner: owned('ReplicaSet', 'web') }),
  ];
  const policyYaml = `apiVersion: descheduler/v1alpha2
kind: DeschedulerPolicy
profiles:
  - name: taints
    pluginConfig: [{ name: DefaultEvictor }, { name: RemovePodsViolatingNodeTaints }]
    plugins: { deschedule: { enabled: [RemovePodsViolatingNodeTaints] } }
`;

  it('evicts after an earlier step tainted the node, and records where the replacement went', () => {
    const run = runScenario(
      cluster,
      {
        steps: [
          { taint: { nodes: ['a'], taints: [{ key: 'maintenance', effect: 'NoSchedule' }] } },
          { deschedule: { policy: policyYaml } },
        ],
      },
      engine,
    );
    const step = run.steps[1];
    const replacement = step.descheduling!.evictions[0].replacement!;
    expect(step.descheduling!.evictions).toEqual([
      expect.objectContaining({
        pod: 'default/web-aaaaa',
        oldNode: 'a',
        newNode: 'b',
        owner: 'ReplicaSet/web',
      }),
    ]);
    expect(step.changes.map((c) => [c.type, c.object])).toEqual([
      ['podEvicted', 'default/web-aaaaa'],
      ['podRecreated', replacement],
      ['podScheduled', replacement],
    ]);
    expect(run.world.pod(replacement)?.spec?.nodeName).toBe('b');
    expect(run.world.pod('default/web-aaaaa')).toBeUndefined();
  });

  it('a bad inline policy fails the scenario when it is read, before any step runs', () => {
    expect(() =>
      parseScenario({
        steps: [
          { cordon: { nodes: ['a'] } },
          { deschedule: { policy: policyYaml.replace('DefaultEvictor', 'DefaultEvicter') } },
        ],
      }),
    ).toThrow(/^steps\[1\]\.deschedule\.policy: profiles\[0\] "taints": /);
    expect(parseScenario({ steps: [{ deschedule: { policyFile: 'p.yaml' } }] }).steps).toHaveLength(1);
  });

  it('refuses a policy file it cannot read and names a bad policy field', () => {
    expect(() => runScenario(cluster, { steps: [{ deschedule: { policyFile: 'p.yaml' } }] }, engine)).toThrow(
      'steps[0].deschedule.policyFile: a policy file is read by the CLI (schedlab); send the policy inline',
    );
    expect(() =>
      runScenario(
        cluster,
        {
          steps: [
            {
              deschedule: {
                policy: { apiVersion: 'descheduler/v1alpha2', kind: 'DeschedulerPolicy', profiles: 3 },
              },
            },
          ],
        },
        engine,
      ),
    ).toThrow(/^steps\[0\]\.deschedule\.policy: profiles: /);
  });
});

describe('oscillation with a real policy: HighNodeUtilization needs a bin-packing profile', () => {
  const cluster = [
    node('a', { cpu: '4' }),
    node('b', { cpu: '4' }),
    node('c', { cpu: '4' }),
    pod('x-aaaaa', { node: 'a', cpu: '2500m', owner: owned('ReplicaSet', 'x') }),
    pod('y-bbbbb', { node: 'b', cpu: '2500m', owner: owned('ReplicaSet', 'y') }),
    pod('z-ccccc', { node: 'c', cpu: '500m', owner: owned('ReplicaSet', 'z') }),
  ];
  const policy = {
    apiVersion: 'descheduler/v1alpha2',
    kind: 'DeschedulerPolicy',
    profiles: [
      {
        name: 'pack',
        pluginConfig: [
          { name: 'DefaultEvictor' },
          { name: 'HighNodeUtilization', args: { thresholds: { cpu: 20 } } },
        ],
        plugins: { balance: { enabled: ['HighNodeUtilization'] } },
      },
    ],
  };

  it('evicts the pod of the near-empty node, the scheduler puts it back there, and the next round evicts it again', () => {
    const report = deschedule(cluster, { policy, rounds: 3 }, engine, setup, runDescheduler);
    // LeastAllocated scores the emptied node c best: every replacement goes back where it was.
    expect(report.evictions.map((e) => [e.round, e.oldNode, e.newNode])).toEqual([
      [1, 'c', 'c'],
      [2, 'c', 'c'],
      [3, 'c', 'c'],
    ]);
    expect(report.converged).toBe(false);
    expect(report.oscillation).toEqual([
      expect.objectContaining({
        kind: 'evictedAgain',
        pod: 'default/z-ccccc',
        rounds: [1, 2, 3],
        nodes: ['c', 'c', 'c'],
      }),
      expect.objectContaining({ kind: 'returnedToOldNode', rounds: [1, 1], nodes: ['c'] }),
      expect.objectContaining({ kind: 'returnedToOldNode', rounds: [1, 2], nodes: ['c'] }),
      expect.objectContaining({ kind: 'returnedToOldNode', rounds: [1, 3], nodes: ['c'] }),
    ]);
  });

  it('with a bin-packing profile (MostAllocated) the pod is packed onto a fuller node and the next round evicts nothing', () => {
    const packing = {
      ...engine,
      schedulerConfiguration: {
        apiVersion: 'kubescheduler.config.k8s.io/v1',
        kind: 'KubeSchedulerConfiguration',
        profiles: [
          {
            schedulerName: 'default-scheduler',
            pluginConfig: [
              { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } },
            ],
          },
        ],
      },
    };
    const report = deschedule(cluster, { policy, rounds: 3 }, packing, setupEngine(packing), runDescheduler);
    expect(report.evictions.map((e) => [e.round, e.oldNode, e.newNode])).toEqual([[1, 'c', 'a']]);
    expect(report.converged).toBe(true);
    expect(report.oscillation).toEqual([]);
    expect(report.after.nodes.find((n) => n.name === 'c')?.pods).toBe(0);
  });
});
