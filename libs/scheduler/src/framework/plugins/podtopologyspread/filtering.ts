/**
 * PreFilter state for DoNotSchedule constraints: matching-pod counts per topology pair, the two
 * smallest counts per topology key (critical paths) and, with minDomains, the domain count.
 */
import { requiredNodeAffinityOf } from '@schedlab/k8s';
import type { Node, Pod } from '@schedlab/k8s';
import type { StateData } from '../../cycle-state';
import type { NodeInfo } from '../../types';
import type { TopologyDomains } from '../../../backend/cache/topology-domains';
import {
  SpreadConstraint,
  SpreadOptions,
  MatchingPodCounts,
  countMatchingPods,
  policiesIncludeEveryNode,
  nodeHasAllTopologyKeys,
  nodeIncludedByPolicies,
  nodeLabel,
  podNamespace,
} from './common';

const MAX_INT32 = 2147483647;

/**
 * The two topology values with the smallest match counts for one key; [0] is the global
 * minimum Filter compares against. Kept incrementally as preemption adds and removes pods.
 */
export class CriticalPaths {
  value0 = '';
  num0 = MAX_INT32;
  value1 = '';
  num1 = MAX_INT32;

  update(value: string, num: number): void {
    if (value === this.value0 || value === this.value1) {
      if (value === this.value0) this.num0 = num;
      else this.num1 = num;
      if (this.num0 > this.num1) this.swap();
    } else if (num < this.num0) {
      this.value1 = this.value0;
      this.num1 = this.num0;
      this.value0 = value;
      this.num0 = num;
    } else if (num < this.num1) {
      this.value1 = value;
      this.num1 = num;
    }
  }

  private swap(): void {
    const v = this.value0;
    const n = this.num0;
    this.value0 = this.value1;
    this.num0 = this.num1;
    this.value1 = v;
    this.num1 = n;
  }

  clone(): CriticalPaths {
    const c = new CriticalPaths();
    c.value0 = this.value0;
    c.num0 = this.num0;
    c.value1 = this.value1;
    c.num1 = this.num1;
    return c;
  }
}

/** topology key → topology value → count; a pair is keyed by key and value only, as upstream. */
export type PairCounts = Map<string, Map<string, number>>;

/**
 * What Filter needs of one constraint on every node of an attempt, resolved once (on the first
 * node) instead of per node: the key's values numbered over the snapshot, the global minimum,
 * whether the pod counts itself, and the counts by value id once looking values up by string
 * would cost more than numbering them.
 */
export interface FilterStep {
  readonly domains: TopologyDomains;
  /** undefined: no data for the key (the constraint passes every node that has the label). */
  readonly min: number | undefined;
  readonly selfMatch: number;
  readonly maxSkew: number;
  readonly byValue: ReadonlyMap<string, number> | undefined;
  /** byValue by value id; built after as many string lookups as byValue has values. */
  table: Int32Array | undefined;
  lookups: number;
}

export class PreFilterState implements StateData {
  /**
   * Filter's resolved constraints for this attempt (null: the lister numbers no values). Dropped
   * whenever preemption's what-ifs change the counts; clones start without one.
   */
  filterPlan: FilterStep[] | null | undefined;

  constructor(
    readonly constraints: readonly SpreadConstraint[],
    readonly tpPairToMatchNum: PairCounts,
    readonly tpKeyToCriticalPaths: Map<string, CriticalPaths>,
    /** Absent when MinDomainsInPodTopologySpread is off; preemption never adds domains. */
    readonly tpKeyToDomainsNum: Map<string, number> | undefined,
  ) {}

  static empty(): PreFilterState {
    return new PreFilterState([], new Map(), new Map(), undefined);
  }

