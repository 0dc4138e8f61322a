/**
 * The pool of pods that failed an attempt and wait for a cluster event (or the periodic flush),
 * and of pods a PreEnqueue plugin gates (upstream unschedulable_entities.go). Iterated in
 * insertion order, where upstream iterates a Go map in no fixed order; a heap by the time each pod
 * last came back (its attempt or its last flush) answers "who is due for the flush first" in O(1).
 */
import { Heap } from './heap';
import type { QueuedPodInfo } from './queued-pod-info';

/** The time the periodic flush measures a pod's wait from. */
export const lastScheduleTime = (p: QueuedPodInfo): number => Math.max(p.timestamp, p.flushTimestamp);

export class UnschedulablePods {
  readonly podInfoMap = new Map<string, QueuedPodInfo>();
  private readonly byLastSchedule = new Heap<QueuedPodInfo>(
    (p) => p.key,
    (a, b) => lastScheduleTime(a) < lastScheduleTime(b),
  );

  /** Adds the pod, or re-sorts it after its timestamp or flush time changed. */
  addOrUpdate(pInfo: QueuedPodInfo): void {
    this.podInfoMap.set(pInfo.key, pInfo);
    this.byLastSchedule.addOrUpdate(pInfo);
  }

  delete(key: string): void {
    this.podInfoMap.delete(key);
    this.byLastSchedule.delete(key);
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.podInfoMap.get(key);
  }

  /** The pod that has waited longest since its last attempt or flush. */
  longestWaiting(): QueuedPodInfo | undefined {
    return this.byLastSchedule.peek();
  }

  get size(): number {
    return this.podInfoMap.size;
  }
}
