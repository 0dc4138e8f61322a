/**
 * Upstream scheduling_queue_test.go (v1.37.2) tables and flows as data, on the simulated clock:
 * QueueingHint evaluation, the in-flight event record, moves on events, Pop order, backoff
 * flows and the unschedulable pool's flush. Pod-group rows are not ported (this queue holds
 * single pods); see docs/engine.md for the full list of what is left out and why.
 */
import type { Pod } from '@schedlab/k8s';
import {
  EventAssignedPodAdd,
  EventForceActivate,
  EventUnschedulableTimeout,
  EventUnscheduledPodUpdate,
  type ClusterEvent,
  type QueueingHintFn,
} from '../../../framework/events';
import { SchedulingGates } from '../../../framework/plugins/schedulinggates/scheduling-gates';
import { QueueingStrategy, ACTIVE_Q, BACKOFF_Q, UNSCHEDULABLE_Q } from '../scheduling-queue';
import { ZERO_TIME } from '../queued-pod-info';
import {
  AllowlistPreEnqueue,
  MINUTE,
  SECOND,
  T0,
  csiNodeUpdate,
  highPriority,
  hintMap,
  mediumPriority,
  midPriority,
  names,
  newTestQueue,
  nodeAdd,
  pod,
  pvAdd,
  pvUpdate,
  pvcAdd,
  queueHintReturnQueue,
  queueHintReturnSkip,
  queued,
} from './queue-fixtures';

describe('Test_isPodWorthRequeuing', () => {
  let count = 0;
  const q_: QueueingHintFn = () => (count++, 1);
  const skip: QueueingHintFn = () => (count++, 0);
  const err: QueueingHintFn = () => {
    count++;
    throw new Error('unexpected error');
  };
  const p1 = pod('pod1', { ns: 'ns1', uid: '1' });
  const node = { metadata: { name: 'n' } };
  const rows: {
    name: string;
    plugins: string[];
    pending?: string[];
    event: ClusterEvent;
    newObj: unknown;
    expected: QueueingStrategy;
    count: number;
    hints: [ClusterEvent, [string, QueueingHintFn][]][];
  }[] = [
    {
      name: 'return Queue when no queueing hint function is registered for the event',
      plugins: ['fooPlugin1'],
      event: nodeAdd,
      newObj: node,
      expected: QueueingStrategy.QueueSkip,
      count: 0,
      hints: [[EventAssignedPodAdd, [['fooPlugin1', q_]]]],
    },
    {
      name: 'Treat the event as Queue when QueueHintFn returns error',
      plugins: ['fooPlugin1'],
      event: nodeAdd,
      newObj: node,
      expected: QueueingStrategy.QueueAfterBackoff,
      count: 1,
      hints: [[nodeAdd, [['fooPlugin1', err]]]],
    },
    {
      name: 'return Queue when the event is wildcard',
      plugins: ['fooPlugin1'],
      event: EventUnschedulableTimeout,
      newObj: undefined,
      expected: QueueingStrategy.QueueAfterBackoff,
      count: 0,
      hints: [],
    },
    {
      name: 'return Queue when the event is wildcard and the wildcard targets the pod to be requeued right now',
      plugins: ['fooPlugin1'],
      event: EventForceActivate,
      newObj: pod('pod1', { ns: 'ns1', uid: '1' }),
      expected: QueueingStrategy.QueueAfterBackoff,
      count: 0,
      hints: [],
    },
    {
      name: 'return Skip when the event is wildcard, but the wildcard targets a different pod',
      plugins: ['fooPlugin1'],
      event: EventForceActivate,
      newObj: pod('pod-different', { ns: 'ns2', uid: '2' }),
      expected: QueueingStrategy.QueueSkip,
      count: 0,
      hints: [],
    },
    {
      name: 'interprets Queue from the Pending plugin as queueImmediately',
      plugins: ['fooPlugin1', 'fooPlugin3'],
      pending: ['fooPlugin2'],
      event: nodeAdd,
      newObj: node,
      expected: QueueingStrategy.QueueImmediately,
      count: 2,
      hints: [
        [
          nodeAdd,
          [
            ['fooPlugin1', q_],
            ['fooPlugin2', q_],
            ['fooPlugin3', q_],
            ['fooPlugin4', err],
          ],
        ],
      ],
    },
    {
      name: 'interprets Queue from the Unschedulable plugin as queueAfterBackoff',
      plugins: ['fooPlugin1', 'fooPlugin2'],
      event: nodeAdd,
      newObj: node,
      expected: QueueingStrategy.QueueAfterBackoff,
      count: 2,
      hints: [
        [
          nodeAdd,
          [
            ['fooPlugin1', skip],
            ['fooPlugin2', q_],
          ],
        ],
      ],
    },
    {
      name: "Queueing hint function that isn't from the plugin in UnschedulablePlugins/PendingPlugins is ignored",
      plugins: ['fooPlugin1', 'fooPlugin2'],
      event: nodeAdd,
      newObj: node,
      expected: QueueingStrategy.QueueSkip,
      count: 2,
      hints: [
        [
          nodeAdd,
          [
            ['fooPlugin1', skip],
            ['fooPlugin2', skip],
            ['fooPlugin3', q_],
          ],
        ],
      ],
    },
    {
      name: 'If event is specific Node update event, queueing hint function for NodeUpdate/UpdateNodeLabel is also executed',
      plugins: ['fooPlugin1', 'fooPlugin2'],
      event: { resource: 'Node', actionType: 1 << 3 },
      newObj: node,
      expected: QueueingStrategy.QueueAfterBackoff,
      count: 1,
      hints: [
        [
          { resource: 'Node', actionType: 1 << 3 },
          [
            ['fooPlugin1', q_],
            ['fooPlugin2', q_],
          ],
        ],
        [{ resource: 'Node', actionType: (1 << 15) - 1 - 3 }, [['fooPlugin1', q_]]],
        [nodeAdd, [['fooPlugin1', q_]]],
      ],
    },
    {
      name: "If event with '*' Resource, queueing hint function for specified Resource is also executed",
      plugins: ['fooPlugin1'],
      event: nodeAdd,
      newObj: node,
      expected: QueueingStrategy.QueueAfterBackoff,
      count: 1,
      hints: [[{ resource: '*', actionType: 1 }, [['fooPlugin1', q_]]]],
    },
    {
      name: 'If event is a wildcard one, queueing hint function for all kinds of events is executed',
      plugins: ['fooPlugin1'],
      event: { resource: 'Node', actionType: (1 << 3) | (1 << 4) },
      newObj: node,
      expected: QueueingStrategy.QueueAfterBackoff,
      count: 1,
      hints: [[{ resource: '*', actionType: (1 << 15) - 1 }, [['fooPlugin1', q_]]]],
    },
  ];
  it.each(rows)('$name', (row) => {
    count = 0;
    const { q } = newTestQueue({ hints: hintMap(row.hints) });
    const info = queued(p1, T0, { unschedulablePlugins: row.plugins, pendingPlugins: row.pending });
    expect(q.isPodWorthRequeuing(info, row.event, undefined, row.newObj)).toBe(row.expected);
    expect(count).toBe(row.count);
  });
});