  /** The global minimum Filter uses; with too few domains it is 0. undefined = no data for the key. */
  minMatchNum(key: string, minDomains: number, minDomainsEnabled: boolean): number | undefined {
    const paths = this.tpKeyToCriticalPaths.get(key);
    if (paths === undefined) return undefined;
    if (!minDomainsEnabled) return paths.num0;
    const domains = this.tpKeyToDomainsNum?.get(key);
    if (domains === undefined) return undefined;
    return domains < minDomains ? 0 : paths.num0;
  }

  clone(): PreFilterState {
    const counts: PairCounts = new Map();
    for (const [k, byValue] of this.tpPairToMatchNum) counts.set(k, new Map(byValue));
    const paths = new Map<string, CriticalPaths>();
    for (const [k, p] of this.tpKeyToCriticalPaths) paths.set(k, p.clone());
    return new PreFilterState(this.constraints, counts, paths, this.tpKeyToDomainsNum);
  }
}

/**
 * Counts matching pods per topology pair over every node that has all the constraints' keys
 * and (per constraint) passes the node inclusion policies.
 */
export function computePreFilterState(
  pod: Pod,
  constraints: SpreadConstraint[],
  allNodes: readonly NodeInfo[],
  opts: SpreadOptions,
  cache?: MatchingPodCounts,
): PreFilterState {
  if (constraints.length === 0) return PreFilterState.empty();

  // Constraints sharing a topology key share pairs; on one node the last such constraint's
  // count stands for the pair (upstream writes a per-node map), then nodes are summed.
  const keys: string[] = [];
  const keyIndex: number[] = [];
  for (const c of constraints) {
    let i = keys.indexOf(c.topologyKey);
    if (i < 0) i = keys.push(c.topologyKey) - 1;
    keyIndex.push(i);
  }
  const perKey: Map<string, number>[] = keys.map(() => new Map());
  const nodeCounts: number[] = keys.map(() => -1);
  const nodeValues: string[] = keys.map(() => '');

  const namespace = podNamespace(pod);
  const counters = constraints.map((c) => cache?.of(c.selector, namespace));
  if (
    keys.length === constraints.length &&
    counters.every((c) => c !== undefined) &&
    policiesIncludeEveryNode(pod, constraints, opts)
  ) {
    // One constraint per key and every node with the keys counting: the remembered totals are
    // exactly what the node loop below would sum (copied: preemption's what-ifs change them).
    for (let k = 0; k < keys.length; k++) perKey[k] = new Map(counters[k]!.domainTotals(keys, keys[k]));
  } else {
    const requiredAffinity = requiredNodeAffinityOf(pod);
    for (const nodeInfo of allNodes) {
      const node = nodeInfo.node;
      const labels = node.metadata?.labels;
      if (!opts.nodeInclusionPolicy && !requiredAffinity.match(node)) continue;
      if (!nodeHasAllTopologyKeys(labels, constraints)) continue;
      let touched = false;
      for (let i = 0; i < constraints.length; i++) {
        const c = constraints[i];
        if (opts.nodeInclusionPolicy && !nodeIncludedByPolicies(c, pod, node, requiredAffinity)) continue;
        const k = keyIndex[i];
        nodeValues[k] = labels![c.topologyKey];
        nodeCounts[k] =
          counters[i]?.count(nodeInfo) ?? countMatchingPods(nodeInfo.pods, c.selector, namespace, opts);
        touched = true;
      }
      if (!touched) continue;
      for (let k = 0; k < keys.length; k++) {
        if (nodeCounts[k] < 0) continue;
        const m = perKey[k];
        m.set(nodeValues[k], (m.get(nodeValues[k]) ?? 0) + nodeCounts[k]);
        nodeCounts[k] = -1;
      }
    }
  }

  const counts: PairCounts = new Map();
  const paths = new Map<string, CriticalPaths>();
  let domains: Map<string, number> | undefined;
  if (opts.minDomains) domains = new Map();
  for (let k = 0; k < keys.length; k++) {
    const m = perKey[k];
    if (m.size > 0) {
      counts.set(keys[k], m);
      domains?.set(keys[k], m.size);
    }
    const p = new CriticalPaths();
    for (const [value, num] of m) p.update(value, num);
    paths.set(keys[k], p);
  }
  return new PreFilterState(constraints, counts, paths, domains);
}

