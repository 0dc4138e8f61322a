/**
 * NodeResourcesBalancedAllocation (upstream noderesources/balanced_allocation.go): favours nodes
 * whose requested shares of the configured resources stay close to each other after placement.
 */
import type { Pod } from '@schedlab/k8s';
import type { CycleState } from '../../cycle-state';
import type { Handle, NodeScore, PreScorePlugin, ScorePlugin } from '../../interface';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';
import type { NodeResourcesBalancedAllocationArgs } from './args';
import { draResourceTotals } from '../dynamicresources/extended-resource-scoring';
import { ResourceAllocationScorer } from './resource-allocation';
import { balanceImprovementScorer, balancedResourceScorer } from './strategies';

export class BalancedAllocation implements PreScorePlugin, ScorePlugin {
  readonly name = PluginNames.NodeResourcesBalancedAllocation;
  private readonly scorer: ResourceAllocationScorer;

  constructor(
    args: NodeResourcesBalancedAllocationArgs,
    private readonly handle: Handle,
  ) {
    // Upstream scores balance on what pods actually request (no 100m/200Mi defaults).
    const scorer = handle.features.behaviour.balancedAllocationScoresImprovement
      ? balanceImprovementScorer
      : balancedResourceScorer;
    this.scorer = new ResourceAllocationScorer(args.resources, scorer, true);
  }

  /**
   * Registered at PreScore from 1.27, where upstream precomputes the pod's request vector. From
   * 1.33 a pod that requests none of the resources (best effort) is skipped, so it does not pile
   * onto whichever nodes are balanced (kubernetes#129138).
   */
  preScore(_state: CycleState, pod: Pod, _nodes: NodeInfo[]): MaybeStatus {
    if (!this.handle.features.behaviour.balancedAllocationSkipsBestEffortPods) return null;
    const requests = this.scorer.requestsOf(pod, this.handle.features);
    return requests.every((r) => r === 0) ? Status.skip() : null;
  }

  score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): [number, MaybeStatus] {
    const requests = this.scorer.requestsOf(pod, this.handle.features);
    return [
      this.scorer.score(nodeInfo, requests, draResourceTotals(this.handle, this.scorer.resources)),
      null,
    ];
  }

  scoreNodes(_state: CycleState, pod: Pod, nodes: readonly NodeInfo[], scores: NodeScore[]): MaybeStatus {
    const dra = draResourceTotals(this.handle, this.scorer.resources);
    this.scorer.scoreNodes(pod, nodes, scores, this.handle.features, dra);
    return null;
  }

  scoreExtensions(): undefined {
    return undefined;
  }
}
