/**
 * The scheduling queue (upstream scheduling_queue.go PriorityQueue) on a simulated clock: activeQ
 * (ready pods in QueueSort order), backoffQ (pods waiting out their backoff) and
 * unschedulablePods (pods waiting for an event that may help them, and gated pods), with
 * PreEnqueue gating, QueueingHint-driven moves on cluster events, the in-flight event record,
 * and the two periodic flushes as clock ticks. Single-threaded: every call happens at clock.now().
 */
import type { Pod } from '@schedlab/k8s';
import {
  BackoffComplete,
  EventForceActivate,
  EventUnschedulableTimeout,
  EventUnscheduledPodAdd,
  ForceActivate,
  QueueingHint,
  ScheduleAttemptFailure,
  clusterEventIsWildCard,
  eventLabel,
  matchAnyClusterEvent,
  matchClusterEvents,
  podSchedulingPropertiesChange,
  type ClusterEvent,
  type QueueingHintFn,
} from '../../framework/events';
import type { PreEnqueuePlugin } from '../../framework/interface';
import { Code, isSuccess } from '../../framework/status';
import { ActiveQueue } from './active-queue';
import { BackoffQueue } from './backoff-queue';
import type { Clock } from './clock';
import { QueuedPodInfo } from './queued-pod-info';
import { UnschedulablePods, lastScheduleTime } from './unschedulable-pods';

export const DEFAULT_POD_INITIAL_BACKOFF_SECONDS = 1;
export const DEFAULT_POD_MAX_BACKOFF_SECONDS = 10;
export const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_SECONDS = 5 * 60;
/** How often the unschedulable pool is checked for pods that waited too long (upstream: 30 s). */
export const UNSCHEDULABLE_FLUSH_PERIOD_MS = 30_000;
/** How often the backoffQ hands pods whose backoff ended to activeQ (upstream: 1 s). */
export const BACKOFF_FLUSH_PERIOD_MS = 1_000;

export const ACTIVE_Q = 'Active';
export const BACKOFF_Q = 'Backoff';
export const UNSCHEDULABLE_Q = 'Unschedulable';
export type QueueName = typeof ACTIVE_Q | typeof BACKOFF_Q | typeof UNSCHEDULABLE_Q;

/** One plugin's hint for the events of one registration (upstream QueueingHintFunction). */
export interface QueueingHintFunction {
  pluginName: string;
  /** Absent: Queue (the plugin registered no function, or QueueingHints are off). */
  queueingHintFn?: QueueingHintFn;
}

/** A profile's registrations: event → the hint functions of the plugins that registered it. */
export type QueueingHintMap = { event: ClusterEvent; fns: QueueingHintFunction[] }[];

/** What the queue needs of one profile (upstream preEnqueuePluginMap and queueingHintMap entries). */
export interface QueueProfile {
  schedulerName: string;
  preEnqueuePlugins: readonly PreEnqueuePlugin[];
  queueingHintMap: QueueingHintMap;
}

export interface PriorityQueueOptions {
  clock: Clock;
  /** The profiles' QueueSort (they all share one); default: the order pods were added. */
  less?: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
  profiles: readonly QueueProfile[];
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  podMaxInUnschedulablePodsSeconds?: number;
  /** SchedulerPopFromBackoffQ (default on from 1.33). */
  popFromBackoffQ: boolean;
  /** SchedulerQueueingHints (default on from 1.32): hints and in-flight events; off: every event queues. */
  queueingHints: boolean;
  /** 1.33+: backoff counts rejections and errors apart (upstream kubernetes#128748). */
  backoffCountsRejectionsAndErrorsApart: boolean;
}

export enum QueueingStrategy {
  QueueSkip = 0,
  QueueAfterBackoff = 1,
  QueueImmediately = 2,
}

/** Why an attempt failed, as schedule_one reports it to the queue. */
export interface AttemptFailure {
  /** Plugins whose rejection (Unschedulable/UnschedulableAndUnresolvable) made the attempt fail. */
  unschedulablePlugins?: Iterable<string>;
  /** Plugins that answered Pending. */
  pendingPlugins?: Iterable<string>;
}

const podKey = (pod: Pod) => `${pod.metadata?.namespace ?? 'default'}/${pod.metadata?.name ?? ''}`;
/** The in-flight record's key, as PodInfo.uid has it. */
const podUid = (pod: Pod) => pod.metadata?.uid ?? podKey(pod);

