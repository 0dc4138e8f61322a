import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/** JSON with object keys sorted at every level, so equal content always has equal bytes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v as object).sort()) sorted[k] = (v as Record<string, unknown>)[k];
      return sorted;
    }
    return v;
  });
}

export interface PackedSnapshot {
  contentHash: string;
  sizeBytes: number;
  content: Buffer;
}

/** Canonical JSON `{"items": [...]}`, its sha256 and its gzip, computed from one string. */
export function packSnapshotItems(items: readonly unknown[]): PackedSnapshot {
  const json = canonicalJson({ items });
  return {
    contentHash: createHash('sha256').update(json).digest('hex'),
    sizeBytes: Buffer.byteLength(json),
    content: gzipSync(json, { level: 6 }),
  };
}

/** The stored objects back, for the worker or an export. */
export function unpackSnapshotItems(content: Uint8Array): unknown[] {
  return (JSON.parse(gunzipSync(content).toString('utf8')) as { items: unknown[] }).items;
}
