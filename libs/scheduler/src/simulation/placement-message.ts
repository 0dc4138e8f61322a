import type { PodSchedulingResult } from './results';

/**
 * The message a placement shows: that of the attempt that decided the pod. A pod that preempted
 * was tried twice; the first attempt's FitError started the preemption (kept in its explanation's
 * `firstAttempt`) and the retry on the nominated node decided it, so a placed preemptor reads as
 * upstream's Scheduled event does.
 */
export function placementMessage(r: PodSchedulingResult): string | null {
  if (r.firstAttempt && r.outcome === 'scheduled' && r.node)
    return `Successfully assigned ${r.pod} to ${r.node}`;
  if (r.firstAttempt && r.outcome === 'error') return r.error ?? null;
  return r.message ?? r.error ?? null;
}
