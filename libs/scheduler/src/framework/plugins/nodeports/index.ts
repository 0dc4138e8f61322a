import type { ContainerPort, Pod } from '@schedlab/k8s';
import { CycleState, ImmutableState } from '../../cycle-state';
import type { FilterPlugin, PreFilterPlugin, PreFilterResult } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';

export const ERR_REASON_PORTS = "node(s) didn't have free ports for the requested pod ports";
const PRE_FILTER_KEY = `PreFilter${PluginNames.NodePorts}`;

/** The host ports a pod asks for (containers' ports with a hostPort). */
export function hostPortsOf(pod: Pod): ContainerPort[] {
  const ports: ContainerPort[] = [];
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if ((p.hostPort ?? 0) > 0) ports.push(p);
  }
  return ports;
}

/** A pod's host ports must be free on the node (0.0.0.0 clashes with every address). */
export class NodePorts implements PreFilterPlugin, FilterPlugin {
  readonly name = PluginNames.NodePorts;

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    state.write(PRE_FILTER_KEY, new ImmutableState(hostPortsOf(pod)));
    return { status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  filterPassesAllNodes(state: CycleState, pod: Pod): boolean {
    return (state.read<ImmutableState<ContainerPort[]>>(PRE_FILTER_KEY)?.value ?? hostPortsOf(pod)).length === 0;
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const wanted = state.read<ImmutableState<ContainerPort[]>>(PRE_FILTER_KEY)?.value ?? hostPortsOf(pod);
    for (const p of wanted) {
      if (nodeInfo.usedPorts.checkConflict(p.hostIP, p.protocol, p.hostPort ?? 0)) {
        return Status.unschedulable(ERR_REASON_PORTS);
      }
    }
    return null;
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.NodePorts,
  create: () => new NodePorts(),
};
