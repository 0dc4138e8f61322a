import DataLoader from 'dataloader';

type LoaderBag = { loaders?: Map<string, DataLoader<string, unknown>> };

/**
 * One DataLoader per request, tenant and kind, kept on the GraphQL context: nested lookups
 * (e.g. every run's snapshot in a list) become one query per kind instead of one per row.
 */
export function loaderFor<T extends { id: string }>(
  context: LoaderBag,
  kind: string,
  tenantId: string,
  load: (ids: readonly string[]) => Promise<T[]>,
): DataLoader<string, T | null> {
  context.loaders ??= new Map();
  const key = `${kind}:${tenantId}`;
  let loader = context.loaders.get(key) as DataLoader<string, T | null> | undefined;
  if (!loader) {
    loader = new DataLoader<string, T | null>(async (ids) => {
      const byId = new Map((await load(ids)).map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    });
    context.loaders.set(key, loader as DataLoader<string, unknown>);
  }
  return loader;
}
