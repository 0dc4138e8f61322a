/**
 * RemovePodsViolatingNodeAffinity: evicts pods whose required node affinity (or nodeSelector) the
 * node no longer satisfies, or, for the preferred type, pods another node would suit better, as
 * long as the pod fits some node.
 */
import { type Node, type Pod, compilePreferredSchedulingTerms, requiredNodeAffinityOf } from '@schedlab/k8s';
import { z } from 'zod';
import { podFilterArgsShape } from '../../api/schema';
import { evictEach } from '../../framework/evict-loop';
import { activePodsOnNode, podFilterOf } from '../../framework/pods';
import type { DeschedulePlugin, Handle } from '../../framework/types';

export const REMOVE_PODS_VIOLATING_NODE_AFFINITY = 'RemovePodsViolatingNodeAffinity';
const REQUIRED = 'requiredDuringSchedulingIgnoredDuringExecution';
const PREFERRED = 'preferredDuringSchedulingIgnoredDuringExecution';

export const nodeAffinityArgsSchema = z.strictObject({
  ...podFilterArgsShape,
  nodeAffinityType: z
    .array(z.string(), { error: 'nodeAffinityType needs to be set' })
    .min(1, { error: 'nodeAffinityType needs to be set' }),
});

export type NodeAffinityArgs = z.output<typeof nodeAffinityArgsSchema>;

const requiredTermsOf = (pod: Pod) =>
  pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
const preferredTermsOf = (pod: Pod) =>
  pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];

export function createNodeAffinityPlugin(args: NodeAffinityArgs, handle: Handle): DeschedulePlugin {
  const { evictor } = handle;
  const podFilter = podFilterOf(args, evictor.filter, evictor.preEvictionFilter);
  const fitsAnyNode = (pod: Pod, nodes: readonly Node[]) => nodes.some((n) => handle.podFitsNode(pod, n));

  const processNodes = (
    nodes: readonly Node[],
    violates: (pod: Pod, node: Node) => boolean,
    detail: (pod: Pod, node: Node) => string,
  ): boolean => {
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      const pods = activePodsOnNode(handle, name, (pod) => podFilter(pod) && violates(pod, node));
      const end = evictEach(handle, pods, (pod) => ({
        strategy: REMOVE_PODS_VIOLATING_NODE_AFFINITY,
        reason: '',
        detail: detail(pod, node),
      }));
      if (end === 'total-limit') return false;
    }
    return true;
  };

  return {
    name: REMOVE_PODS_VIOLATING_NODE_AFFINITY,
    deschedule(nodes) {
      for (const type of args.nodeAffinityType) {
        if (type === REQUIRED) {
          const ok = processNodes(
            nodes,
            (pod, node) =>
              requiredTermsOf(pod) !== undefined &&
              evictor.filter(pod) &&
              fitsAnyNode(pod, nodes) &&
              !requiredNodeAffinityOf(pod).match(node),
            (_pod, node) => `node ${node.metadata?.name} no longer matches the pod's required node affinity`,
          );
          if (!ok) return;
        } else if (type === PREFERRED) {
          const weightOn = (pod: Pod) => {
            const terms = compilePreferredSchedulingTerms(preferredTermsOf(pod));
            return (node: Node) => terms.score(node);
          };
          const ok = processNodes(
            nodes,
            (pod, node) => {
              if (preferredTermsOf(pod).length === 0 || !evictor.filter(pod) || !fitsAnyNode(pod, nodes))
                return false;
              const weight = weightOn(pod);
              const best = Math.max(0, ...nodes.map(weight));
              return best > weight(node);
            },
            (pod, node) => {
              const weight = weightOn(pod);
              return `another node scores ${Math.max(0, ...nodes.map(weight))} on the pod's preferred node affinity, ${node.metadata?.name} ${weight(node)}`;
            },
          );
          if (!ok) return;
        }
        // Upstream logs an unknown type and goes on.
      }
    },
  };
}