export class PriorityQueue {
  readonly clock: Clock;
  readonly activeQ: ActiveQueue;
  readonly backoffQ: BackoffQueue;
  readonly unschedulablePods = new UnschedulablePods();
  private readonly profiles = new Map<string, QueueProfile>();
  private readonly pluginToEvents = new Map<string, ClusterEvent[]>();
  private readonly podMaxInUnschedulableMs: number;
  /** Pre-hints releases: the scheduling cycle of the last move request (upstream moveRequestCycle). */
  private moveRequestCycle = -1;
  /** The next times the periodic flushes run. */
  private nextBackoffFlush: number;
  private nextUnschedulableFlush: number;

  constructor(readonly opts: PriorityQueueOptions) {
    this.clock = opts.clock;
    const less = opts.less ?? (() => false);
    this.activeQ = new ActiveQueue(less);
    this.backoffQ = new BackoffQueue(opts.clock, {
      podInitialBackoffMs: (opts.podInitialBackoffSeconds ?? DEFAULT_POD_INITIAL_BACKOFF_SECONDS) * 1000,
      podMaxBackoffMs: (opts.podMaxBackoffSeconds ?? DEFAULT_POD_MAX_BACKOFF_SECONDS) * 1000,
      popFromBackoffQ: opts.popFromBackoffQ,
      countsRejectionsAndErrorsApart: opts.backoffCountsRejectionsAndErrorsApart,
      activeQLess: less,
    });
    this.podMaxInUnschedulableMs =
      (opts.podMaxInUnschedulablePodsSeconds ?? DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_SECONDS) * 1000;
    for (const p of opts.profiles) {
      this.profiles.set(p.schedulerName, p);
      for (const { event, fns } of p.queueingHintMap) {
        for (const fn of fns) {
          const list = this.pluginToEvents.get(fn.pluginName) ?? [];
          list.push(event);
          this.pluginToEvents.set(fn.pluginName, list);
        }
      }
    }
    // Run(): the backoff flush waits for the next whole window with SchedulerPopFromBackoffQ and
    // runs at once before; the unschedulable flush runs at once (wait.Until), then periodically.
    const now = this.clock.now();
    this.nextBackoffFlush = opts.popFromBackoffQ
      ? this.backoffQ.alignToWindow(now + BACKOFF_FLUSH_PERIOD_MS)
      : now;
    this.nextUnschedulableFlush = now;
  }

  // ---- adding, updating and deleting pending pods ------------------------------------------

  /** A new pending pod (upstream Add): through PreEnqueue into activeQ, or gated into the pool. */
  add(pod: Pod): QueuedPodInfo {
    const pInfo = new QueuedPodInfo(pod, this.clock.now());
    this.moveToActiveQ(pInfo, eventLabel(EventUnscheduledPodAdd), false);
    return pInfo;
  }

  /** The pending pod changed (upstream Update). */
  update(oldPod: Pod, newPod: Pod): void {
    const key = podKey(oldPod);
    const events = podSchedulingPropertiesChange(newPod, oldPod, true);
    if (
      this.opts.queueingHints &&
      this.activeQ.addEventsIfPodInFlight(podUid(newPod), oldPod, newPod, events)
    )
      return;
    if (this.activeQ.update(newPod, key)) return;
    if (this.backoffQ.update(newPod, key)) return;
    const pInfo = this.unschedulablePods.get(key);
    if (pInfo) {
      pInfo.update(newPod);
      for (const evt of events) {
        const hint = this.isPodWorthRequeuing(pInfo, evt, oldPod, newPod);
        const queue = this.requeuePodWithQueueingStrategy(pInfo, hint, eventLabel(evt));
        if (queue !== UNSCHEDULABLE_Q) break;
      }
      return;
    }
    this.add(newPod);
  }

  /** The pending pod is gone (deleted, or bound by someone else). */
  delete(pod: Pod): void {
    const key = podKey(pod);
    if (this.activeQ.delete(key)) return;
    if (this.backoffQ.delete(key)) return;
    this.unschedulablePods.delete(key);
  }

