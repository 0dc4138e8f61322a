/**
 * PreScore state for ScheduleAnyway constraints: matching-pod counts per topology pair among
 * the pairs of the nodes being scored, and each constraint's normalizing weight.
 */
import { requiredNodeAffinityOf } from '@schedlab/k8s';
import type { Pod } from '@schedlab/k8s';
import type { StateData } from '../../cycle-state';
import type { NodeScore } from '../../interface';
import { MAX_NODE_SCORE } from '../../interface';
import type { NodeInfo } from '../../types';
import type { TopologyDomains } from '../../../backend/cache/topology-domains';
import { valueTable } from './filtering';
import { LABEL_HOSTNAME } from '@schedlab/k8s';
import {
  SpreadConstraint,
  MatchingPodCounts,
  SelectorCounts,
  SpreadOptions,
  countMatchingPods,
  nodeHasAllTopologyKeys,
  nodeIncludedByPolicies,
  nodeLabel,
  podNamespace,
  policiesIncludeEveryNode,
  domainLayout,
  type DomainLayout,
} from './common';

/** Never mutated after PreScore, so clones share it. */
export class PreScoreState implements StateData {
  constructor(
    readonly constraints: readonly SpreadConstraint[],
    /** Nodes missing one of the topology keys: they score 0 after normalization. */
    readonly ignoredNodes: Set<string>,
    /** topology key → value → matching pods; hostname pairs are counted per node in Score. */
    readonly pairCounts: Map<string, Map<string, number>>,
    readonly normalizingWeights: readonly number[],
    /** Per constraint: matching pods per node (hostname constraints are counted in Score). */
    readonly counters: readonly (SelectorCounts | undefined)[] = [],
  ) {}

  clone(): PreScoreState {
    return this;
  }
}

/** Domains weigh by log(count + 2) so that few large domains do not dominate many small ones. */
export function topologyNormalizingWeight(size: number): number {
  return Math.log(size + 2);
}

export function scoreForCount(count: number, maxSkew: number, weight: number): number {
  return count * weight + (maxSkew - 1);
}

/**
 * @param requireAllTopologies false only for system-default constraints, so nodes without a
 *   zone label still get hostname spreading.
 */
export function computePreScoreState(
  pod: Pod,
  constraints: SpreadConstraint[],
  filteredNodes: readonly NodeInfo[],
  allNodes: readonly NodeInfo[],
  requireAllTopologies: boolean,
  opts: SpreadOptions,
  cache?: MatchingPodCounts,
  topologyDomains?: (key: string) => TopologyDomains,
): PreScoreState {
  const ignored = new Set<string>();
  const pairCounts = new Map<string, Map<string, number>>();
  const topoSize = constraints.map(() => 0);
  if (topologyDomains !== undefined && filteredNodes.every((ni) => ni.index >= 0)) {
    scoredPairsByDomain(constraints, filteredNodes, requireAllTopologies, topologyDomains, {
      ignored,
      pairCounts,
      topoSize,
    });
  } else
    for (const ni of filteredNodes) {
      const labels = ni.node.metadata?.labels;
      if (requireAllTopologies && !nodeHasAllTopologyKeys(labels, constraints)) {
        ignored.add(ni.name);
        continue;
      }
      for (let i = 0; i < constraints.length; i++) {
        const key = constraints[i].topologyKey;
        if (key === LABEL_HOSTNAME) continue;
        const value = nodeLabel(labels, key) ?? '';
        let byValue = pairCounts.get(key);
        if (byValue === undefined) pairCounts.set(key, (byValue = new Map()));
        if (!byValue.has(value)) {
          byValue.set(value, 0);
          topoSize[i]++;
        }
      }
    }
  const weights = constraints.map((c, i) =>
    topologyNormalizingWeight(
      c.topologyKey === LABEL_HOSTNAME ? filteredNodes.length - ignored.size : topoSize[i],
    ),
  );

  const namespace = podNamespace(pod);
  const counters = constraints.map((c) => cache?.of(c.selector, namespace));
  if (
    pairCounts.size > 0 &&
    counters.every((c) => c !== undefined) &&
    policiesIncludeEveryNode(pod, constraints, opts)
  ) {
    // Every node with the keys counts: start from the remembered totals per value.
    const requiredKeys = requireAllTopologies ? constraints.map((c) => c.topologyKey) : [];
    for (let i = 0; i < constraints.length; i++) {
      const byValue = pairCounts.get(constraints[i].topologyKey);
      if (byValue === undefined) continue;
      const totals = counters[i]!.domainTotals(requiredKeys, constraints[i].topologyKey);
      for (const [value, current] of byValue) byValue.set(value, current + (totals.get(value) ?? 0));
    }
  } else if (pairCounts.size > 0) {
    const input = { pod, constraints, allNodes, requireAllTopologies, opts, counters, pairCounts };
    const added = topologyDomains !== undefined && addCountsByDomain(input, topologyDomains);
    if (!added) addCountsNodeByNode(input);
  }
  return new PreScoreState(constraints, ignored, pairCounts, weights, counters);
}

