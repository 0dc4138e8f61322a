/**
 * LowNodeUtilization (kubernetes-sigs/descheduler): evicts pods from nodes whose requests are
 * above targetThresholds while nodes below thresholds can take them, so the scheduler moves them
 * to the underutilized nodes. Usage is requests, never live metrics (a snapshot has none).
 */
import { z } from 'zod';
import type { Node } from '@schedlab/k8s';
import { uintSchema } from '../../api/schema';
import type { BalancePlugin, Handle } from '../../framework/types';
import {
  averageUsage,
  capacityCappedAt,
  deviatedThresholds,
  describePercentages,
  evictableNamespacesSchema,
  evictFromSourceNodes,
  hasRoomLeft,
  isAboveAvailable,
  isAboveThresholds,
  isBelowThresholds,
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

export const LOW_NODE_UTILIZATION = 'LowNodeUtilization';

export const lowNodeUtilizationArgsSchema = z
  .object({
    useDeviationThresholds: z.boolean().default(false),
    thresholds: resourceThresholdsSchema.default({}),
    targetThresholds: resourceThresholdsSchema.default({}),
    numberOfNodes: z.number().int().default(0),
    metricsUtilization: z.unknown().optional(),
    evictableNamespaces: evictableNamespacesSchema.optional(),
    evictionLimits: z.strictObject({ node: uintSchema.optional() }).optional(),
  })
  .strict()
  .superRefine((args, ctx) => {
    const thresholdsInvalid = thresholdsError(args.thresholds);
    if (thresholdsInvalid) {
      ctx.addIssue({
        code: 'custom',
        path: ['thresholds'],
        message: `thresholds config is not valid: ${thresholdsInvalid}`,
      });
      return;
    }
    const targetInvalid = thresholdsError(args.targetThresholds);
    if (targetInvalid) {
      ctx.addIssue({
        code: 'custom',
        path: ['targetThresholds'],
        message: `targetThresholds config is not valid: ${targetInvalid}`,
      });
      return;
    }
    const names = Object.keys(args.thresholds);
    if (
      names.length !== Object.keys(args.targetThresholds).length ||
      names.some((n) => !Object.hasOwn(args.targetThresholds, n))
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['targetThresholds'],
        message: 'thresholds and targetThresholds configured different resources',
      });
      return;
    }
    for (const name of names)
      if (!args.useDeviationThresholds && args.thresholds[name] > args.targetThresholds[name])
        ctx.addIssue({
          code: 'custom',
          path: ['thresholds', name],
          message: `thresholds' ${name} percentage is greater than targetThresholds'`,
        });
    if (args.metricsUtilization !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['metricsUtilization'],
        message: "not supported: a snapshot has no live metrics, so usage is always the pods' requests",
      });
  });

export type LowNodeUtilizationArgs = z.infer<typeof lowNodeUtilizationArgsSchema>;

export function lowNodeUtilization(args: LowNodeUtilizationArgs, handle: Handle): BalancePlugin {
  const resources = trackedResources(args.thresholds);
  const thresholdResources = Object.keys(args.thresholds);
  const excludedNamespaces = new Set(args.evictableNamespaces?.exclude ?? []);

  return {
    name: LOW_NODE_UTILIZATION,
    balance(nodes: readonly Node[]): void {
      const snapshot = takeUsageSnapshot(nodes, handle, resources);
      const percentages = new Map<string, ResourceThresholds>();
      for (const [name, { node, usage }] of snapshot) {
        // With deviations only the thresholds' resources enter the average.
        const considered = args.useDeviationThresholds
          ? new Map([...usage].filter(([r]) => thresholdResources.includes(r)))
          : usage;
        percentages.set(name, usagePercentages(considered, nodeCapacity(node)));
      }

      let low: ResourceThresholds = args.thresholds;
      let high: ResourceThresholds = args.targetThresholds;
      if (args.useDeviationThresholds) {
        const average = averageUsage([...percentages.values()]);
        low = deviatedThresholds(average, args.thresholds, -1);
        high = deviatedThresholds(average, args.targetThresholds, 1);
      }

      const underutilized: NodeUsage[] = [];
      const overutilized: NodeUsage[] = [];
      for (const [name, { node, usage, pods }] of snapshot) {
        const percentage = percentages.get(name) ?? {};
        const entry: NodeUsage = {
          node,
          name,
          usage,
          pods,
          available: capacityCappedAt(node, high, resources),
          percentages: percentage,
        };
        // An unschedulable node cannot receive pods, so it never counts as underutilized.
        if (!node.spec?.unschedulable && isBelowThresholds(percentage, low)) underutilized.push(entry);
        else if (isAboveThresholds(percentage, high)) overutilized.push(entry);
      }

      if (!worthBalancing(underutilized.length, args.numberOfNodes, nodes.length, overutilized.length))
        return;

      evictFromSourceNodes({
        handle,
        sources: sortNodesByUsage(overutilized, false),
        destinations: underutilized,
        resources,
        isRemovable: (pod) => handle.evictor.filter(pod),
        excludedNamespaces,
        shouldContinue: (node, totalAvailable) => isAboveAvailable(node) && hasRoomLeft(totalAvailable),
        options: { strategy: LOW_NODE_UTILIZATION, reason: '' },
        detailOf: (node) =>
          `node ${node.name} is overutilized: ${describePercentages(node.percentages, thresholdResources)} ` +
          `above targetThresholds ${describePercentages(high, thresholdResources)}; ` +
          `underutilized: ${underutilized.map((n) => n.name).join(', ')}`,
        maxEvictionsPerNode: args.evictionLimits?.node,
      });
    },
  };
}
