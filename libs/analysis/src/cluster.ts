/**
 * The cluster as the scheduler finds it, before any analysis: the PV controller has settled
 * Immediate claims, and (for analyses that start from a running cluster) the workloads' pods have
 * been created, admitted and scheduled.
 */
import { podKeyOf, type KubeObject, type Pod } from '@schedlab/k8s';
import type { ClusterState, PodSchedulingResult } from '@schedlab/scheduler';
import { replaceStorageObjects, settleImmediateClaims } from '@schedlab/storage';
import {
  InvalidWorkloadsError,
  hasUnexpandedWorkloads,
  scheduleWorkloads,
  type RejectedObject,
} from '@schedlab/workloads';
import type { AnalysisOptions, EngineOptions } from './options';

export { InvalidWorkloadsError };

/**
 * The objects once the PV controller has run (unless `pvController: false`). The same array
 * comes back when the controller changed nothing, so a caller can keep state built from it.
 */
export function settleClaims(
  items: KubeObject[],
  options: Pick<AnalysisOptions, 'seed' | 'pvController'>,
): KubeObject[];
export function settleClaims(
  items: readonly KubeObject[],
  options: Pick<AnalysisOptions, 'seed' | 'pvController'>,
): readonly KubeObject[];
export function settleClaims(
  items: readonly KubeObject[],
  options: Pick<AnalysisOptions, 'seed' | 'pvController'>,
): readonly KubeObject[] {
  return settleClaimsOf(items, options).items;
}

/**
 * settleClaims, and with `known` (buildClusterState's result for exactly `items`) the state of
 * the objects it returns, built from `known` rather than from scratch.
 */
export function settleClaimsOf(
  items: readonly KubeObject[],
  options: Pick<AnalysisOptions, 'seed' | 'pvController'>,
  known?: ClusterState,
): { items: readonly KubeObject[]; state?: ClusterState } {
  if (options.pvController === false) return { items, state: known };
  const { items: settled, state } = settleImmediateClaims(items, { seed: options.seed ?? 0 }, known);
  if (settled.length === items.length && settled.every((o, i) => o === items[i]))
    return { items, state: known };
  return { items: settled, state };
}

export interface MaterializedCluster {
  /** The objects with workloads replaced by their admitted pods, bound where the engine put them. */
  items: KubeObject[];
  /** Scheduling of the expanded pods, or undefined when nothing needed expanding. */
  initial?: PodSchedulingResult[];
  /** Objects admission refused, with the API server's message. */
  rejected: RejectedObject[];
}

/**
 * For analyses that start from a running cluster (scenarios, capacity, compare, resilience…):
 * expands and schedules the workloads, then writes each binding into its pod, so the analysis
 * starts from the cluster as it is once the workloads run (OrderedReady StatefulSets included).
 * Invalid workloads throw InvalidWorkloadsError.
 */
export function materializeWorkloads(
  objects: readonly KubeObject[],
  engine: EngineOptions,
): MaterializedCluster {
  if (!hasUnexpandedWorkloads(objects)) return { items: [...objects], rejected: [] };
  const run = scheduleWorkloads(objects, { ...engine });
  const bound = new Map(run.results.filter((r) => r.node).map((r) => [r.pod, r.node!]));
  const victims = new Set(run.results.flatMap((r) => r.victims ?? []));
  const place = (o: KubeObject): KubeObject => {
    if (o.kind !== 'Pod') return o;
    const node = bound.get(podKeyOf(o));
    const pod = o as unknown as Pod;
    return node
      ? ({
          ...pod,
          spec: { ...pod.spec!, nodeName: node },
          status: { ...pod.status, phase: 'Running' },
        } as unknown as KubeObject)
      : o;
  };
  const e = run.expansion;
  const started = [
    ...e.passthrough,
    ...(e.replicaSets as unknown as KubeObject[]),
    ...(e.statefulSets.map((c) => c.set) as unknown as KubeObject[]),
    ...(e.jobs as unknown as KubeObject[]),
    ...(e.pvcs as unknown as KubeObject[]),
    ...(e.pods as unknown as KubeObject[]),
  ]
    .filter((o) => !(o.kind === 'Pod' && victims.has(podKeyOf(o))))
    .map(place);
  // The claims the scheduler bound and the volumes it had provisioned stay bound in the cluster.
  const items = run.results.some((r) => r.volumes)
    ? replaceStorageObjects(started, [
        ...(run.simulator.objects.persistentVolumes.list() as unknown as KubeObject[]),
        ...(run.simulator.objects.persistentVolumeClaims.list() as unknown as KubeObject[]),
      ])
    : started;
  return { items, initial: run.results, rejected: e.rejected };
}