/** What computePreScoreState adds the nodes' matching pods from, and the pairs it adds them to. */
interface PairCountsToAdd {
  pod: Pod;
  constraints: readonly SpreadConstraint[];
  allNodes: readonly NodeInfo[];
  requireAllTopologies: boolean;
  opts: SpreadOptions;
  counters: readonly (SelectorCounts | undefined)[];
  pairCounts: Map<string, Map<string, number>>;
}

/**
 * Adds each node's matching pods to the pairs of the nodes being scored, for the nodes and
 * constraints the node inclusion policies (or, before them, the pod's required node affinity) keep.
 */
function addCountsNodeByNode(input: PairCountsToAdd): void {
  const { pod, constraints, allNodes, requireAllTopologies, opts, counters, pairCounts } = input;
  const namespace = podNamespace(pod);
  const requiredAffinity = requiredNodeAffinityOf(pod);
  for (const ni of allNodes) {
    const node = ni.node;
    const labels = node.metadata?.labels;
    if (!opts.nodeInclusionPolicy && !requiredAffinity.match(node)) continue;
    if (requireAllTopologies && !nodeHasAllTopologyKeys(labels, constraints)) continue;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i];
      const byValue = pairCounts.get(c.topologyKey);
      if (byValue === undefined) continue;
      const value = nodeLabel(labels, c.topologyKey) ?? '';
      const current = byValue.get(value);
      // Only pairs of nodes being scored matter.
      if (current === undefined) continue;
      if (opts.nodeInclusionPolicy && !nodeIncludedByPolicies(c, pod, node, requiredAffinity)) continue;
      byValue.set(
        value,
        current + (counters[i]?.count(ni) ?? countMatchingPods(ni.pods, c.selector, namespace, opts)),
      );
    }
  }
}

/**
 * addCountsNodeByNode reading each node's value and count by its snapshot index: per constraint,
 * the remembered counts are summed by value slot, then added to the pairs of the nodes being
 * scored. Returns false, adding nothing, when a node is not a snapshot node or a constraint with
 * pairs has no remembered counts.
 */
