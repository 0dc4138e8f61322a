import type { ContainerPort, Pod } from '@schedlab/k8s';
import { CycleState, ImmutableState } from '../../cycle-state';
import {
  ActionType,
  QueueingHint,
  type ClusterEventWithHint,
  type EnqueueExtensions,
  deletedPodOf,
  heldANode,
} from '../../events';
import { HostPortInfo } from '../../types';
import type { FilterPlugin, PreFilterPlugin, PreFilterResult } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { MaybeStatus, Status } from '../../status';
import type { NodeInfo } from '../../types';
import { PluginNames } from '../names';

export const ERR_REASON_PORTS = "node(s) didn't have free ports for the requested pod ports";
const PRE_FILTER_KEY = `PreFilter${PluginNames.NodePorts}`;

/**
 * The host ports a pod asks for (containers' ports with a hostPort); with `withSidecars` (from
 * 1.33.6/1.34.0) also those of restartable init containers, which run as long as the pod.
 */
export function hostPortsOf(pod: Pod, withSidecars = false): ContainerPort[] {
  const ports: ContainerPort[] = [];
  if (withSidecars) {
    for (const c of pod.spec?.initContainers ?? []) {
      if (c.restartPolicy !== 'Always') continue;
      for (const p of c.ports ?? []) if ((p.hostPort ?? 0) > 0) ports.push(p);
    }
  }
  for (const c of pod.spec?.containers ?? []) {
    for (const p of c.ports ?? []) if ((p.hostPort ?? 0) > 0) ports.push(p);
  }
  return ports;
}

/** A pod's host ports must be free on the node (0.0.0.0 clashes with every address). */
export class NodePorts implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  readonly name = PluginNames.NodePorts;

  constructor(private readonly withSidecars = false) {}

  eventsToRegister(): ClusterEventWithHint[] {
    return [
      {
        event: { resource: 'AssignedPod', actionType: ActionType.Delete },
        queueingHintFn: (pod, oldObj) => this.isSchedulableAfterAssignedPodDeleted(pod, oldObj),
      },
      { event: { resource: 'Node', actionType: ActionType.Add } },
    ];
  }

  /** A deleted pod frees its host ports; only a clash with the pod's own ports makes that matter. */
  isSchedulableAfterAssignedPodDeleted(pod: Pod, oldObj: unknown): QueueingHint {
    const deleted = deletedPodOf(oldObj, undefined);
    if (!heldANode(deleted)) return QueueingHint.QueueSkip;
    const ports = hostPortsOf(deleted, this.withSidecars);
    if (ports.length === 0) return QueueingHint.QueueSkip;
    const inUse = new HostPortInfo();
    for (const p of ports) inUse.add(p.hostIP, p.protocol, p.hostPort ?? 0);
    const clash = hostPortsOf(pod, this.withSidecars).some((p) =>
      inUse.checkConflict(p.hostIP, p.protocol, p.hostPort ?? 0),
    );
    return clash ? QueueingHint.Queue : QueueingHint.QueueSkip;
  }

  preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status: MaybeStatus } {
    state.write(PRE_FILTER_KEY, new ImmutableState(hostPortsOf(pod, this.withSidecars)));
    return { status: null };
  }

  preFilterExtensions(): undefined {
    return undefined;
  }

  filterPassesAllNodes(state: CycleState, pod: Pod): boolean {
    return (
      (
        state.read<ImmutableState<ContainerPort[]>>(PRE_FILTER_KEY)?.value ??
        hostPortsOf(pod, this.withSidecars)
      ).length === 0
    );
  }

  filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): MaybeStatus {
    const wanted =
      state.read<ImmutableState<ContainerPort[]>>(PRE_FILTER_KEY)?.value ??
      hostPortsOf(pod, this.withSidecars);
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
  create: (_args, handle) => new NodePorts(handle.features.behaviour.nodePortsCountSidecarPorts),
};