/** Preemption's what-if: a pod added to (delta 1) or removed from (delta -1) a node. */
export function updateStateWithPod(
  state: PreFilterState,
  updatedPod: Pod,
  preemptor: Pod,
  node: Node,
  delta: 1 | -1,
  opts: SpreadOptions,
): void {
  if (state.constraints.length === 0) return;
  if (podNamespace(updatedPod) !== podNamespace(preemptor)) return;
  const labels = node.metadata?.labels;
  if (!nodeHasAllTopologyKeys(labels, state.constraints)) return;
  const requiredAffinity = requiredNodeAffinityOf(preemptor);
  if (!opts.nodeInclusionPolicy && !requiredAffinity.match(node)) return;
  const podLabels = updatedPod.metadata?.labels;
  state.filterPlan = undefined;
  for (const c of state.constraints) {
    if (!c.selector.matches(podLabels)) continue;
    if (opts.nodeInclusionPolicy && !nodeIncludedByPolicies(c, preemptor, node, requiredAffinity)) continue;
    const value = nodeLabel(labels, c.topologyKey)!;
    let byValue = state.tpPairToMatchNum.get(c.topologyKey);
    if (byValue === undefined) state.tpPairToMatchNum.set(c.topologyKey, (byValue = new Map()));
    const num = (byValue.get(value) ?? 0) + delta;
    byValue.set(value, num);
    state.tpKeyToCriticalPaths.get(c.topologyKey)?.update(value, num);
  }
}

/** Filter's steps for `pod` from its PreFilter state, or null when the lister numbers no values. */
export function filterPlanOf(
  s: PreFilterState,
  pod: Pod,
  topologyDomains: ((key: string) => TopologyDomains) | undefined,
  minDomainsEnabled: boolean,
): FilterStep[] | null {
  if (topologyDomains === undefined) return null;
  const podLabels = pod.metadata?.labels;
  return s.constraints.map((c) => ({
    domains: topologyDomains(c.topologyKey),
    min: s.minMatchNum(c.topologyKey, c.minDomains, minDomainsEnabled),
    selfMatch: c.selector.matches(podLabels) ? 1 : 0,
    maxSkew: c.maxSkew,
    byValue: s.tpPairToMatchNum.get(c.topologyKey),
    table: undefined,
    lookups: 0,
  }));
}

/**
 * Filter on the snapshot node at `index`, as the label path decides: a missing key is
 * unresolvable, otherwise the skew against the global minimum. 0 passes; 1 missing label; 2 skew.
 */
export function filterByPlan(plan: readonly FilterStep[], index: number): 0 | 1 | 2 {
  for (let i = 0; i < plan.length; i++) {
    const step = plan[i];
    const id = step.domains.ids[index];
    if (id < 0) return 1;
    if (step.min === undefined) continue;
    let matchNum: number;
    if (step.table !== undefined) matchNum = step.table[id];
    else if (step.byValue === undefined) matchNum = 0;
    else {
      matchNum = step.byValue.get(step.domains.values[id]) ?? 0;
      if (++step.lookups >= step.byValue.size) step.table = valueTable(step.byValue, step.domains);
    }
    if (matchNum + step.selfMatch - step.min > step.maxSkew) return 2;
  }
  return 0;
}

/** Counts by value id; values no snapshot node has cannot be asked for and are left out. */
export function valueTable(byValue: ReadonlyMap<string, number>, domains: TopologyDomains): Int32Array {
  const table = new Int32Array(domains.size);
  for (const [value, n] of byValue) {
    const id = domains.idOf(value);
    if (id >= 0) table[id] = n;
  }
  return table;
}