describe('Test_InFlightPods (single-pod rows)', () => {
  const pod1 = pod('targetpod', { uid: 'pod1' });
  const pod2 = pod('targetpod2', { uid: 'pod2' });
  const pod3 = pod('targetpod3', { uid: 'pod3' });
  type Action =
    | { eventHappens: ClusterEvent }
    | { podPopped: Pod }
    | { podEnqueued: Pod; plugins?: string[]; pending?: string[] };
  const rows: {
    name: string;
    hints: [ClusterEvent, [string, QueueingHintFn][]][];
    initialPods: Pod[];
    actions: Action[];
    wantInFlightPods: Pod[];
    wantInFlightEvents?: (Pod | ClusterEvent)[];
    wantActiveQ?: string[];
    wantBackoffQ?: string[];
    wantUnschedulable?: string[];
  }[] = [
    {
      name: 'Pod and interested events are registered in inFlightPods/inFlightEvents',
      initialPods: [pod1],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { eventHappens: pvUpdate },
      ],
      wantInFlightPods: [pod1],
      wantInFlightEvents: [pod1, pvAdd],
      hints: [[pvAdd, [['fooPlugin1', queueHintReturnQueue]]]],
    },
    {
      name: 'Pod, registered in inFlightPods, is enqueued back to backoffQ',
      initialPods: [pod1, pod2],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { podPopped: pod2 },
        { eventHappens: nodeAdd },
        { podEnqueued: pod1 },
      ],
      wantBackoffQ: ['targetpod'],
      wantInFlightPods: [pod2],
      wantInFlightEvents: [pod2, nodeAdd],
      hints: [
        [pvAdd, [['fooPlugin1', queueHintReturnQueue]]],
        [nodeAdd, [['fooPlugin1', queueHintReturnQueue]]],
        [pvcAdd, [['fooPlugin1', queueHintReturnQueue]]],
      ],
    },
    {
      name: 'All Pods registered in inFlightPods are enqueued back to activeQ',
      initialPods: [pod1, pod2],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { podPopped: pod2 },
        { eventHappens: nodeAdd },
        { podEnqueued: pod1 },
        { eventHappens: csiNodeUpdate },
        { podEnqueued: pod2 },
      ],
      wantBackoffQ: ['targetpod', 'targetpod2'],
      wantInFlightPods: [],
      hints: [
        [pvAdd, [['fooPlugin1', queueHintReturnQueue]]],
        [nodeAdd, [['fooPlugin1', queueHintReturnQueue]]],
        [pvcAdd, [['fooPlugin1', queueHintReturnQueue]]],
        [csiNodeUpdate, [['fooPlugin1', queueHintReturnQueue]]],
      ],
    },
    {
      name: 'One intermediate Pod registered in inFlightPods is enqueued back to activeQ',
      initialPods: [pod1, pod2, pod3],
      actions: [
        { eventHappens: pvcAdd },
        { podPopped: pod1 },
        { eventHappens: pvAdd },
        { podPopped: pod2 },
        { eventHappens: nodeAdd },
        { podPopped: pod3 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod2 },
      ],
      wantBackoffQ: ['targetpod2'],
      wantInFlightPods: [pod1, pod3],
      wantInFlightEvents: [pod1, pvAdd, nodeAdd, pod3, EventAssignedPodAdd],
      hints: [
        [pvAdd, [['fooPlugin1', queueHintReturnQueue]]],
        [nodeAdd, [['fooPlugin1', queueHintReturnQueue]]],
        [EventAssignedPodAdd, [['fooPlugin1', queueHintReturnQueue]]],
      ],
    },
    {
      name: 'events before popping Pod are ignored when Pod is enqueued back to queue',
      initialPods: [pod1],
      actions: [
        { eventHappens: EventUnschedulableTimeout },
        { podPopped: pod1 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1, plugins: ['fooPlugin1'] },
      ],
      wantUnschedulable: ['targetpod'],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      hints: [[EventAssignedPodAdd, [['fooPlugin1', queueHintReturnSkip]]]],
    },
    {
      name: 'pod is enqueued to backoff if no failed plugin',
      initialPods: [pod1],
      actions: [{ podPopped: pod1 }, { eventHappens: EventAssignedPodAdd }, { podEnqueued: pod1 }],
      wantBackoffQ: ['targetpod'],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      hints: [[EventAssignedPodAdd, [['fooPlugin1', queueHintReturnQueue]]]],
    },
    {
      name: 'pod is enqueued to unschedulable pod pool if no events that can make the pod schedulable',
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { eventHappens: nodeAdd },
        { podEnqueued: pod1, plugins: ['fooPlugin1'] },
      ],
      wantUnschedulable: ['targetpod'],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      hints: [[EventAssignedPodAdd, [['fooPlugin1', queueHintReturnQueue]]]],
    },
    {
      name: 'pod is enqueued to unschedulable pod pool because the failed plugin has a hint fn but it returns Skip',
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1, plugins: ['fooPlugin1'] },
      ],
      wantUnschedulable: ['targetpod'],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      hints: [[EventAssignedPodAdd, [['fooPlugin1', queueHintReturnSkip]]]],
    },
    {
      name: 'pod is enqueued to activeQ because the Pending plugins has a hint fn and it returns Queue',
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1, plugins: ['fooPlugin2', 'fooPlugin3'], pending: ['fooPlugin1'] },
      ],
      wantActiveQ: ['targetpod'],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      hints: [
        [
          EventAssignedPodAdd,
          [
            ['fooPlugin3', queueHintReturnSkip],
            ['fooPlugin2', queueHintReturnQueue],
            ['fooPlugin1', queueHintReturnQueue],
          ],
        ],
      ],
    },
    {
      name: 'pod is enqueued to backoffQ because the failed plugin has a hint fn and it returns Queue',
      initialPods: [pod1],
      actions: [
        { podPopped: pod1 },
        { eventHappens: EventAssignedPodAdd },
        { podEnqueued: pod1, plugins: ['fooPlugin1', 'fooPlugin2'] },
      ],
      wantBackoffQ: ['targetpod'],
      wantInFlightPods: [],
      wantInFlightEvents: [],
      hints: [
        [
          EventAssignedPodAdd,
          [
            ['fooPlugin2', queueHintReturnSkip],
            ['fooPlugin1', queueHintReturnQueue],
          ],
        ],
      ],
    },
  ];
  it.each(rows)('$name', (row) => {
    const { q, clock } = newTestQueue({ hints: hintMap(row.hints) });
    for (const p of row.initialPods) q.add(p);
    for (const a of row.actions) {
      if ('eventHappens' in a) q.moveAllToActiveOrBackoffQueue(a.eventHappens, undefined, undefined);
      else if ('podPopped' in a) expect(q.pop()?.pod).toBe(a.podPopped);
      else
        q.addUnschedulableIfNotPresent(
          queued(a.podEnqueued, clock.now(), { unschedulablePlugins: a.plugins, pendingPlugins: a.pending }),
          q.schedulingCycle(),
        );
    }
    expect(names(q.inFlightPods()).sort()).toEqual(names(row.wantInFlightPods).sort());
    if (row.wantInFlightEvents) {
      const got = q.activeQ.listInFlightEvents().map((v) => ('event' in v ? v.event : v));
      expect(got).toEqual(row.wantInFlightEvents);
    }
    if (row.wantActiveQ) expect(names(q.podsInActiveQ()).sort()).toEqual(row.wantActiveQ);
    if (row.wantBackoffQ) expect(names(q.podsInBackoffQ()).sort()).toEqual(row.wantBackoffQ);
    for (const n of row.wantUnschedulable ?? [])
      expect(q.unschedulablePods.get(`default/${n}`)).toBeDefined();
  });

  it('pod is enqueued to activeQ because the pending plugin has a hint fn and it returns Queue for a concurrent event that was received while some other pod was in flight', () => {
    const { q } = newTestQueue({
      hints: hintMap([
        [
          EventAssignedPodAdd,
          [
            ['fooPlugin1', queueHintReturnQueue],
            ['fooPlugin2', queueHintReturnQueue],
          ],
        ],
      ]),
    });
    q.add(pod1);
    q.add(pod2);
    const popped1 = q.pop()!;
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined);
    const popped2 = q.pop()!;
    q.moveAllToActiveOrBackoffQueue(EventAssignedPodAdd, undefined, undefined);
    popped1.pendingPlugins = new Set(['fooPlugin1']);
    popped1.unschedulablePlugins = new Set();
    q.addUnschedulableIfNotPresent(popped1, q.schedulingCycle());
    popped2.pendingPlugins = new Set(['fooPlugin2']);
    popped2.unschedulablePlugins = new Set();
    q.addUnschedulableIfNotPresent(popped2, q.schedulingCycle());
    expect(names(q.podsInActiveQ()).sort()).toEqual(['targetpod', 'targetpod2']);
    expect(q.inFlightPods()).toEqual([]);
    expect(q.activeQ.listInFlightEvents()).toEqual([]);
  });
});

