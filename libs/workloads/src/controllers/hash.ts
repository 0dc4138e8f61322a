/**
 * pod-template-hash and controller-revision-hash values.
 *
 * Upstream (controller.ComputeHash) feeds FNV-32a with the Go struct printed by go-spew
 * (`%#v`, sorted keys), appends the collision count as 4 little-endian bytes, and encodes the
 * decimal hash with rand.SafeEncodeString. The go-spew rendering depends on Go type names and
 * every zero-valued field of the Go structs, which TypeScript objects do not carry, so Schedlab
 * hashes a canonical JSON rendering instead: the same algorithm and alphabet, stable for equal
 * templates, but not byte-identical to the hash a real cluster would print.
 */
import { canonicalJson } from '@schedlab/k8s';
import { fnv32a, safeEncodeString } from '../naming';
import type { PodTemplate } from './common';

function appendCollisionCount(hash: number, collisionCount: number): number {
  let h = hash;
  const bytes = [
    collisionCount & 0xff,
    (collisionCount >>> 8) & 0xff,
    (collisionCount >>> 16) & 0xff,
    (collisionCount >>> 24) & 0xff,
  ];
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function computeHash(value: unknown, collisionCount?: number | null): string {
  let h = fnv32a(canonicalJson(value));
  if (collisionCount !== undefined && collisionCount !== null) h = appendCollisionCount(h, collisionCount);
  return safeEncodeString(String(h));
}

export function podTemplateHash(template: PodTemplate, collisionCount?: number | null): string {
  return computeHash(template, collisionCount);
}
