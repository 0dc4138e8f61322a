/**
 * The pods ready for an attempt, in QueueSort order, and the pods being attempted right now with
 * the cluster events that arrived since each was popped (upstream active_queue.go): a pod whose
 * attempt fails is judged against those events, so none is lost while it was in flight.
 */
import type { ClusterEvent } from '../../framework/events';
import { Heap } from './heap';
import type { QueuedPodInfo } from './queued-pod-info';

/** An event recorded while some pod was in flight. */
export interface InFlightEvent {
  event: ClusterEvent;
  oldObj: unknown;
  newObj: unknown;
}

/** One entry of the in-flight list: a popped pod's marker, or an event that came after it. */
interface ListNode {
  value: { pod: QueuedPodInfo['pod'] } | InFlightEvent;
  prev?: ListNode;
  next?: ListNode;
}

/** A doubly-linked list, so that removing a finished pod's marker costs O(1). */
class InFlightList {
  head?: ListNode;
  tail?: ListNode;
  length = 0;

  push(value: ListNode['value']): ListNode {
    const n: ListNode = { value, prev: this.tail };
    if (this.tail) this.tail.next = n;
    else this.head = n;
    this.tail = n;
    this.length++;
    return n;
  }

  remove(n: ListNode): void {
    if (n.prev) n.prev.next = n.next;
    else this.head = n.next;
    if (n.next) n.next.prev = n.prev;
    else this.tail = n.prev;
    n.prev = n.next = undefined;
    this.length--;
  }
}

const isEvent = (v: ListNode['value']): v is InFlightEvent => 'event' in v;

export class ActiveQueue {
  private readonly queue: Heap<QueuedPodInfo>;
  private readonly inFlightPods = new Map<string, ListNode>();
  private readonly inFlightEvents = new InFlightList();
  private schedCycle = 0;

  constructor(less: (a: QueuedPodInfo, b: QueuedPodInfo) => boolean) {
    this.queue = new Heap((p) => p.key, less);
  }

  get length(): number {
    return this.queue.length;
  }

  add(pInfo: QueuedPodInfo): void {
    this.queue.addOrUpdate(pInfo);
  }

  has(key: string): boolean {
    return this.queue.has(key);
  }

  get(key: string): QueuedPodInfo | undefined {
    return this.queue.get(key);
  }

  delete(key: string): QueuedPodInfo | undefined {
    return this.queue.delete(key);
  }

  update(pod: QueuedPodInfo['pod'], key: string): QueuedPodInfo | undefined {
    const p = this.queue.get(key);
    if (!p) return undefined;
    p.update(pod);
    this.queue.addOrUpdate(p);
    return p;
  }

  /** The head of the queue, or undefined when empty. */
  popHead(): QueuedPodInfo | undefined {
    return this.queue.pop();
  }

  /** Marks a popped pod as being attempted: counts the attempt and the scheduling cycle. */
  moveToInFlight(pInfo: QueuedPodInfo): void {
    pInfo.attempts++;
    if (!this.inFlightPods.has(pInfo.uid)) {
      this.inFlightPods.set(pInfo.uid, this.inFlightEvents.push({ pod: pInfo.pod }));
    }
    this.schedCycle++;
  }

  schedulingCycle(): number {
    return this.schedCycle;
  }

  isInFlight(uid: string): boolean {
    return this.inFlightPods.has(uid);
  }

  /** Records the pod's own update while it is in flight; false when it is not. */
  addEventsIfPodInFlight(uid: string, oldObj: unknown, newObj: unknown, events: ClusterEvent[]): boolean {
    if (!this.inFlightPods.has(uid)) return false;
    for (const event of events) this.inFlightEvents.push({ event, oldObj, newObj });
    return true;
  }

  /** Records a cluster event for the pods in flight; false when none is. */
  addEventIfAnyInFlight(oldObj: unknown, newObj: unknown, event: ClusterEvent): boolean {
    if (this.inFlightPods.size === 0) return false;
    this.inFlightEvents.push({ event, oldObj, newObj });
    return true;
  }

  /** The events that arrived after the pod was popped, oldest first. */
  clusterEventsForPod(uid: string): InFlightEvent[] | undefined {
    const marker = this.inFlightPods.get(uid);
    if (!marker) return undefined;
    const out: InFlightEvent[] = [];
    for (let n = marker.next; n; n = n.next) if (isEvent(n.value)) out.push(n.value);
    return out;
  }

  /** The attempt is over: forget the marker, and the events no in-flight pod can still need. */
  done(uid: string): void {
    const marker = this.inFlightPods.get(uid);
    if (!marker) return;
    this.inFlightPods.delete(uid);
    this.inFlightEvents.remove(marker);
    while (this.inFlightEvents.head && isEvent(this.inFlightEvents.head.value)) {
      this.inFlightEvents.remove(this.inFlightEvents.head);
    }
  }

  listInFlightPods(): QueuedPodInfo['pod'][] {
    const out: QueuedPodInfo['pod'][] = [];
    for (let n = this.inFlightEvents.head; n; n = n.next) if (!isEvent(n.value)) out.push(n.value.pod);
    return out;
  }

  /** The in-flight record in order: each popped pod's marker (the pod) and the events after it. */
  listInFlightEvents(): (QueuedPodInfo['pod'] | InFlightEvent)[] {
    const out: (QueuedPodInfo['pod'] | InFlightEvent)[] = [];
    for (let n = this.inFlightEvents.head; n; n = n.next) out.push(isEvent(n.value) ? n.value : n.value.pod);
    return out;
  }

  /** Pods in pop order. */
  list(): QueuedPodInfo[] {
    return this.queue.sorted();
  }
}
