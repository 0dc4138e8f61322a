/** The snapshot as the descheduler sees it during one cycle: pods leave it when evicted. */
import { type KubeObject, type Node, type Pod, podKeyOf } from '@schedlab/k8s';

export class ClusterView {
  readonly nodes: readonly Node[];
  private readonly podsByNode = new Map<string, Pod[]>();
  private readonly allPods: Pod[];
  private readonly evicted = new Set<Pod>();

  constructor(readonly objects: readonly KubeObject[]) {
    this.nodes = objects.filter((o) => o.kind === 'Node') as unknown as Node[];
    this.allPods = objects.filter((o) => o.kind === 'Pod') as unknown as Pod[];
    for (const pod of this.allPods) {
      const node = pod.spec?.nodeName;
      if (!node) continue;
      const list = this.podsByNode.get(node);
      if (list) list.push(pod);
      else this.podsByNode.set(node, [pod]);
    }
  }

  podsOnNode(nodeName: string): Pod[] {
    return (this.podsByNode.get(nodeName) ?? []).filter((p) => !this.evicted.has(p));
  }

  pods(): Pod[] {
    return this.allPods.filter((p) => !this.evicted.has(p));
  }

  /** Every pod of the snapshot, evicted ones included (what the controllers still expect). */
  snapshotPods(): readonly Pod[] {
    return this.allPods;
  }

  isEvicted(pod: Pod): boolean {
    return this.evicted.has(pod);
  }

  markEvicted(pod: Pod): void {
    this.evicted.add(pod);
  }

  evictedKeys(): string[] {
    return [...this.evicted].map((p) => podKeyOf(p));
  }
}
