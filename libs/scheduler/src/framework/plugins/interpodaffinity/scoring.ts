/** PreScore/Score/NormalizeScore of InterPodAffinity (upstream scoring.go). */
import type { Labels, Pod } from '@schedlab/k8s';
import type { StateData } from '../../cycle-state';
import { MAX_NODE_SCORE, type NodeScore } from '../../interface';
import type { NodeInfo, PodInfo, WeightedAffinityTerm } from '../../types';
import { PluginNames } from '../names';
import { PodsSelectedByTerms, TermsSelectingPod } from './match-memo';

export const PRE_SCORE_STATE_KEY = 'PreScore' + PluginNames.InterPodAffinity;

/** topology key → topology value → summed weight. */
export type TopologyScore = Map<string, Map<string, number>>;

export class PreScoreState implements StateData {
  constructor(readonly topologyScore: TopologyScore) {}
  /** Never changed after PreScore. */
  clone(): StateData {
    return this;
  }
}

/** The incoming pod as PreScore sees it: preferred terms with namespaceSelector merged. */
export interface ScoringPod {
  pod: Pod;
  preferredAffinityTerms: WeightedAffinityTerm[];
  preferredAntiAffinityTerms: WeightedAffinityTerm[];
  namespaceLabels: Labels | undefined;
}

/** Adds `weight` to the node's pair of the term's topology key (an entry even when the sum is 0). */
function addToPair(score: TopologyScore, topologyKey: string, weight: number, nodeLabels: Labels): void {
  const value = nodeLabels[topologyKey];
  if (value === undefined) return;
  let values = score.get(topologyKey);
  if (!values) score.set(topologyKey, (values = new Map()));
  // An entry is created even when the sum is 0: upstream's "anything to score" tests map size.
  values.set(value, (values.get(value) ?? 0) + weight);
}

function addSelectedTerms(
  score: TopologyScore,
  terms: readonly WeightedAffinityTerm[],
  matched: readonly boolean[],
  sign: 1 | -1,
  nodeLabels: Labels,
): void {
  for (let i = 0; i < terms.length; i++) {
    if (matched[i]) addToPair(score, terms[i].topologyKey, terms[i].weight * sign, nodeLabels);
  }
}

function addTermsSelecting(
  score: TopologyScore,
  terms: readonly WeightedAffinityTerm[],
  sign: 1 | -1,
  selecting: TermsSelectingPod,
  nodeLabels: Labels,
): void {
  for (const t of terms)
    if (selecting.matches(t)) addToPair(score, t.topologyKey, t.weight * sign, nodeLabels);
}

/**
 * Sums, per topology pair, the incoming pod's preferred terms matched by existing pods and the
 * existing pods' terms matched by the incoming pod (their required affinity at hardPodAffinityWeight).
 * `nodes` are all nodes when the incoming pod has preferred terms, else only nodes hosting pods
 * with affinity (and then only those pods are visited).
 */
export function computeTopologyScore(
  incoming: ScoringPod,
  nodes: readonly NodeInfo[],
  visitAllPods: boolean,
  hardPodAffinityWeight: number,
  effective: (pi: PodInfo) => PodInfo,
): TopologyScore {
  const score: TopologyScore = new Map();
  const preferredAffinity = incoming.preferredAffinityTerms;
  const preferredAnti = incoming.preferredAntiAffinityTerms;
  const affinityMatches = new PodsSelectedByTerms(preferredAffinity);
  const antiMatches = new PodsSelectedByTerms(preferredAnti);
  const selecting = new TermsSelectingPod(incoming.pod, incoming.namespaceLabels);
  for (const ni of nodes) {
    const nodeLabels = ni.node.metadata?.labels;
    // Upstream skips existing pods on nodes without labels: no topology can match there.
    if (!hasAnyLabel(nodeLabels)) continue;
    const pods = visitAllPods ? ni.pods : ni.podsWithAffinity;
    for (const existingInfo of pods) {
      if (preferredAffinity.length > 0) {
        addSelectedTerms(score, preferredAffinity, affinityMatches.matched(existingInfo), 1, nodeLabels);
      }
      if (preferredAnti.length > 0)
        addSelectedTerms(score, preferredAnti, antiMatches.matched(existingInfo), -1, nodeLabels);
      if (!existingInfo.hasAffinity()) continue;
      // Folding label keys keeps the number of terms, so a pod without scoring terms needs no folding.
      if (
        (hardPodAffinityWeight <= 0 || existingInfo.requiredAffinityTerms.length === 0) &&
        existingInfo.preferredAffinityTerms.length === 0 &&
        existingInfo.preferredAntiAffinityTerms.length === 0
      ) {
        continue;
      }
      const existing = effective(existingInfo);
      if (hardPodAffinityWeight > 0) {
        for (const t of existing.requiredAffinityTerms) {
          if (selecting.matches(t)) addToPair(score, t.topologyKey, hardPodAffinityWeight, nodeLabels);
        }
      }
      addTermsSelecting(score, existing.preferredAffinityTerms, 1, selecting, nodeLabels);
      addTermsSelecting(score, existing.preferredAntiAffinityTerms, -1, selecting, nodeLabels);
    }
  }
  return score;
}

/** Like Object.keys(labels).length > 0, without building the key array for every node. */
function hasAnyLabel(labels: Labels | undefined): labels is Labels {
  if (!labels) return false;
  for (const _ in labels) return true;
  return false;
}

/** Raw score of a node: the sum of its topology pairs' weights. */
export function nodeScore(topologyScore: TopologyScore, nodeLabels: Labels | undefined): number {
  if (!nodeLabels) return 0;
  let sum = 0;
  for (const [key, values] of topologyScore) {
    const v = nodeLabels[key];
    if (v !== undefined) sum += values.get(v) ?? 0;
  }
  return sum;
}

/** Min–max scaling to 0..MAX_NODE_SCORE, truncated as Go's int64(float64). */
export function normalizeScores(scores: NodeScore[]): void {
  let min = Infinity;
  let max = -Infinity;
  for (const s of scores) {
    if (s.score > max) max = s.score;
    if (s.score < min) min = s.score;
  }
  const diff = max - min;
  for (const s of scores) {
    s.score = diff > 0 ? Math.trunc(MAX_NODE_SCORE * ((s.score - min) / diff)) : 0;
  }
}
