import type { CreatedAtCursor } from '@schedlab/db';
import { z } from 'zod';
import { ApiError } from './api-error';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  cursor: z.string().min(1).optional(),
});

/** Opaque cursors: base64url of the last row's sort key, so clients cannot depend on the format. */
export function encodeCursor(value: string | number): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T extends string | number>(cursor: string, type: 'string' | 'number'): T {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (typeof value === type) return value as T;
  } catch {
    /* answered below */
  }
  throw ApiError.badRequest('invalid_cursor', 'cursor is not one this API returned', { field: 'cursor' });
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Rows fetched with limit + 1: the extra row only says whether another page exists. */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  view: (row: R) => T,
  key: (row: R) => string | number,
): Page<T> {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { items: shown.map(view), nextCursor: more ? encodeCursor(key(shown[shown.length - 1]!)) : null };
}

/**
 * Newest-first lists ordered by (createdAt desc, id desc): the row a cursor names (the
 * repositories start after it), and the cursor of a row. Shared by snapshots, scenarios and runs.
 */
export function decodeCreatedAtCursor(cursor: string | undefined): CreatedAtCursor | undefined {
  if (!cursor) return undefined;
  const [iso, id] = decodeCursor<string>(cursor, 'string').split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || Number.isNaN(createdAt.getTime())) {
    throw ApiError.badRequest('invalid_cursor', 'cursor is not one this API returned', { field: 'cursor' });
  }
  return { createdAt, id };
}

export const createdAtCursorOf = (row: { createdAt: Date; id: string }) =>
  `${row.createdAt.toISOString()}|${row.id}`;
