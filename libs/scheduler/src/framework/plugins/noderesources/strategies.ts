/** Score strategies of NodeResourcesFit and the BalancedAllocation formula, in v1.26 integer semantics. */
import { MAX_NODE_SCORE as MAX_NODE_SCORE_EXPORT } from '../../interface';
import type { ResourceScorer } from './resource-allocation';

// Module-local copies: the compiled CommonJS reads an imported binding through a getter on every
// use, and these run for every resource of every node of every pod.
const MAX_NODE_SCORE = MAX_NODE_SCORE_EXPORT;

/** Go's int64 division truncates toward zero. */
function idiv(a: number, b: number): number {
  return Math.trunc(a / b);
}

/** Free share of the node after placing the pod; an over-committed resource scores 0. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0 || requested > capacity) return 0;
  return idiv((capacity - requested) * MAX_NODE_SCORE, capacity);
}

/** Used share of the node after placing the pod, capped at full. */
export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  if (requested > capacity) requested = capacity;
  return idiv(requested * MAX_NODE_SCORE, capacity);
}

function weightedIntegerMean(perResource: (req: number, cap: number) => number): ResourceScorer {
  return (requested, allocatable, weights, count) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < count; i++) {
      nodeScore += perResource(requested[i], allocatable[i]) * weights[i];
      weightSum += weights[i];
    }
    return weightSum === 0 ? 0 : idiv(nodeScore, weightSum);
  };
}

export const leastAllocatedScorer: ResourceScorer = weightedIntegerMean(leastRequestedScore);
export const mostAllocatedScorer: ResourceScorer = weightedIntegerMean(mostRequestedScore);

/**
 * The strategies with a form for exactly two resources that both take part (allocatable
 * non-zero): each form gives the same number the strategy gives for `requested = [req0, req1]`,
 * `allocatable = [alloc0, alloc1]`, `weights = [w0, w1]`, `allocated = [used0, used1]`, without
 * the scratch arrays. Scoring cpu and memory (the default resources) over every node of every pod
 * is the hot case.
 */
export const PAIR_LEAST_ALLOCATED = 1;
export const PAIR_MOST_ALLOCATED = 2;
export const PAIR_BALANCED = 3;
export const PAIR_BALANCE_IMPROVEMENT = 4;
export type PairStrategy =
  | typeof PAIR_LEAST_ALLOCATED
  | typeof PAIR_MOST_ALLOCATED
  | typeof PAIR_BALANCED
  | typeof PAIR_BALANCE_IMPROVEMENT;

/**
 * The two-resource forms are plain functions, which the scoring loop calls by strategy
 * (resource-allocation.ts): allocatedPair (LeastAllocated, MostAllocated), balanceScoreOfPair,
 * balanceImprovementPair. One function switching over all four, or a closure per strategy, grew
 * too large for V8 to inline into the loop, and every call then boxed the memory amounts (past
 * V8's small integers) into new heap numbers: two or three per node and pod.
 */
export function allocatedPair(
  most: boolean,
  req0: number,
  alloc0: number,
  w0: number,
  req1: number,
  alloc1: number,
  w1: number,
): number {
  // LeastAllocated, or MostAllocated with `most`.
  const score0 = most ? mostRequestedScore(req0, alloc0) : leastRequestedScore(req0, alloc0);
  const score1 = most ? mostRequestedScore(req1, alloc1) : leastRequestedScore(req1, alloc1);
  return weightedIntegerMeanOfPair(score0, w0, score1, w1);
}

/** balanceImprovementScorer for two resources: with the pod (req) against without it (used). */
export function balanceImprovementPair(
  req0: number,
  alloc0: number,
  req1: number,
  alloc1: number,
  used0: number,
  used1: number,
): number {
  return balanceImprovement(
    balanceScoreOfPair(req0, alloc0, req1, alloc1),
    balanceScoreOfPair(used0, alloc0, used1, alloc1),
  );
}

/** weightedIntegerMean of two resource scores: the same additions in the same order, so the same doubles. */
function weightedIntegerMeanOfPair(score0: number, w0: number, score1: number, w1: number): number {
  const nodeScore = 0 + score0 * w0 + score1 * w1;
  const weightSum = 0 + w0 + w1;
  return weightSum === 0 ? 0 : idiv(nodeScore, weightSum);
}

