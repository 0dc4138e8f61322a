/**
 * A Handle over a snapshot for plugin unit tests: real NodeInfos and cluster objects, and the
 * Filter/PreFilter-extension entry points of the plugins under test.
 */
import type { Node, Pod } from '@schedlab/k8s';
import { ClusterObjects } from '../backend/cache/cluster-objects';
import { Snapshot } from '../backend/cache/snapshot';
import type { CycleState } from '../framework/cycle-state';
import type { FilterPlugin, Handle, PreFilterPlugin } from '../framework/interface';
import { MaybeStatus, isSuccess } from '../framework/status';
import type { NodeInfo, PodInfo } from '../framework/types';
import { FeatureSet } from '../features';
import { installRequestPolicy } from '../framework/request-policy';

export interface FakeHandleOptions {
  nodes?: Node[];
  pods?: Pod[];
  objects?: ClusterObjects;
  features?: FeatureSet;
  /** Plugins that runFilterPlugins / the PreFilter extensions should call, in order. */
  filterPlugins?: FilterPlugin[];
  preFilterPlugins?: PreFilterPlugin[];
}

export class FakeHandle implements Handle {
  readonly snap: Snapshot;
  readonly objects: ClusterObjects;
  readonly features: FeatureSet;
  filterPlugins: FilterPlugin[];
  preFilterPlugins: PreFilterPlugin[];

  constructor(opts: FakeHandleOptions = {}) {
    this.features = opts.features ?? new FeatureSet();
    installRequestPolicy(this.features);
    this.snap = new Snapshot(opts.nodes ?? [], opts.pods ?? []);
    this.objects = opts.objects ?? new ClusterObjects();
    this.filterPlugins = opts.filterPlugins ?? [];
    this.preFilterPlugins = opts.preFilterPlugins ?? [];
  }

  snapshot(): Snapshot {
    return this.snap;
  }

  runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    for (const p of this.filterPlugins) {
      if (state.skipFilterPlugins.has(p.name)) continue;
      const s = p.filter(state, pod, nodeInfo);
      if (!isSuccess(s)) return s!.withPlugin(p.name);
    }
    return null;
  }

  runPreFilterExtensionAddPod(
    state: CycleState,
    pod: Pod,
    podInfoToAdd: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus {
    for (const p of this.preFilterPlugins) {
      const s = p.preFilterExtensions?.()?.addPod(state, pod, podInfoToAdd, nodeInfo) ?? null;
      if (!isSuccess(s)) return s;
    }
    return null;
  }

  runPreFilterExtensionRemovePod(
    state: CycleState,
    pod: Pod,
    podInfoToRemove: PodInfo,
    nodeInfo: NodeInfo,
  ): MaybeStatus {
    for (const p of this.preFilterPlugins) {
      const s = p.preFilterExtensions?.()?.removePod(state, pod, podInfoToRemove, nodeInfo) ?? null;
      if (!isSuccess(s)) return s;
    }
    return null;
  }
}
