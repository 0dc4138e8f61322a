import type { ZodType } from 'zod';

/** Validates query parameters (zod errors answer 400 naming each parameter). */
export function parseQuery<T>(schema: ZodType<T>, query: unknown): T {
  return schema.parse(query ?? {});
}
