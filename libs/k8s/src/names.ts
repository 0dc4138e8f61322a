/**
 * Name material shared by the API server's and controllers' naming: util/rand's alphabet and the
 * FNV-1a hash the controllers render names from.
 */

/** util/rand's alphabet: no vowels (no accidental words) and no easily confused characters. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** FNV-1a, 32 bit, over the UTF-8 bytes of `text`. */
export function fnv32a(text: string, start = 0x811c9dc5): number {
  let h = start >>> 0;
  for (const b of Buffer.from(text, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
