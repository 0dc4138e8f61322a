/**
 * More of upstream scheduling_queue_test.go (v1.37.2) as data (moveToActiveQ, moveToBackoffQ,
 * MoveAllToActiveOrBackoffQueue_PreEnqueueChecks), the releases before SchedulerQueueingHints,
 * SchedulerPopFromBackoffQ and the 1.33 backoff accounting, the periodic flushes as clock ticks
 * with the next wake-up, several profiles, and the queue fed by the real default profile.
 */
import type { KubeObject, Node, Pod } from '@schedlab/k8s';
import { FeatureSet } from '../../../features';
import {
  ActionType,
  EventForceActivate,
  EventUnschedulableTimeout,
  eventLabel,
  nodeSchedulingPropertiesChange,
} from '../../../framework/events';
import type { PreEnqueuePlugin } from '../../../framework/interface';
import { Status } from '../../../framework/status';
import { SchedulingGates } from '../../../framework/plugins/schedulinggates/scheduling-gates';
import { buildClusterState } from '../../../simulation/cluster';
import { createSimulator, setupEngine } from '../../../simulation/simulate';
import { makeNode, makePod } from '../../../testing/builders';
import { attemptFailureOf } from '../attempt-failure';
import { SimulatedClock } from '../clock';
import { newSchedulingQueue, queueFeatures } from '../queue-profiles';
import { ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_Q } from '../scheduling-queue';
import {
  AllowlistPreEnqueue,
  MINUTE,
  SECOND,
  T0,
  hintMap,
  mediumPriority,
  names,
  newTestQueue,
  nodeAdd,
  pod,
  pvAdd,
  queueHintReturnQueue,
  queueHintReturnSkip,
  queued,
} from './queue-fixtures';

/** Upstream keys the PreEnqueue plugins by name: of two with one name the last one stays. */
const byName = (plugins: PreEnqueuePlugin[]) => [...new Map(plugins.map((p) => [p.name, p])).values()];

describe('TestPriorityQueue_moveToActiveQ', () => {
  const foo = (allow: string[]) => new AllowlistPreEnqueue(allow);
  const rows: {
    name: string;
    plugins: PreEnqueuePlugin[];
    pod: Pod;
    event: string;
    movesFromBackoffQ?: boolean;
    popFromBackoffQ?: boolean[];
    wantUnschedulablePods: number;
    wantSuccess: boolean;
  }[] = [
    {
      name: 'no plugins registered',
      plugins: [],
      pod: pod('p', { labels: { p: '' } }),
      event: 'UnscheduledPodAdd',
      wantUnschedulablePods: 0,
      wantSuccess: true,
    },
    {
      name: 'preEnqueue plugin registered, pod name not in allowlists',
      plugins: [foo([]), foo([])],
      pod: pod('p', { labels: { p: '' } }),
      event: 'UnscheduledPodAdd',
      wantUnschedulablePods: 1,
      wantSuccess: false,
    },
    {
      name: 'preEnqueue plugin registered, pod failed one preEnqueue plugin',
      plugins: [foo(['foo', 'bar']), foo(['foo'])],
      pod: pod('bar', { labels: { bar: '' } }),
      event: 'UnscheduledPodAdd',
      wantUnschedulablePods: 1,
      wantSuccess: false,
    },
    {
      name: 'preEnqueue plugin registered, preEnqueue rejects the pod, even if it is after backoff',
      plugins: [foo(['foo', 'bar']), foo(['foo'])],
      pod: pod('bar', { labels: { bar: '' } }),
      event: 'BackoffComplete',
      popFromBackoffQ: [false],
      wantUnschedulablePods: 1,
      wantSuccess: false,
    },
    {
      name: 'preEnqueue plugin registered, pod would fail one preEnqueue plugin, but it is moved from backoffQ after completing backoff, so preEnqueue is not executed',
      plugins: [foo(['foo', 'bar']), foo(['foo'])],
      pod: pod('bar', { labels: { bar: '' } }),
      event: 'BackoffComplete',
      movesFromBackoffQ: true,
      popFromBackoffQ: [true],
      wantUnschedulablePods: 0,
      wantSuccess: true,
    },
    {
      name: 'preEnqueue plugin registered, pod failed one preEnqueue plugin when activated from unschedulableEntities',
      plugins: [foo(['foo', 'bar']), foo(['foo'])],
      pod: pod('bar', { labels: { bar: '' } }),
      event: 'ForceActivate',
      popFromBackoffQ: [true],
      wantUnschedulablePods: 1,
      wantSuccess: false,
    },
    {
      name: 'preEnqueue plugin registered, pod would fail one preEnqueue plugin, but was activated from backoffQ, so preEnqueue is not executed',
      plugins: [foo(['foo', 'bar']), foo(['foo'])],
      pod: pod('bar', { labels: { bar: '' } }),
      event: 'ForceActivate',
      movesFromBackoffQ: true,
      popFromBackoffQ: [true],
      wantUnschedulablePods: 0,
      wantSuccess: true,
    },
    {
      name: 'preEnqueue plugin registered, pod passed all preEnqueue plugins',
      plugins: [foo(['foo', 'bar']), foo(['bar'])],
      pod: pod('bar', { labels: { bar: '' } }),
      event: 'UnscheduledPodAdd',
      wantUnschedulablePods: 0,
      wantSuccess: true,
    },
  ];
  for (const row of rows) {
    for (const popFromBackoffQ of row.popFromBackoffQ ?? [true, false]) {
      it(`${row.name} popFromBackoffQEnabled(${popFromBackoffQ})`, () => {
        const { q, clock } = newTestQueue({
          popFromBackoffQ,
          preEnqueue: byName(row.plugins),
          podInitialBackoffSeconds: 30,
          podMaxBackoffSeconds: 60,
        });
        expect(q.moveToActiveQ(queued(row.pod, clock.now()), row.event, row.movesFromBackoffQ ?? false)).toBe(
          row.wantSuccess,
        );
        expect(q.unschedulablePods.size).toBe(row.wantUnschedulablePods);
        const clone: Pod = { ...row.pod, metadata: { ...row.pod.metadata, annotations: { foo: '' } } };
        q.update(row.pod, clone);
        expect(q.unschedulablePods.size).toBe(row.wantUnschedulablePods);
      });
    }
  }
});

