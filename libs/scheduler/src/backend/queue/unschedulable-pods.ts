/**
 * The pool of pods that failed an attempt and wait for a cluster event (or the periodic flush),
 * and of pods a PreEnqueue plugin gates (upstream unschedulable_entities.go). Kept in insertion
 * order, where upstream iterates a Go map in no fixed order.
 */
import type { QueuedPodInfo } from './queued-pod-info';

export class UnschedulablePods {
  readonly podInfoMap = new Map<string, QueuedPodInfo>();

  addOrUpdate(pInfo: QueuedPodInfo): void {
    this.podInfoMap.set(pInfo.key, pInfo);
  }

  delete(key: string): void {
    this.podInfoMap.delete(key);
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.podInfoMap.get(key);
  }

  get size(): number {
    return this.podInfoMap.size;
  }

  clear(): void {
    this.podInfoMap.clear();
  }
}
