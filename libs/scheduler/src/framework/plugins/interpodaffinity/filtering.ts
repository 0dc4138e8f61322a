/** PreFilter state and the three Filter checks of InterPodAffinity (upstream filtering.go). */
import type { Labels, Node, Pod } from '@schedlab/k8s';
import type { StateData } from '../../cycle-state';
import { type AffinityTerm, type NodeInfo, type PodInfo, affinityTermMatches } from '../../types';
import { PluginNames } from '../names';
import { PodsSelectedByTerms, TermsSelectingPod } from './match-memo';
import { podMatchesAllTerms } from './terms';
import { type PairCounts, TopologyCounts } from './topology-counts';
import { type TopologyDomains, inheritedKey } from '../../../backend/cache/topology-domains';

export const PRE_FILTER_STATE_KEY = 'PreFilter' + PluginNames.InterPodAffinity;

export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH =
  "node(s) didn't satisfy existing pods anti-affinity rules";
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";

/** The incoming pod as Filter sees it: its required terms with namespaceSelector merged. */
export interface IncomingPod {
  pod: Pod;
  requiredAffinityTerms: AffinityTerm[];
  requiredAntiAffinityTerms: AffinityTerm[];
  /** Labels of the incoming pod's namespace, for existing pods' namespaceSelectors. */
  namespaceLabels: Labels | undefined;
}

/**
 * One term's (or key's) lookup by snapshot node index: the node's value id, then its count, the
 * sum of the layers' counts for that id.
 */
interface DomainLookup {
  readonly ids: Int32Array;
  readonly layers: readonly Int32Array[];
}

function countAt(layers: readonly Int32Array[], id: number): number {
  let n = 0;
  for (let i = 0; i < layers.length; i++) n += layers[i][id];
  return n;
}

/**
 * The three checks of Filter resolved once per attempt for nodes of the snapshot: per term, the
 * key's values numbered over the nodes and the counts by value id, so a node costs a few typed
 * array reads instead of label and map lookups.
 */
export interface FilterPlan {
  readonly affinity: readonly DomainLookup[];
  /** Some affinity domain lacks a matching pod: the answer of the first-pod-of-a-group rule. */
  readonly affinityFallback: boolean;
  readonly antiAffinity: readonly DomainLookup[];
  readonly existingAntiAffinity: readonly DomainLookup[];
}

export class PreFilterState implements StateData {
  /** Filter's plan for this attempt (null: not available); dropped whenever the counts change. */
  filterPlan: FilterPlan | null | undefined;

  constructor(
    readonly incoming: IncomingPod,
    /** Pairs where existing pods' required anti-affinity terms match the incoming pod. */
    readonly existingAntiAffinityCounts: PairCounts,
    /** Pairs where existing pods match all of the incoming pod's required affinity terms. */
    readonly affinityCounts: PairCounts,
    /** Pairs where existing pods match one of the incoming pod's required anti-affinity terms. */
    readonly antiAffinityCounts: PairCounts,
  ) {}

  clone(): PreFilterState {
    return new PreFilterState(
      this.incoming,
      this.existingAntiAffinityCounts.clone(),
      this.affinityCounts.clone(),
      this.antiAffinityCounts.clone(),
    );
  }

  /** Accounts for a pod added (multiplier 1) to or removed (-1) from `node`; pi carries effective terms. */
  updateWithPod(pi: PodInfo, node: Node, multiplier: 1 | -1): void {
    this.filterPlan = undefined;
    const nodeLabels = node.metadata?.labels;
    addAntiAffinityMatches(
      this.existingAntiAffinityCounts,
      pi.requiredAntiAffinityTerms,
      this.incoming.pod,
      this.incoming.namespaceLabels,
      nodeLabels,
      multiplier,
    );
    addAffinityMatches(
      this.affinityCounts,
      this.incoming.requiredAffinityTerms,
      pi.pod,
      nodeLabels,
      multiplier,
    );
    addAntiAffinityMatches(
      this.antiAffinityCounts,
      this.incoming.requiredAntiAffinityTerms,
      pi.pod,
      undefined,
      nodeLabels,
      multiplier,
    );
  }
}

