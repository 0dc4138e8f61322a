/**
 * A keyed binary heap (upstream backend/heap): add-or-update, delete and get by key. Items the
 * order calls equal leave in insertion order, so the queue is deterministic where upstream's
 * order is unspecified.
 */
interface Entry<T> {
  item: T;
  seq: number;
  index: number;
}

export class Heap<T> {
  private readonly entries: Entry<T>[] = [];
  private readonly byKey = new Map<string, Entry<T>>();
  private seq = 0;

  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly less: (a: T, b: T) => boolean,
  ) {}

  get length(): number {
    return this.entries.length;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  get(key: string): T | undefined {
    return this.byKey.get(key)?.item;
  }

  /** Adds the item, or replaces the one with its key (keeping its place among equals) and re-sorts. */
  addOrUpdate(item: T): void {
    const key = this.keyOf(item);
    const existing = this.byKey.get(key);
    if (existing) {
      existing.item = item;
      this.fix(existing.index);
      return;
    }
    const e: Entry<T> = { item, seq: this.seq++, index: this.entries.length };
    this.entries.push(e);
    this.byKey.set(key, e);
    this.up(e.index);
  }

  delete(key: string): T | undefined {
    const e = this.byKey.get(key);
    if (!e) return undefined;
    this.byKey.delete(key);
    const last = this.entries.pop()!;
    if (last !== e) {
      this.entries[e.index] = last;
      last.index = e.index;
      this.fix(e.index);
    }
    return e.item;
  }

  peek(): T | undefined {
    return this.entries[0]?.item;
  }

  pop(): T | undefined {
    const top = this.entries[0];
    if (!top) return undefined;
    return this.delete(this.keyOf(top.item));
  }

  /** Items in heap order of storage (not sorted). */
  list(): T[] {
    return this.entries.map((e) => e.item);
  }

  /** Items in the order pop would give them. */
  sorted(): T[] {
    return [...this.entries]
      .sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0))
      .map((e) => e.item);
  }

  private before(a: Entry<T>, b: Entry<T>): boolean {
    if (this.less(a.item, b.item)) return true;
    if (this.less(b.item, a.item)) return false;
    return a.seq < b.seq;
  }

  private fix(i: number): void {
    if (!this.up(i)) this.down(i);
  }

  private up(i: number): boolean {
    const start = i;
    const es = this.entries;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(es[i], es[parent])) break;
      this.swap(i, parent);
      i = parent;
    }
    return i !== start;
  }

  private down(i: number): void {
    const es = this.entries;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= es.length) return;
      const r = l + 1;
      const child = r < es.length && this.before(es[r], es[l]) ? r : l;
      if (!this.before(es[child], es[i])) return;
      this.swap(i, child);
      i = child;
    }
  }

  private swap(i: number, j: number): void {
    const es = this.entries;
    [es[i], es[j]] = [es[j], es[i]];
    es[i].index = i;
    es[j].index = j;
  }
}
