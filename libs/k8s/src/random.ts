/**
 * Seeded pseudo-random numbers: every random choice Schedlab makes (generated names, preemption
 * offsets, scenario choices, the scheduler's tie-breaks) is drawn from a SeededRandom, so the same
 * seed gives the same output.
 */

/** A source of uniform numbers. */
export interface RandomSource {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n), like Go's rand.Intn. */
  intn(n: number): number;
}

/** The 32-bit mixers a stream can use; a stream keeps its mixer so a seed keeps its output. */
export type RandomAlgorithm = 'mulberry32' | 'splitmix32';

/**
 * A seeded stream over a 32-bit counter. `mulberry32` is the default; the scheduler's own stream
 * (tie-breaks among equal scores) was recorded with `splitmix32`, and changing it would move
 * every random tie-break of every seed, so it keeps that mixer.
 */
export class SeededRandom implements RandomSource {
  /**
   * The 32-bit counter, kept in a typed array: V8 holds a plain field's number above 2^30 as a
   * heap object, so every draw would allocate one (a tie-break draws once per tied node).
   */
  private readonly state = new Uint32Array(1);

  constructor(
    seed: number,
    private readonly algorithm: RandomAlgorithm = 'mulberry32',
  ) {
    this.state[0] = seed >>> 0;
  }

  /** The stream's whole state: restoring it repeats every later draw (replays resume from it). */
  get counter(): number {
    return this.state[0];
  }

  set counter(value: number) {
    this.state[0] = value >>> 0;
  }

  next(): number {
    return this.algorithm === 'mulberry32' ? this.mulberry32() : this.splitmix32();
  }

  intn(n: number): number {
    if (n <= 0) throw new Error(`intn: n must be positive, got ${n}`);
    return Math.floor(this.next() * n);
  }

  private mulberry32(): number {
    let t = (this.state[0] + 0x6d2b79f5) >>> 0;
    this.state[0] = t;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  private splitmix32(): number {
    let z = (this.state[0] + 0x9e3779b9) >>> 0;
    this.state[0] = z;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    z = (z ^ (z >>> 16)) >>> 0;
    return z / 0x100000000;
  }
}

/** A uniform integer source in [0, n) over a mulberry32 stream: `seededRandomInt(seed)(n)`. */
export type RandomInt = (n: number) => number;

export function seededRandomInt(seed: number): RandomInt {
  const random = new SeededRandom(seed);
  return (n: number) => Math.floor(random.next() * n);
}