describe('TestPriorityQueue_moveToBackoffQ', () => {
  const foo = (allow: string[]) => new AllowlistPreEnqueue(allow);
  const rows: {
    name: string;
    plugins: PreEnqueuePlugin[];
    pod: Pod;
    popFromBackoffQ?: boolean[];
    wantSuccess: boolean;
  }[] = [
    { name: 'no plugins registered', plugins: [], pod: pod('p', { labels: { p: '' } }), wantSuccess: true },
    {
      name: 'preEnqueue plugin registered, pod name would not be in allowlists',
      plugins: [foo([]), foo([])],
      pod: pod('p', { labels: { p: '' } }),
      popFromBackoffQ: [false],
      wantSuccess: true,
    },
    {
      name: 'preEnqueue plugin registered, pod name not in allowlists',
      plugins: [foo([]), foo([])],
      pod: pod('p', { labels: { p: '' } }),
      popFromBackoffQ: [true],
      wantSuccess: false,
    },
    {
      name: "preEnqueue plugin registered, preEnqueue plugin would reject the pod, but isn't run",
      plugins: [foo(['foo', 'bar']), foo(['foo'])],
      pod: pod('bar', { labels: { bar: '' } }),
      popFromBackoffQ: [false],
      wantSuccess: true,
    },
    {
      name: 'preEnqueue plugin registered, pod failed one preEnqueue plugin',
      plugins: [foo(['foo', 'bar']), foo(['foo'])],
      pod: pod('bar', { labels: { bar: '' } }),
      popFromBackoffQ: [true],
      wantSuccess: false,
    },
    {
      name: 'preEnqueue plugin registered, pod passed all preEnqueue plugins',
      plugins: [foo(['foo', 'bar']), foo(['bar'])],
      pod: pod('bar', { labels: { bar: '' } }),
      wantSuccess: true,
    },
  ];
  for (const row of rows) {
    for (const popFromBackoffQ of row.popFromBackoffQ ?? [true, false]) {
      it(`${row.name} popFromBackoffQEnabled(${popFromBackoffQ})`, () => {
        const { q, clock } = newTestQueue({
          popFromBackoffQ,
          preEnqueue: byName(row.plugins),
          podInitialBackoffSeconds: 30,
          podMaxBackoffSeconds: 60,
        });
        const info = queued(row.pod, clock.now());
        expect(q.moveToBackoffQ(info)).toBe(row.wantSuccess);
        expect(q.queueOf(row.pod)).toBe(row.wantSuccess ? BACKOFF_Q : UNSCHEDULABLE_Q);
      });
    }
  }
});

