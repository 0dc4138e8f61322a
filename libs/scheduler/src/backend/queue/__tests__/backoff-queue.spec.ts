/**
 * Upstream backoff_queue_test.go (v1.37.2) tables as data: backoff durations and ends, pops of
 * completed backoffs from both heaps, and the order within an ordering window.
 */
import { PrioritySort } from '../../../framework/plugins/queuesort/priority-sort';
import { BackoffQueue, calculateBackoffDuration } from '../backoff-queue';
import { SimulatedClock } from '../clock';
import { ZERO_TIME, type QueuedPodInfo } from '../queued-pod-info';
import { SECOND, T0, pod, queued } from './queue-fixtures';

const sort = new PrioritySort();
const less = (a: QueuedPodInfo, b: QueuedPodInfo) => sort.less(a, b);

function newBackoffQueue(clock: SimulatedClock, initialMs: number, maxMs: number, popFromBackoffQ: boolean) {
  return new BackoffQueue(clock, {
    podInitialBackoffMs: initialMs,
    podMaxBackoffMs: maxMs,
    popFromBackoffQ,
    countsRejectionsAndErrorsApart: true,
    activeQLess: less,
  });
}

describe('TestBackoffQueue_getBackoffTime', () => {
  const ts = Date.UTC(2023, 9, 1);
  const NS = 1e-6; // one nanosecond in ms
  it.each([
    { name: 'no backoff', initial: 1000, max: 32_000, params: { unschedulableCount: 0 }, want: ZERO_TIME },
    {
      name: 'backoff is returned from the cache',
      initial: 1000,
      max: 32_000,
      params: { unschedulableCount: 1, backoffExpiration: ts + NS },
      want: ts + NS,
    },
    {
      name: 'backoff by UnschedulableCount',
      initial: 1000,
      max: 32_000,
      params: { unschedulableCount: 16 },
      want: ts + 32_000,
    },
    {
      name: 'backoff is calculated with ConsecutiveErrorsCount',
      initial: 1000,
      max: 32_000,
      params: { unschedulableCount: 5, consecutiveErrorsCount: 16 },
      want: ts + 32_000,
    },
    {
      name: 'zero maxBackoffDuration means no backoff',
      initial: 0,
      max: 0,
      params: { unschedulableCount: 16 },
      want: ZERO_TIME,
    },
  ])('$name', ({ initial, max, params, want }) => {
    const bq = newBackoffQueue(new SimulatedClock(ts), initial, max, true);
    expect(bq.getBackoffTime(queued(pod('p'), ts, params))).toBe(want);
  });
});

describe('TestBackoffQueue_calculateBackoffDuration', () => {
  const ns = (n: number) => n / 1e6;
  // Not ported: the two rows with entitySize 10 (pod groups, which this queue does not hold) and
  // overflow_64bit (MaxInt64 ns is beyond a double's exact integers).
  it.each([
    { name: 'no backoff', initial: ns(1), max: ns(32), count: 0, want: 0 },
    { name: 'normal', initial: ns(3), max: ns(1000), count: 5, want: ns(48) },
    { name: 'hitting max backoff duration', initial: ns(1), max: ns(32), count: 16, want: ns(32) },
    { name: 'overflow_32bit', initial: ns(1), max: ns(2 ** 31 - 1), count: 32, want: ns(2 ** 31 - 1) },
  ])('$name', ({ initial, max, count, want }) => {
    expect(calculateBackoffDuration(count, initial, max)).toBeCloseTo(want, 12);
  });

  it('doubles from the defaults 1 s to 10 s', () => {
    expect([1, 2, 3, 4, 5, 6, 60, 2000].map((c) => calculateBackoffDuration(c, 1000, 10_000))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000,
    ]);
  });
});

