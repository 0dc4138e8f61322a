/**
 * RemovePodsViolatingNodeTaints: evicts pods that do not tolerate a NoSchedule taint of their node
 * (PreferNoSchedule too when asked), within the included/excluded taints.
 */
import { type Taint, findMatchingUntoleratedTaint } from '@schedlab/k8s';
import { z } from 'zod';
import { podFilterArgsShape } from '../../api/schema';
import { evictEach } from '../../framework/evict-loop';
import { activePodsOnNode, podFilterOf } from '../../framework/pods';
import type { DeschedulePlugin, Handle } from '../../framework/types';

export const REMOVE_PODS_VIOLATING_NODE_TAINTS = 'RemovePodsViolatingNodeTaints';

export const nodeTaintsArgsSchema = z
  .strictObject({
    ...podFilterArgsShape,
    includePreferNoSchedule: z.boolean().default(false),
    excludedTaints: z.array(z.string()).optional(),
    includedTaints: z.array(z.string()).optional(),
  })
  .refine((a) => !(a.excludedTaints?.length && a.includedTaints?.length), {
    error: 'either includedTaints or excludedTaints can be set, but not both',
  });

export type NodeTaintsArgs = z.output<typeof nodeTaintsArgsSchema>;

/** A taint is named by its key, or by `key=value` when it has a value. */
const named = (names: ReadonlySet<string>, taint: Taint) =>
  names.has(taint.key) || (!!taint.value && names.has(`${taint.key}=${taint.value}`));

export function createNodeTaintsPlugin(args: NodeTaintsArgs, handle: Handle): DeschedulePlugin {
  const podFilter = podFilterOf(args, handle.evictor.filter, handle.evictor.preEvictionFilter);
  const excluded = new Set(args.excludedTaints ?? []);
  // An absent list includes every taint; an empty one none.
  const included = args.includedTaints ? new Set(args.includedTaints) : undefined;
  const effects = new Set(args.includePreferNoSchedule ? ['NoSchedule', 'PreferNoSchedule'] : ['NoSchedule']);
  const considered = (taint: Taint) =>
    effects.has(taint.effect) && !named(excluded, taint) && (!included || named(included, taint));

  return {
    name: REMOVE_PODS_VIOLATING_NODE_TAINTS,
    deschedule(nodes) {
      for (const node of nodes) {
        const name = node.metadata?.name ?? '';
        const untolerated = new Map<unknown, Taint>();
        const pods = activePodsOnNode(handle, name, podFilter).filter((pod) => {
          const taint = findMatchingUntoleratedTaint(node.spec?.taints, pod.spec?.tolerations, considered);
          if (taint) untolerated.set(pod, taint);
          return taint !== undefined;
        });
        const end = evictEach(handle, pods, (pod) => {
          const t = untolerated.get(pod) as Taint;
          return {
            strategy: REMOVE_PODS_VIOLATING_NODE_TAINTS,
            reason: '',
            detail: `pod does not tolerate taint ${t.key}${t.value ? `=${t.value}` : ''}:${t.effect} on node ${name}`,
          };
        });
        if (end === 'total-limit') return;
      }
    },
  };
}
