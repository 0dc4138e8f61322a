/** How many items fall under each key, keys in first-seen order. */
export function countBy<T>(items: readonly T[], keyOf: (item: T) => string): Record<string, number> {
  // A Map: an object's lookup of a key such as "constructor" (an unknown kind in a snapshot)
  // would find Object.prototype's.
  const counts = new Map<string, number>();
  for (const item of items) {
    const key = keyOf(item);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Object.fromEntries(counts);
}
