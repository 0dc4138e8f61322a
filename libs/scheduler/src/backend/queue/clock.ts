/**
 * The scheduling queue's time source (upstream clock.WithTicker, replaced): simulated time in
 * milliseconds that moves only when told, so a replay is the same on every machine.
 */
export interface Clock {
  /** Milliseconds (the epoch of the caller's choosing, e.g. Unix milliseconds of the start time). */
  now(): number;
}

export class SimulatedClock implements Clock {
  constructor(private current = 0) {}

  now(): number {
    return this.current;
  }

  /** Moves the clock forward by `ms` (never back). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new Error(`SimulatedClock.advance: ${ms} ms is not a forward step`);
    this.current += ms;
  }

  /** Sets the clock to `t`, which may not be in the past. */
  set(t: number): void {
    if (t < this.current) throw new Error(`SimulatedClock.set: ${t} is before now (${this.current})`);
    this.current = t;
  }
}
