/**
 * RemovePodsViolatingInterPodAntiAffinity: evicts, node by node and lowest priority first, pods
 * whose required anti-affinity another pod in the same topology domain now matches.
 */
import { type Node, type Pod, namespaceOf, podKeyOf, selectorFromLabelSelector } from '@schedlab/k8s';
import { z } from 'zod';
import { podFilterArgsShape } from '../../api/schema';
import { activePodsOnNode, podFilterOf, sortPodsByPriorityLowToHigh } from '../../framework/pods';
import type { DeschedulePlugin, Handle } from '../../framework/types';

export const REMOVE_PODS_VIOLATING_INTER_POD_ANTI_AFFINITY = 'RemovePodsViolatingInterPodAntiAffinity';

export const interPodAntiAffinityArgsSchema = z.strictObject({ ...podFilterArgsShape });

export type InterPodAntiAffinityArgs = z.output<typeof interPodAntiAffinityArgsSchema>;

/** Two nodes share a domain of the key when they are the same node or both carry the same value. */
function sameDomain(a: Node, b: Node, key: string): boolean {
  if (a.metadata?.name === b.metadata?.name) return true;
  const va = a.metadata?.labels?.[key];
  const vb = b.metadata?.labels?.[key];
  return va !== undefined && vb !== undefined && va === vb;
}

/** The first pod the candidate's required anti-affinity rejects in its domain, if any. */
function conflictingPod(
  candidate: Pod,
  podsByNamespace: Map<string, Pod[]>,
  nodesByName: Map<string, Node>,
): Pod | undefined {
  const here = nodesByName.get(candidate.spec?.nodeName ?? '');
  if (!here) return undefined;
  for (const term of candidate.spec?.affinity?.podAntiAffinity
    ?.requiredDuringSchedulingIgnoredDuringExecution ?? []) {
    const namespaces = term.namespaces?.length ? term.namespaces : [namespaceOf(candidate)];
    let selector;
    try {
      selector = selectorFromLabelSelector(term.labelSelector);
    } catch {
      return undefined; // upstream gives up on the pod
    }
    for (const ns of new Set(namespaces)) {
      for (const other of podsByNamespace.get(ns) ?? []) {
        if (other.metadata?.name === candidate.metadata?.name) continue;
        if (!namespaces.includes(namespaceOf(other)) || !selector.matches(other.metadata?.labels)) continue;
        const there = nodesByName.get(other.spec?.nodeName ?? '');
        if (there && sameDomain(here, there, term.topologyKey)) return other;
      }
    }
  }
  return undefined;
}

export function createInterPodAntiAffinityPlugin(
  args: InterPodAntiAffinityArgs,
  handle: Handle,
): DeschedulePlugin {
  const podFilter = podFilterOf(args);
  const { evictor } = handle;
  return {
    name: REMOVE_PODS_VIOLATING_INTER_POD_ANTI_AFFINITY,
    deschedule(nodes) {
      const nodesByName = new Map(nodes.map((n) => [n.metadata?.name ?? '', n]));
      const podsByNode = new Map<string, Pod[]>();
      const podsByNamespace = new Map<string, Pod[]>();
      for (const node of nodes) {
        const pods = activePodsOnNode(handle, node.metadata?.name ?? '', podFilter);
        podsByNode.set(node.metadata?.name ?? '', pods);
        for (const pod of pods) {
          const list = podsByNamespace.get(namespaceOf(pod));
          if (list) list.push(pod);
          else podsByNamespace.set(namespaceOf(pod), [pod]);
        }
      }
      for (const node of nodes) {
        const pods = sortPodsByPriorityLowToHigh([...(podsByNode.get(node.metadata?.name ?? '') ?? [])]);
        for (const pod of pods) {
          const other = conflictingPod(pod, podsByNamespace, nodesByName);
          if (!other || !evictor.filter(pod) || !evictor.preEvictionFilter(pod)) continue;
          const evicted = evictor.evict(pod, {
            strategy: REMOVE_PODS_VIOLATING_INTER_POD_ANTI_AFFINITY,
            reason: '',
            detail: `pod's required anti-affinity matches ${podKeyOf(other)} on node ${other.spec?.nodeName}`,
          });
          if (evicted) {
            // Gone pods no longer count against the others.
            const list = podsByNamespace.get(namespaceOf(pod)) ?? [];
            const at = list.findIndex((p) => p.metadata?.name === pod.metadata?.name);
            if (at >= 0) list.splice(at, 1);
            continue;
          }
          const refusal = evictor.lastRefusal();
          if (refusal === 'node-limit') break;
          if (refusal === 'total-limit') return;
        }
      }
    },
  };
}