describe('TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint', () => {
  const p = pod('pod1', { ns: 'ns1', uid: '1', labels: { foo: 'bar' } });
  const gatedPod = pod('pod1', { ns: 'ns1', uid: '1' });
  const throwing: QueueingHintFn = () => {
    throw new Error('QueueingHintFn should not be called');
  };
  const rows: {
    name: string;
    pod: Pod;
    params: Parameters<typeof queued>[2];
    hint: QueueingHintFn;
    durationMs?: number;
    triggerEvent?: ClusterEvent;
    expectedQ: string;
  }[] = [
    {
      name: 'Queue queues pod to activeQ',
      pod: p,
      params: { pendingPlugins: ['foo'] },
      hint: queueHintReturnQueue,
      expectedQ: ACTIVE_Q,
    },
    {
      name: 'Queue queues pod to backoffQ if Pod is backing off',
      pod: p,
      params: { unschedulablePlugins: ['foo'] },
      hint: queueHintReturnQueue,
      expectedQ: BACKOFF_Q,
    },
    {
      name: 'Queue queues pod to activeQ if Pod is not backing off',
      pod: p,
      params: { unschedulablePlugins: ['foo'] },
      hint: queueHintReturnQueue,
      durationMs: 2 * SECOND,
      expectedQ: ACTIVE_Q,
    },
    {
      name: 'Skip queues pod to unschedulableEntities',
      pod: p,
      params: { unschedulablePlugins: ['foo'] },
      hint: queueHintReturnSkip,
      expectedQ: UNSCHEDULABLE_Q,
    },
    {
      name: 'Queue queues pod to backoffQ if Pod is not gated and the event is wildcard',
      pod: p,
      params: { unschedulablePlugins: ['foo'] },
      triggerEvent: EventUnschedulableTimeout,
      hint: throwing,
      expectedQ: BACKOFF_Q,
    },
    {
      name: 'Queue queues pod to backoffQ when Pod is no longer gated and the event is wildcard',
      pod: p,
      params: { gatingPlugin: 'foo', gatingPluginEvents: [EventUnscheduledPodUpdate] },
      triggerEvent: EventUnschedulableTimeout,
      hint: throwing,
      expectedQ: BACKOFF_Q,
    },
    {
      name: 'Queue queues pod to unschedulableQ when Pod is gated and the event is wildcard',
      pod: gatedPod,
      params: { gatingPlugin: 'foo', gatingPluginEvents: [EventUnscheduledPodUpdate] },
      triggerEvent: EventUnschedulableTimeout,
      hint: throwing,
      expectedQ: UNSCHEDULABLE_Q,
    },
    {
      name: "QueueHintFunction is not called when Pod is gated by the plugin that isn't interested in the event",
      pod: p,
      params: { gatingPlugin: 'SchedulingGates', gatingPluginEvents: [EventUnscheduledPodUpdate] },
      hint: throwing,
      expectedQ: UNSCHEDULABLE_Q,
    },
    {
      name: 'QueueHintFunction is called when Pod is gated by the plugin that is interested in the event',
      pod: p,
      params: { gatingPlugin: 'foo', gatingPluginEvents: [nodeAdd] },
      hint: queueHintReturnQueue,
      expectedQ: BACKOFF_Q,
    },
  ];
  it.each(rows)('$name', (row) => {
    const { q, clock } = newTestQueue({
      hints: hintMap([
        [nodeAdd, [['foo', row.hint]]],
        [EventUnscheduledPodUpdate, [['SchedulingGates', queueHintReturnQueue]]],
      ]),
      preEnqueue: [new SchedulingGates(), new AllowlistPreEnqueue(['foo'], 'foo')],
    });
    const info = queued(row.pod, clock.now(), row.params);
    q.add(row.pod);
    if (q.activeQ.length > 0) {
      expect(q.pop()?.pod).toBe(row.pod);
      q.addUnschedulableIfNotPresent(info, q.schedulingCycle());
    } else {
      q.unschedulablePods.addOrUpdate(info);
    }
    clock.advance(row.durationMs ?? 0);
    q.moveAllToActiveOrBackoffQueue(row.triggerEvent ?? nodeAdd, undefined, undefined);
    expect(q.queueOf(row.pod)).toBe(row.expectedQ);
  });
});

