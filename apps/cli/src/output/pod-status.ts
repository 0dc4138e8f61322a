/**
 * kubectl's habit for tables: a short STATUS and REASON a glance can take in, the full message
 * only on request (`-o wide`). The long FitError stays word for word in json/yaml and wide tables.
 */
import type { Placement } from './placements';

/** What kubectl would show in STATUS for a pod the simulation handled. */
export function podStatus(p: Pick<Placement, 'outcome'>): string {
  switch (p.outcome) {
    case 'scheduled':
      return 'Scheduled';
    case 'gated':
      return 'SchedulingGated';
    case 'rejected':
      return 'Rejected';
    case 'error':
      return 'Error';
    default:
      return 'Pending'; // unschedulable, or no profile serves its schedulerName
  }
}

const PREEMPTION_PART = ' preemption: ';

/**
 * The reason that rejected the most nodes in a FitError ("0/9 nodes are available: 1 node(s)
 * were unschedulable, 3 Insufficient cpu, …"): `Insufficient cpu`. Ties go to the first one
 * listed. A PreFilter rejection has no per-node counts: its message is the reason. Anything that
 * is not a FitError is returned as is.
 */
export function dominantReason(message: string): string {
  const head = /^0\/\d+ nodes are available:\s*/.exec(message);
  if (!head) return message;
  const preemption = message.indexOf(PREEMPTION_PART);
  const body = message.slice(head[0].length, preemption < 0 ? undefined : preemption).replace(/\.$/, '');
  let best: { count: number; reason: string } | undefined;
  for (const part of body.split(/, (?=\d+ )/)) {
    const counted = /^(\d+) (.+)$/.exec(part);
    if (!counted) return body || 'Unschedulable';
    const count = Number(counted[1]);
    if (!best || count > best.count) best = { count, reason: counted[2] };
  }
  return best?.reason ?? 'Unschedulable';
}

/** The REASON column: why a pod is pending, or how it got its node; `<none>` when nothing to say. */
export function podReason(p: Placement): string {
  if (p.outcome === 'scheduled') return p.victims?.length ? 'Preempting' : '<none>';
  if (p.outcome === 'rejected') {
    // The API server's "pods "x" is forbidden: exceeded quota: compute, requested: …" in short.
    return /is forbidden: ([^,]+)/.exec(p.message ?? '')?.[1] ?? 'AdmissionRejected';
  }
  if (p.outcome === 'no-profile') return 'NoSchedulerProfile';
  if (p.outcome === 'error') return 'SchedulerError';
  if (p.outcome === 'gated') return p.message ?? '<none>'; // the gates it waits for: short already
  return p.message ? dominantReason(p.message) : 'Unschedulable';
}

/** The full message `-o wide` shows: the FitError word for word, or what refused the pod. */
export function podMessage(p: Placement): string {
  return p.message ?? p.error ?? '<none>';
}
