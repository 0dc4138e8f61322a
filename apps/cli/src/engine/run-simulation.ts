import type { Pod } from '@schedlab/k8s';
import { runAnalysis, type PipelineHooks } from '@schedlab/analysis';
import {
  setupEngine,
  type ClusterObjects,
  type ExplainLevel,
  type SimulationResult,
  type TieBreak,
} from '@schedlab/scheduler';
import type { RejectedObject } from '@schedlab/workloads';
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
  /** The dump as the scheduler found it: the PV controller's bindings written in. */
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
  /**
   * How much every other pod's attempts record (the engine's default, `compact`, when absent).
   * `simulate` without a report asks for `summary`: its output holds no explanation, and the
   * decisions and messages are the same at every level.
   */
  explain?: ExplainLevel;
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

/** The pipeline's options for the flags: the engine's and the PV controller switch. */
export function analysisOptionsOf(flags: SimulationFlags) {
  return { ...engineOptionsOf(flags), pvController: flags.pvController };
}

/**
 * Where the pipeline's errors come from: the profile (or the version flag) for configuration
 * errors, the dump for everything else (invalid workloads included).
 */
export function pipelineHooks(flags: SimulationFlags): Required<Pick<PipelineHooks, 'cluster' | 'setup'>> {
  return {
    cluster: (step) => attributeWorkloadErrors(flags.cluster, step),
    setup: (step) => attributeTo(flags.profile ?? '--compatibility-version', step),
  };
}

/**
 * Loads the dump and profile, then schedules every pending pod through the analysis pipeline
 * (@schedlab/analysis: PV controller, workload expansion and admission, engine). Only reading
 * the files and naming the file a problem comes from happen here.
 */
export function runSimulation(
  flags: SimulationFlags,
  onProgress?: (done: number, total: number) => void,
  replay: ReplayTarget = {},
): SimulationRun {
  const loaded = loadClusterDump(flags.cluster);
  const options = {
    ...analysisOptionsOf(flags),
    ...(replay.explainPod
      ? { explainPods: new Set([replay.explainPod]), stopAfterPod: replay.explainPod }
      : {}),
    ...(replay.explain ? { explain: replay.explain } : {}),
  };
  const outcome = runAnalysis(
    'simulate',
    loaded.objects,
    options,
    { known: { items: loaded.objects, state: loaded.state } },
    {
      ...pipelineHooks(flags),
      known: loaded.state,
      report: (p) => {
        if (p.phase === 'scheduling') onProgress?.(p.podsProcessed, p.podsTotal);
      },
    },
  );
  const run = outcome.result;
  const dump =
    run.state === loaded.state ? loaded : { ...loaded, objects: [...outcome.items], state: run.state };
  return {
    dump,
    result: run.result,
    setup: outcome.setup,
    rejected: run.rejected,
    objects: run.objects,
    pods: run.pods,
  };
}
