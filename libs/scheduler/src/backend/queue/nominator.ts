/**
 * Pods nominated to a node by preemption but not yet bound (upstream's nominator). Filters
 * treat equal-or-higher-priority nominated pods as already on the node, so lower-priority pods
 * cannot take the room preemption freed.
 */
import { podPriority } from '@schedlab/k8s';
import type { PodInfo } from '../../framework/types';

export class Nominator {
  private readonly byNode = new Map<string, PodInfo[]>();
  private readonly nodeOf = new Map<string, string>();

  add(pi: PodInfo, nodeName: string): void {
    this.delete(pi.uid);
    let list = this.byNode.get(nodeName);
    if (!list) this.byNode.set(nodeName, (list = []));
    list.push(pi);
    this.nodeOf.set(pi.uid, nodeName);
  }

  delete(uid: string): void {
    const node = this.nodeOf.get(uid);
    if (node === undefined) return;
    this.nodeOf.delete(uid);
    const list = this.byNode.get(node)!.filter((p) => p.uid !== uid);
    if (list.length) this.byNode.set(node, list);
    else this.byNode.delete(node);
  }

  /** Number of nominated pods (0 in most cycles: Filter then skips the per-node lookup). */
  get size(): number {
    return this.nodeOf.size;
  }

  nominatedPodsForNode(nodeName: string): readonly PodInfo[] {
    return this.byNode.get(nodeName) ?? [];
  }

  /** Nominated pods on the node that matter to `podPriorityValue`: equal or higher priority, other pods. */
  relevantFor(nodeName: string, uid: string, podPriorityValue: number): PodInfo[] {
    return this.nominatedPodsForNode(nodeName).filter(
      (p) => p.uid !== uid && podPriority(p.pod) >= podPriorityValue,
    );
  }
}