  /** Moves the pods from backoffQ or the pool to activeQ at once (upstream Activate). */
  activate(pods: readonly Pod[]): void {
    for (const pod of pods) {
      const key = podKey(pod);
      let pInfo = this.unschedulablePods.get(key);
      let fromBackoff = false;
      if (!pInfo) {
        pInfo = this.backoffQ.delete(key);
        fromBackoff = pInfo !== undefined;
      }
      if (pInfo) {
        this.moveToActiveQ(pInfo, ForceActivate, fromBackoff);
        continue;
      }
      if (this.opts.queueingHints)
        this.activeQ.addEventsIfPodInFlight(podUid(pod), undefined, pod, [EventForceActivate]);
    }
  }

  // ---- attempts ----------------------------------------------------------------------------

  /**
   * The next pod to attempt (upstream Pop, without blocking): the head of activeQ, or with
   * SchedulerPopFromBackoffQ the head of backoffQ when activeQ is empty; undefined when neither
   * has one. The pod is in flight until done() or addUnschedulableIfNotPresent().
   */
  pop(): QueuedPodInfo | undefined {
    let pInfo = this.activeQ.popHead();
    if (!pInfo && this.opts.popFromBackoffQ) pInfo = this.backoffQ.popBackoff();
    if (!pInfo) return undefined;
    this.activeQ.moveToInFlight(pInfo);
    return pInfo;
  }

  schedulingCycle(): number {
    return this.activeQ.schedulingCycle();
  }

  /** The attempt ended with the pod bound (or dropped): forget its in-flight record. */
  done(uid: string): void {
    this.activeQ.done(uid);
  }

  /**
   * The attempt failed: record who rejected the pod and requeue it (upstream handleSchedulingFailure
   * then AddUnschedulablePodIfNotPresent). No rejecting plugin means an error.
   */
  failed(
    pInfo: QueuedPodInfo,
    failure: AttemptFailure,
    podSchedulingCycle = this.schedulingCycle(),
  ): QueueName {
    pInfo.unschedulablePlugins = new Set(failure.unschedulablePlugins ?? []);
    pInfo.pendingPlugins = new Set(failure.pendingPlugins ?? []);
    return this.addUnschedulableIfNotPresent(pInfo, podSchedulingCycle);
  }

  /** Upstream AddUnschedulablePodIfNotPresent: counts the failure and decides the pod's queue. */
  addUnschedulableIfNotPresent(pInfo: QueuedPodInfo, podSchedulingCycle: number): QueueName {
    try {
      const noRejector = pInfo.unschedulablePlugins.size === 0 && pInfo.pendingPlugins.size === 0;
      if (this.opts.backoffCountsRejectionsAndErrorsApart) {
        if (noRejector) pInfo.consecutiveErrorsCount++;
        else {
          pInfo.unschedulableCount++;
          pInfo.consecutiveErrorsCount = 0;
        }
      }
      pInfo.timestamp = this.clock.now();
      pInfo.backoffExpiration = -Infinity;
      pInfo.wasFlushedFromUnschedulable = false;
      pInfo.flushTimestamp = -Infinity;
      if (!this.opts.queueingHints) {
        if (this.moveRequestCycle >= podSchedulingCycle || noRejector) {
          return this.requeuePodWithQueueingStrategy(
            pInfo,
            QueueingStrategy.QueueAfterBackoff,
            ScheduleAttemptFailure,
          );
        }
        this.unschedulablePods.addOrUpdate(pInfo);
        return UNSCHEDULABLE_Q;
      }
      const hint = this.determineSchedulingHintForInFlightPod(pInfo);
      return this.requeuePodWithQueueingStrategy(pInfo, hint, ScheduleAttemptFailure);
    } finally {
      this.done(pInfo.uid);
    }
  }

  private determineSchedulingHintForInFlightPod(pInfo: QueuedPodInfo): QueueingStrategy {
    if (pInfo.unschedulablePlugins.size === 0 && pInfo.pendingPlugins.size === 0)
      return QueueingStrategy.QueueAfterBackoff;
    const events = this.activeQ.clusterEventsForPod(pInfo.uid);
    if (!events) return QueueingStrategy.QueueAfterBackoff;
    let strategy = QueueingStrategy.QueueSkip;
    for (const e of events) {
      const s = this.isPodWorthRequeuing(pInfo, e.event, e.oldObj, e.newObj);
      if (s === QueueingStrategy.QueueImmediately) return s;
      if (s === QueueingStrategy.QueueAfterBackoff) {
        strategy = s;
        if (pInfo.pendingPlugins.size === 0) return s;
      }
    }
    return strategy;
  }