/** When `pod` matches all terms, every term's pair on the node changes by `delta`. */
export function addAffinityMatches(
  counts: PairCounts,
  terms: readonly AffinityTerm[],
  pod: Pod,
  nodeLabels: Labels | undefined,
  delta: number,
): void {
  if (!podMatchesAllTerms(terms, pod)) return;
  for (const t of terms) counts.addForNode(nodeLabels, t.topologyKey, delta);
}

/** Each term that `pod` matches changes its pair on the node by `delta`. */
export function addAntiAffinityMatches(
  counts: PairCounts,
  terms: readonly AffinityTerm[],
  pod: Pod,
  nsLabels: Labels | undefined,
  nodeLabels: Labels | undefined,
  delta: number,
): void {
  for (const t of terms) {
    if (affinityTermMatches(t, pod, nsLabels)) counts.addForNode(nodeLabels, t.topologyKey, delta);
  }
}

/**
 * Symmetry: only nodes that host pods with required anti-affinity are visited, and only those
 * pods' terms are checked against the incoming pod.
 */
export function existingAntiAffinityCounts(
  incoming: IncomingPod,
  nodesWithRequiredAntiAffinityPods: readonly NodeInfo[],
  effective: (pi: PodInfo) => PodInfo,
): TopologyCounts {
  const counts = new TopologyCounts();
  const selecting = new TermsSelectingPod(incoming.pod, incoming.namespaceLabels);
  for (const ni of nodesWithRequiredAntiAffinityPods) {
    const nodeLabels = ni.node.metadata?.labels;
    for (const existing of ni.podsWithRequiredAntiAffinity) {
      for (const t of effective(existing).requiredAntiAffinityTerms) {
        if (selecting.matches(t)) counts.addForNode(nodeLabels, t.topologyKey, 1);
      }
    }
  }
  return counts;
}

/** Counts of existing pods matching the incoming pod's required affinity / anti-affinity terms. */
export function incomingAffinityCounts(
  incoming: IncomingPod,
  allNodes: readonly NodeInfo[],
  which: { affinity: boolean; antiAffinity: boolean } = { affinity: true, antiAffinity: true },
): { affinity: TopologyCounts; antiAffinity: TopologyCounts } {
  const affinity = new TopologyCounts();
  const antiAffinity = new TopologyCounts();
  const aff = which.affinity ? incoming.requiredAffinityTerms : [];
  const anti = which.antiAffinity ? incoming.requiredAntiAffinityTerms : [];
  if (aff.length === 0 && anti.length === 0) return { affinity, antiAffinity };
  const affMatches = new PodsSelectedByTerms(aff);
  const antiMatches = new PodsSelectedByTerms(anti);
  for (const ni of allNodes) {
    const nodeLabels = ni.node.metadata?.labels;
    for (const existing of ni.pods) {
      if (aff.length > 0 && affMatches.matchesAll(existing)) {
        for (const t of aff) affinity.addForNode(nodeLabels, t.topologyKey, 1);
      }
      if (anti.length > 0) {
        const matched = antiMatches.matched(existing);
        for (let i = 0; i < anti.length; i++) {
          if (matched[i]) antiAffinity.addForNode(nodeLabels, anti[i].topologyKey, 1);
        }
      }
    }
  }
  return { affinity, antiAffinity };
}

/** Would the incoming pod on this node fall in a domain where an existing pod's anti-affinity forbids it? */
export function satisfiesExistingPodsAntiAffinity(
  s: PreFilterState,
  nodeLabels: Labels | undefined,
): boolean {
  return !s.existingAntiAffinityCounts.anyPositiveForNode(nodeLabels);
}