describe('TestMoveAllToActiveOrBackoffQueue_PreEnqueueChecks', () => {
  const priorityOf = (p: Pod) => p.spec?.priority ?? 0;
  it.each([
    {
      name: 'nil PreEnqueueCheck',
      event: EventUnschedulableTimeout,
      check: undefined,
      want: ['p0', 'p1', 'p2', 'p3', 'p4'],
    },
    {
      name: 'move Pods with priority greater than 2',
      event: EventUnschedulableTimeout,
      check: (p: Pod) => priorityOf(p) >= 2,
      want: ['p2', 'p3', 'p4'],
    },
    {
      name: 'move Pods with even priority and greater than 2',
      event: EventUnschedulableTimeout,
      check: (p: Pod) => priorityOf(p) % 2 === 0 && priorityOf(p) >= 2,
      want: ['p2', 'p4'],
    },
    {
      name: 'move Pods with even and negative priority',
      event: EventUnschedulableTimeout,
      check: (p: Pod) => priorityOf(p) % 2 === 0 && priorityOf(p) < 0,
      want: [],
    },
    {
      name: "preCheck isn't called if the event is not interested by any plugins",
      event: pvAdd,
      check: () => {
        throw new Error("preCheck shouldn't be called");
      },
      want: [],
    },
  ])('$name', ({ event, check, want }) => {
    const { q, clock } = newTestQueue();
    for (let i = 0; i < 5; i++) {
      const p = pod(`p${i}`, { priority: i });
      q.add(p);
      const popped = q.pop()!;
      expect(popped.pod).toBe(p);
      q.failed(popped, { unschedulablePlugins: ['plugin'] });
    }
    q.moveAllToActiveOrBackoffQueue(event, undefined, undefined, check);
    clock.advance(2 * 10 * SECOND);
    expect(
      q.backoffQ
        .popAllBackoffCompleted()
        .map((p) => p.pod.metadata!.name!)
        .sort(),
    ).toEqual(want);
  });
});

describe('releases', () => {
  it('before SchedulerQueueingHints (up to 1.31): an event during the attempt sends the pod to backoffQ (moveRequestCycle)', () => {
    const { q } = newTestQueue({
      queueingHints: false,
      hints: hintMap([[nodeAdd, [['fooPlugin', queueHintReturnSkip]]]]),
    });
    const a = pod('a');
    const b = pod('b');
    q.add(a);
    q.add(b);
    const pa = q.pop()!;
    q.failed(pa, { unschedulablePlugins: ['fooPlugin'] });
    expect(q.queueOf(a)).toBe(UNSCHEDULABLE_Q);
    const pb = q.pop()!;
    const cycleB = q.schedulingCycle();
    // An event of interest arrives while b is being attempted: the pool moves every pod whose
    // plugin registered it without asking its hint (which would say QueueSkip)...
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, { metadata: { name: 'n' } });
    expect(q.queueOf(a)).toBe(BACKOFF_Q);
    // ...and b, rejected by a plugin that never registered the event, goes to backoffQ as well.
    q.failed(pb, { unschedulablePlugins: ['otherPlugin'] }, cycleB);
    expect(q.queueOf(b)).toBe(BACKOFF_Q);
    expect(q.activeQ.listInFlightEvents()).toEqual([]);
  });

  it('with SchedulerQueueingHints the same event is judged by the hints of the pod that was in flight', () => {
    const { q } = newTestQueue({ hints: hintMap([[nodeAdd, [['fooPlugin', queueHintReturnQueue]]]]) });
    const b = pod('b');
    q.add(b);
    const pb = q.pop()!;
    q.moveAllToActiveOrBackoffQueue(
      { resource: 'Node', actionType: ActionType.UpdateNodeLabel },
      undefined,
      undefined,
    );
    q.failed(pb, { unschedulablePlugins: ['otherPlugin'] });
    expect(q.queueOf(b)).toBe(UNSCHEDULABLE_Q);
  });

  it('before 1.33 the backoff grows with every attempt, errors included; from 1.33 errors and rejections count apart', () => {
    const backoffs = (countsApart: boolean) => {
      const { q, clock } = newTestQueue({
        popFromBackoffQ: false,
        backoffCountsRejectionsAndErrorsApart: countsApart,
      });
      const p = pod('p');
      q.add(p);
      const out: number[] = [];
      // Three errors, then a rejection.
      for (const failure of [{}, {}, {}, { unschedulablePlugins: ['plugin'] }]) {
        const info = q.pop()!;
        const t = clock.now();
        q.failed(info, failure);
        const end = q.backoffQ.getBackoffTime(info);
        out.push(end - t);
        clock.advance(end - t + 1);
        q.flushBackoffQCompleted();
        if (q.queueOf(p) !== ACTIVE_Q)
          q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
      }
      return out;
    };
    expect(backoffs(false)).toEqual([1, 2, 4, 8].map((s) => s * SECOND));
    expect(backoffs(true)).toEqual([1, 2, 4, 1].map((s) => s * SECOND));
  });

  it('reads the gates and the switch of the chosen release', () => {
    expect(queueFeatures(new FeatureSet('1.31'))).toEqual({
      popFromBackoffQ: false,
      queueingHints: false,
      backoffCountsRejectionsAndErrorsApart: false,
    });
    expect(queueFeatures(new FeatureSet('1.32'))).toEqual({
      popFromBackoffQ: false,
      queueingHints: true,
      backoffCountsRejectionsAndErrorsApart: false,
    });
    expect(queueFeatures(new FeatureSet('1.33'))).toEqual({
      popFromBackoffQ: true,
      queueingHints: true,
      backoffCountsRejectionsAndErrorsApart: true,
    });
    expect(queueFeatures(new FeatureSet('1.37', { SchedulerPopFromBackoffQ: false })).popFromBackoffQ).toBe(
      false,
    );
  });
});

