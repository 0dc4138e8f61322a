import { podPriority } from '@schedlab/k8s';
import type { QueueSortPlugin, QueuedPodInfo } from '../../interface';
import type { PluginDescriptor } from '../../runtime/registry';
import { PluginNames } from '../names';

/** Higher priority first; equal priorities in the order they were enqueued. */
export class PrioritySort implements QueueSortPlugin {
  readonly name = PluginNames.PrioritySort;

  less(a: QueuedPodInfo, b: QueuedPodInfo): boolean {
    const pa = podPriority(a.podInfo.pod);
    const pb = podPriority(b.podInfo.pod);
    return pa > pb || (pa === pb && a.timestamp < b.timestamp);
  }
}

export const descriptor: PluginDescriptor = {
  name: PluginNames.PrioritySort,
  create: () => new PrioritySort(),
};