describe('TestPriorityQueue_Pop (single-pod rows)', () => {
  it.each([
    { popFromBackoffQ: true, wantPods: ['mpp', 'hpp'] },
    { popFromBackoffQ: false, wantPods: ['mpp'] },
  ])('PopFromBackoffQ $popFromBackoffQ pops $wantPods', ({ popFromBackoffQ, wantPods }) => {
    const { q, clock } = newTestQueue({ popFromBackoffQ });
    const medPod = pod('mpp', { ns: 'ns2', uid: 'mppns2', priority: mediumPriority });
    const backoffPod = pod('hpp', { ns: 'ns1', uid: 'hppns1', priority: highPriority });
    const errorBackoffPod = pod('hpp2', { ns: 'ns1', uid: 'hpp2ns1', priority: highPriority });
    const unschedPod = pod('up', { ns: 'ns1', uid: 'upns1', priority: 0 });
    q.activeQ.add(queued(medPod, clock.now()));
    q.backoffQ.add(queued(backoffPod, clock.now(), { unschedulablePlugins: ['plugin'] }));
    q.backoffQ.add(queued(errorBackoffPod, clock.now()));
    q.unschedulablePods.addOrUpdate(queued(unschedPod, clock.now(), { unschedulablePlugins: ['plugin'] }));
    const got: string[] = [];
    for (let i = 0; i < wantPods.length + 1; i++) {
      const p = q.pop();
      if (!p) break;
      got.push(p.pod.metadata!.name!);
    }
    expect(got).toEqual(wantPods);
  });
});