describe('the periodic flushes on the simulated clock', () => {
  it('moves a pod whose backoff ended at the next one-second tick, and reports that tick as the wake-up', () => {
    const { q, clock } = newTestQueue({ start: T0 + 250 });
    const setClock = (t: number) => clock.set(t);
    const p = pod('p');
    q.add(p);
    const info = q.pop()!;
    clock.advance(100); // the attempt took 100 ms: back at T0+350
    q.failed(info, {});
    // Error backoff: 1 s from T0+350, rounded down to the window: T0+1000; the pod waits
    // until a tick whose window starts after it (T0+2000).
    expect(info.backoffExpiration).toBe(T0 + SECOND);
    expect(q.queueOf(p)).toBe(BACKOFF_Q);
    expect(q.nextWakeUp()).toBe(T0 + 2 * SECOND);
    q.advanceTo(T0 + 2 * SECOND - 1, setClock);
    expect(q.queueOf(p)).toBe(BACKOFF_Q);
    q.advanceTo(T0 + 2 * SECOND, setClock);
    expect(q.queueOf(p)).toBe(ACTIVE_Q);
    expect(clock.now()).toBe(T0 + 2 * SECOND);
  });

  it('flushes the unschedulable pool every 30 s once a pod has waited more than podMaxInUnschedulablePodsDuration', () => {
    const { q, clock } = newTestQueue();
    const setClock = (t: number) => clock.set(t);
    const p = pod('p');
    q.add(p);
    const info = q.pop()!;
    q.failed(info, { unschedulablePlugins: ['plugin'] });
    expect(q.queueOf(p)).toBe(UNSCHEDULABLE_Q);
    // Waited more than 5 min (strictly) at the first 30 s tick after T0+5min: T0+5min30s.
    expect(q.nextWakeUp()).toBe(T0 + 5 * MINUTE + 30 * SECOND);
    q.advanceTo(T0 + 5 * MINUTE, setClock);
    expect(q.queueOf(p)).toBe(UNSCHEDULABLE_Q);
    q.advanceTo(T0 + 5 * MINUTE + 30 * SECOND, setClock);
    // Its backoff (1 s) is long over, so it goes straight to activeQ.
    expect(q.queueOf(p)).toBe(ACTIVE_Q);
    expect(q.nextWakeUp()).toBeUndefined();
  });

  it('without SchedulerPopFromBackoffQ the backoff flush ticks from the queue start, unaligned', () => {
    const { q, clock } = newTestQueue({ start: T0 + 250, popFromBackoffQ: false });
    const p = pod('p');
    q.add(p);
    q.failed(q.pop()!, {});
    expect(q.get(p)!.backoffExpiration).toBe(T0 + 1250);
    // Ticks at T0+250, T0+1250 (backoff end not yet before now), T0+2250.
    expect(q.nextWakeUp()).toBe(T0 + 2250);
    q.advanceTo(T0 + 1250, (t) => clock.set(t));
    expect(q.queueOf(p)).toBe(BACKOFF_Q);
    q.advanceTo(T0 + 2250, (t) => clock.set(t));
    expect(q.queueOf(p)).toBe(ACTIVE_Q);
  });
});

