/**
 * A pod waiting in the scheduling queue and what the queue knows about its attempts (upstream
 * framework/types.go QueuedPodInfo and QueueingParams). It is also the framework's
 * QueuedPodInfo view that QueueSort plugins compare.
 */
import type { Pod } from '@schedlab/k8s';
import type { ClusterEvent } from '../../framework/events';
import type { QueuedPodInfo as SortablePodInfo } from '../../framework/interface';
import { PodInfo } from '../../framework/types';

/** Stands for Go's zero time.Time: before every clock reading. */
export const ZERO_TIME = -Infinity;

export class QueuedPodInfo implements SortablePodInfo {
  podInfo: PodInfo;
  /** When the pod was added, or last came back from an attempt (ms on the queue's clock). */
  timestamp: number;
  /** Times popped for a scheduling attempt. */
  attempts = 0;
  /** Attempts that ended rejected by plugins (1.33+: what the backoff grows with). */
  unschedulableCount = 0;
  /** Attempts in a row that ended in an error (1.33+: an error's backoff grows with these). */
  consecutiveErrorsCount = 0;
  /** Cached end of the current backoff; ZERO_TIME until computed. */
  backoffExpiration = ZERO_TIME;
  /** Set once, when the pod first entered activeQ. */
  initialAttemptTimestamp?: number;
  /** Plugins that rejected the pod in its last attempt (or gate it at PreEnqueue). */
  unschedulablePlugins = new Set<string>();
  /** Plugins that answered Pending (a later event of theirs requeues at once, skipping backoff). */
  pendingPlugins = new Set<string>();
  /** The PreEnqueue plugin holding the pod back; '' when not gated. */
  gatingPlugin = '';
  /** Events the gating plugin registered; only these (or a wildcard) can lift the gate. */
  gatingPluginEvents: ClusterEvent[] = [];
  /** The gating plugin's message ('error' when it failed with an error), for explanations. */
  gatingStatus?: string;
  /** 1.37: whether the pod's last move to activeQ was the unschedulable pool's periodic flush. */
  wasFlushedFromUnschedulable = false;
  /** 1.37: when the periodic flush last moved the pod (a gated pod can be flushed again and again). */
  flushTimestamp = ZERO_TIME;

  constructor(pod: Pod, now: number, plugins: Iterable<string> = []) {
    this.podInfo = new PodInfo(pod);
    this.timestamp = now;
    for (const p of plugins) this.unschedulablePlugins.add(p);
  }

  get pod(): Pod {
    return this.podInfo.pod;
  }

  /** namespace/name: the queue's key for the pod (upstream keys pods the same way). */
  get key(): string {
    return this.podInfo.key;
  }

  get uid(): string {
    return this.podInfo.uid;
  }

  get gated(): boolean {
    return this.gatingPlugin !== '';
  }

  /** The plugins whose events may make the pod schedulable again. */
  rejectorPlugins(): Set<string> {
    if (this.pendingPlugins.size === 0) return this.unschedulablePlugins;
    return new Set([...this.unschedulablePlugins, ...this.pendingPlugins]);
  }

  /** Replaces the pod object (an update of the pending pod), keeping the queueing state. */
  update(pod: Pod): void {
    this.podInfo = new PodInfo(pod);
  }
}
