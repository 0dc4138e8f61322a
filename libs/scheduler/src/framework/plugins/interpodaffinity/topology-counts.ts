/**
 * Counts per topology pair (topology key, value), as upstream's topologyToMatchedTermCount.
 * Kept as key → value → count so lookups by a node's label need no string concatenation;
 * a pair whose count returns to exactly 0 is dropped, so `size` is upstream's len(map).
 */
import type { Labels } from '@schedlab/k8s';

export class TopologyCounts {
  private readonly byKey = new Map<string, Map<string, number>>();
  private pairs = 0;

  /** Number of (key, value) pairs with a non-zero count. */
  get size(): number {
    return this.pairs;
  }

  get(key: string, value: string): number {
    return this.byKey.get(key)?.get(value) ?? 0;
  }

  /** Adds `delta` to the pair (key, node's value of key); nothing when the node lacks the key. */
  addForNode(nodeLabels: Labels | undefined, key: string, delta: number): void {
    const value = nodeLabels?.[key];
    if (value === undefined) return;
    this.add(key, value, delta);
  }

  add(key: string, value: string, delta: number): void {
    let values = this.byKey.get(key);
    if (!values) this.byKey.set(key, (values = new Map()));
    const prev = values.get(value);
    const next = (prev ?? 0) + delta;
    if (next === 0) {
      if (prev !== undefined) {
        values.delete(value);
        this.pairs--;
        if (values.size === 0) this.byKey.delete(key);
      }
      return;
    }
    if (prev === undefined) this.pairs++;
    values.set(value, next);
  }

  /** Is there any pair of the node's labels with a positive count? */
  anyPositiveForNode(nodeLabels: Labels | undefined): boolean {
    if (this.pairs === 0 || !nodeLabels) return false;
    for (const [key, values] of this.byKey) {
      const v = nodeLabels[key];
      if (v !== undefined && (values.get(v) ?? 0) > 0) return true;
    }
    return false;
  }

  clone(): TopologyCounts {
    const c = new TopologyCounts();
    for (const [k, values] of this.byKey) c.byKey.set(k, new Map(values));
    c.pairs = this.pairs;
    return c;
  }

  /** Plain-object view for tests and explanations: "key=value" → count. */
  toRecord(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [k, values] of this.byKey) for (const [v, n] of values) out[`${k}=${v}`] = n;
    return out;
  }
}