describe('backoff and flush flows', () => {
  it('TestPriorityQueue_AddUnschedulablePodIfNotPresent_Backoff', () => {
    const { q } = newTestQueue();
    const pods = Array.from({ length: 10 }, (_, i) =>
      pod(`pod${i}`, { ns: `ns${i}`, uid: `upns${i}`, priority: i }),
    );
    for (const p of pods) q.add(p);
    for (let i = 9; i > 0; i--) expect(q.pop()?.pod).toBe(pods[i]);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
    const oldCycle = q.schedulingCycle();
    expect(q.pop()?.pod).toBe(pods[0]);
    for (let i = 1; i < 10; i++)
      q.addUnschedulableIfNotPresent(queued(pods[i], T0, { unschedulablePlugins: ['plugin'] }), oldCycle);
    for (let i = 1; i < 10; i++) expect(q.queueOf(pods[i])).toBe(BACKOFF_Q);
  });

  for (const popFromBackoffQ of [true, false]) {
    it(`TestBackOffFlow popFromBackoffQEnabled(${popFromBackoffQ})`, () => {
      // Upstream starts at time.Now(); an unaligned start shows the window rounding.
      const { q, clock } = newTestQueue({ popFromBackoffQ, start: T0 + 345 });
      const p = pod('test-pod', { ns: 'test-ns', uid: 'test-uid' });
      q.add(p);
      const want = [1, 2, 4, 8, 10, 10, 10].map((s) => s * SECOND);
      for (const [i, wantBackoff] of want.entries()) {
        const timestamp = clock.now();
        const info = q.pop()!;
        expect(info.attempts).toBe(i + 1);
        info.unschedulablePlugins.add('unsched-plugin');
        q.addUnschedulableIfNotPresent(info, i);
        q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
        expect(q.queueOf(p)).toBe(BACKOFF_Q);
        let backoff = info.backoffExpiration - timestamp;
        if (popFromBackoffQ) backoff = Math.trunc(backoff / SECOND) * SECOND + SECOND;
        expect(backoff).toBe(wantBackoff);
        clock.advance(SECOND);
        q.flushBackoffQCompleted();
        expect(q.queueOf(p)).toBe(BACKOFF_Q);
        clock.advance(backoff);
        q.flushBackoffQCompleted();
        expect(q.queueOf(p)).toBe(ACTIVE_Q);
      }
    });
  }

  it('TestHighPriorityBackoff', () => {
    const { q } = newTestQueue();
    const midPod = pod('test-midpod', { ns: 'ns1', uid: 'tp-mid', priority: midPriority });
    const highPod = pod('test-highpod', { ns: 'ns1', uid: 'tp-high', priority: highPriority });
    q.add(midPod);
    q.add(highPod);
    expect(q.pop()?.pod).toBe(highPod);
    q.addUnschedulableIfNotPresent(
      queued(highPod, T0, { unschedulablePlugins: ['fooPlugin'] }),
      q.schedulingCycle(),
    );
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
    expect(q.pop()?.pod).toBe(midPod);
  });

  it('TestHighPriorityFlushUnschedulableEntitiesLeftover', () => {
    const { q, clock } = newTestQueue({
      hints: hintMap([[nodeAdd, [['fakePlugin', queueHintReturnQueue]]]]),
    });
    const midPod = pod('test-midpod', { ns: 'ns1', uid: 'tp-mid', priority: midPriority });
    const highPod = pod('test-highpod', { ns: 'ns1', uid: 'tp-high', priority: highPriority });
    q.add(highPod);
    expect(q.pop()?.pod).toBe(highPod);
    q.add(midPod);
    expect(q.pop()?.pod).toBe(midPod);
    q.addUnschedulableIfNotPresent(
      queued(highPod, clock.now(), { unschedulablePlugins: ['fakePlugin'] }),
      q.schedulingCycle(),
    );
    q.addUnschedulableIfNotPresent(
      queued(midPod, clock.now(), { unschedulablePlugins: ['fakePlugin'] }),
      q.schedulingCycle(),
    );
    clock.advance(5 * MINUTE + SECOND);
    q.flushUnschedulablePodsLeftover();
    expect(q.pop()?.pod).toBe(highPod);
    expect(q.pop()?.pod).toBe(midPod);
  });

  it.each([
    {
      name: 'New priority queue by the default value of podMaxInUnschedulablePodsDuration',
      seconds: undefined,
    },
    { name: 'New priority queue by user-defined value of podMaxInUnschedulablePodsDuration', seconds: 30 },
  ])('TestPriorityQueue_initPodMaxInUnschedulablePodsDuration: $name', ({ seconds }) => {
    const { q, clock } = newTestQueue({ podMaxInUnschedulablePodsSeconds: seconds });
    const pod1 = pod('test-pod-1', { ns: 'ns1', uid: 'tp-1' });
    const pod2 = pod('test-pod-2', { ns: 'ns2', uid: 'tp-2' });
    // addPodUnschedulablePods: not gated, so one counted rejection.
    q.unschedulablePods.addOrUpdate(queued(pod1, clock.now() - SECOND, { unschedulableCount: 1 }));
    q.unschedulablePods.addOrUpdate(queued(pod2, clock.now() - 2 * SECOND, { unschedulableCount: 1 }));
    clock.advance((seconds ?? 300) * SECOND);
    q.flushUnschedulablePodsLeftover();
    expect(names(q.podsInActiveQ())).toEqual(['test-pod-2', 'test-pod-1']);
  });

  describe('TestPodTimestamp', () => {
    const pod1 = pod('test-pod-1', { ns: 'ns1', uid: 'tp-1' });
    const pod2 = pod('test-pod-2', { ns: 'ns2', uid: 'tp-2' });
    it('add two pod to activeQ and sort them by the timestamp', () => {
      const { q } = newTestQueue();
      q.activeQ.add(queued(pod2, T0 + SECOND));
      q.activeQ.add(queued(pod1, T0));
      expect(names(q.podsInActiveQ())).toEqual(['test-pod-1', 'test-pod-2']);
    });
    it('add two pod to unschedulableEntities then move them to activeQ and sort them by the timestamp', () => {
      const { q, clock } = newTestQueue();
      q.unschedulablePods.addOrUpdate(queued(pod2, T0 + SECOND, { unschedulableCount: 1 }));
      q.unschedulablePods.addOrUpdate(queued(pod1, T0, { unschedulableCount: 1 }));
      clock.advance(3 * SECOND);
      q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
      expect(names(q.podsInActiveQ())).toEqual(['test-pod-1', 'test-pod-2']);
    });
    it('add one pod to BackoffQ and move it to activeQ', () => {
      const { q, clock } = newTestQueue();
      q.activeQ.add(queued(pod2, T0 + SECOND));
      q.backoffQ.add(queued(pod1, T0));
      clock.advance(3 * SECOND);
      q.flushBackoffQCompleted();
      q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
      expect(names(q.podsInActiveQ())).toEqual(['test-pod-1', 'test-pod-2']);
    });
  });

  it('TestGatedPodFlushFrequency (queued pod)', () => {
    const { q, clock } = newTestQueue({ preEnqueue: [new AllowlistPreEnqueue([])] });
    const gated = pod('pod1', { ns: 'ns1', uid: '1' });
    q.unschedulablePods.addOrUpdate(queued(gated, clock.now(), { unschedulablePlugins: ['foo'] }));
    clock.advance(5 * MINUTE + SECOND);
    q.flushUnschedulablePodsLeftover();
    const first = q.get(gated)!.flushTimestamp;
    expect(first).not.toBe(ZERO_TIME);
    expect(q.queueOf(gated)).toBe(UNSCHEDULABLE_Q);
    clock.advance(4 * MINUTE);
    q.flushUnschedulablePodsLeftover();
    expect(q.get(gated)!.flushTimestamp).toBe(first);
    clock.advance(MINUTE + SECOND);
    q.flushUnschedulablePodsLeftover();
    expect(q.get(gated)!.flushTimestamp).toBeGreaterThan(first);
  });
});