function addCountsByDomain(
  input: PairCountsToAdd,
  topologyDomains: (key: string) => TopologyDomains,
): boolean {
  const { pod, constraints, allNodes, requireAllTopologies, opts, counters, pairCounts } = input;
  for (let j = 0; j < allNodes.length; j++) if (allNodes[j].index < 0) return false;
  /** The constraints with pairs to count: their domains, counts, sums and wanted slots. */
  const counted: {
    c: SpreadConstraint;
    byValue: Map<string, number>;
    /** Every node's slot for the key (no key required: a node without it counts under ""). */
    layout: DomainLayout;
    wanted: Uint8Array;
    counts: Int32Array;
    sums: Float64Array;
  }[] = [];
  for (let i = 0; i < constraints.length; i++) {
    const c = constraints[i];
    const byValue = pairCounts.get(c.topologyKey);
    if (byValue === undefined) continue;
    const counter = counters[i];
    if (counter === undefined) return false;
    const layout = domainLayout([], topologyDomains(c.topologyKey), topologyDomains);
    const slotCount = layout.valueOfSlot.length;
    const wanted = new Uint8Array(slotCount);
    for (let slot = 0; slot < slotCount; slot++) if (byValue.has(layout.valueOfSlot[slot])) wanted[slot] = 1;
    counted.push({
      c,
      byValue,
      layout,
      wanted,
      counts: counter.countsByNode(),
      sums: new Float64Array(slotCount),
    });
  }
  const requiredIds = requireAllTopologies ? constraints.map((c) => topologyDomains(c.topologyKey).ids) : [];
  const requiredAffinity = requiredNodeAffinityOf(pod);
  nodes: for (let j = 0; j < allNodes.length; j++) {
    const ni = allNodes[j];
    const index = ni.index;
    if (!opts.nodeInclusionPolicy && !requiredAffinity.match(ni.node)) continue;
    for (let r = 0; r < requiredIds.length; r++) if (requiredIds[r][index] < 0) continue nodes;
    for (let k = 0; k < counted.length; k++) {
      const e = counted[k];
      const slot = e.layout.slotOf[index];
      // Only pairs of nodes being scored matter.
      if (e.wanted[slot] === 0) continue;
      if (opts.nodeInclusionPolicy && !nodeIncludedByPolicies(e.c, pod, ni.node, requiredAffinity)) continue;
      e.sums[slot] += e.counts[index];
    }
  }
  for (const e of counted) {
    for (let slot = 0; slot < e.sums.length; slot++) {
      if (e.wanted[slot] === 0) continue;
      const value = e.layout.valueOfSlot[slot];
      e.byValue.set(value, e.byValue.get(value)! + e.sums[slot]);
    }
  }
  return true;
}

/**
 * The pairs of the nodes being scored, as the node loop of computePreScoreState finds them
 * (ignored nodes, each key's values in order of first appearance with a count of 0, the number
 * of new values each constraint met first), reading values by node index: a node without the
 * key has the value "" there, so it shares a slot with nodes labelled "".
 */
function scoredPairsByDomain(
  constraints: readonly SpreadConstraint[],
  filteredNodes: readonly NodeInfo[],
  requireAllTopologies: boolean,
  topologyDomains: (key: string) => TopologyDomains,
  out: { ignored: Set<string>; pairCounts: Map<string, Map<string, number>>; topoSize: number[] },
): void {
  const n = constraints.length;
  const ids = constraints.map((c) => topologyDomains(c.topologyKey).ids);
  /** Per distinct non-hostname key: which value slots were seen, in order. */
  const keys = new Map<
    string,
    { domains: TopologyDomains; empty: number; seen: Uint8Array; order: number[] }
  >();
  const slots: ({ empty: number; seen: Uint8Array; order: number[] } | undefined)[] = [];
  for (let i = 0; i < n; i++) {
    const key = constraints[i].topologyKey;
    if (key === LABEL_HOSTNAME) {
      slots.push(undefined);
      continue;
    }
    let k = keys.get(key);
    if (k === undefined) {
      const domains = topologyDomains(key);
      const emptyId = domains.idOf('');
      k = {
        domains,
        empty: emptyId >= 0 ? emptyId : domains.size,
        seen: new Uint8Array(domains.size + 1),
        order: [],
      };
      keys.set(key, k);
    }
    slots.push(k);
  }
  let counted = false;
  nodes: for (let j = 0; j < filteredNodes.length; j++) {
    const index = filteredNodes[j].index;
    if (requireAllTopologies) {
      for (let i = 0; i < n; i++) {
        if (ids[i][index] < 0) {
          out.ignored.add(filteredNodes[j].name);
          continue nodes;
        }
      }
    }
    counted = true;
    for (let i = 0; i < n; i++) {
      const k = slots[i];
      if (k === undefined) continue;
      let slot = ids[i][index];
      if (slot < 0) slot = k.empty;
      if (k.seen[slot] === 0) {
        k.seen[slot] = 1;
        k.order.push(slot);
        out.topoSize[i]++;
      }
    }
  }
  if (!counted) return;
  for (const [key, k] of keys) {
    const byValue = new Map<string, number>();
    for (const slot of k.order) byValue.set(slot === k.domains.size ? '' : k.domains.values[slot], 0);
    out.pairCounts.set(key, byValue);
  }
}

