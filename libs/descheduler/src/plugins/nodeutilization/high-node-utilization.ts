/**
 * HighNodeUtilization (kubernetes-sigs/descheduler): evicts pods from nodes whose requests are
 * below thresholds, least used first, so the scheduler (with a bin-packing profile) packs them
 * onto fewer nodes. Usage is requests.
 */
import { z } from 'zod';
import type { Node, Pod } from '@schedlab/k8s';
import type { BalancePlugin, Handle } from '../../framework/types';
import {
  capacityCappedAt,
  describePercentages,
  evictableNamespacesSchema,
  evictFromSourceNodes,
  hasRoomLeft,
  isBelowThresholds,
  MAX_RESOURCE_PERCENTAGE,
  nodeCapacity,
  resourceThresholdsSchema,
  sortNodesByUsage,
  takeUsageSnapshot,
  thresholdsError,
  trackedResources,
  usagePercentages,
  worthBalancing,
  type NodeUsage,
  type ResourceThresholds,
} from './node-utilization';

export const HIGH_NODE_UTILIZATION = 'HighNodeUtilization';

/** Only evict pods that request at least one of the thresholds' resources. */
export const ONLY_THRESHOLDING_RESOURCES = 'OnlyThresholdingResources';

export const highNodeUtilizationArgsSchema = z
  .object({
    thresholds: resourceThresholdsSchema.default({}),
    numberOfNodes: z.number().int().default(0),
    evictionModes: z
      .array(
        z.string().refine((m) => m === ONLY_THRESHOLDING_RESOURCES, {
          error: (i) => `invalid eviction mode ${String(i.input)}`,
        }),
      )
      .optional(),
    evictableNamespaces: evictableNamespacesSchema.optional(),
  })
  .strict()
  .superRefine((args, ctx) => {
    const invalid = thresholdsError(args.thresholds);
    if (invalid) ctx.addIssue({ code: 'custom', path: ['thresholds'], message: invalid });
  });

export type HighNodeUtilizationArgs = z.infer<typeof highNodeUtilizationArgsSchema>;

export function highNodeUtilization(args: HighNodeUtilizationArgs, handle: Handle): BalancePlugin {
  const resources = trackedResources(args.thresholds);
  const thresholdResources = Object.keys(args.thresholds);
  // Only the lower bound matters here; the upper one lets a node fill to its allocatable.
  const full: ResourceThresholds = Object.fromEntries(
    thresholdResources.map((r) => [r, MAX_RESOURCE_PERCENTAGE]),
  );
  const excludedNamespaces = new Set(args.evictableNamespaces?.exclude ?? []);
  const onlyThresholding = (args.evictionModes ?? []).includes(ONLY_THRESHOLDING_RESOURCES);
  const requestsAThresholdResource = (pod: Pod) =>
    [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].some((c) =>
      thresholdResources.some((r) => c.resources?.requests?.[r] !== undefined),
    );

  return {
    name: HIGH_NODE_UTILIZATION,
    balance(nodes: readonly Node[]): void {
      const underutilized: NodeUsage[] = [];
      const schedulable: NodeUsage[] = [];
      for (const [name, { node, usage, pods }] of takeUsageSnapshot(nodes, handle, resources)) {
        const percentage = usagePercentages(usage, nodeCapacity(node));
        const entry: NodeUsage = {
          node,
          name,
          usage,
          pods,
          available: capacityCappedAt(node, full, resources),
          percentages: percentage,
        };
        if (isBelowThresholds(percentage, args.thresholds)) underutilized.push(entry);
        else if (!node.spec?.unschedulable) schedulable.push(entry);
      }

      if (!worthBalancing(underutilized.length, args.numberOfNodes, nodes.length, schedulable.length)) return;

      evictFromSourceNodes({
        handle,
        sources: sortNodesByUsage(underutilized, true),
        destinations: schedulable,
        resources,
        isRemovable: (pod) =>
          handle.evictor.filter(pod) && (!onlyThresholding || requestsAThresholdResource(pod)),
        excludedNamespaces,
        shouldContinue: (_node, totalAvailable) => hasRoomLeft(totalAvailable),
        options: { strategy: HIGH_NODE_UTILIZATION, reason: '' },
        detailOf: (node) =>
          `node ${node.name} is underutilized: ${describePercentages(node.percentages, thresholdResources)} ` +
          `within thresholds ${describePercentages(args.thresholds, thresholdResources)}`,
      });
    },
  };
}