describe('TestPriorityQueue_MoveAllToActiveOrBackoffQueue', () => {
  it('moves the pool on events, keeps the in-flight record right, and waits out backoffs', () => {
    const { q, clock } = newTestQueue({ hints: hintMap([[nodeAdd, [['fooPlugin', queueHintReturnQueue]]]]) });
    const up = pod('up', { ns: 'ns1', uid: 'upns1', priority: 0 });
    const hpp = pod('hpp', { ns: 'ns1', uid: 'hppns1', priority: highPriority });
    const mpp = pod('mpp', { ns: 'ns2', uid: 'mppns2', priority: mediumPriority });
    const hpp1 = pod('hpp1', { ns: 'ns1', uid: 'hpp1ns1', priority: highPriority });
    const hpp2 = pod('hpp2', { ns: 'ns1', uid: 'hpp2ns1', priority: highPriority });
    const inFlight = () => names(q.inFlightPods()).sort();
    const popped = (p: Pod) => expect(q.pop()?.pod).toBe(p);

    q.add(up);
    popped(up);
    expect(inFlight()).toEqual(['up']);
    q.add(hpp);
    popped(hpp);
    expect(inFlight()).toEqual(['hpp', 'up']);
    q.addUnschedulableIfNotPresent(
      queued(up, clock.now(), { unschedulablePlugins: ['fooPlugin'] }),
      q.schedulingCycle(),
    );
    q.addUnschedulableIfNotPresent(
      queued(hpp, clock.now(), { unschedulablePlugins: ['fooPlugin'] }),
      q.schedulingCycle(),
    );
    expect(inFlight()).toEqual([]);
    q.add(hpp1);
    popped(hpp1);
    q.addUnschedulableIfNotPresent(queued(hpp1, clock.now(), { unschedulableCount: 1 }), q.schedulingCycle());
    q.add(hpp2);
    popped(hpp2);
    q.addUnschedulableIfNotPresent(
      queued(hpp2, clock.now(), { unschedulablePlugins: ['barPlugin'] }),
      q.schedulingCycle(),
    );
    expect(inFlight()).toEqual([]);

    // up and hpp (fooPlugin) back off; hpp1 (an error) was in backoffQ already; hpp2 (barPlugin) stays.
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined);
    q.add(mpp);
    expect(q.activeQ.length).toBe(1);
    popped(mpp);
    expect(inFlight()).toEqual(['mpp']);
    expect(q.backoffQ.length).toBe(3);
    clock.advance(10 * SECOND);
    q.backoffQ.popAllBackoffCompleted();
    expect(inFlight()).toEqual(['mpp']);

    q.add(up);
    popped(up);
    q.add(hpp);
    popped(hpp);
    q.add(hpp1);
    popped(hpp1);
    expect(inFlight()).toEqual(['hpp', 'hpp1', 'mpp', 'up']);
    const hpp1Info = queued(hpp1, clock.now());
    q.addUnschedulableIfNotPresent(
      queued(up, clock.now(), { unschedulablePlugins: ['fooPlugin'] }),
      q.schedulingCycle(),
    );
    expect(inFlight()).toEqual(['hpp', 'hpp1', 'mpp']);
    q.addUnschedulableIfNotPresent(
      queued(hpp, clock.now(), { unschedulablePlugins: ['fooPlugin'] }),
      q.schedulingCycle(),
    );
    expect(inFlight()).toEqual(['hpp1', 'mpp']);
    q.addUnschedulableIfNotPresent(hpp1Info, q.schedulingCycle());
    expect(inFlight()).toEqual(['mpp']);
    q.add(mpp);
    for (const p of [up, hpp, hpp2]) expect(q.queueOf(p)).toBe(UNSCHEDULABLE_Q);
    expect(q.queueOf(hpp1)).toBe(BACKOFF_Q);
    expect(q.activeQ.length).toBe(1);

    clock.advance(10 * SECOND);
    q.flushBackoffQCompleted();
    q.moveAllToActiveOrBackoffQueue(nodeAdd, undefined, undefined);
    expect(q.activeQ.length).toBe(4);
    expect(q.backoffQ.length).toBe(0);
    expect(inFlight()).toEqual(['mpp']);
    expect(q.unschedulablePods.size).toBe(1);
  });
});