describe('ticks skipped while backoffQ is empty', () => {
  it('keep their one-second grid from the queue start', () => {
    const { q, clock } = newTestQueue({ start: T0 + 250, popFromBackoffQ: false });
    q.advanceTo(T0 + 100_500, (t) => clock.set(t));
    const p = pod('p');
    q.add(p);
    q.failed(q.pop()!, {});
    // Backoff ends at T0+101500; the ticks stay at T0+250 + k s, so the first after it is T0+102250.
    expect(q.nextWakeUp()).toBe(T0 + 102_250);
    q.advanceTo(T0 + 102_249, (t) => clock.set(t));
    expect(q.queueOf(p)).toBe(BACKOFF_Q);
    q.advanceTo(T0 + 102_250, (t) => clock.set(t));
    expect(q.queueOf(p)).toBe(ACTIVE_Q);
  });
});

describe('profiles', () => {
  it('keeps one queue and clock for every profile, each with its own PreEnqueue plugins and hints', () => {
    const { q } = newTestQueue({
      profiles: [
        {
          schedulerName: 'default-scheduler',
          preEnqueuePlugins: [],
          queueingHintMap: hintMap([[nodeAdd, [['fooPlugin', queueHintReturnQueue]]]]),
        },
        {
          schedulerName: 'gated-scheduler',
          preEnqueuePlugins: [new AllowlistPreEnqueue(['ok'])],
          queueingHintMap: [],
        },
      ],
    });
    const a = pod('a', { priority: 1 });
    const b = {
      ...pod('b', { priority: 5 }),
      spec: { ...pod('b').spec!, schedulerName: 'gated-scheduler', priority: 5 },
    } as Pod;
    const c = {
      ...pod('c', { labels: { ok: '' } }),
      spec: { ...pod('c').spec!, schedulerName: 'gated-scheduler', priority: 9 },
    } as Pod;
    q.add(a);
    q.add(b);
    q.add(c);
    expect(q.queueOf(b)).toBe(UNSCHEDULABLE_Q);
    expect(names(q.podsInActiveQ())).toEqual(['c', 'a']);
    const pc = q.pop()!;
    const pa = q.pop()!;
    q.failed(pc, { unschedulablePlugins: ['fooPlugin'] });
    q.failed(pa, { unschedulablePlugins: ['fooPlugin'] });
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, { metadata: { name: 'n' } });
    // Only the default profile registered NodeAdd for fooPlugin.
    expect(q.queueOf(a)).toBe(BACKOFF_Q);
    expect(q.queueOf(c)).toBe(UNSCHEDULABLE_Q);
  });
});

