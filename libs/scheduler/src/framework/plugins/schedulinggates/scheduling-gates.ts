import type { Pod } from '@schedlab/k8s';
import type { PreEnqueuePlugin } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import { PluginNames } from '../names';

/** Pods with spec.schedulingGates never enter the active queue until the gates are removed. */
export class SchedulingGates implements PreEnqueuePlugin {
  readonly name = PluginNames.SchedulingGates;

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
