import type { KubeObject, Pod } from '@schedlab/k8s';
import { node, pdb, pod, replicaSet } from '../testing/fixtures';
import { capacity } from './capacity';
import { compare } from './compare';
import { nodesNeeded } from './nodes-needed';
import { resilience } from './resilience';
import { simulateScenario } from './simulate-scenario';

const engine = { tieBreak: 'lowest-node-name' as const };
const web = (name: string, nodeName: string, cpu: string) =>
  pod(name, { node: nodeName, cpu, labels: { app: 'web' }, owner: { kind: 'ReplicaSet', name: 'web' } });

describe('simulateScenario', () => {
  it('places what fits, groups the rest by FitError, reports utilization per node and zone', () => {
    const items = [
      node('a', { zone: 'z1' }),
      node('b', { zone: 'z2' }),
      node('c', { zone: 'z2' }),
      pod('p1', { cpu: '3' }),
      pod('p2', { cpu: '3' }),
      pod('p3', { cpu: '3' }),
      pod('p4', { cpu: '3' }),
    ];
    const out = simulateScenario(items, { steps: [{ cordon: { nodes: ['c'] } }] }, engine);
    // p1..p3 are placed before c is cordoned; p4 finds no room on a or b and c is cordoned.
    expect(Object.keys(out.placements).sort()).toEqual(['default/p1', 'default/p2', 'default/p3']);
    expect(new Set(Object.values(out.placements))).toEqual(new Set(['a', 'b', 'c']));
    const none = simulateScenario(
      items.slice(0, 3).concat(items.slice(3)),
      { steps: [] },
      { ...engine, preemption: false },
    );
    expect(none.pending).toEqual(['default/p4']);
    expect(none.unschedulable).toEqual([
      { reason: '0/3 nodes are available: 3 Insufficient cpu.', pods: ['default/p4'] },
    ]);
    expect(none.utilization.nodes.a.cpu).toEqual({ requested: 3000, allocatable: 4000, ratio: 0.75 });
    expect(none.utilization.zones.z2.cpu).toEqual({ requested: 6000, allocatable: 8000, ratio: 0.75 });
    expect(none.utilization.stdDev.cpu).toBe(0);
  });
});

describe('resilience', () => {
  const base = [node('a'), node('b'), node('c'), replicaSet('web', 3, { app: 'web' })];
  it('reports pods that cannot reschedule and workloads below their budget', () => {
    const items = [
      ...base,
      pdb('web-pdb', { app: 'web' }, { minAvailable: 3 }),
      web('w1', 'a', '3'),
      web('w2', 'b', '3'),
      web('w3', 'c', '3'),
    ];
    const r = resilience(items, 'node', engine);
    expect(r.critical).toEqual(['a', 'b', 'c']);
    const a = r.domains[0];
    expect(a).toMatchObject({ domain: 'a', nodes: ['a'], evictedPods: 1, allRescheduled: false });
    expect(a.unschedulable[0].pod).toBe('default/w1');
    expect(a.workloads).toEqual([
      {
        workload: 'ReplicaSet/default/web',
        replicas: 3,
        replicasLeft: 2,
        replicasAfterRescheduling: 2,
        desiredHealthy: 3,
        disruptionBudget: 'web-pdb',
        losesAvailability: true,
      },
    ]);
  });
  it('finds no critical node when the evicted pod fits elsewhere and the budget holds', () => {
    const items = [
      ...base,
      pdb('web-pdb', { app: 'web' }, { maxUnavailable: 1 }),
      web('w1', 'a', '1'),
      web('w2', 'b', '1'),
      web('w3', 'c', '1'),
    ];
    const r = resilience(items, 'node', engine);
    expect(r.critical).toEqual([]);
    expect(r.domains[1].workloads[0]).toMatchObject({
      replicasLeft: 2,
      replicasAfterRescheduling: 3,
      desiredHealthy: 2,
      losesAvailability: false,
    });
  });
  it('groups by zone', () => {
    const items = [
      node('a1', { zone: 'a' }),
      node('a2', { zone: 'a' }),
      node('b1', { zone: 'b' }),
      pod('x', { node: 'a1', owner: { kind: 'ReplicaSet', name: 'x' } }),
    ];
    const r = resilience(items, 'zone', engine);
    expect(r.domains.map((d) => [d.domain, d.nodes])).toEqual([
      ['a', ['a1', 'a2']],
      ['b', ['b1']],
    ]);
    expect(r.domains[0].allRescheduled).toBe(true);
    // Its only replica is down until it is rescheduled: availability is lost for a while.
    expect(r.domains[0].workloads).toEqual([
      {
        workload: 'ReplicaSet/default/x',
        replicas: 1,
        replicasLeft: 0,
        replicasAfterRescheduling: 1,
        losesAvailability: true,
      },
    ]);
    expect(r.critical).toEqual(['a']);
  });
});

