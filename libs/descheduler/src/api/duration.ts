/** Go's time.ParseDuration, for metav1.Duration fields such as DefaultEvictor's minPodAge. */

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds of a duration like `90s`, `1h30m` or `-1.5h`; undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  const m = /^([+-]?)(.*)$/.exec(text);
  if (!m || m[2] === '') return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  if (m[2] === '0') return 0;
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < m[2].length) {
    part.lastIndex = at;
    const p = part.exec(m[2]);
    if (!p) return undefined;
    total += Number(p[1]) * UNIT_MS[p[2]];
    at = part.lastIndex;
  }
  return sign * total;
}
