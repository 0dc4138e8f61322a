import type { Pod } from '@schedlab/k8s';
import type { CycleState } from '../../cycle-state';
import type { BindPlugin } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import type { MaybeStatus } from '../../status';
import { PluginNames } from '../names';

/**
 * Upstream posts a Binding to the API server. In the simulation the scheduler itself commits
 * the pod to the snapshot after Bind succeeds, so the binder only has to accept.
 */
export class DefaultBinder implements BindPlugin {
  readonly name = PluginNames.DefaultBinder;

  bind(_state: CycleState, _pod: Pod, _nodeName: string): MaybeStatus {
    return null;
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.DefaultBinder,
  create: () => new DefaultBinder(),
};
