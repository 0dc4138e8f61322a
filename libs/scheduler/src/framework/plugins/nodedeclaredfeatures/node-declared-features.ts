/**
 * NodeDeclaredFeatures (default from 1.36): a pod that needs node features (inferred from its
 * spec) may only go to nodes whose status.declaredFeatures list them. Schedlab does not infer
 * such requirements yet, so PreFilter answers Skip, as upstream does for a pod that needs none;
 * the plugin is here so the default profile and its printed plugin lists match upstream.
 */
import type { Pod } from '@schedlab/k8s';
import type { CycleState } from '../../cycle-state';
import type { FilterPlugin, PreFilterPlugin, PreFilterResult } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import { PluginNames } from '../names';

export const ERR_REASON_UNSATISFIED_REQUIREMENTS = "node(s) didn't match Pod's required features";

export class NodeDeclaredFeatures implements PreFilterPlugin, FilterPlugin {
  readonly name = PluginNames.NodeDeclaredFeatures;

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
  create: () => new NodeDeclaredFeatures(),
};
