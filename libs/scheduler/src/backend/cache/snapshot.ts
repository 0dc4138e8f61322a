/**
 * The scheduler's view of the cluster for one pod's attempt (upstream cache.Snapshot): NodeInfos
 * in node-tree order with per-node aggregates, the lists of nodes that have pods with
 * (anti-)affinity, and cluster-wide image spread. Unlike upstream, the simulation owns one
 * live snapshot and updates it in place as pods bind or are evicted.
 */
import type { Node, Pod } from '@schedlab/k8s';
import type { NodeInfoLister, PodChange } from '../../framework/interface';
import { assignImageStatesInAddOrder } from '../../framework/plugins/imagelocality/image-states';
import { NodeInfo, PodInfo } from '../../framework/types';

export interface SnapshotOptions {
  /**
   * `cluster-wide`: each image's node count covers the whole cluster (upstream from 1.28).
   * `at-node-add`: the count is the one seen when the node was added, in input order (1.26/1.27).
   */
  imageNumNodes?: 'cluster-wide' | 'at-node-add';
}
import { nodeTreeOrder } from './node-tree';
import { TopologyDomains } from './topology-domains';

/**
 * Each node's rank among the names sorted as strings compare. A dump lists its nodes by name
 * (the API server returns them in that order), so where the names ascend strictly in input order
 * (each then names one node) that order is the ranking, and the nodes are sorted otherwise.
 */