  // ---- cluster events ----------------------------------------------------------------------

  /**
   * A cluster event (upstream MoveAllToActiveOrBackoffQueue): every pod of the pool whose
   * rejecting plugins registered the event and answer Queue moves to activeQ or backoffQ; the
   * event is also recorded for the pods in flight. `preCheck` narrows the pods considered.
   */
  moveAllToActiveOrBackoffQueue(
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
    preCheck?: (pod: Pod) => boolean,
  ): void {
    if (!this.isEventOfInterest(event)) return;
    const pods = [...this.unschedulablePods.podInfoMap.values()].filter((p) => !preCheck || preCheck(p.pod));
    this.movePodsToActiveOrBackoffQueue(pods, event, oldObj, newObj);
  }

  private isEventOfInterest(event: ClusterEvent): boolean {
    if (clusterEventIsWildCard(event)) return true;
    for (const p of this.profiles.values()) {
      if (p.queueingHintMap.some((r) => matchClusterEvents(r.event, event))) return true;
    }
    return false;
  }

  private movePodsToActiveOrBackoffQueue(
    pods: QueuedPodInfo[],
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
  ): void {
    if (!this.isEventOfInterest(event)) return;
    for (const pInfo of pods) {
      if (
        pInfo.gated &&
        !clusterEventIsWildCard(event) &&
        !matchAnyClusterEvent(event, pInfo.gatingPluginEvents)
      )
        continue;
      const hint = this.isPodWorthRequeuing(pInfo, event, oldObj, newObj);
      if (hint === QueueingStrategy.QueueSkip) continue;
      this.unschedulablePods.delete(pInfo.key);
      this.requeuePodWithQueueingStrategy(pInfo, hint, eventLabel(event));
    }
    this.moveRequestCycle = this.schedulingCycle();
    if (this.opts.queueingHints) this.activeQ.addEventIfAnyInFlight(oldObj, newObj, event);
  }

  /** Whether the event may make the pod schedulable, by the hints of the plugins that rejected it. */
  isPodWorthRequeuing(
    pInfo: QueuedPodInfo,
    event: ClusterEvent,
    oldObj: unknown,
    newObj: unknown,
  ): QueueingStrategy {
    const rejectors = pInfo.rejectorPlugins();
    if (rejectors.size === 0) return QueueingStrategy.QueueAfterBackoff;
    if (clusterEventIsWildCard(event)) {
      // A wildcard event about another pod concerns only that pod.
      if (newObj != null) {
        if (!isPod(newObj) || podUid(newObj) !== pInfo.uid) return QueueingStrategy.QueueSkip;
      }
      return QueueingStrategy.QueueAfterBackoff;
    }
    const profile = this.profiles.get(pInfo.pod.spec?.schedulerName ?? 'default-scheduler');
    if (!profile) return QueueingStrategy.QueueAfterBackoff;
    let strategy = QueueingStrategy.QueueSkip;
    for (const { event: registered, fns } of profile.queueingHintMap) {
      if (!matchClusterEvents(registered, event)) continue;
      for (const fn of fns) {
        if (!rejectors.has(fn.pluginName)) continue;
        let hint = QueueingHint.Queue;
        if (this.opts.queueingHints && fn.queueingHintFn) {
          try {
            hint = fn.queueingHintFn(pInfo.pod, oldObj, newObj);
          } catch {
            hint = QueueingHint.Queue;
          }
        }
        if (hint === QueueingHint.QueueSkip) continue;
        if (pInfo.pendingPlugins.has(fn.pluginName)) return QueueingStrategy.QueueImmediately;
        if (pInfo.pendingPlugins.size === 0) return QueueingStrategy.QueueAfterBackoff;
        strategy = QueueingStrategy.QueueAfterBackoff;
      }
    }
    return strategy;
  }

  // ---- moves between the queues ------------------------------------------------------------

  private requeuePodWithQueueingStrategy(
    pInfo: QueuedPodInfo,
    strategy: QueueingStrategy,
    event: string,
  ): QueueName {
    if (strategy === QueueingStrategy.QueueSkip) {
      this.unschedulablePods.addOrUpdate(pInfo);
      return UNSCHEDULABLE_Q;
    }
    if (strategy === QueueingStrategy.QueueAfterBackoff && this.backoffQ.isPodBackingoff(pInfo)) {
      return this.moveToBackoffQ(pInfo) ? BACKOFF_Q : UNSCHEDULABLE_Q;
    }
    return this.moveToActiveQ(pInfo, event, false) ? ACTIVE_Q : UNSCHEDULABLE_Q;
  }