describe('the queue of the default profile', () => {
  function setup(version = '1.37') {
    const small = makeNode({ name: 'small', allocatable: { cpu: '1', memory: '4Gi', pods: '110' } });
    const setupE = setupEngine({ compatibilityVersion: version });
    const cluster = buildClusterState([small as unknown as KubeObject], { features: setupE.features });
    const sim = createSimulator(cluster, setupE);
    const clock = new SimulatedClock(T0);
    const q = newSchedulingQueue([...sim.frameworks.values()], setupE.features, clock, {
      podInitialBackoffSeconds: setupE.configuration.podInitialBackoffSeconds,
      podMaxBackoffSeconds: setupE.configuration.podMaxBackoffSeconds,
    });
    return { sim, q, clock, small };
  }

  it('requeues a pod NodeResourcesFit rejected when a node grows, not when it is relabelled', () => {
    const { sim, q, clock, small } = setup();
    const big = makePod({ name: 'big', requests: [{ cpu: '2' }] });
    q.add(big);
    const info = q.pop()!;
    const record = sim.algorithm.schedulePod(sim.frameworkFor(big)!, big);
    expect(record.selectedNode).toBeNull();
    const failure = attemptFailureOf(record);
    expect([...failure.unschedulablePlugins!]).toEqual(['NodeResourcesFit']);
    expect(q.failed(info, failure)).toBe(UNSCHEDULABLE_Q);

    const relabelled: Node = {
      ...small,
      metadata: { ...small.metadata, labels: { ...small.metadata!.labels, tier: 'x' } },
    };
    for (const e of nodeSchedulingPropertiesChange(relabelled, small))
      q.moveAllToActiveOrBackoffQueue(e, small, relabelled);
    expect(q.queueOf(big)).toBe(UNSCHEDULABLE_Q);

    const grownTooLittle: Node = {
      ...small,
      status: { ...small.status, allocatable: { cpu: '1500m', memory: '4Gi', pods: '110' } },
    };
    for (const e of nodeSchedulingPropertiesChange(grownTooLittle, small))
      q.moveAllToActiveOrBackoffQueue(e, small, grownTooLittle);
    expect(q.queueOf(big)).toBe(UNSCHEDULABLE_Q);

    const grown: Node = {
      ...small,
      status: { ...small.status, allocatable: { cpu: '4', memory: '4Gi', pods: '110' } },
    };
    const events = nodeSchedulingPropertiesChange(grown, grownTooLittle);
    expect(events.map(eventLabel)).toEqual(['NodeUpdateNodeAllocatable']);
    for (const e of events) q.moveAllToActiveOrBackoffQueue(e, grownTooLittle, grown);
    expect(q.queueOf(big)).toBe(BACKOFF_Q);
    q.advanceTo(clock.now() + 2 * SECOND, (t) => clock.set(t));
    expect(q.queueOf(big)).toBe(ACTIVE_Q);
  });

  it('counts the plugins that narrowed the nodes among the rejecting ones, as upstream', () => {
    const { sim } = setup();
    const pinned = makePod({ name: 'pinned', requests: [{ cpu: '2' }] });
    pinned.spec!.affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['small'] }] }],
        },
      },
    };
    const record = sim.algorithm.schedulePod(sim.frameworkFor(pinned)!, pinned);
    expect(record.selectedNode).toBeNull();
    expect([...attemptFailureOf(record).unschedulablePlugins!].sort()).toEqual([
      'NodeAffinity',
      'NodeResourcesFit',
    ]);
  });

  it('holds a pod with scheduling gates until the update that removes them', () => {
    const { q } = setup();
    const gated = makePod({
      name: 'gated',
      spec: { containers: [{ name: 'c', image: 'pause' }], schedulingGates: [{ name: 'example.com/wait' }] },
    });
    q.add(gated);
    expect(q.queueOf(gated)).toBe(UNSCHEDULABLE_Q);
    expect(q.get(gated)!.gatingPlugin).toBe('SchedulingGates');
    expect(q.get(gated)!.gatingStatus).toBe('waiting for scheduling gates: [example.com/wait]');
    // Events the gating plugin did not register leave it alone, even a node added.
    q.moveAllToActiveOrBackoffQueue(
      { resource: 'Node', actionType: ActionType.Add },
      undefined,
      makeNode({ name: 'n2' }),
    );
    expect(q.queueOf(gated)).toBe(UNSCHEDULABLE_Q);
    const ungated: Pod = { ...gated, spec: { ...gated.spec!, schedulingGates: [] } };
    q.update(gated, ungated);
    expect(q.queueOf(ungated)).toBe(ACTIVE_Q);
    expect(q.pop()!.pod).toBe(ungated);
  });

  it('registers every plugin of the default profile that can reject a pod', () => {
    const { q } = setup();
    const profile = q.profile('default-scheduler')!;
    const plugins = new Set(profile.queueingHintMap.flatMap((m) => m.fns.map((f) => f.pluginName)));
    for (const name of [
      'SchedulingGates',
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration',
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'PodTopologySpread',
      'InterPodAffinity',
      'VolumeBinding',
      'DefaultPreemption',
    ])
      expect(plugins).toContain(name);
    // Scoring-only plugins never reject a pod, so the queue does not track them.
    expect(plugins).not.toContain('ImageLocality');
    expect(plugins).not.toContain('NodeResourcesBalancedAllocation');
    expect(profile.preEnqueuePlugins.map((p) => p.name)).toEqual([
      'SchedulingGates',
      'DynamicResources',
      'DefaultPreemption',
    ]);
  });
});

/** Upstream's denyingPreEnqueuePlugin: gates pods carrying one of the denylisted label keys. */
class DenyingPreEnqueue implements PreEnqueuePlugin {
  readonly name = 'denyingPreEnqueuePlugin';
  constructor(private readonly denylists: string[]) {}
  preEnqueue(p: Pod) {
    const labels = Object.keys(p.metadata?.labels ?? {});
    return this.denylists.some((d) => labels.includes(d))
      ? Status.unresolvable('pod label in denylists')
      : null;
  }
}

