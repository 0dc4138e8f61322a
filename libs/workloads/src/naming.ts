/**
 * Names the way the API server and controllers generate them: seeded random suffixes from
 * upstream's unambiguous alphabet, FNV-32a hashes rendered with rand.SafeEncodeString. The seeded
 * random source and canonical JSON are @schedlab/k8s's.
 */
import { SAFE_ALPHABET, fnv32a, type RandomInt } from '@schedlab/k8s';

export { SAFE_ALPHABET, fnv32a };
/** names.SimpleNameGenerator appends 5 random characters to generateName. */
export const GENERATED_SUFFIX_LENGTH = 5;
/** Longest generateName prefix kept (63 - 5), as upstream truncates. */
const MAX_GENERATED_PREFIX = 58;

export function randomSuffix(random: RandomInt, length = GENERATED_SUFFIX_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) out += SAFE_ALPHABET[random(SAFE_ALPHABET.length)];
  return out;
}

/** What the API server does with metadata.generateName. */
export function generateName(prefix: string, random: RandomInt): string {
  return prefix.slice(0, MAX_GENERATED_PREFIX) + randomSuffix(random);
}

/** rand.SafeEncodeString: every byte mapped onto SAFE_ALPHABET by its value modulo 27. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) out += SAFE_ALPHABET[b % SAFE_ALPHABET.length];
  return out;
}

/** A stable RFC-4122-shaped uid for a generated object, so owner references can point at it. */
export function deterministicUid(kind: string, namespace: string | undefined, name: string): string {
  const parts = [0, 1, 2, 3].map((i) =>
    fnv32a(`${i}/${kind}/${namespace ?? ''}/${name}`)
      .toString(16)
      .padStart(8, '0'),
  );
  const hex = parts.join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
