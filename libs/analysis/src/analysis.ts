/**
 * One interface for every analysis a run (or a CLI command) can ask for. The pipeline prepares
 * the cluster the way the analysis says (`start`), validates the engine setup, and hands the
 * analysis its context; each analysis is a plain function over the prepared objects. New run
 * types (timeline, deschedule, storage steps) are new entries in the registry (./registry.ts).
 */
import type { KubeObject } from '@schedlab/k8s';
import type { ClusterState, EngineSetup, PodSchedulingResult } from '@schedlab/scheduler';
import type { RejectedObject } from '@schedlab/workloads';
import type { EngineOptions, ProgressReport } from './options';

/**
 * What the analysis starts from:
 * - `settled`: the objects once the PV controller ran; the analysis schedules workloads itself
 *   (simulate);
 * - `running`: the cluster once its workloads' pods were created, admitted and scheduled
 *   (materializeWorkloads), as a what-if question about a running cluster needs.
 */
export type AnalysisStart = 'settled' | 'running';

export interface AnalysisContext {
  /** The prepared objects (see AnalysisStart). */
  items: readonly KubeObject[];
  engine: EngineOptions;
  /** The validated profile and release. */
  setup: EngineSetup;
  report: ProgressReport;
  /** `running` analyses: how the workloads' pods were scheduled when the cluster was started. */
  initial?: readonly PodSchedulingResult[];
  /** Whether the PV controller runs (AnalysisOptions.pvController); scenarios run it between steps. */
  pvController: boolean;
  /** buildClusterState's result for exactly `items`, when the pipeline has it (see PipelineHooks.known). */
  state?: ClusterState;
}

export interface Analysis<Request, Result> {
  start: AnalysisStart;
  run(context: AnalysisContext, request: Request): Result;
}

/** An analysis's result with what the pipeline learnt on the way. */
export interface AnalysisOutcome<Result> {
  result: Result;
  /** The kube-scheduler release reproduced. */
  compatibilityVersion: string;
  setup: EngineSetup;
  /** Objects admission refused while the workloads were started (`running` analyses). */
  rejected: RejectedObject[];
  /** How the workloads' pods were scheduled when they were started (`running` analyses with workloads). */
  initial?: PodSchedulingResult[];
  /** The objects the analysis started from. */
  items: readonly KubeObject[];
}
