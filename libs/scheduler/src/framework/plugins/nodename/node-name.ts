import type { Pod } from '@schedlab/k8s';
import type { CycleState } from '../../cycle-state';
import { ActionType, type ClusterEventWithHint, type EnqueueExtensions } from '../../events';
import type { FilterPlugin, PreFilterPlugin, PreFilterResult } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';

export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

/** A pod that names its node (spec.nodeName) fits only there. */
export class NodeName implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = PluginNames.NodeName;

  /** Only a new node can be the named one (no hint: every added node queues). */
  eventsToRegister(): ClusterEventWithHint[] {
    return [{ event: { resource: 'Node', actionType: ActionType.Add } }];
  }

  /**
   * A PreFilter from 1.37: it narrows or skips only for pods that already name a node or wait on a
   * deferred resize, never for a pending pod, so here it always passes.
   */
  preFilter(_state: CycleState, _pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    return { status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  filterPassesAllNodes(_state: CycleState, pod: Pod): boolean {
    return !pod.spec?.nodeName;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const wanted = pod.spec?.nodeName;
    if (!wanted || wanted === nodeInfo.name) return null;
    return Status.unresolvable(ERR_REASON_NODE_NAME);
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.NodeName,
  create: () => new NodeName(),
};