function assignNameRanks(nodesInAddOrder: readonly NodeInfo[], nodes: readonly NodeInfo[]): void {
  let ascending = true;
  for (let i = 1; i < nodesInAddOrder.length && ascending; i++)
    ascending = nodesInAddOrder[i - 1].name < nodesInAddOrder[i].name;
  const ranked = ascending
    ? nodesInAddOrder
    : [...nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  ranked.forEach((ni, rank) => (ni.nameRank = rank));
}

export class Snapshot implements NodeInfoLister {
  private readonly ordered: NodeInfo[];
  private readonly byName = new Map<string, NodeInfo>();
  private withAffinity: NodeInfo[] | null = null;
  private withRequiredAntiAffinity: NodeInfo[] | null = null;
  private withScoringAffinity: NodeInfo[] | null = null;
  /** Per node, how many of its pods have scoring affinity terms (absent when none). */
  private readonly scoringAffinityPods = new Map<NodeInfo, number>();
  private readonly changes: PodChange[] = [];
  /** Per label key, its values numbered over the nodes (their labels do not change here). */
  private readonly domains = new Map<string, TopologyDomains>();

  /** Pods whose nodeName is a node of the snapshot are placed on it; others are ignored here. */
  constructor(nodes: readonly Node[], pods: readonly Pod[] = [], opts: SnapshotOptions = {}) {
    this.ordered = nodeTreeOrder(nodes).map((n) => new NodeInfo(n));
    // NodeInfo.index is also each node's position in `ordered`, which keeps the affinity lists in
    // node-tree order.
    this.ordered.forEach((ni, i) => {
      ni.index = i;
      this.byName.set(ni.name, ni);
    });
    const inAddOrder = nodes.map((n) => this.byName.get(n.metadata?.name ?? '')!);
    assignNameRanks(inAddOrder, this.ordered);
    if (opts.imageNumNodes === 'at-node-add') {
      assignImageStatesInAddOrder(inAddOrder);
    } else {
      this.computeImageStates(inAddOrder);
    }
    for (const p of pods) {
      const nodeName = p.spec?.nodeName;
      if (nodeName && this.byName.has(nodeName)) this.addPod(new PodInfo(p), nodeName);
    }
  }

  list(): NodeInfo[] {
    return this.ordered;
  }

  podChangeLog(): readonly PodChange[] {
    return this.changes;
  }

  topologyDomains(key: string): TopologyDomains {
    let d = this.domains.get(key);
    if (d === undefined) {
      d = new TopologyDomains(
        key,
        this.ordered.map((ni) => ni.node.metadata?.labels),
      );
      this.domains.set(key, d);
    }
    return d;
  }

  private nodeImages?: boolean;

  /** Image states are assigned once, at construction, so this is decided once. */
  anyNodeImages(): boolean {
    return (this.nodeImages ??= this.ordered.some((ni) => ni.imageStates.size > 0));
  }

  private readonly nodeFacts = new Map<string, boolean>();

  anyNode(fact: string, test: (node: Node) => boolean): boolean {
    let any = this.nodeFacts.get(fact);
    if (any === undefined) {
      any = this.ordered.some((ni) => test(ni.node));
      this.nodeFacts.set(fact, any);
    }
    return any;
  }

  get(nodeName: string): NodeInfo | undefined {
    return this.byName.get(nodeName);
  }

  get size(): number {
    return this.ordered.length;
  }

  havePodsWithAffinityList(): NodeInfo[] {
    return (this.withAffinity ??= this.ordered.filter((n) => n.podsWithAffinity.length > 0));
  }

  havePodsWithScoringAffinityList(): NodeInfo[] {
    return (this.withScoringAffinity ??= this.ordered.filter((n) => this.scoringAffinityPods.has(n)));
  }

  havePodsWithRequiredAntiAffinityList(): NodeInfo[] {
    return (this.withRequiredAntiAffinity ??= this.ordered.filter(
      (n) => n.podsWithRequiredAntiAffinity.length > 0,
    ));
  }

  addPod(pi: PodInfo, nodeName: string): void {
    const ni = this.byName.get(nodeName);
    if (!ni) throw new Error(`node "${nodeName}" is not in the snapshot`);
    ni.addPodInfo(pi);
    this.changes.push({ pod: pi, node: ni, delta: 1 });
    // A node joins a list only when its first such pod arrives; the lists stay in node-tree order.
    if (pi.hasAffinity() && ni.podsWithAffinity.length === 1 && this.withAffinity) {
      this.withAffinity = this.withNodeInserted(this.withAffinity, ni);
    }
    if (
      pi.requiredAntiAffinityTerms.length > 0 &&
      ni.podsWithRequiredAntiAffinity.length === 1 &&
      this.withRequiredAntiAffinity
    ) {
      this.withRequiredAntiAffinity = this.withNodeInserted(this.withRequiredAntiAffinity, ni);
    }
    if (pi.hasAffinity() && pi.hasScoringAffinityTerms()) {
      const n = (this.scoringAffinityPods.get(ni) ?? 0) + 1;
      this.scoringAffinityPods.set(ni, n);
      if (n === 1 && this.withScoringAffinity)
        this.withScoringAffinity = this.withNodeInserted(this.withScoringAffinity, ni);
    }
  }

  /**
   * A new list (callers may still iterate the old one) with `ni` at its node-tree position,
   * the same list `ordered.filter(...)` would give.
   */
  private withNodeInserted(list: readonly NodeInfo[], ni: NodeInfo): NodeInfo[] {
    const pos = ni.index;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid].index < pos) lo = mid + 1;
      else hi = mid;
    }
    const out = list.slice(0, lo);
    out.push(ni);
    for (let i = lo; i < list.length; i++) out.push(list[i]);
    return out;
  }

  removePod(uid: string, nodeName: string): boolean {
    const ni = this.byName.get(nodeName);
    const pi = ni?.pods.find((p) => p.uid === uid);
    if (!ni || !pi || !ni.removePod(uid)) return false;
    this.changes.push({ pod: pi, node: ni, delta: -1 });
    this.withAffinity = null;
    this.withRequiredAntiAffinity = null;
    if (pi.hasAffinity() && pi.hasScoringAffinityTerms()) {
      const n = (this.scoringAffinityPods.get(ni) ?? 0) - 1;
      if (n > 0) this.scoringAffinityPods.set(ni, n);
      else this.scoringAffinityPods.delete(ni);
      this.withScoringAffinity = null;
    }
    return true;
  }

  /**
   * Every image name on a node maps to the number of nodes that list it and, as in upstream's
   * cache (addNodeImageStates), the size reported by the first node to list it in add (input)
   * order: nodes may report different sizes for the same name.
   */
  private computeImageStates(nodesInAddOrder: readonly NodeInfo[]): void {
    const shared = new Map<string, { size: number; numNodes: number }>();
    for (const ni of nodesInAddOrder) {
      const images = ni.node.status?.images;
      if (!images?.length) continue;
      const counted = new Set<string>();
      for (const img of images) {
        for (const name of img.names ?? []) {
          let state = shared.get(name);
          if (!state) shared.set(name, (state = { size: img.sizeBytes ?? 0, numNodes: 0 }));
          if (!counted.has(name)) {
            counted.add(name);
            state.numNodes++;
          }
        }
      }
    }
    for (const ni of this.ordered) {
      const images = ni.node.status?.images;
      // A node without images keeps NodeInfo's shared empty map.
      if (!images?.length) continue;
      const states = new Map<string, { size: number; numNodes: number }>();
      for (const img of images) {
        for (const name of img.names ?? []) states.set(name, shared.get(name)!);
      }
      ni.imageStates = states;
    }
  }
}
