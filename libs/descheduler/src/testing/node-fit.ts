/**
 * For tests only: upstream descheduler's own NodeFit (node/node.go), so its test tables keep their
 * expectations. In a run the engine answers podFitsNode with the scheduler's filters instead.
 */
import {
  type Node,
  type Pod,
  findMatchingUntoleratedTaint,
  namespaceOf,
  nodeAllocatable,
  podRequests,
  requiredNodeAffinityOf,
  selectorFromLabelSelector,
} from '@schedlab/k8s';

/**
 * The pod's anti-affinity terms select a pod already on the node and the node carries the term's
 * topology key (upstream looks at that node alone).
 */
function antiAffinityConflict(pod: Pod, node: Node, existing: readonly Pod[]): boolean {
  for (const term of pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ??
    []) {
    const namespaces = term.namespaces?.length ? term.namespaces : [namespaceOf(pod)];
    let selector;
    try {
      selector = selectorFromLabelSelector(term.labelSelector);
    } catch {
      return true;
    }
    for (const other of existing) {
      if (other.metadata?.name === pod.metadata?.name || !namespaces.includes(namespaceOf(other))) continue;
      if (selector.matches(other.metadata?.labels) && node.metadata?.labels?.[term.topologyKey] !== undefined)
        return true;
    }
  }
  return false;
}

export function upstreamNodeFit(podsOnNode: (nodeName: string) => readonly Pod[]) {
  return (pod: Pod, node: Node): boolean => {
    if (node.spec?.unschedulable) return false;
    if (!requiredNodeAffinityOf(pod).match(node)) return false;
    const noSchedule = (t: { effect: string }) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';
    if (findMatchingUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, noSchedule)) return false;
    const name = node.metadata?.name ?? '';
    const existing = podsOnNode(name).filter(
      (p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed',
    );
    if (antiAffinityConflict(pod, node, existing)) return false;
    if (pod.spec?.nodeName === name) return true;
    // Requests against what the node's pods already request, pods counted as a resource.
    const wanted = podRequests(pod);
    const used = new Map<string, number>([['pods', existing.length]]);
    for (const p of existing) for (const [k, v] of podRequests(p)) used.set(k, (used.get(k) ?? 0) + v);
    const allocatable = nodeAllocatable(node);
    for (const [k, v] of [...wanted, ['pods', 1] as [string, number]]) {
      if (v === 0 && k !== 'pods') continue;
      const free = (allocatable.get(k) ?? 0) - (used.get(k) ?? 0);
      if (v > free) return false;
    }
    return true;
  };
}
