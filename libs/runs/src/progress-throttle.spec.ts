import { ProgressThrottle } from './progress-throttle';

const at = (phase: string, podsProcessed: number, podsTotal = 100) => ({ phase, podsProcessed, podsTotal });

describe('ProgressThrottle', () => {
  it('drops repeats of a per-pod phase within the interval and passes the next one after it', () => {
    const throttle = new ProgressThrottle(200);
    expect(throttle.passes(at('scheduling', 1), 1000)).toBe(true);
    expect(throttle.passes(at('scheduling', 2), 1100)).toBe(false);
    expect(throttle.passes(at('scheduling', 3), 1199)).toBe(false);
    expect(throttle.passes(at('scheduling', 4), 1200)).toBe(true);
  });

  it('passes the first report of a new phase however soon it follows the last', () => {
    const throttle = new ProgressThrottle(1000);
    expect(throttle.passes(at('scheduling', 1), 0)).toBe(true);
    expect(throttle.passes(at('scheduling', 50), 10)).toBe(false);
    expect(throttle.passes(at('writing', 0), 20)).toBe(true);
    expect(throttle.passes(at('writing', 10), 30)).toBe(false);
    expect(throttle.passes(at('done', 0, 0), 40)).toBe(true);
  });

  it('passes the last report of a counted phase', () => {
    const throttle = new ProgressThrottle(1000);
    expect(throttle.passes(at('writing', 0), 0)).toBe(true);
    expect(throttle.passes(at('writing', 99), 5)).toBe(false);
    expect(throttle.passes(at('writing', 100), 6)).toBe(true);
  });

  it('never drops phases that report only a handful of times', () => {
    const throttle = new ProgressThrottle(1000);
    expect(throttle.passes(at('loading', 0, 0), 0)).toBe(true);
    expect(throttle.passes(at('loading', 0, 0), 1)).toBe(true);
    expect(throttle.passes(at('workloads', 0, 0), 2)).toBe(true);
    expect(throttle.passes(at('workloads', 0, 0), 3)).toBe(true);
  });
});
