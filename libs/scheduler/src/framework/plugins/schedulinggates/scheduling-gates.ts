import type { Pod } from '@schedlab/k8s';
import { ActionType, QueueingHint, type ClusterEventWithHint, type EnqueueExtensions } from '../../events';
import type { PreEnqueuePlugin } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import { PluginNames } from '../names';

/** Pods with spec.schedulingGates never enter the active queue until the gates are removed. */
export class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
  readonly name = PluginNames.SchedulingGates;

  /** Only the pod's own update that removes its last gate can let it in. */
  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'TargetPod', actionType: ActionType.UpdatePodSchedulingGatesEliminated },
        queueingHintFn: () => QueueingHint.Queue,
      },
    ];
  }

  preEnqueue(pod: Pod): MaybeStatus {
    const gates = pod.spec?.schedulingGates ?? [];
    if (gates.length === 0) return null;
    return Status.unresolvable(`waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`);
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.SchedulingGates,
  create: () => new SchedulingGates(),
};
