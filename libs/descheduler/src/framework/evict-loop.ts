/** The eviction loop upstream's deschedule plugins share. */
import type { Pod } from '@schedlab/k8s';
import type { EvictOptions, Handle } from './types';

export type LoopEnd = 'done' | 'node-limit' | 'total-limit';

/**
 * Evicts the pods in order, skipping those refused for their namespace or a budget, and stops at
 * the first node-limit or total-limit refusal, saying which: upstream then moves to the next node
 * or ends the plugin.
 */
export function evictEach(
  handle: Handle,
  pods: readonly Pod[],
  options: (pod: Pod) => EvictOptions,
): LoopEnd {
  for (const pod of pods) {
    if (handle.evictor.evict(pod, options(pod))) continue;
    const refusal = handle.evictor.lastRefusal();
    if (refusal === 'node-limit' || refusal === 'total-limit') return refusal;
  }
  return 'done';
}
