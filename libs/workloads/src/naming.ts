/**
 * Names the way the API server and controllers generate them: seeded random suffixes from
 * upstream's unambiguous alphabet, FNV-32a hashes rendered with rand.SafeEncodeString.
 */

/** util/rand's alphabet: no vowels (no accidental words) and no easily confused characters. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** names.SimpleNameGenerator appends 5 random characters to generateName. */
export const GENERATED_SUFFIX_LENGTH = 5;
/** Longest generateName prefix kept (63 - 5), as upstream truncates. */
const MAX_GENERATED_PREFIX = 58;

/** A seeded source of uniform integers in [0, n) (mulberry32): the same seed, the same names. */
export type RandomInt = (n: number) => number;

export function seededRandom(seed: number): RandomInt {
  let state = seed >>> 0;
  return (n: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

export function randomSuffix(random: RandomInt, length = GENERATED_SUFFIX_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) out += SAFE_ALPHABET[random(SAFE_ALPHABET.length)];
  return out;
}

/** What the API server does with metadata.generateName. */
export function generateName(prefix: string, random: RandomInt): string {
  return prefix.slice(0, MAX_GENERATED_PREFIX) + randomSuffix(random);
}

/** FNV-1a, 32 bit, over the UTF-8 bytes of `text`. */
export function fnv32a(text: string, start = 0x811c9dc5): number {
  let h = start >>> 0;
  for (const b of Buffer.from(text, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** rand.SafeEncodeString: every byte mapped onto SAFE_ALPHABET by its value modulo 27. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += SAFE_ALPHABET[b % SAFE_ALPHABET.length];
  return out;
}

/** A stable RFC-4122-shaped uid for a generated object, so owner references can point at it. */
export function deterministicUid(kind: string, namespace: string | undefined, name: string): string {
  const parts = [0, 1, 2, 3].map((i) => fnv32a(`${i}/${kind}/${namespace ?? ''}/${name}`).toString(16).padStart(8, '0'));
  const hex = parts.join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** JSON with object keys sorted, so equal objects render identically whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