describe('timestamps keep retried pods behind', () => {
  it('TestRecentlyTriedPodsGoBack', () => {
    const { q, clock } = newTestQueue();
    for (let i = 0; i < 5; i++)
      q.add(pod(`test-pod-${i}`, { ns: 'ns1', uid: `tp00${i}`, priority: highPriority }));
    clock.advance(0.001); // one microsecond
    const p1 = q.pop()!;
    p1.unschedulablePlugins = new Set(['plugin']);
    q.addUnschedulableIfNotPresent(p1, q.schedulingCycle());
    clock.advance(10 * SECOND);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
    for (let i = 0; i < 5; i++) expect(q.pop() === p1).toBe(i === 4);
  });

  it('TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod', () => {
    const { q, clock } = newTestQueue();
    const unschedulablePod = pod('test-pod-unscheduled', { ns: 'ns1', uid: 'tp001', priority: highPriority });
    q.add(unschedulablePod);
    expect(q.pop()?.pod).toBe(unschedulablePod);
    q.addUnschedulableIfNotPresent(
      queued(unschedulablePod, clock.now(), { unschedulablePlugins: ['plugin'] }),
      q.schedulingCycle(),
    );
    clock.advance(2 * SECOND);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
    expect(q.pop()?.pod).toBe(unschedulablePod);
    const newerPod = pod('test-newer-pod', { ns: 'ns1', uid: 'tp002', priority: highPriority });
    q.add(newerPod);
    q.addUnschedulableIfNotPresent(
      queued(unschedulablePod, clock.now(), { unschedulablePlugins: ['plugin'] }),
      q.schedulingCycle(),
    );
    clock.advance(2 * SECOND);
    q.moveAllToActiveOrBackoffQueue(EventUnschedulableTimeout, undefined, undefined);
    expect(q.pop()?.pod).toBe(newerPod);
  });
});