  /**
   * Into activeQ through PreEnqueue (skipped for a pod leaving backoffQ with SchedulerPopFromBackoffQ,
   * which passed it on the way in); a gated pod goes to the pool instead. True when it got in.
   */
  moveToActiveQ(pInfo: QueuedPodInfo, _event: string, movesFromBackoffQ: boolean): boolean {
    if (!(this.opts.popFromBackoffQ && movesFromBackoffQ)) this.runPreEnqueuePlugins(pInfo);
    if (pInfo.gated) {
      pInfo.wasFlushedFromUnschedulable = false;
      this.unschedulablePods.addOrUpdate(pInfo);
      return false;
    }
    pInfo.initialAttemptTimestamp ??= this.clock.now();
    this.unschedulablePods.delete(pInfo.key);
    this.activeQ.add(pInfo);
    return true;
  }

  /** Into backoffQ (through PreEnqueue with SchedulerPopFromBackoffQ); true when it got in. */
  moveToBackoffQ(pInfo: QueuedPodInfo): boolean {
    if (this.opts.popFromBackoffQ) {
      // With pops from backoffQ a pod there may be attempted next, so it must pass PreEnqueue now.
      this.runPreEnqueuePlugins(pInfo);
      if (pInfo.gated) {
        pInfo.wasFlushedFromUnschedulable = false;
        this.unschedulablePods.addOrUpdate(pInfo);
        return false;
      }
    }
    this.unschedulablePods.delete(pInfo.key);
    this.backoffQ.add(pInfo);
    return true;
  }

  /** PreEnqueue: the plugin that gated the pod last goes first; the first refusal gates it. */
  private runPreEnqueuePlugins(pInfo: QueuedPodInfo): void {
    const plugins =
      this.profiles.get(pInfo.pod.spec?.schedulerName ?? 'default-scheduler')?.preEnqueuePlugins ?? [];
    const gating = pInfo.gatingPlugin;
    const ordered = gating
      ? [...plugins.filter((p) => p.name === gating), ...plugins.filter((p) => p.name !== gating)]
      : plugins;
    for (const pl of ordered) {
      const s = pl.preEnqueue(pInfo.pod);
      if (isSuccess(s)) continue;
      pInfo.unschedulablePlugins.add(pl.name);
      pInfo.gatingPlugin = pl.name;
      pInfo.gatingPluginEvents = this.pluginToEvents.get(pl.name) ?? [];
      pInfo.gatingStatus = s!.code === Code.Error ? 'error' : s!.message();
      return;
    }
    pInfo.gatingPlugin = '';
    pInfo.gatingStatus = undefined;
  }

  // ---- time --------------------------------------------------------------------------------

  /** Pods whose backoff ended move to activeQ (upstream flushBackoffQCompleted, every second). */
  flushBackoffQCompleted(): void {
    for (const pInfo of this.backoffQ.popAllBackoffCompleted())
      this.moveToActiveQ(pInfo, BackoffComplete, true);
  }

  /** Pods that waited longer than podMaxInUnschedulablePodsDuration move on (every 30 s upstream). */
  flushUnschedulablePodsLeftover(): void {
    const now = this.clock.now();
    const toMove: QueuedPodInfo[] = [];
    for (const pInfo of this.unschedulablePods.podInfoMap.values()) {
      if (now - lastScheduleTime(pInfo) > this.podMaxInUnschedulableMs) toMove.push(pInfo);
    }
    for (const pInfo of toMove) {
      pInfo.wasFlushedFromUnschedulable = true;
      pInfo.flushTimestamp = now;
      this.unschedulablePods.addOrUpdate(pInfo); // re-sorted by its new flush time
    }
    if (toMove.length > 0)
      this.movePodsToActiveOrBackoffQueue(toMove, EventUnschedulableTimeout, undefined, undefined);
  }

