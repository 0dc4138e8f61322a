/**
 * Pod ordering helpers used by preemption (upstream scheduler/util: GetPodStartTime,
 * MoreImportantPod, GetEarliestPodStartTime).
 */
import { podPriority } from '@schedlab/k8s';
import type { Pod } from '@schedlab/k8s';

/**
 * The pod's start time in ms since the epoch. Upstream substitutes "now" for a pod that has
 * not started; in a simulation such a pod is the newest there is, so it sorts after every
 * started pod (deterministically, unlike a wall clock).
 */
export function podStartTime(pod: Pod): number {
  const raw = pod.status?.startTime as unknown;
  if (raw === undefined || raw === null) return Number.POSITIVE_INFINITY;
  const t = raw instanceof Date ? raw.getTime() : Date.parse(String(raw));
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** Higher priority first; equal priorities: the one that started earlier. */
export function moreImportantPod(a: Pod, b: Pod): boolean {
  const pa = podPriority(a);
  const pb = podPriority(b);
  if (pa !== pb) return pa > pb;
  return podStartTime(a) < podStartTime(b);
}

/** Comparator form of moreImportantPod for Array.prototype.sort (stable, as Go's small-slice sort is). */
export function compareByImportance(a: Pod, b: Pod): number {
  if (moreImportantPod(a, b)) return -1;
  if (moreImportantPod(b, a)) return 1;
  return 0;
}

/** Earliest start time among the victims that have the highest priority; undefined for no victims. */
export function earliestStartTimeOfHighestPriority(victims: readonly Pod[]): number | undefined {
  if (victims.length === 0) return undefined;
  let maxPriority = podPriority(victims[0]);
  let earliest = podStartTime(victims[0]);
  for (const v of victims) {
    const p = podPriority(v);
    if (p === maxPriority) {
      const t = podStartTime(v);
      if (t < earliest) earliest = t;
    } else if (p > maxPriority) {
      maxPriority = p;
      earliest = podStartTime(v);
    }
  }
  return earliest;
}