describe('compare', () => {
  it('baseline vs drain: moved pods, spread and stranded capacity', () => {
    const items = [
      node('a'),
      node('b'),
      replicaSet('x', 2, { app: 'x' }),
      pod('x1', { node: 'a', owner: { kind: 'ReplicaSet', name: 'x' } }),
      pod('x2', { node: 'b', owner: { kind: 'ReplicaSet', name: 'x' } }),
      pod('huge', { cpu: '8' }),
    ];
    const r = compare(
      items,
      { scenario: { steps: [{ drain: { nodes: ['a'] } }] } },
      { ...engine, preemption: false },
    );
    expect(r.moved).toEqual([{ pod: 'default/x1', from: 'a', to: 'b' }]);
    expect(r.newlyScheduled).toEqual([]);
    expect(r.newlyUnschedulable).toEqual([]);
    expect(r.before.utilization.stdDev.cpu).toBe(0);
    expect(r.after.utilization.stdDev.cpu).toBe(0.25);
    expect(r.before.stranded).toEqual({ nodes: ['a', 'b'], cpu: 6000, memory: 14 * 2 ** 30, pods: 218 });
    expect(r.after.stranded.cpu).toBe(6000);
  });
  it('profile A vs profile B on the same snapshot', () => {
    const items = [node('a'), node('b'), pod('p1'), pod('p2')];
    const mostAllocated = {
      apiVersion: 'kubescheduler.config.k8s.io/v1',
      kind: 'KubeSchedulerConfiguration',
      profiles: [
        {
          schedulerName: 'default-scheduler',
          pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } }],
        },
      ],
    };
    const r = compare(items, { after: { schedulerConfiguration: mostAllocated } }, engine);
    // LeastAllocated spreads p1, p2 over a and b; MostAllocated packs them onto a.
    expect(r.before.placements).toEqual({ 'default/p1': 'a', 'default/p2': 'b' });
    expect(r.after.placements).toEqual({ 'default/p1': 'a', 'default/p2': 'a' });
    expect(r.moved).toEqual([{ pod: 'default/p2', from: 'b', to: 'a' }]);
  });
});

describe('nodesNeeded', () => {
  it('buys the cheapest verified set and reports pods no template can host', () => {
    const items = [
      node('a', { cpu: '2' }),
      pod('p1', { cpu: '3' }),
      pod('p2', { cpu: '3' }),
      pod('p3', { cpu: '3' }),
      pod('giant', { cpu: '64' }),
    ];
    const templates = [
      { name: 'small', allocatable: { cpu: '4', memory: '16Gi', pods: '110' }, hourlyPrice: 1 },
      { name: 'large', allocatable: { cpu: '8', memory: '32Gi', pods: '110' }, hourlyPrice: 1.5 },
    ];
    // large hosts two 3-cpu pods ($0.75/pod), then one small for the third: $2.5 (3×small or 2×large cost $3).
    const r = nodesNeeded(items, templates, engine);
    expect(r.add).toEqual({ large: 1, small: 1 });
    expect(r.hourlyCost).toBe(2.5);
    expect(r.scheduled).toEqual(['default/p1', 'default/p2', 'default/p3']);
    expect(r.unhostable).toEqual({
      'default/giant': {
        small: '0/1 nodes are available: 1 Insufficient cpu.',
        large: '0/1 nodes are available: 1 Insufficient cpu.',
      },
    });
    expect(r.limited).toBe(false);
  });
});

describe('nodesNeeded with CSI volume limits', () => {
  const driver = 'ebs.csi.aws.com';
  const withClaim = (name: string): KubeObject[] => {
    const p = pod(name, { cpu: '100m' }) as KubeObject & { spec: Record<string, unknown> };
    p.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: `${name}-data` } }];
    const claim: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: `${name}-data`, namespace: 'default' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        storageClassName: 'gp3',
        resources: { requests: { storage: '1Gi' } },
      },
    };
    return [p, claim];
  };
  const items: KubeObject[] = [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'gp3' },
      provisioner: driver,
      volumeBindingMode: 'WaitForFirstConsumer',
    } as KubeObject,
    node('a', { cpu: '8' }),
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: { name: 'a' },
      spec: { drivers: [{ name: driver, nodeID: 'a', allocatable: { count: 1 } }] },
    } as KubeObject,
    ...withClaim('p1'),
    ...withClaim('p2'),
    ...withClaim('p3'),
  ];
  const template = { name: 'm5', allocatable: { cpu: '8', memory: '32Gi', pods: '110' }, hourlyPrice: 1 };

  it('gives each added node the CSINode of its template, so its attach limit counts', () => {
    // Node a attaches one volume; each m5 attaches one too: two more nodes for p2 and p3.
    const limited = nodesNeeded(
      items,
      [{ ...template, csiDrivers: [{ name: driver, allocatableCount: 1 }] }],
      engine,
    );
    expect(limited.add).toEqual({ m5: 2 });
    expect(limited.scheduled).toEqual(['default/p2', 'default/p3']);
    // A template without drivers registers no CSINode: no limit, one node hosts both.
    expect(nodesNeeded(items, [template], engine).add).toEqual({ m5: 1 });
  });
});

describe('names an object inherits ("constructor", "valueOf") are names like any other', () => {
  it('capacity counts the clones on a node named constructor', () => {
    const items = [node('constructor', { cpu: '4' }), node('valueof', { cpu: '2' })];
    const template = pod('clone', { cpu: '1' }) as unknown as Pod;
    const r = capacity(items, { podTemplate: template, maxReplicas: 100 }, engine);
    expect(r.replicas).toBe(6);
    expect(r.perNode).toEqual({ constructor: 4, valueof: 2 });
  });

  it('nodesNeeded buys nodes of a template named constructor', () => {
    const items = [pod('p1', { cpu: '3' }), pod('p2', { cpu: '3' })];
    const templates = [
      { name: 'constructor', allocatable: { cpu: '4', memory: '16Gi', pods: '110' }, hourlyPrice: 1 },
    ];
    const r = nodesNeeded(items, templates, engine);
    expect(r.add).toEqual({ constructor: 2 });
    expect(r.hourlyCost).toBe(2);
    expect(r.scheduled).toEqual(['default/p1', 'default/p2']);
  });
});
