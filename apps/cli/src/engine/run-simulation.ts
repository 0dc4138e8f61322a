import type { Pod } from '@schedlab/k8s';
import {
  buildClusterState,
  setupEngine,
  simulate,
  type ClusterObjects,
  type SimulationResult,
  type TieBreak,
} from '@schedlab/scheduler';
import { settleImmediateClaims } from '@schedlab/storage';
import {
  scheduleUnexpandedWorkloads,
  unmodelledOnceExpanded,
  type RejectedObject,
} from '@schedlab/workloads';
import { loadClusterDump, type ClusterDump } from '../input/cluster-dump';
import { attributeTo } from '../input/errors';
import { readInputFile } from '../input/read-input-file';
import { attributeWorkloadErrors } from './workloads';

/** The scheduling options both `simulate` and `explain` accept. */
export interface SimulationFlags {
  cluster: string;
  profile?: string;
  seed: number;
  compatibilityVersion: string;
  tieBreak: TieBreak;
  /** Run the PV controller on the dump before scheduling, as a cluster would (default true). */
  pvController?: boolean;
}

export interface SimulationRun {
  dump: ClusterDump;
  result: SimulationResult;
  setup: ReturnType<typeof setupEngine>;
  /** Objects admission refused while expanding the dump's workloads, with the API server's message. */
  rejected: RejectedObject[];
  /** PVs, PVCs, classes… as they are after scheduling: the engine's volume bindings written in. */
  objects: ClusterObjects;
  /** Every pod of the run (running, scheduled or pending), for who-uses-which-claim. */
  pods: Pod[];
}

/**
 * A replay that explains one pod in full: every node's verdict and every plugin's score, recorded
 * for that pod only, and the run stops once it is scheduled (pods after it cannot change it).
 */
export interface ReplayTarget {
  explainPod?: string;
}

/** The engine options the flags stand for (the profile file read, not yet validated). */
export function engineOptionsOf(flags: SimulationFlags) {
  const schedulerConfiguration = flags.profile === undefined ? undefined : readInputFile(flags.profile);
  return {
    schedulerConfiguration,
    compatibilityVersion: flags.compatibilityVersion,
    seed: flags.seed,
    tieBreak: flags.tieBreak,
  };
}

/** Validates the profile and version, attributing problems to the profile file (or the flag). */
export function checkedSetup(
  flags: SimulationFlags,
  engine: Pick<ReturnType<typeof engineOptionsOf>, 'schedulerConfiguration' | 'compatibilityVersion'>,
) {
  // The version and feature gates are command-line input; the configuration is the profile's.
  return attributeTo(flags.profile ?? '--compatibility-version', () => setupEngine(engine));
}

/**
 * Loads the dump and profile, then schedules every pending pod. Input problems are attributed to
 * the file they come from: the profile for configuration errors, the dump for everything else.
 * Workloads without pods are expanded and admitted first (see ./workloads).
 */
export function runSimulation(
  flags: SimulationFlags,
  onProgress?: (done: number, total: number) => void,
  replay: ReplayTarget = {},
): SimulationRun {
  const dump = settledDump(loadClusterDump(flags.cluster), flags);
  const engine = {
    ...engineOptionsOf(flags),
    ...(replay.explainPod
      ? { explainPods: new Set([replay.explainPod]), stopAfterPod: replay.explainPod }
      : {}),
  };
  const setup = checkedSetup(flags, engine);
  const workloads = attributeWorkloadErrors(flags.cluster, () =>
    scheduleUnexpandedWorkloads(dump.objects, engine),
  );
  if (workloads) {
    const run = workloads.simulation;
    const unmodelledKinds: Record<string, number> = {};
    for (const o of dump.state.unmodelled) {
      if (!unmodelledOnceExpanded(o.kind)) continue; // their controllers ran
      unmodelledKinds[o.kind] = (unmodelledKinds[o.kind] ?? 0) + 1;
    }
    const result: SimulationResult = {
      compatibilityVersion: setup.features.version,
      summary: run.summary,
      results: run.results,
      orphanPods: dump.state.orphanPods.map(
        (p) => `${p.metadata?.namespace ?? 'default'}/${p.metadata?.name}`,
      ),
      unmodelledKinds,
    };
    return {
      dump,
      result,
      setup,
      rejected: workloads.rejected,
      objects: run.simulator.objects,
      pods: workloads.pods,
    };
  }
  const result = attributeTo(flags.cluster, () => simulate(dump.state, { ...engine, onProgress }));
  // The engine's simulator writes VolumeBinding's PreBind results into the state's objects.
  const pods = [...dump.state.runningPods, ...dump.state.pendingPods];
  return { dump, result, setup, rejected: [], objects: dump.state.objects, pods };
}

/**
 * The dump as the cluster would hold it when pods reach the scheduler: the PV controller has bound
 * or provisioned unbound claims of Immediate classes (zone chosen by the seed, not by the pods).
 * `--no-pv-controller` skips this to show the scheduler alone.
 */
function settledDump(dump: ClusterDump, flags: SimulationFlags): ClusterDump {
  if (flags.pvController === false) return dump;
  const { items } = settleImmediateClaims(dump.objects, { seed: flags.seed });
  if (items.length === dump.objects.length && items.every((o, i) => o === dump.objects[i])) return dump;
  return { ...dump, objects: items, state: attributeTo(dump.file, () => buildClusterState(items)) };
}
