/**
 * Pods waiting out their backoff after a failed attempt (upstream backoff_queue.go): one heap for
 * pods rejected by plugins and one for pods whose attempt ended in an error, both ordered by when
 * the backoff ends. The backoff doubles per counted attempt from the initial to the max duration.
 */
import type { Clock } from './clock';
import { Heap } from './heap';
import { ZERO_TIME, type QueuedPodInfo } from './queued-pod-info';

/** With SchedulerPopFromBackoffQ, backoff ends are rounded down to whole seconds (one ordering window). */
export const BACKOFF_ORDERING_WINDOW_MS = 1000;

export interface BackoffQueueOptions {
  podInitialBackoffMs: number;
  podMaxBackoffMs: number;
  /** SchedulerPopFromBackoffQ (1.33+): windows, and priority order among equal backoff ends. */
  popFromBackoffQ: boolean;
  /**
   * 1.33+: the backoff grows with the attempts rejected by plugins, or with the errors in a row
   * when the last attempt failed with an error; before, with every attempt.
   */
  countsRejectionsAndErrorsApart: boolean;
  activeQLess: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean;
}

/** The duration for the `count`-th counted attempt: initial × 2^(count−1), at most max (integer ns as upstream). */
export function calculateBackoffDuration(count: number, initialMs: number, maxMs: number): number {
  if (count <= 0 || initialMs <= 0) return 0;
  const initialNs = Math.round(initialMs * 1e6);
  const maxNs = Math.round(maxMs * 1e6);
  const shift = count - 1;
  if (initialNs > Math.floor(maxNs / 2 ** shift)) return maxMs;
  return (initialNs * 2 ** shift) / 1e6;
}

export class BackoffQueue {
  private readonly podBackoffQ: Heap<QueuedPodInfo>;
  private readonly podErrorBackoffQ: Heap<QueuedPodInfo>;

  constructor(
    private readonly clock: Clock,
    readonly opts: BackoffQueueOptions,
  ) {
    const byEnd = (a: QueuedPodInfo, b: QueuedPodInfo) => this.getBackoffTime(a) < this.getBackoffTime(b);
    const byEndThenPriority = (a: QueuedPodInfo, b: QueuedPodInfo) => {
      const ea = this.getBackoffTime(a);
      const eb = this.getBackoffTime(b);
      return ea !== eb ? ea < eb : opts.activeQLess(a, b);
    };
    this.podBackoffQ = new Heap((p) => p.key, opts.popFromBackoffQ ? byEndThenPriority : byEnd);
    this.podErrorBackoffQ = new Heap((p) => p.key, byEnd);
  }

  alignToWindow(t: number): number {
    if (!this.opts.popFromBackoffQ) return t;
    return Math.floor(t / BACKOFF_ORDERING_WINDOW_MS) * BACKOFF_ORDERING_WINDOW_MS;
  }

  /** The attempts the backoff grows with. */
  backoffCount(pInfo: QueuedPodInfo): number {
    if (!this.opts.countsRejectionsAndErrorsApart) return pInfo.attempts;
    return pInfo.consecutiveErrorsCount > 0 ? pInfo.consecutiveErrorsCount : pInfo.unschedulableCount;
  }

  /** When the pod's backoff ends; ZERO_TIME when it has none (no counted attempt, or max backoff 0). */
  getBackoffTime(pInfo: QueuedPodInfo): number {
    if (this.opts.podMaxBackoffMs === 0) return ZERO_TIME;
    const count = this.backoffCount(pInfo);
    if (count === 0) return ZERO_TIME;
    if (pInfo.backoffExpiration === ZERO_TIME) {
      const d = calculateBackoffDuration(count, this.opts.podInitialBackoffMs, this.opts.podMaxBackoffMs);
      pInfo.backoffExpiration = this.alignToWindow(pInfo.timestamp + d);
    }
    return pInfo.backoffExpiration;
  }

  isPodBackingoff(pInfo: QueuedPodInfo): boolean {
    return !(this.getBackoffTime(pInfo) < this.alignToWindow(this.clock.now()));
  }

  /** Pods rejected by plugins go to the backoff heap, pods that failed with an error to the error heap. */
  add(pInfo: QueuedPodInfo): void {
    if (pInfo.unschedulablePlugins.size === 0 && pInfo.pendingPlugins.size === 0) {
      this.podErrorBackoffQ.addOrUpdate(pInfo);
      this.podBackoffQ.delete(pInfo.key);
      return;
    }
    this.podBackoffQ.addOrUpdate(pInfo);
    this.podErrorBackoffQ.delete(pInfo.key);
  }

  /** Every pod whose backoff has ended, rejected ones first, each heap in backoff order. */
  popAllBackoffCompleted(): QueuedPodInfo[] {
    const out: QueuedPodInfo[] = [];
    for (const heap of [this.podBackoffQ, this.podErrorBackoffQ]) {
      for (;;) {
        const top = heap.peek();
        if (!top || this.isPodBackingoff(top)) break;
        out.push(heap.pop()!);
      }
    }
    return out;
  }

  /** SchedulerPopFromBackoffQ: the pod activeQ hands out when it is empty (never an errored pod). */
  popBackoff(): QueuedPodInfo | undefined {
    return this.podBackoffQ.pop();
  }

  lenBackoff(): number {
    return this.podBackoffQ.length;
  }

  update(pod: QueuedPodInfo['pod'], key: string): QueuedPodInfo | undefined {
    for (const heap of [this.podBackoffQ, this.podErrorBackoffQ]) {
      const p = heap.get(key);
      if (p) {
        p.update(pod);
        heap.addOrUpdate(p);
        return p;
      }
    }
    return undefined;
  }

  delete(key: string): QueuedPodInfo | undefined {
    return this.podBackoffQ.delete(key) ?? this.podErrorBackoffQ.delete(key);
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.podBackoffQ.get(key) ?? this.podErrorBackoffQ.get(key);
  }

  has(key: string): boolean {
    return this.podBackoffQ.has(key) || this.podErrorBackoffQ.has(key);
  }

  /** The earliest backoff end among waiting pods, or undefined when none waits. */
  earliestBackoffEnd(): number | undefined {
    const ends = [this.podBackoffQ.peek(), this.podErrorBackoffQ.peek()]
      .filter((p): p is QueuedPodInfo => p !== undefined)
      .map((p) => this.getBackoffTime(p));
    return ends.length ? Math.min(...ends) : undefined;
  }

  list(): QueuedPodInfo[] {
    return [...this.podBackoffQ.sorted(), ...this.podErrorBackoffQ.sorted()];
  }

  get length(): number {
    return this.podBackoffQ.length + this.podErrorBackoffQ.length;
  }
}
