/**
 * Counts per topology pair (topology key, value), as upstream's topologyToMatchedTermCount.
 * Kept as key → value → count so lookups by a node's label need no string concatenation;
 * a pair whose count returns to exactly 0 is dropped, so `size` is upstream's len(map).
 */
import type { Labels } from '@schedlab/k8s';
import type { TopologyDomains } from '../../../backend/cache/topology-domains';

/** One key's counts by value id of a TopologyDomains (values no snapshot node has are left out). */
interface DomainTable {
  readonly domains: TopologyDomains;
  readonly counts: Int32Array;
}

export class TopologyCounts implements PairCounts {
  private readonly byKey = new Map<string, Map<string, number>>();
  private pairs = 0;
  /** Per key asked by domainCounts: the counts by value id, kept up to date by add(). */
  private tables?: Map<string, DomainTable>;

  /** Number of (key, value) pairs with a non-zero count. */
  get size(): number {
    return this.pairs;
  }

  hasPairs(): boolean {
    return this.pairs > 0;
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
    const table = this.tables?.get(key);
    if (table !== undefined) {
      const id = table.domains.idOf(value);
      if (id >= 0) table.counts[id] += delta;
    }
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

  /**
   * The counts of `domains.key` by value id (read only; kept current as pairs change): Filter's
   * lookup for every node without a string-keyed map.
   */
  domainCounts(domains: TopologyDomains): Int32Array {
    const tables = (this.tables ??= new Map());
    const table = tables.get(domains.key);
    if (table !== undefined && table.domains === domains) return table.counts;
    const counts = new Int32Array(domains.size);
    const values = this.byKey.get(domains.key);
    if (values !== undefined) {
      for (const [value, n] of values) {
        const id = domains.idOf(value);
        if (id >= 0) counts[id] = n;
      }
    }
    tables.set(domains.key, { domains, counts });
    return counts;
  }

  domainCountLayers(domains: TopologyDomains): Int32Array[] {
    return [this.domainCounts(domains)];
  }

  /** The topology keys with at least one pair, as a list. */
  topologyKeys(): string[] {
    return [...this.byKey.keys()];
  }

  forEachPair(fn: (key: string, value: string, count: number) => void): void {
    for (const [k, values] of this.byKey) for (const [v, n] of values) fn(k, v, n);
  }

  /** The topology keys with at least one pair. */
  keyNames(): IterableIterator<string> {
    return this.byKey.keys();
  }

  /** value → count of one topology key (read only), if it has any pair. */
  valuesOf(key: string): ReadonlyMap<string, number> | undefined {
    return this.byKey.get(key);
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

/** What InterPodAffinity's PreFilter state needs of its counts (TopologyCounts or a layered view). */
export interface PairCounts {
  readonly size: number;
  /** size > 0, without counting. */
  hasPairs(): boolean;
  get(key: string, value: string): number;
  addForNode(nodeLabels: Labels | undefined, key: string, delta: number): void;
  anyPositiveForNode(nodeLabels: Labels | undefined): boolean;
  /**
   * Counts of `domains.key` by value id, as get() would answer for each value, as tables that sum
   * to them (read only; one per layer that has the key, none when no layer has it): nothing to
   * add up per attempt, a few reads per node instead.
   */
  domainCountLayers(domains: TopologyDomains): Int32Array[];
  /** The topology keys with at least one pair. */
  topologyKeys(): readonly string[];
  clone(): PairCounts;
  toRecord(): Record<string, number>;
}

/** Tells a view whether the counts it was given are still those of its attempt. */
export interface Freshness {
  readonly epoch: number;
}

/**
 * Sums of counts kept elsewhere across attempts (the bases: positive counts only, never written
 * here) plus this
 * attempt's own changes (preemption's and nominated pods' what-ifs), read as one TopologyCounts.
 * The bases move on when the next attempt syncs them, so a view may only be read during its own
 * attempt; `freshness` makes a later read throw instead of answering from other pods' counts.
 */
export class LayeredCounts implements PairCounts {
  private own?: TopologyCounts;
  /** Cached over the bases and own changes; dropped on every own change. */
  private pairs?: number;
  /** Per topology key, the value maps to sum (Filter asks per node, so one lookup per key). */
  private byKey?: Map<string, ReadonlyMap<string, number>[]>;
  /** The same as parallel lists, for iterating without an iterator per call. */
  private keyList?: string[];
  private mapList?: ReadonlyMap<string, number>[][];
  private readonly epoch: number;

  constructor(
    private readonly bases: readonly TopologyCounts[],
    private readonly freshness: Freshness,
    own?: TopologyCounts,
  ) {
    this.epoch = freshness.epoch;
    this.own = own;
  }

  private checkFresh(): void {
    if (this.freshness.epoch !== this.epoch)
      throw new Error('InterPodAffinity: pre-filter counts read after a later attempt moved them on');
  }

  /** Number of (key, value) pairs whose sum is not 0, as TopologyCounts.size. */
  get size(): number {
    this.checkFresh();
    if (this.pairs === undefined) {
      if (this.own === undefined && this.bases.length === 1) this.pairs = this.bases[0].size;
      else {
        let pairs = 0;
        for (const values of this.summed().values()) for (const n of values.values()) if (n !== 0) pairs++;
        this.pairs = pairs;
      }
    }
    return this.pairs;
  }

  /** With positive bases and no own changes, any non-empty base has a pair; else count. */
  hasPairs(): boolean {
    if (this.own === undefined) {
      this.checkFresh();
      return this.valueMaps().size > 0;
    }
    return this.size > 0;
  }

  private valueMaps(): Map<string, ReadonlyMap<string, number>[]> {
    if (this.byKey === undefined) {
      const byKey = new Map<string, ReadonlyMap<string, number>[]>();
      const layers = this.own ? [...this.bases, this.own] : this.bases;
      for (let i = 0; i < layers.length; i++) {
        for (const key of layers[i].keyNames()) {
          const maps = byKey.get(key);
          const values = layers[i].valuesOf(key)!;
          if (maps) maps.push(values);
          else byKey.set(key, [values]);
        }
      }
      this.byKey = byKey;
      this.keyList = [...byKey.keys()];
      this.mapList = [...byKey.values()];
    }
    return this.byKey;
  }

  get(key: string, value: string): number {
    this.checkFresh();
    const maps = this.valueMaps().get(key);
    if (maps === undefined) return 0;
    let n = 0;
    for (let i = 0; i < maps.length; i++) n += maps[i].get(value) ?? 0;
    return n;
  }

  addForNode(nodeLabels: Labels | undefined, key: string, delta: number): void {
    this.checkFresh();
    const value = nodeLabels?.[key];
    if (value === undefined) return;
    (this.own ??= new TopologyCounts()).add(key, value, delta);
    this.pairs = undefined;
    this.byKey = undefined;
  }

  domainCountLayers(domains: TopologyDomains): Int32Array[] {
    this.checkFresh();
    const out: Int32Array[] = [];
    for (const base of this.bases)
      if (base.valuesOf(domains.key) !== undefined) out.push(base.domainCounts(domains));
    if (this.own?.valuesOf(domains.key) !== undefined) out.push(this.own.domainCounts(domains));
    return out;
  }

  topologyKeys(): readonly string[] {
    this.checkFresh();
    this.valueMaps();
    return this.keyList!;
  }

  anyPositiveForNode(nodeLabels: Labels | undefined): boolean {
    if (!nodeLabels || !this.hasPairs()) return false;
    this.valueMaps();
    const keys = this.keyList!;
    for (let k = 0; k < keys.length; k++) {
      const v = nodeLabels[keys[k]];
      if (v === undefined) continue;
      const maps = this.mapList![k];
      let n = 0;
      for (let i = 0; i < maps.length; i++) n += maps[i].get(v) ?? 0;
      if (n > 0) return true;
    }
    return false;
  }

  clone(): LayeredCounts {
    this.checkFresh();
    return new LayeredCounts(this.bases, this.freshness, this.own?.clone());
  }

  /** key → value → summed count (zeros included). */
  private summed(): Map<string, Map<string, number>> {
    const out = new Map<string, Map<string, number>>();
    for (const counts of this.own ? [...this.bases, this.own] : this.bases) {
      counts.forEachPair((key, value, n) => {
        let values = out.get(key);
        if (!values) out.set(key, (values = new Map()));
        values.set(value, (values.get(value) ?? 0) + n);
      });
    }
    return out;
  }

  /** "key=value" → summed count, pairs summing to 0 left out. */
  toRecord(): Record<string, number> {
    this.checkFresh();
    const out: Record<string, number> = {};
    for (const [k, values] of this.summed()) for (const [v, n] of values) if (n !== 0) out[`${k}=${v}`] = n;
    return out;
  }
}
