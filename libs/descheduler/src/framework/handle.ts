/** The handle and evictor one profile's plugins get (upstream's handleImpl and evictorImpl). */
import type { Node, Pod } from '@schedlab/k8s';
import type { ClusterView } from './cluster-view';
import type { ExtensionPoint, PodEvictor } from './pod-evictor';
import type { EvictionRefusal, Evictor, Handle } from './types';

export interface ProfileEvictorParts {
  profile: string;
  podEvictor: PodEvictor;
  /** The profile's filter plugins, all of which must pass. */
  filters: readonly ((pod: Pod) => boolean)[];
  preEvictionFilters: readonly ((pod: Pod) => boolean)[];
  /** Which extension point is running, for the eviction records. */
  extensionPoint(): ExtensionPoint;
}

export function createEvictor(parts: ProfileEvictorParts): Evictor {
  let last: EvictionRefusal | undefined;
  return {
    filter: (pod) => parts.filters.every((f) => f(pod)),
    preEvictionFilter: (pod) => parts.preEvictionFilters.every((f) => f(pod)),
    evict(pod, options) {
      last = parts.podEvictor.evict(pod, options, parts.profile, parts.extensionPoint());
      return last === undefined;
    },
    lastRefusal: () => last,
    nodeLimitExceeded: (nodeName) => parts.podEvictor.nodeLimitExceeded(nodeName),
    totalLimitExceeded: () => parts.podEvictor.totalLimitExceeded(),
  };
}

export function createHandle(
  view: ClusterView,
  evictor: Evictor,
  now: () => number,
  podFitsNode: (pod: Pod, node: Node) => boolean,
): Handle {
  return {
    evictor,
    podsOnNode: (nodeName) => view.podsOnNode(nodeName),
    objects: view.objects,
    now,
    podFitsNode,
  };
}
