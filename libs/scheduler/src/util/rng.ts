/**
 * The scheduler's seeded stream: every random choice it makes (tie-breaks, preemption offsets)
 * repeats for the same seed. One RNG for Schedlab lives in @schedlab/k8s; the scheduler's stream
 * uses its splitmix32 mixer, the one its tie-breaks were recorded with.
 */
import { SeededRandom as Random } from '@schedlab/k8s';

export class SeededRandom extends Random {
  constructor(seed: number) {
    super(seed, 'splitmix32');
  }
}
