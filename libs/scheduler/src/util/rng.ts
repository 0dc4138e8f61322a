/**
 * Seeded pseudo-random numbers (a SplitMix-style mixer over a 32-bit counter), so every random
 * choice the scheduler makes (tie-breaks, preemption offsets) repeats for the same seed.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The generator's whole state: restoring it repeats every later draw (replays resume from it). */
  get counter(): number {
    return this.state;
  }

  set counter(value: number) {
    this.state = value >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x9e3779b9) >>> 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return z / 0x100000000;
  }

  /** Uniform integer in [0, n), like Go's rand.Intn. */
  intn(n: number): number {
    if (n <= 0) throw new Error(`intn: n must be positive, got ${n}`);
    return Math.floor(this.next() * n);
  }
}