describe('TestPriorityQueue_Update', () => {
  const targetPodUpdate = { resource: 'TargetPod' as const, actionType: ActionType.Update };
  const withAnnotation = (p: Pod, value: string): Pod => ({
    ...p,
    metadata: { ...p.metadata, annotations: { annot2: 'val2', foo: value } },
  });
  const withGate = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, labels: { deny: 'true' } } });
  const med = () =>
    ({
      ...pod('mpp', { ns: 'ns2', uid: 'mppns2', priority: mediumPriority }),
      metadata: { name: 'mpp', namespace: 'ns2', uid: 'mppns2', annotations: { annot2: 'val2' } },
    }) as Pod;
  const high = () => pod('hpp', { ns: 'ns1', uid: 'hppns1', priority: 1000 });
  const highNominated = () => ({ ...high(), status: { nominatedNodeName: 'node1' } }) as Pod;
  type Q = ReturnType<typeof newTestQueue>;
  const rows: { name: string; wantQ: string | undefined; prepare: (t: Q) => [Pod, Pod] }[] = [
    {
      name: "Update pod that didn't exist in the queue",
      wantQ: ACTIVE_Q,
      prepare: () => [med(), withAnnotation(med(), 'test')],
    },
    {
      name: "Update gated pod that didn't exist in the queue",
      wantQ: UNSCHEDULABLE_Q,
      prepare: () => [withGate(med()), withAnnotation(withGate(med()), 'test')],
    },
    {
      name: 'Update non-existent highPriorityPodInfo and add a nominatedNodeName to it',
      wantQ: ACTIVE_Q,
      prepare: () => [high(), highNominated()],
    },
    {
      name: 'Update non-existent gated highPriorityPodInfo and add a nominatedNodeName to it',
      wantQ: UNSCHEDULABLE_Q,
      prepare: () => [withGate(high()), withGate(highNominated())],
    },
    {
      name: 'When updating a pod that is already in activeQ, the pod should remain in activeQ after Update()',
      wantQ: ACTIVE_Q,
      prepare: ({ q }) => {
        const h = high();
        q.add(h);
        return [h, h];
      },
    },
    {
      name: 'When updating a pod that is in backoff queue and is still backing off, it will be updated in backoff queue',
      wantQ: BACKOFF_Q,
      prepare: ({ q, clock }) => {
        const m = med();
        q.backoffQ.add(queued(m, clock.now()));
        return [m, m];
      },
    },
    {
      name: 'when updating a pod in unschedulableEntities, if its backoff timer has not yet expired, it moves to backoffQ',
      wantQ: BACKOFF_Q,
      prepare: ({ q, clock }) => {
        q.unschedulablePods.addOrUpdate(
          queued(med(), clock.now(), { unschedulablePlugins: ['queuePlugin'], unschedulableCount: 1 }),
        );
        return [med(), withAnnotation(med(), 'test')];
      },
    },
    {
      name: 'when updating a pod in unschedulableEntities, if its backoff timer has expired, it moves to activeQ',
      wantQ: ACTIVE_Q,
      prepare: ({ q, clock }) => {
        q.unschedulablePods.addOrUpdate(
          queued(med(), clock.now(), { unschedulablePlugins: ['queuePlugin'], unschedulableCount: 1 }),
        );
        clock.advance(10 * SECOND);
        return [med(), withAnnotation(med(), 'test1')];
      },
    },
    {
      name: 'when updating a pod in unschedulableEntities, if the scheduling hint returns QueueSkip, it remains in unschedulableEntities',
      wantQ: UNSCHEDULABLE_Q,
      prepare: ({ q, clock }) => {
        q.unschedulablePods.addOrUpdate(queued(med(), clock.now(), { unschedulablePlugins: ['skipPlugin'] }));
        return [med(), withAnnotation(med(), 'test1')];
      },
    },
    {
      name: 'when updating a pod which is in flightPods, the pod will not be added to any queue',
      wantQ: undefined,
      prepare: ({ q }) => {
        const m = med();
        q.add(m);
        expect(q.pop()?.pod).toBe(m);
        return [m, withAnnotation(m, 'bar')];
      },
    },
  ];
  it.each(rows)('$name', ({ wantQ, prepare }) => {
    const t = newTestQueue({
      hints: hintMap([
        [
          targetPodUpdate,
          [
            ['queuePlugin', queueHintReturnQueue],
            ['skipPlugin', queueHintReturnSkip],
          ],
        ],
      ]),
      preEnqueue: [new DenyingPreEnqueue(['deny'])],
    });
    const [oldPod, newPod] = prepare(t);
    t.q.update(oldPod, newPod);
    expect(t.q.queueOf(newPod)).toBe(wantQ);
    if (wantQ) expect(t.q.get(newPod)!.pod).toBe(newPod);
  });

  it('TestPriorityQueue_UpdateWhenInflight: the pod updated while in flight goes to backoffQ by the recorded update', () => {
    const { q, clock } = newTestQueue({
      hints: hintMap([[targetPodUpdate, [['fakePlugin', queueHintReturnQueue]]]]),
    });
    const testPod = pod('test-pod', { ns: 'test-ns', uid: 'test-uid' });
    q.add(testPod);
    expect(q.pop()?.pod).toBe(testPod);
    const updated: Pod = {
      ...testPod,
      spec: { ...testPod.spec!, tolerations: [{ key: 'foo', effect: 'NoSchedule' }] },
    };
    q.update(testPod, updated);
    q.addUnschedulableIfNotPresent(
      queued(updated, clock.now(), { unschedulablePlugins: ['fakePlugin'] }),
      q.schedulingCycle(),
    );
    expect(q.queueOf(updated)).toBe(BACKOFF_Q);
    expect(q.get(updated)!.pod).toBe(updated);
  });
});

