/**
 * NodeDeclaredFeatures (default from 1.36): a pod that needs node features (inferred from its
 * spec) may only go to nodes whose status.declaredFeatures list them. Schedlab does not infer
 * such requirements yet, so PreFilter answers Skip, as upstream does for a pod that needs none;
 * the plugin is here so the default profile and its printed plugin lists match upstream.
 */
import type { Node, Pod } from '@schedlab/k8s';
import {
  ActionType,
  QueueingHint,
  asObjects,
  semanticallyEqual,
  type ClusterEventWithHint,
  type EnqueueExtensions,
} from '../../events';
import type { CycleState } from '../../cycle-state';
import type { FilterPlugin, Handle, PreFilterPlugin, PreFilterResult } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import { PluginNames } from '../names';

export const ERR_REASON_UNSATISFIED_REQUIREMENTS = "node(s) didn't match Pod's required features";

const declaredFeatures = (n: Node | undefined) =>
  (n?.status as { declaredFeatures?: string[] } | undefined)?.declaredFeatures ?? [];

export class NodeDeclaredFeatures implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = PluginNames.NodeDeclaredFeatures;

  constructor(private readonly enabled = true) {}

  eventsToRegister(): ClusterEventWithHint[] {
    if (!this.enabled) return [];
    return [
      {
        event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeDeclaredFeature },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterNodeChange(pod, o, n),
      },
      {
        event: { resource: 'TargetPod', actionType: ActionType.Update },
        queueingHintFn: (pod, o, n) => this.isSchedulableAfterTargetPodUpdate(pod, o, n),
      },
    ];
  }

  /** A new node, or one whose declared features changed. */
  isSchedulableAfterNodeChange(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    const [original, modified] = asObjects<Node>(oldObj, newObj);
    if (original && semanticallyEqual(declaredFeatures(original), declaredFeatures(modified)))
      return QueueingHint.QueueSkip;
    return QueueingHint.Queue;
  }

  /**
   * Upstream queues when the features inferred from the pod's spec changed; nothing is inferred
   * here (see above), so an update never changes them.
   */
  isSchedulableAfterTargetPodUpdate(_pod: Pod, oldObj: unknown, newObj: unknown): QueueingHint {
    asObjects<Pod>(oldObj, newObj);
    return QueueingHint.QueueSkip;
  }

  preFilter(_state: CycleState, _pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    return { status: Status.skip() };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  filter(): MaybeStatus {
    return null;
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.NodeDeclaredFeatures,
  create: (_args, handle: Handle) =>
    new NodeDeclaredFeatures(handle.features.enabled('NodeDeclaredFeatures')),
};
