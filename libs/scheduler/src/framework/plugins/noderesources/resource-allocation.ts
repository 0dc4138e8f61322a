/**
 * Scoring shared by NodeResourcesFit and NodeResourcesBalancedAllocation (upstream
 * resource_allocation.go): per configured resource, the node's allocatable and what would be
 * requested there with the incoming pod, handed to a strategy function.
 */
import { isScalarResourceName, parseQuantity, podRequests, type Pod } from '@schedlab/k8s';
import type { FeatureSet } from '../../../features';
import { requestPolicyOf } from '../../request-policy';
import { RESOURCE_CPU, RESOURCE_EPHEMERAL_STORAGE, RESOURCE_MEMORY, type NodeInfo } from '../../types';
import { DEFAULT_MEMORY_REQUEST, DEFAULT_MILLI_CPU_REQUEST } from '@schedlab/k8s';
import type { DraResourceTotals } from '../dynamicresources/extended-resource-scoring';
import { NodeScoreCache } from '../helper/node-score-cache';
import {
  PAIR_BALANCE_IMPROVEMENT,
  PAIR_BALANCED,
  PAIR_MOST_ALLOCATED,
  PAIR_STRATEGIES,
  allocatedPair,
  balanceImprovementPair,
  balanceScoreOfPair,
  type PairStrategy,
} from './strategies';

export interface ResourceSpec {
  name: string;
  weight: number;
}

/**
 * A strategy sees only the resources that take part on this node: `requested[i]`/`allocatable[i]`
 * for i < count, with `weights[i]` the configured weight of that resource.
 */
export type ResourceScorer = (
  requested: number[],
  allocatable: number[],
  weights: number[],
  count: number,
  /** What the node has requested without the pod (same entries as `requested`). */
  allocated?: number[],
) => number;

/**
 * What the incoming pod asks for, per configured resource. With `nonZero`, containers missing a
 * cpu/memory request count upstream's defaults (100m / 200Mi); other resources are unaffected.
 */
export function podRequestsFor(
  pod: Pod,
  resources: readonly ResourceSpec[],
  nonZero: boolean,
  features: FeatureSet,
  specOnly = false,
): number[] {
  const reqs = podRequests(pod, {
    ...requestPolicyOf(features),
    // Upstream builds NodeResourcesFit's scorer from nodeResourceStrategyTypeMap without its
    // feature flags (fit.go, 1.32+): the incoming pod counts its containers' spec requests,
    // never pod-level spec.resources nor status resources. BalancedAllocation sets them.
    ...(specOnly ? { skipPodLevelResources: true, useStatusResources: false } : {}),
    excludeOverhead: true,
    nonMissingContainerRequests: nonZero
      ? { cpu: DEFAULT_MILLI_CPU_REQUEST, memory: DEFAULT_MEMORY_REQUEST }
      : undefined,
  });
  const overhead = pod.spec?.overhead as Record<string, string | number> | undefined;
  return resources.map((r) => {
    let v = reqs.get(r.name) ?? 0;
    const oh = overhead?.[r.name];
    if (oh !== undefined) {
      const q = parseQuantity(oh);
      // v1.26 added overhead as whole units even for cpu (a "250m" overhead adds 1 millicore);
      // from 1.27 pod requests are computed with overhead in millicores.
      v +=
        r.name === RESOURCE_CPU && features.behaviour.resourceScoringOverheadInMilliCpu
          ? q.milliValue()
          : q.value();
    }
    return v;
  });
}

/**
 * Computes the score of one node. Scratch arrays are reused between calls: scoring runs
 * synchronously over thousands of nodes per pod.
 */
export class ResourceAllocationScorer {
  private readonly requestedScratch: number[];
  private readonly allocatableScratch: number[];
  private readonly weightScratch: number[];
  private readonly allocatedScratch: number[];

