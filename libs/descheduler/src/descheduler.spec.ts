import type { KubeObject, Node, Pod } from '@schedlab/k8s';
import { TOO_FEW_NODES_MESSAGE, deschedule } from './descheduler';
import { PolicyError } from './api/schema';
import { PLUGIN_REGISTRY, balanceEntry, descheduleEntry } from './plugins/registry';
import * as t from './testing/builders';
import { z } from 'zod';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const node = (name: string, apply?: (n: Node) => void) => t.buildTestNode(name, 2000, 3000, 10, apply);
const tainted = (n: Node) =>
  void (n.spec!.taints = [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
const rsPod = (name: string, nodeName: string, apply?: (p: Pod) => void) =>
  t.buildTestPod(name, 100, 0, nodeName, (p) => {
    t.setRSOwnerRef(p);
    apply?.(p);
  });
const objectsOf = (...items: unknown[]) => items as KubeObject[];
const fitsAnywhere = () => true;

const taintsPolicy = (extra: Record<string, unknown> = {}, profiles?: unknown[]) => ({
  apiVersion: 'descheduler/v1alpha2',
  kind: 'DeschedulerPolicy',
  profiles: profiles ?? [
    {
      name: 'taints',
      pluginConfig: [{ name: 'RemovePodsViolatingNodeTaints' }],
      plugins: { deschedule: { enabled: ['RemovePodsViolatingNodeTaints'] } },
    },
  ],
  ...extra,
});

describe('deschedule: one cycle of a DeschedulerPolicy', () => {
  it('evicts what the profiles ask, with strategy, reason and node, as plain data', () => {
    const objects = objectsOf(node('a', tainted), node('b'), rsPod('p1', 'a'), rsPod('p2', 'b'));
    const result = deschedule(objects, taintsPolicy(), { now: NOW, podFitsNode: fitsAnywhere });
    expect(result.evictions).toEqual([
      {
        pod: 'default/p1',
        namespace: 'default',
        name: 'p1',
        node: 'a',
        profile: 'taints',
        extensionPoint: 'deschedule',
        strategy: 'RemovePodsViolatingNodeTaints',
        reason: 'RemovePodsViolatingNodeTaints',
        detail: 'pod does not tolerate taint dedicated=gpu:NoSchedule on node a',
      },
    ]);
    expect(result.profiles).toEqual([
      {
        name: 'taints',
        evicted: 1,
        deschedule: 1,
        balance: 0,
        byStrategy: { RemovePodsViolatingNodeTaints: 1 },
        refused: {},
      },
    ]);
    expect(result.nodes).toEqual(['a', 'b']);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it("runs every profile's deschedule plugins, then every profile's balance plugins", () => {
    const calls: string[] = [];
    const recorder = (point: 'deschedule' | 'balance') => (tag: string) =>
      point === 'deschedule'
        ? descheduleEntry(z.strictObject({}), () => ({
            name: tag,
            deschedule: () => void calls.push(`${tag}`),
          }))
        : balanceEntry(z.strictObject({}), () => ({ name: tag, balance: () => void calls.push(`${tag}`) }));
    const registry = {
      ...PLUGIN_REGISTRY,
      D1: recorder('deschedule')('D1'),
      D2: recorder('deschedule')('D2'),
      B1: recorder('balance')('B1'),
    };
    const profile = (name: string) => ({
      name,
      pluginConfig: [{ name: 'D1' }, { name: 'D2' }, { name: 'B1' }],
      plugins: { deschedule: { enabled: ['D1', 'D2'] }, balance: { enabled: ['B1'] } },
    });
    const policy = taintsPolicy({}, [profile('first'), profile('second')]);
    deschedule(objectsOf(node('a'), node('b')), policy, { now: NOW, podFitsNode: fitsAnywhere, registry });
    expect(calls).toEqual(['D1', 'D2', 'D1', 'D2', 'B1', 'B1']);
  });

  it('shares the limits across profiles and says which limit stopped what', () => {
    const objects = objectsOf(
      node('a', tainted),
      node('b'),
      rsPod('p1', 'a'),
      rsPod('p2', 'a'),
      rsPod('p3', 'a'),
    );
    const twoProfiles = [
      {
        name: 'one',
        pluginConfig: [{ name: 'RemovePodsViolatingNodeTaints' }],
        plugins: { deschedule: { enabled: ['RemovePodsViolatingNodeTaints'] } },
      },
      {
        name: 'two',
        pluginConfig: [{ name: 'RemovePodsViolatingNodeTaints' }],
        plugins: { deschedule: { enabled: ['RemovePodsViolatingNodeTaints'] } },
      },
    ];
    const result = deschedule(objects, taintsPolicy({ maxNoOfPodsToEvictPerNode: 2 }, twoProfiles), {
      now: NOW,
      podFitsNode: fitsAnywhere,
    });
    expect(result.evictions.map((e) => [e.profile, e.name])).toEqual([
      ['one', 'p1'],
      ['one', 'p2'],
    ]);
    // Each profile's plugin meets the node limit once and moves on.
    expect(result.refused.map((r) => [r.profile, r.pod, r.refusal])).toEqual([
      ['one', 'default/p3', 'node-limit'],
      ['two', 'default/p3', 'node-limit'],
    ]);
    expect(result.limits).toEqual({
      maxNoOfPodsToEvictPerNode: 2,
      reached: { total: false, nodes: ['a'], namespaces: [] },
    });
    expect(result.profiles.map((p) => p.refused)).toEqual([{ 'node-limit': 1 }, { 'node-limit': 1 }]);
  });

  it('stops at the total limit', () => {
    const objects = objectsOf(node('a', tainted), node('b', tainted), rsPod('p1', 'a'), rsPod('p2', 'b'));
    const result = deschedule(objects, taintsPolicy({ maxNoOfPodsToEvictTotal: 1 }), {
      now: NOW,
      podFitsNode: fitsAnywhere,
    });
    expect(result.evictions.map((e) => e.name)).toEqual(['p1']);
    expect(result.refused).toEqual([
      expect.objectContaining({
        pod: 'default/p2',
        refusal: 'total-limit',
        message: 'maximum number of evicted pods per a descheduling cycle reached',
      }),
    ]);
    expect(result.limits.reached.total).toBe(true);
  });

  it('honours PodDisruptionBudgets as the eviction API does, counting each eviction against the budget', () => {
    const app = (p: Pod) => void (p.metadata!.labels = { app: 'web' });
    const objects = objectsOf(
      node('a', tainted),
      node('b'),
      rsPod('w1', 'a', app),
      rsPod('w2', 'a', app),
      rsPod('w3', 'b', app),
      t.buildTestPDB('web', 'web'), // maxUnavailable 1
    );
    const result = deschedule(objects, taintsPolicy(), { now: NOW, podFitsNode: fitsAnywhere });
    expect(result.evictions.map((e) => e.name)).toEqual(['w1']);
    expect(result.refused).toEqual([
      expect.objectContaining({
        pod: 'default/w2',
        refusal: 'pod-disruption-budget',
        message:
          "Cannot evict pod as it would violate the pod's disruption budget. The disruption budget web needs 2 healthy pods and has 2 currently",
      }),
    ]);
  });

  it('refuses a pod two budgets cover, and lets a pending pod go without a budget check', () => {
    const app = (p: Pod) => void (p.metadata!.labels = { app: 'web' });
    const pending = (p: Pod) => (app(p), void (t.writable(p).status = { phase: 'Pending' }));
    const objects = objectsOf(
      node('a', tainted),
      node('b'),
      rsPod('w1', 'a', app),
      rsPod('w2', 'a', pending),
      t.buildTestPDB('web', 'web'),
      { ...t.buildTestPDB('web-too', 'web') },
    );
    const result = deschedule(objects, taintsPolicy(), { now: NOW, podFitsNode: fitsAnywhere });
    expect(result.evictions.map((e) => e.name)).toEqual(['w2']);
    expect(result.refused).toEqual([
      expect.objectContaining({ pod: 'default/w1', refusal: 'multiple-pod-disruption-budgets' }),
    ]);
  });

  it('takes evicted pods out of the view at once, so a later profile does not see them', () => {
    const objects = objectsOf(node('a', tainted), node('b'), rsPod('p1', 'a'));
    const profile = (name: string) => ({
      name,
      pluginConfig: [{ name: 'RemovePodsViolatingNodeTaints' }],
      plugins: { deschedule: { enabled: ['RemovePodsViolatingNodeTaints'] } },
    });
    const result = deschedule(objects, taintsPolicy({}, [profile('one'), profile('two')]), {
      now: NOW,
      podFitsNode: fitsAnywhere,
    });
    expect(result.evictions.map((e) => [e.profile, e.name])).toEqual([['one', 'p1']]);
    expect(result.refused).toEqual([]);
  });

  it("asks the caller's podFitsNode for DefaultEvictor's nodeFit", () => {
    const objects = objectsOf(node('a', tainted), node('b'), rsPod('p1', 'a'));
    const policy = taintsPolicy({}, [
      {
        name: 'fit',
        pluginConfig: [
          { name: 'DefaultEvictor', args: { nodeFit: true } },
          { name: 'RemovePodsViolatingNodeTaints' },
        ],
        plugins: { deschedule: { enabled: ['RemovePodsViolatingNodeTaints'] } },
      },
    ]);
    const asked: string[] = [];
    const result = deschedule(objects, policy, {
      now: NOW,
      podFitsNode: (pod, n) => (asked.push(`${pod.metadata?.name}->${n.metadata?.name}`), false),
    });
    expect(asked).toEqual(['p1->b']);
    expect(result.evictions).toEqual([]);
  });

  it('processes only ready nodes the nodeSelector picks, and skips a cycle with fewer than two', () => {
    const labelled = (pool: string) => (n: Node) => (tainted(n), void (n.metadata!.labels = { pool }));
    const notReady = (n: Node) => void (n.status!.conditions = [{ type: 'Ready', status: 'False' }]);
    const objects = objectsOf(
      node('a', labelled('general')),
      node('b', labelled('general')),
      node('c', labelled('batch')),
      node('d', (n) => (labelled('general')(n), notReady(n))),
      rsPod('pa', 'a'),
      rsPod('pc', 'c'),
      rsPod('pd', 'd'),
    );
    const picked = deschedule(objects, taintsPolicy({ nodeSelector: 'pool=general' }), {
      now: NOW,
      podFitsNode: fitsAnywhere,
    });
    expect(picked.nodes).toEqual(['a', 'b']);
    expect(picked.evictions.map((e) => e.name)).toEqual(['pa']);
    const alone = deschedule(objects, taintsPolicy({ nodeSelector: 'pool=batch' }), {
      now: NOW,
      podFitsNode: fitsAnywhere,
    });
    expect(alone.skipped).toBe(TOO_FEW_NODES_MESSAGE);
    expect(alone.evictions).toEqual([]);
  });

  it("reads priorityThreshold.name from the snapshot's PriorityClasses, and says when the class is missing", () => {
    const withPriority = (value: number) => (p: Pod) => void (p.spec!.priority = value);
    const objects = objectsOf(
      node('a', tainted),
      node('b'),
      rsPod('low', 'a', withPriority(10)),
      rsPod('high', 'a', withPriority(1000)),
      {
        apiVersion: 'scheduling.k8s.io/v1',
        kind: 'PriorityClass',
        metadata: { name: 'important' },
        value: 500,
      },
    );
    const policy = (name: string) =>
      taintsPolicy({}, [
        {
          name: 'prio',
          pluginConfig: [
            { name: 'DefaultEvictor', args: { priorityThreshold: { name } } },
            { name: 'RemovePodsViolatingNodeTaints' },
          ],
          plugins: { deschedule: { enabled: ['RemovePodsViolatingNodeTaints'] } },
        },
      ]);
    expect(
      deschedule(objects, policy('important'), { now: NOW, podFitsNode: fitsAnywhere }).evictions.map(
        (e) => e.name,
      ),
    ).toEqual(['low']);
    expect(() => deschedule(objects, policy('missing'), { now: NOW, podFitsNode: fitsAnywhere })).toThrow(
      PolicyError,
    );
  });
});