/** Raw score: lower means fewer matching pods in the node's domains (better spread). */
export function scoreNode(state: PreScoreState, pod: Pod, nodeInfo: NodeInfo, opts: SpreadOptions): number {
  if (state.ignoredNodes.has(nodeInfo.name)) return 0;
  const labels = nodeInfo.node.metadata?.labels;
  let score = 0;
  for (let i = 0; i < state.constraints.length; i++) {
    const c = state.constraints[i];
    const value = nodeLabel(labels, c.topologyKey);
    if (value === undefined) continue;
    const count =
      c.topologyKey === LABEL_HOSTNAME
        ? (state.counters[i]?.count(nodeInfo) ??
          countMatchingPods(nodeInfo.pods, c.selector, podNamespace(pod), opts))
        : (state.pairCounts.get(c.topologyKey)?.get(value) ?? 0);
    score += scoreForCount(count, c.maxSkew, state.normalizingWeights[i]);
  }
  return Math.round(score);
}

/**
 * scoreNode for every node, with each constraint resolved once: the node's value by its snapshot
 * index, the count by value id (hostname constraints: the selector's count per node). Returns
 * false, scoring nothing, when a node is not a snapshot node, some node is ignored or a hostname
 * constraint has no remembered counts; the caller then scores node by node.
 */
export function scoreNodesByDomain(
  state: PreScoreState,
  nodes: readonly NodeInfo[],
  scores: NodeScore[],
  topologyDomains: (key: string) => TopologyDomains,
): boolean {
  if (state.ignoredNodes.size > 0) return false;
  for (let k = 0; k < nodes.length; k++) if (nodes[k].index < 0) return false;
  const n = state.constraints.length;
  const ids: Int32Array[] = [];
  const counts: Int32Array[] = [];
  const hostname: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const c = state.constraints[i];
    const domains = topologyDomains(c.topologyKey);
    ids.push(domains.ids);
    if (c.topologyKey === LABEL_HOSTNAME) {
      const counter = state.counters[i];
      if (counter === undefined) return false;
      hostname.push(true);
      counts.push(counter.countsByNode());
    } else {
      hostname.push(false);
      const byValue = state.pairCounts.get(c.topologyKey);
      counts.push(byValue === undefined ? new Int32Array(domains.size) : valueTable(byValue, domains));
    }
  }
  for (let k = 0; k < nodes.length; k++) {
    const index = nodes[k].index;
    let score = 0;
    for (let i = 0; i < n; i++) {
      const id = ids[i][index];
      if (id < 0) continue;
      const count = hostname[i] ? counts[i][index] : counts[i][id];
      score += scoreForCount(count, state.constraints[i].maxSkew, state.normalizingWeights[i]);
    }
    scores[k].score = Math.round(score);
  }
  return true;
}

/** Inverts and scales to 0..100: the node with the fewest matches gets 100; ignored nodes 0. */
export function normalizeScores(state: PreScoreState, scores: NodeScore[]): void {
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
  if (state.ignoredNodes.size === 0) {
    // Read once: the compiled module reads an imported binding through a getter.
    const maxNodeScore = MAX_NODE_SCORE;
    for (let i = 0; i < scores.length; i++) {
      const s = scores[i].score;
      if (s < min) min = s;
      if (s > max) max = s;
    }
    for (let i = 0; i < scores.length; i++) {
      if (max === 0) scores[i].score = maxNodeScore;
      else scores[i].score = Math.trunc((maxNodeScore * (max + min - scores[i].score)) / max);
    }
    return;
  }
  const ignored: boolean[] = new Array(scores.length);
  for (let i = 0; i < scores.length; i++) {
    ignored[i] = state.ignoredNodes.has(scores[i].name);
    if (ignored[i]) continue;
    const s = scores[i].score;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  for (let i = 0; i < scores.length; i++) {
    if (ignored[i]) scores[i].score = 0;
    else if (max === 0) scores[i].score = MAX_NODE_SCORE;
    else scores[i].score = Math.trunc((MAX_NODE_SCORE * (max + min - scores[i].score)) / max);
  }
}
