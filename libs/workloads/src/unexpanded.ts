/**
 * Workloads in a dump (Deployments, StatefulSets, DaemonSets, Jobs… without their pods) are what
 * a user is about to apply: their controllers create the pods, admission admits (or rejects)
 * them, then the engine schedules them. Dumps whose workloads already have their pods take the
 * plain simulate path. Shared by the CLI and the worker so both treat a dump the same way.
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import { WORKLOAD_KINDS, expandWorkloads, type RejectedObject } from './expand';
import { scheduleWorkloads, type ScheduleWorkloadsOptions, type WorkloadSimulation } from './schedule';

/** CronJobs create nothing without a time window, so they never call for expansion. */
const EXPANDABLE_KINDS = [...WORKLOAD_KINDS].filter((k) => k !== 'CronJob');

/** Kinds the plain path reports as unmodelled but whose controllers run once a dump is expanded. */
const MODELLED_ONCE_EXPANDED = new Set(['Deployment', 'DaemonSet', 'Job', 'CronJob']);

/** True when some workload of the dump has no pods (or, for a Deployment, no ReplicaSet) yet. */
export function hasUnexpandedWorkloads(objects: readonly KubeObject[]): boolean {
  const workloads = objects.filter((o) => EXPANDABLE_KINDS.includes(o.kind));
  if (workloads.length === 0) return false;
  const probe = expandWorkloads(objects, { bestEffort: true });
  return probe.alreadyRunning.length < workloads.length;
}

/** True when a kind stays unmodelled even after its workloads were expanded. */
export function unmodelledOnceExpanded(kind: string): boolean {
  return !MODELLED_ONCE_EXPANDED.has(kind);
}

export interface UnexpandedWorkloadRun {
  simulation: WorkloadSimulation;
  /** Every pod of the run: the dump's own plus the admitted ones (scheduled or pending). */
  pods: Pod[];
  /** Objects admission refused, with the API server's message. */
  rejected: RejectedObject[];
}

/**
 * Expands, admits and schedules the dump's workloads when some have no pods yet; undefined when
 * the dump needs no expansion (schedule it with the scheduler's `simulate`). Invalid workloads
 * throw InvalidWorkloadsError (strict expansion: nothing is applied).
 */
export function scheduleUnexpandedWorkloads(
  items: readonly KubeObject[],
  options: ScheduleWorkloadsOptions = {},
): UnexpandedWorkloadRun | undefined {
  if (!hasUnexpandedWorkloads(items)) return undefined;
  const simulation = scheduleWorkloads(items, options);
  const e = simulation.expansion;
  const pods = [
    ...e.passthrough.filter((o) => o.kind === 'Pod'),
    ...(e.pods as unknown as KubeObject[]),
  ] as unknown as Pod[];
  return { simulation, pods, rejected: e.rejected };
}

/** `Pod ns/name` → `ns/name`, the key placements use; other kinds keep their kind. */
export function rejectedKey(rejected: RejectedObject): string {
  return rejected.object.startsWith('Pod ') ? rejected.object.slice(4) : rejected.object;
}
