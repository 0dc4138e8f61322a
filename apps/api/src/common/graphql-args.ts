/** Drops GraphQL's explicit nulls so the REST schemas (which reject null) apply unchanged. */
export function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T;
}