/** balanceScore for two resources (its count === 2 branch); BalancedAllocation's two-resource form. */
export function balanceScoreOfPair(req0: number, alloc0: number, req1: number, alloc1: number): number {
  const std = Math.abs((Math.min(req0 / alloc0, 1) - Math.min(req1 / alloc1, 1)) / 2);
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

export interface FunctionShapePoint {
  utilization: number;
  score: number;
}

/** Piecewise-linear function through the points, flat outside them, with truncating integer steps. */
export function buildBrokenLinearFunction(shape: readonly FunctionShapePoint[]): (p: number) => number {
  return (p) => {
    for (let i = 0; i < shape.length; i++) {
      if (p <= shape[i].utilization) {
        if (i === 0) return shape[0].score;
        const prev = shape[i - 1];
        return (
          prev.score +
          idiv(
            (shape[i].score - prev.score) * (p - prev.utilization),
            shape[i].utilization - prev.utilization,
          )
        );
      }
    }
    return shape[shape.length - 1].score;
  };
}

const MAX_UTILIZATION = 100;
/** Shape scores are configured on 0..MAX_CUSTOM_PRIORITY_SCORE and scaled to 0..MAX_NODE_SCORE. */
export const MAX_CUSTOM_PRIORITY_SCORE = 10;

export function requestedToCapacityRatioScorer(shape: readonly FunctionShapePoint[]): ResourceScorer {
  const scaled = shape.map((p) => ({
    utilization: p.utilization,
    score: p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE),
  }));
  const raw = buildBrokenLinearFunction(scaled);
  const perResource = (req: number, cap: number): number =>
    cap === 0 || req > cap ? raw(MAX_UTILIZATION) : raw(idiv(req * MAX_UTILIZATION, cap));
  return (requested, allocatable, weights, count) => {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < count; i++) {
      const s = perResource(requested[i], allocatable[i]);
      // Upstream leaves resources scoring 0 out of the mean.
      if (s > 0) {
        nodeScore += s * weights[i];
        weightSum += weights[i];
      }
    }
    if (weightSum === 0) return 0;
    return goRound(nodeScore / weightSum);
  };
}

/** math.Round: halves away from zero. */
function goRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * BalancedAllocation: 1 − standard deviation of the requested fractions (each capped at 1),
 * times MaxNodeScore, truncated. Weights take no part.
 */
export const balancedResourceScorer: ResourceScorer = (requested, allocatable, _weights, count) =>
  balanceScore(requested, allocatable, count);

function balanceScore(requested: readonly number[], allocatable: readonly number[], count: number): number {
  if (count === 2) return balanceScoreOfPair(requested[0], allocatable[0], requested[1], allocatable[1]);
  let std = 0;
  if (count > 2) {
    let total = 0;
    for (let i = 0; i < count; i++) total += Math.min(requested[i] / allocatable[i], 1);
    const mean = total / count;
    let sum = 0;
    for (let i = 0; i < count; i++) {
      const d = Math.min(requested[i] / allocatable[i], 1) - mean;
      sum += d * d;
    }
    std = Math.sqrt(sum / count);
  }
  return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/**
 * BalancedAllocation from 1.36: how much placing the pod improves the node's balance. Both
 * balances lie in [50, 100], so their difference is mapped back into [50, 100]: about 75 when
 * the pod changes little, towards 100 when it evens the node out, towards 50 when it skews it.
 */
export const balanceImprovementScorer: ResourceScorer = (
  requested,
  allocatable,
  _weights,
  count,
  allocated,
) => {
  const withPod = balanceScore(requested, allocatable, count);
  const withoutPod = balanceScore(allocated!, allocatable, count);
  return balanceImprovement(withPod, withoutPod);
};

/** Both balances lie in [50, 100]: their difference mapped back into [50, 100]. */
function balanceImprovement(withPod: number, withoutPod: number): number {
  return MAX_NODE_SCORE / 2 + idiv(MAX_NODE_SCORE / 2 + withPod - withoutPod, 2);
}

/** The strategies that have a two-resource form. */
export const PAIR_STRATEGIES: ReadonlyMap<ResourceScorer, PairStrategy> = new Map<
  ResourceScorer,
  PairStrategy
>([
  [leastAllocatedScorer, PAIR_LEAST_ALLOCATED],
  [mostAllocatedScorer, PAIR_MOST_ALLOCATED],
  [balancedResourceScorer, PAIR_BALANCED],
  [balanceImprovementScorer, PAIR_BALANCE_IMPROVEMENT],
]);