  /**
   * Runs the periodic flushes due up to `t` in time order (a tick at exactly `t` included) and
   * leaves the clock at `t`. `setClock` moves the caller's clock; the queue never reads a real one.
   */
  advanceTo(t: number, setClock: (t: number) => void): void {
    for (;;) {
      // Backoff ticks with nothing in backoffQ change nothing: skip to the next pool flush (which
      // may fill backoffQ) or to t, keeping the ticks on their grid.
      const horizon = Math.min(this.nextUnschedulableFlush, t);
      if (this.backoffQ.length === 0 && this.nextBackoffFlush < horizon) {
        const skipped = Math.floor((horizon - this.nextBackoffFlush) / BACKOFF_FLUSH_PERIOD_MS);
        this.nextBackoffFlush += skipped * BACKOFF_FLUSH_PERIOD_MS;
      }
      const next = Math.min(this.nextBackoffFlush, this.nextUnschedulableFlush);
      if (next > t) break;
      setClock(Math.max(next, this.clock.now()));
      if (this.nextBackoffFlush === next) {
        this.flushBackoffQCompleted();
        this.nextBackoffFlush += BACKOFF_FLUSH_PERIOD_MS;
      }
      if (this.nextUnschedulableFlush === next) {
        this.flushUnschedulablePodsLeftover();
        this.nextUnschedulableFlush += UNSCHEDULABLE_FLUSH_PERIOD_MS;
      }
    }
    if (t > this.clock.now()) setClock(t);
  }

  /**
   * The next time a periodic flush would move a pod without any new event or attempt; undefined
   * when none would (the run may stop waiting). Pods already in activeQ are not counted: pop them.
   */
  nextWakeUp(): number | undefined {
    let best: number | undefined;
    const end = this.backoffQ.earliestBackoffEnd();
    if (end !== undefined) {
      // The backoff flush moves a pod at the first tick whose window starts after its backoff end.
      let tick = this.nextBackoffFlush;
      if (end >= this.backoffQ.alignToWindow(tick)) {
        const ticks = Math.ceil((end + 1 - this.backoffQ.alignToWindow(tick)) / BACKOFF_FLUSH_PERIOD_MS);
        tick += Math.max(0, ticks) * BACKOFF_FLUSH_PERIOD_MS;
        while (!(end < this.backoffQ.alignToWindow(tick))) tick += BACKOFF_FLUSH_PERIOD_MS;
      }
      best = tick;
    }
    const longest = this.unschedulablePods.longestWaiting();
    if (longest) {
      // The flush moves a pod at the first tick strictly after it has waited the maximum.
      const due = lastScheduleTime(longest) + this.podMaxInUnschedulableMs;
      let tick = this.nextUnschedulableFlush;
      if (tick <= due)
        tick +=
          (Math.floor((due - tick) / UNSCHEDULABLE_FLUSH_PERIOD_MS) + 1) * UNSCHEDULABLE_FLUSH_PERIOD_MS;
      if (best === undefined || tick < best) best = tick;
    }
    return best;
  }

  // ---- views -------------------------------------------------------------------------------

  podsInActiveQ(): Pod[] {
    return this.activeQ.list().map((p) => p.pod);
  }

  podsInBackoffQ(): Pod[] {
    return this.backoffQ.list().map((p) => p.pod);
  }

  unschedulablePodsList(): Pod[] {
    return [...this.unschedulablePods.podInfoMap.values()].map((p) => p.pod);
  }

  inFlightPods(): Pod[] {
    return this.activeQ.listInFlightPods();
  }

  /** The PreEnqueue plugins and event registrations of a profile. */
  profile(schedulerName: string): QueueProfile | undefined {
    return this.profiles.get(schedulerName);
  }

  /** Which queue holds the pod, if any. */
  queueOf(pod: Pod): QueueName | undefined {
    const key = podKey(pod);
    if (this.activeQ.has(key)) return ACTIVE_Q;
    if (this.backoffQ.has(key)) return BACKOFF_Q;
    if (this.unschedulablePods.get(key)) return UNSCHEDULABLE_Q;
    return undefined;
  }

  /** The queued record of a pod in any of the three queues. */
  get(pod: Pod): QueuedPodInfo | undefined {
    const key = podKey(pod);
    return this.activeQ.get(key) ?? this.backoffQ.get(key) ?? this.unschedulablePods.get(key);
  }
}

function isPod(o: unknown): o is Pod {
  const p = o as Pod;
  return (
    typeof p === 'object' &&
    p !== null &&
    (p.kind === 'Pod' || (p.spec !== undefined && 'containers' in (p.spec ?? {})))
  );
}
