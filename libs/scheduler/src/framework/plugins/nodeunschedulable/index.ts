import { Pod, tolerationsTolerateTaint } from '@schedlab/k8s';
import type { CycleState } from '../../cycle-state';
import type { FilterPlugin } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';

export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

/** Rejects cordoned nodes unless the pod tolerates the unschedulable taint. */
export class NodeUnschedulable implements FilterPlugin {
  readonly name = PluginNames.NodeUnschedulable;

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    if (!nodeInfo.node.spec?.unschedulable) return null;
    const tolerated = tolerationsTolerateTaint(pod.spec?.tolerations ?? [], {
      key: TAINT_NODE_UNSCHEDULABLE,
      effect: 'NoSchedule',
    });
    return tolerated ? null : Status.unresolvable(ERR_REASON_UNSCHEDULABLE);
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.NodeUnschedulable,
  create: () => new NodeUnschedulable(),
};