  constructor(
    readonly resources: readonly ResourceSpec[],
    private readonly scorer: ResourceScorer,
    /** BalancedAllocation counts what pods really request; Fit counts non-zero defaults for cpu/memory. */
    readonly useRequested: boolean,
    /** NodeResourcesFit: the pod's container spec requests only (see podRequestsFor). */
    private readonly specOnly = false,
  ) {
    this.requestedScratch = new Array(resources.length).fill(0);
    this.allocatableScratch = new Array(resources.length).fill(0);
    this.weightScratch = new Array(resources.length).fill(0);
    this.allocatedScratch = new Array(resources.length).fill(0);
    this.kinds = resources.map((r) =>
      r.name === RESOURCE_CPU
        ? KIND_CPU
        : r.name === RESOURCE_MEMORY
          ? KIND_MEMORY
          : r.name === RESOURCE_EPHEMERAL_STORAGE
            ? KIND_EPHEMERAL_STORAGE
            : isScalarResourceName(r.name)
              ? KIND_SCALAR
              : KIND_OTHER,
    );
    this.weights = resources.map((r) => r.weight);
    // cpu then memory (the default resources, in either order) with a strategy that has a pair form.
    const pair = PAIR_STRATEGIES.get(scorer);
    if (pair !== undefined && resources.length === 2) {
      if (this.kinds[0] === KIND_CPU && this.kinds[1] === KIND_MEMORY) {
        this.pair = pair;
        this.pairCpuFirst = true;
      } else if (this.kinds[0] === KIND_MEMORY && this.kinds[1] === KIND_CPU) {
        this.pair = pair;
        this.pairCpuFirst = false;
      }
    }
  }

  /** Set when the configured resources are cpu and memory and the strategy has a pair form. */
  private readonly pair?: PairStrategy;
  private readonly pairCpuFirst: boolean = true;

  /** Per configured resource, what `score` reads for it: decided once, not per node. */
  private readonly kinds: number[];
  private readonly weights: number[];

  private requestsPod: Pod | null = null;
  private requests: number[] = [];

  /**
   * The pod's request vector for these resources, computed once per pod object: one attempt
   * scores many nodes with it.
   */
  requestsOf(pod: Pod, features: FeatureSet): number[] {
    if (pod !== this.requestsPod) {
      this.requests = podRequestsFor(pod, this.resources, !this.useRequested, features, this.specOnly);
      this.requestsPod = pod;
    }
    return this.requests;
  }

  /** Scores every node for the pod (the batch form of `score`). */
  scoreNodes(
    pod: Pod,
    nodes: readonly NodeInfo[],
    scores: { score: number }[],
    features: FeatureSet,
    dra?: DraResourceTotals,
  ): void {
    const requests = this.requestsOf(pod, features);
    const pair = this.pair;
    if (pair === undefined) {
      for (let i = 0; i < nodes.length; i++) scores[i].score = this.score(nodes[i], requests, dra);
      return;
    }
    // cpu and memory only: read the four numbers per node and score them directly. A node with
    // none of either (left out of the mean) takes the general path. Resources 0 and 1 are in the
    // configured order, as the pod's requests and the weights are; the node's follow cpuFirst.
    const cpuFirst = this.pairCpuFirst;
    const podReq0 = requests[0];
    const podReq1 = requests[1];
    const w0 = this.weights[0];
    const w1 = this.weights[1];
    const useRequested = this.useRequested;
    // A node's score is a function of its allocatable (fixed), what its pods request (changes only
    // with its generation) and the pod's two requests: kept per node, it is reused while none of
    // them changed, so pods asking the same as the previous one rescore only the nodes that
    // changed since (the node the previous pod went to, mostly).
    const cache = this.nodeCache;
    cache.begin(`${podReq0}/${podReq1}`, nodes.length);
    for (let i = 0; i < nodes.length; i++) {
      const ni = nodes[i];
      const k = ni.index;
      // One store for a cached and a computed score: a store first reached when a later pod hits
      // the cache would have no type feedback, and reaching it would deoptimise the loop.
      let score = cache.get(k, ni, ni.generation);
      if (score === undefined) {
        const alloc = ni.allocatable;
        const allocCpu = alloc.milliCPU;
        const allocMem = alloc.memory;
        if (allocCpu === 0 || allocMem === 0) {
          score = this.score(ni, requests, dra);
        } else {
          const used = useRequested ? ni.requested : ni.nonZeroRequested;
          const usedCpu = used.milliCPU;
          const usedMem = used.memory;
          const used0 = cpuFirst ? usedCpu : usedMem;
          const used1 = cpuFirst ? usedMem : usedCpu;
          const alloc0 = cpuFirst ? allocCpu : allocMem;
          const alloc1 = cpuFirst ? allocMem : allocCpu;
          const req0 = used0 + podReq0;
          const req1 = used1 + podReq1;
          if (pair === PAIR_BALANCED) score = balanceScoreOfPair(req0, alloc0, req1, alloc1);
          else if (pair === PAIR_BALANCE_IMPROVEMENT)
            score = balanceImprovementPair(req0, alloc0, req1, alloc1, used0, used1);
          else score = allocatedPair(pair === PAIR_MOST_ALLOCATED, req0, alloc0, w0, req1, alloc1, w1);
          cache.set(k, ni, ni.generation, score);
        }
      }
      scores[i].score = score;
    }
  }

