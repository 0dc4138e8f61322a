export { type RunType, type EngineJob, type EngineOutput, type EngineProgress, type PlacementRow } from './engine-job';
export { executeEngineJob, loadSnapshotItems, RunInputError } from './engine-task';
export { isDeterministicError } from './deterministic-errors';
export { runEngineInThread, EngineError, EngineAbortedError } from './thread-runner';
export { syntheticCluster, syntheticSnapshotContent } from './synthetic-cluster';
export { RunExecutor, type ExecutorSettings, type ExecutionOutcome } from './run-executor';
export { finishRun, runLinks, sweepLinks, type FinalStatus } from './run-finalizer';
export { ProgressReporter, publishProgress, percentOf } from './run-progress';
export { RunReconciler, type ReconcileReport } from './reconciler';
export {
  SWEEPS_QUEUE,
  AGGREGATE_JOB,
  aggregateSweep,
  enqueueSweep,
  enqueueSweepAggregation,
  onChildFinished,
} from './sweeps';