describe('TestPriorityQueue_Activate', () => {
  const hpp = () =>
    ({
      ...pod('hpp', { ns: 'ns1', uid: 'hppns1', priority: 1000 }),
      status: { nominatedNodeName: 'node1' },
    }) as Pod;
  const mpp = () => pod('mpp', { ns: 'ns2', uid: 'mppns2', priority: mediumPriority });
  it.each([
    { name: 'pod already in activeQ', inActive: true, want: ['hpp'] },
    { name: 'pod not in unschedulableEntities/backoffQ', want: [] },
    {
      name: 'pod not in unschedulableEntities/backoffQ but in-flight',
      inFlight: hpp,
      wantInFlightEvent: true,
      want: [],
    },
    { name: 'pod not in unschedulableEntities/backoffQ and not in-flight', inFlight: mpp, want: [] },
    { name: 'pod in unschedulableEntities', inPool: true, want: ['hpp'] },
    { name: 'pod in backoffQ', inBackoff: true, want: ['hpp'] },
  ])('$name', ({ inActive, inFlight, wantInFlightEvent, inPool, inBackoff, want }) => {
    const { q, clock } = newTestQueue();
    if (inFlight) {
      q.activeQ.add(queued(inFlight(), clock.now()));
      q.pop();
      expect(q.activeQ.listInFlightEvents()).toHaveLength(1);
    }
    if (inActive) q.add(hpp());
    if (inPool) q.unschedulablePods.addOrUpdate(queued(hpp(), clock.now()));
    if (inBackoff) q.backoffQ.add(queued(hpp(), clock.now()));
    const target = hpp();
    q.activate([target]);
    expect(names(q.podsInActiveQ())).toEqual(want);
    if (wantInFlightEvent) {
      const recorded = q.activeQ.listInFlightEvents();
      expect(recorded).toHaveLength(2);
      expect(recorded[1]).toEqual({ event: EventForceActivate, oldObj: undefined, newObj: target });
    }
  });
});

describe('adding pods', () => {
  it('TestPriorityQueue_Add (single pods): pops by priority', () => {
    const { q } = newTestQueue();
    const med = pod('mpp', { ns: 'ns2', uid: 'mppns2', priority: mediumPriority });
    const unsched = pod('up', { ns: 'ns1', uid: 'upns1', priority: 0 });
    const high = pod('hpp', { ns: 'ns1', uid: 'hppns1', priority: 1000 });
    q.add(med);
    q.add(unsched);
    q.add(high);
    expect([q.pop()?.pod, q.pop()?.pod, q.pop()?.pod]).toEqual([high, med, unsched]);
  });

  it('TestPriorityQueue_AddNominatedGatedPod (queue part): a gated pod waits gated in the pool', () => {
    const { q } = newTestQueue({ preEnqueue: [new AllowlistPreEnqueue(['allow'])] });
    const gated = pod('pod-gated', { ns: 'ns1', uid: 'pod-gated' });
    q.add(gated);
    expect(q.queueOf(gated)).toBe(UNSCHEDULABLE_Q);
    expect(q.get(gated)!.gated).toBe(true);
  });

  it('Test_queuedPodInfo_gatedSetUponCreationAndUnsetUponUpdate', () => {
    // Upstream's queue here has no hint map for the profile (so any event queues); this one has
    // what the profile would register: SchedulingGates' own event.
    const gates = new SchedulingGates();
    const { q } = newTestQueue({
      preEnqueue: [gates],
      hints: gates
        .eventsToRegister()
        .map(({ event, queueingHintFn }) => ({ event, fns: [{ pluginName: gates.name, queueingHintFn }] })),
    });
    const gatedPod = makePod({
      name: 'p',
      spec: { containers: [{ name: 'c', image: 'pause' }], schedulingGates: [{ name: 'hello world' }] },
    });
    q.add(gatedPod);
    expect(q.get(gatedPod)!.gated).toBe(true);
    const ungated: Pod = { ...gatedPod, spec: { ...gatedPod.spec!, schedulingGates: undefined } };
    q.update(gatedPod, ungated);
    const info = q.pop()!;
    expect(info.pod).toBe(ungated);
    expect(info.gated).toBe(false);
  });
});
