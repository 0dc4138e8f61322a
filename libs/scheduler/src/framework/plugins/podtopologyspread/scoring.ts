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
): PreScoreState {
  const ignored = new Set<string>();
  const pairCounts = new Map<string, Map<string, number>>();
  const topoSize = constraints.map(() => 0);
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
  return new PreScoreState(constraints, ignored, pairCounts, weights, counters);
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

/** Inverts and scales to 0..100: the node with the fewest matches gets 100; ignored nodes 0. */
export function normalizeScores(state: PreScoreState, scores: NodeScore[]): void {
  let min = Number.MAX_SAFE_INTEGER;
  let max = 0;
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
