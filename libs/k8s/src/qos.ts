/**
 * A pod's QoS class as the API server and kubelet compute it: only cpu and memory count, and only
 * positive quantities; Guaranteed needs every container to limit both and the summed requests to
 * equal the summed limits. Pod-level `spec.resources`, where set, decide alone (PodLevelResources).
 * A missing request counts as its limit, as API defaulting sets it.
 */
import type { Pod } from './types';
import { parseQuantity, type Quantity } from './quantity';

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = ['cpu', 'memory'] as const;

type ResourceList = Record<string, string | number> | undefined;

/** Adds the list's positive cpu/memory quantities into `sums`; returns which it found. */
function addPositive(list: ResourceList, sums: Map<string, Quantity>): Set<string> {
  const found = new Set<string>();
  for (const name of QOS_RESOURCES) {
    const raw = list?.[name];
    if (raw === undefined) continue;
    const q = parseQuantity(raw);
    if (q.sign() <= 0) continue;
    found.add(name);
    const sum = sums.get(name);
    sums.set(name, sum ? sum.add(q) : q);
  }
  return found;
}

export function podQosClass(pod: Pod): QosClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let limitsAll = true;
  const podLevel = (pod.spec as { resources?: { requests?: ResourceList; limits?: ResourceList } })
    ?.resources;
  if (podLevel && (podLevel.requests || podLevel.limits)) {
    addPositive({ ...(podLevel.limits ?? {}), ...(podLevel.requests ?? {}) }, requests);
    limitsAll = addPositive(podLevel.limits, limits).size === QOS_RESOURCES.length;
  } else {
    for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
      const req = { ...(c.resources?.limits ?? {}), ...(c.resources?.requests ?? {}) } as ResourceList;
      addPositive(req, requests);
      if (addPositive(c.resources?.limits as ResourceList, limits).size < QOS_RESOURCES.length)
        limitsAll = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  const equal =
    requests.size === limits.size && [...requests].every(([name, q]) => limits.get(name)?.cmp(q) === 0);
  return limitsAll && equal ? 'Guaranteed' : 'Burstable';
}
