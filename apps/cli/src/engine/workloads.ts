/**
 * Workloads in a dump (Deployments, StatefulSets, DaemonSets, Jobs… without their pods) are
 * what a user is about to apply: @schedlab/workloads creates and admits their pods, then the
 * engine schedules them. Dumps whose workloads already have their pods take the plain path.
 */
import type { KubeObject, Pod } from '@schedlab/k8s';
import type { PodSchedulingResult } from '@schedlab/scheduler';
import { InvalidWorkloadsError, hasUnexpandedWorkloads, scheduleWorkloads, type RejectedObject, type WorkloadSimulation } from '@schedlab/workloads';
import type { EngineOptions } from '@schedlab/scenarios';
import { InputFileError, attributeTo } from '../input/errors';

// Deciding what needs expanding is shared with the worker's runs (@schedlab/workloads).
export { hasUnexpandedWorkloads, rejectedKey } from '@schedlab/workloads';

/** Runs `body`, reporting invalid workloads (strict expansion) as an error in `file`. */
export function attributeWorkloadErrors<T>(file: string, body: () => T): T {
  try {
    return attributeTo(file, body);
  } catch (error) {
    if (error instanceof InvalidWorkloadsError) throw new InputFileError(file, error.message);
    throw error;
  }
}

export function scheduleDumpWorkloads(file: string, objects: readonly KubeObject[], engine: EngineOptions): WorkloadSimulation {
  return attributeWorkloadErrors(file, () => scheduleWorkloads(objects, { ...engine, seed: engine.seed }));
}

export interface MaterializedDump {
  /** The dump with workloads replaced by their admitted pods, bound where the engine put them. */
  items: KubeObject[];
  /** Scheduling of the expanded pods, or undefined when nothing needed expanding. */
  initial?: PodSchedulingResult[];
  rejected: RejectedObject[];
}

const keyOf = (p: { metadata?: { namespace?: string; name?: string } }) => `${p.metadata?.namespace || 'default'}/${p.metadata?.name ?? ''}`;

/**
 * For analyses that take objects (scenarios, compare, resilience…): expands and schedules the
 * dump's workloads, then writes each binding into the pod, so the analysis starts from the
 * cluster as it is once the workloads are running (OrderedReady StatefulSets included).
 */
export function materializeWorkloads(file: string, objects: readonly KubeObject[], engine: EngineOptions): MaterializedDump {
  if (!hasUnexpandedWorkloads(objects)) return { items: [...objects], rejected: [] };
  const run = scheduleDumpWorkloads(file, objects, engine);
  const bound = new Map(run.results.filter((r) => r.node).map((r) => [r.pod, r.node!]));
  const victims = new Set(run.results.flatMap((r) => r.victims ?? []));
  const place = (o: KubeObject): KubeObject => {
    if (o.kind !== 'Pod') return o;
    const node = bound.get(keyOf(o));
    const pod = o as unknown as Pod;
    return node ? ({ ...pod, spec: { ...pod.spec!, nodeName: node }, status: { ...pod.status, phase: 'Running' } } as unknown as KubeObject) : o;
  };
  const e = run.expansion;
  const items = [
    ...e.passthrough,
    ...(e.replicaSets as unknown as KubeObject[]),
    ...(e.statefulSets.map((c) => c.set) as unknown as KubeObject[]),
    ...(e.jobs as unknown as KubeObject[]),
    ...(e.pvcs as unknown as KubeObject[]),
    ...(e.pods as unknown as KubeObject[]),
  ]
    .filter((o) => !(o.kind === 'Pod' && victims.has(keyOf(o))))
    .map(place);
  return { items, initial: run.results, rejected: e.rejected };
}
