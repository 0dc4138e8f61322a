import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { canonicalJson } from '@schedlab/k8s';

/**
 * How a snapshot's objects are stored in `snapshots.content`: the canonical JSON `{"items": […]}`
 * (one canonical JSON, @schedlab/k8s's), hashed for de-duplication and gzipped.
 */
export interface PackedSnapshot {
  contentHash: string;
  sizeBytes: number;
  /** Typed as Prisma's Bytes input wants it (a plain Uint8Array view of the gzip, no copy). */
  content: Uint8Array<ArrayBuffer>;
}

function asPlainBytes(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer.buffer as ArrayBuffer, buffer.byteOffset, buffer.byteLength);
}

/** Canonical JSON `{"items": [...]}`, its sha256 and its gzip, computed from one string. */
export function packSnapshotItems(items: readonly unknown[]): PackedSnapshot {
  const json = canonicalJson({ items });
  return {
    contentHash: createHash('sha256').update(json).digest('hex'),
    sizeBytes: Buffer.byteLength(json),
    content: asPlainBytes(gzipSync(json, { level: 6 })),
  };
}

/** The stored objects back, for the worker or an export. */
export function unpackSnapshotItems(content: Uint8Array): unknown[] {
  return (JSON.parse(gunzipSync(content).toString('utf8')) as { items: unknown[] }).items;
}
