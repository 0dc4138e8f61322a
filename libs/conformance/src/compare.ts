/** Finds the first field where an actual value differs from the golden one. */

export interface Difference {
  /** JSON path of the field, e.g. `scores.node-3` or `firstAttempt.message`. */
  path: string;
  expected: unknown;
  actual: unknown;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Compares every field the golden value has, and reports fields the actual value has in
 * addition. Key order does not matter; array order does.
 */
export function firstDifference(expected: unknown, actual: unknown, path = ''): Difference | undefined {
  if (isObject(expected) && isObject(actual)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of [...keys].sort()) {
      const d = firstDifference(expected[k], actual[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
    return undefined;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : { path, expected, actual };
}
