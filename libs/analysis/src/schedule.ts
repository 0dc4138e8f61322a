/**
 * `simulate`: every pending pod of the cluster through the scheduler, as kube-scheduler would
 * take them. Workloads without pods are expanded and admitted first (@schedlab/workloads); a
 * cluster whose workloads already have their pods goes straight to the engine.
 */
import { podKeyOf, type KubeObject, type Pod } from '@schedlab/k8s';
import {
  buildClusterState,
  setupEngine,
  simulate,
  type ClusterObjects,
  type ClusterState,
  type SimulateOptions,
  type SimulationResult,
} from '@schedlab/scheduler';
import {
  scheduleUnexpandedWorkloads,
  unmodelledOnceExpanded,
  type RejectedObject,
} from '@schedlab/workloads';
import type { ProgressReport } from './options';

export interface ScheduledCluster {
  result: SimulationResult;
  /** The cluster the run started from (nodes, running and pending pods, objects). */
  state: ClusterState;
  /** The objects placements are read from (owners, zones): the cluster plus the admitted pods. */
  items: KubeObject[];
  /** PVs, PVCs, classes… after the run, with the engine's volume bindings written in. */
  objects: ClusterObjects;
  /** Every pod of the run (running, scheduled or pending), for who-uses-which-claim. */
  pods: Pod[];
  /** Objects admission refused while expanding the workloads, with the API server's message. */
  rejected: RejectedObject[];
}

const noProgress: ProgressReport = () => undefined;

/**
 * Schedules `items` (already settled by the PV controller). `state`, when given, must be built
 * from exactly these items (the CLI has it from loading the dump). Progress: phase `workloads`
 * while workloads expand, then `scheduling` after every pod.
 */
export function scheduleCluster(
  items: readonly KubeObject[],
  engine: Omit<SimulateOptions, 'onProgress'>,
  report: ProgressReport = noProgress,
  state: ClusterState = buildClusterState(items),
): ScheduledCluster {
  const onProgress = (podsProcessed: number, podsTotal: number) =>
    report({ phase: 'scheduling', podsProcessed, podsTotal });
  const orphanPods = state.orphanPods.map((p) => podKeyOf(p));
  report({ phase: 'workloads', podsProcessed: 0, podsTotal: 0 });
  const workloads = scheduleUnexpandedWorkloads(items, { ...engine, onProgress });
  if (workloads) {
    const run = workloads.simulation;
    const unmodelledKinds: Record<string, number> = {};
    for (const o of state.unmodelled) {
      if (unmodelledOnceExpanded(o.kind)) unmodelledKinds[o.kind] = (unmodelledKinds[o.kind] ?? 0) + 1;
    }
    return {
      result: {
        compatibilityVersion: setupEngine(engine).features.version,
        summary: run.summary,
        results: run.results,
        orphanPods,
        unmodelledKinds,
      },
      state,
      items: [...items, ...(run.expansion.pods as unknown as KubeObject[])],
      objects: run.simulator.objects,
      pods: workloads.pods,
      rejected: workloads.rejected,
    };
  }
  const result = simulate(state, { ...engine, onProgress });
  return {
    result: { ...result, orphanPods },
    state,
    items: [...items],
    // The engine's simulator writes VolumeBinding's PreBind results into the state's objects.
    objects: state.objects,
    pods: [...state.runningPods, ...state.pendingPods],
    rejected: [],
  };
}
