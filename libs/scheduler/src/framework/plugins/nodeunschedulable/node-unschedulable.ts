import { Pod, tolerationsTolerateTaint } from '@schedlab/k8s';
import type { Node } from '@schedlab/k8s';
import type { CycleState } from '../../cycle-state';
import {
  ActionType,
  QueueingHint,
  asObjects,
  type ClusterEventWithHint,
  type EnqueueExtensions,
} from '../../events';
import type { FilterPlugin, Handle, PreFilterPlugin, PreFilterResult } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';

export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
export const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

const UNSCHEDULABLE_FACT = 'spec.unschedulable';
const isUnschedulable = (node: Node): boolean => Boolean(node.spec?.unschedulable);

/** Rejects cordoned nodes unless the pod tolerates the unschedulable taint. */
export class NodeUnschedulable implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = PluginNames.NodeUnschedulable;

  constructor(private readonly handle?: Handle) {}

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeTaint },
        queueingHintFn: (pod, oldObj, newObj) => this.isSchedulableAfterNodeChange(pod, oldObj, newObj),
      },
      {
        event: { resource: 'TargetPod', actionType: ActionType.UpdatePodToleration },
        queueingHintFn: (pod, oldObj, newObj) =>
          this.isSchedulableAfterTargetPodTolerationChange(pod, oldObj, newObj),
      },
    ];
  }

  /** The pod now tolerates the unschedulable taint. */
  isSchedulableAfterTargetPodTolerationChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [, modified] = asObjects<Pod>(oldObj, newObj);
    return tolerationsTolerateTaint(modified.spec?.tolerations ?? [], {
      key: TAINT_NODE_UNSCHEDULABLE,
      effect: 'NoSchedule',
    })
      ? QueueingHint.Queue
      : QueueingHint.QueueSkip;
  }

  /** A schedulable node was added, or a node was uncordoned. */
  isSchedulableAfterNodeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Node>(oldObj, newObj);
    if (
      (original && original.spec?.unschedulable && !modified.spec?.unschedulable) ||
      (!original && !modified.spec?.unschedulable)
    )
      return QueueingHint.Queue;
    return QueueingHint.QueueSkip;
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

  /** No node is cordoned: every node passes, whatever the pod tolerates. */
  filterPassesAllNodes(): boolean {
    return this.handle?.snapshot().anyNode?.(UNSCHEDULABLE_FACT, isUnschedulable) === false;
  }

  filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    if (!isUnschedulable(nodeInfo.node)) return null;
    const tolerated = tolerationsTolerateTaint(pod.spec?.tolerations ?? [], {
      key: TAINT_NODE_UNSCHEDULABLE,
      effect: 'NoSchedule',
    });
    return tolerated ? null : Status.unresolvable(ERR_REASON_UNSCHEDULABLE);
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.NodeUnschedulable,
  create: (_args, handle) => new NodeUnschedulable(handle),
};