  private readonly nodeCache = new NodeScoreCache();

  /**
   * `dra` (DRAExtendedResource): a resource the node does not advertise but a DeviceClass maps
   * counts the class's devices on the node and those allocated.
   */
  score(nodeInfo: NodeInfo, podRequest: readonly number[], dra?: DraResourceTotals): number {
    const kinds = this.kinds;
    const n = kinds.length;
    const requested = this.useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
    const allocatable = nodeInfo.allocatable;
    const requestedScratch = this.requestedScratch;
    const allocatedScratch = this.allocatedScratch;
    const allocatableScratch = this.allocatableScratch;
    const weightScratch = this.weightScratch;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const kind = kinds[i];
      const req = podRequest[i];
      let alloc: number;
      let used: number;
      if (kind === KIND_CPU) {
        alloc = allocatable.milliCPU;
        used = requested.milliCPU;
      } else if (kind === KIND_MEMORY) {
        alloc = allocatable.memory;
        used = requested.memory;
      } else if (kind === KIND_EPHEMERAL_STORAGE) {
        alloc = allocatable.ephemeralStorage;
        used = nodeInfo.requested.ephemeralStorage;
      } else {
        // A scalar resource the pod does not ask for takes no part (it would skew every node alike).
        if (req === 0 && kind === KIND_SCALAR) continue;
        const name = this.resources[i].name;
        const a = allocatable.scalar.get(name);
        let fromDra = false;
        alloc = 0;
        used = 0;
        if (dra && (a ?? 0) === 0) {
          const [capacity, allocated] = dra(nodeInfo, name);
          if (capacity > 0) {
            alloc = capacity;
            used = allocated;
            fromDra = true;
          }
        }
        if (!fromDra) {
          if (a === undefined) continue;
          alloc = a;
          used = nodeInfo.requested.scalar.get(name) ?? 0;
        }
      }
      // Resources the node has none of are left out of the score entirely.
      if (alloc === 0) continue;
      requestedScratch[count] = used + req;
      allocatedScratch[count] = used;
      allocatableScratch[count] = alloc;
      weightScratch[count] = this.weights[i];
      count++;
    }
    return this.scorer(requestedScratch, allocatableScratch, weightScratch, count, allocatedScratch);
  }
}

const KIND_CPU = 0;
const KIND_MEMORY = 1;
const KIND_EPHEMERAL_STORAGE = 2;
/** A scalar (extended, hugepages, attachable-volumes) resource: left out when the pod asks none. */
const KIND_SCALAR = 3;
/** Any other name: scored when the node advertises it, even if the pod asks none. */
const KIND_OTHER = 4;
