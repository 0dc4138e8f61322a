/**
 * JSON with object keys sorted at every level, so equal content always renders to equal bytes
 * whatever its key order. Values render as JSON.stringify renders them (a Date as its ISO
 * string through toJSON, undefined object fields dropped, undefined array entries as null), as
 * Go's encoding/json renders a time.Time; a top-level undefined renders as `null`.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortedKeys) ?? 'null';
}

function sortedKeys(_key: string, v: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
  return sorted;
}