describe('TestBackoffQueue_popAllBackoffCompleted', () => {
  const now = T0 + 123; // upstream uses time.Now(), not aligned
  const infos = () => ({
    pod0: queued(pod('pod0'), now - 2 * SECOND, { unschedulableCount: 1, unschedulablePlugins: ['plugin'] }),
    pod1: queued(pod('pod1'), now + SECOND, { unschedulableCount: 1, unschedulablePlugins: ['plugin'] }),
    pod2: queued(pod('pod2'), now - 2 * SECOND, { consecutiveErrorsCount: 1 }),
    pod3: queued(pod('pod3'), now + SECOND, { consecutiveErrorsCount: 1 }),
  });
  const rows: { name: string; podsInBackoff: (keyof ReturnType<typeof infos>)[]; wantPods: string[] }[] = [
    { name: 'Both queues empty, no pods moved to activeQ', podsInBackoff: [], wantPods: [] },
    {
      name: 'Pods only in backoffQ, some pods moved to activeQ',
      podsInBackoff: ['pod0', 'pod1'],
      wantPods: ['pod0'],
    },
    {
      name: 'Pods only in errorBackoffQ, some pods moved to activeQ',
      podsInBackoff: ['pod2', 'pod3'],
      wantPods: ['pod2'],
    },
    {
      name: 'Pods in both queues, some pods moved to activeQ',
      podsInBackoff: ['pod0', 'pod1', 'pod2', 'pod3'],
      wantPods: ['pod0', 'pod2'],
    },
    {
      name: 'Pods in both queues, all pods moved to activeQ',
      podsInBackoff: ['pod0', 'pod2'],
      wantPods: ['pod0', 'pod2'],
    },
    { name: 'Pods in both queues, no pods moved to activeQ', podsInBackoff: ['pod1', 'pod3'], wantPods: [] },
  ];
  for (const popFromBackoffQ of [true, false]) {
    it.each(rows)(`$name popFromBackoffQEnabled(${popFromBackoffQ})`, ({ podsInBackoff, wantPods }) => {
      const bq = newBackoffQueue(new SimulatedClock(now), 1000, 10_000, popFromBackoffQ);
      const all = infos();
      for (const n of podsInBackoff) bq.add(all[n]);
      expect(bq.popAllBackoffCompleted().map((p) => p.pod.metadata?.name)).toEqual(wantPods);
      expect(bq.length).toBe(podsInBackoff.length - wantPods.length);
    });
  }
});

describe('TestBackoffQueueOrdering', () => {
  const now = T0;
  const infos = () => [
    queued(pod('pod0', { priority: 1 }), now, {
      attempts: 1,
      unschedulableCount: 1,
      unschedulablePlugins: ['plugin'],
    }),
    queued(pod('pod1', { priority: 1 }), now - SECOND, {
      attempts: 1,
      unschedulableCount: 1,
      unschedulablePlugins: ['plugin'],
    }),
    queued(pod('pod2', { priority: 2 }), now - 2 * SECOND + 1, {
      attempts: 1,
      unschedulableCount: 1,
      unschedulablePlugins: ['plugin'],
    }),
    queued(pod('pod3', { priority: 1 }), now - 2 * SECOND, {
      attempts: 1,
      unschedulableCount: 1,
      unschedulablePlugins: ['plugin'],
    }),
    queued(pod('pod4', { priority: 2 }), now - 2 * SECOND, {
      attempts: 1,
      unschedulableCount: 1,
      unschedulablePlugins: ['plugin'],
    }),
    queued(pod('pod5', { priority: 1 }), now - 3 * SECOND, {
      attempts: 1,
      unschedulableCount: 1,
      unschedulablePlugins: ['plugin'],
    }),
  ];
  it.each([
    {
      name: 'Pods with the same window are ordered by priority if PopFromBackoffQ is enabled',
      popFromBackoffQ: true,
      wantPods: ['pod5', 'pod4', 'pod2', 'pod3'],
    },
    {
      name: "Pods priority doesn't matter if PopFromBackoffQ is disabled",
      popFromBackoffQ: false,
      wantPods: ['pod5', 'pod3', 'pod4', 'pod2'],
    },
  ])('$name', ({ popFromBackoffQ, wantPods }) => {
    const bq = newBackoffQueue(new SimulatedClock(now), 1000, 10_000, popFromBackoffQ);
    for (const p of infos()) bq.add(p);
    expect(bq.popAllBackoffCompleted().map((p) => p.pod.metadata?.name)).toEqual(wantPods);
  });
});