/** No pod matching one of the incoming pod's anti-affinity terms in the node's domain of that term. */
export function satisfiesPodAntiAffinity(s: PreFilterState, nodeLabels: Labels | undefined): boolean {
  if (!nodeLabels || !s.antiAffinityCounts.hasPairs()) return true;
  for (const t of s.incoming.requiredAntiAffinityTerms) {
    const v = nodeLabels[t.topologyKey];
    if (v !== undefined && s.antiAffinityCounts.get(t.topologyKey, v) > 0) return false;
  }
  return true;
}

/**
 * The node must have every term's topology key, and each of its domains must hold a matching pod —
 * unless no pod matches anywhere and the pod matches its own terms (first pod of a self-affine group).
 */
export function satisfiesPodAffinity(s: PreFilterState, nodeLabels: Labels | undefined): boolean {
  let podsExist = true;
  for (const t of s.incoming.requiredAffinityTerms) {
    const v = nodeLabels?.[t.topologyKey];
    if (v === undefined) return false;
    if (s.affinityCounts.get(t.topologyKey, v) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  return !s.affinityCounts.hasPairs() && podMatchesAllTerms(s.incoming.requiredAffinityTerms, s.incoming.pod);
}

/**
 * The Filter plan of a PreFilter state, or null without numbered values (or with a topology key
 * that `labels[key]` could find on Object.prototype, which only the label path answers as before).
 */
export function filterPlanOf(
  s: PreFilterState,
  topologyDomains: ((key: string) => TopologyDomains) | undefined,
): FilterPlan | null {
  if (topologyDomains === undefined) return null;
  const aff = s.incoming.requiredAffinityTerms;
  const anti = s.incoming.requiredAntiAffinityTerms;
  const existingKeys = s.existingAntiAffinityCounts.hasPairs()
    ? s.existingAntiAffinityCounts.topologyKeys()
    : [];
  for (const t of aff) if (inheritedKey(t.topologyKey)) return null;
  for (const t of anti) if (inheritedKey(t.topologyKey)) return null;
  for (const k of existingKeys) if (inheritedKey(k)) return null;
  const lookup = (counts: PairCounts, key: string): DomainLookup => {
    const domains = topologyDomains(key);
    return { ids: domains.ids, layers: counts.domainCountLayers(domains) };
  };
  return {
    affinity: aff.map((t) => lookup(s.affinityCounts, t.topologyKey)),
    affinityFallback:
      aff.length > 0 && !s.affinityCounts.hasPairs() && podMatchesAllTerms(aff, s.incoming.pod),
    antiAffinity: s.antiAffinityCounts.hasPairs()
      ? anti.map((t) => lookup(s.antiAffinityCounts, t.topologyKey))
      : [],
    existingAntiAffinity: existingKeys.map((k) => lookup(s.existingAntiAffinityCounts, k)),
  };
}

/**
 * Filter on the snapshot node at `index`, in upstream's order: 0 passes; 1 the pod's affinity
 * fails; 2 its anti-affinity; 3 an existing pod's anti-affinity.
 */
export function filterByPlan(plan: FilterPlan, index: number): 0 | 1 | 2 | 3 {
  const aff = plan.affinity;
  let podsExist = true;
  for (let i = 0; i < aff.length; i++) {
    const id = aff[i].ids[index];
    if (id < 0) return 1;
    if (countAt(aff[i].layers, id) <= 0) podsExist = false;
  }
  if (!podsExist && !plan.affinityFallback) return 1;
  const anti = plan.antiAffinity;
  for (let i = 0; i < anti.length; i++) {
    const id = anti[i].ids[index];
    if (id >= 0 && countAt(anti[i].layers, id) > 0) return 2;
  }
  const existing = plan.existingAntiAffinity;
  for (let i = 0; i < existing.length; i++) {
    const id = existing[i].ids[index];
    if (id >= 0 && countAt(existing[i].layers, id) > 0) return 3;
  }
  return 0;
}
