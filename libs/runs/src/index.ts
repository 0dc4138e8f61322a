export {
  type RunType,
  type EngineJob,
  type EngineOutput,
  type EngineProgress,
  type PlacementRow,
  type PodReplay,
} from './engine-job';
export {
  executeEngineJob,
  loadSnapshotItems,
  replayPodExplanation,
  ReplayUnavailableError,
  RunInputError,
} from './engine-task';
export { storedExplanation, STORED_NODE_VERDICTS_MAX } from './stored-explanation';
export { isDeterministicError } from './deterministic-errors';
export {
  runEngineInThread,
  replayInThread,
  scenarioReportInThread,
  prewarmEngineThread,
  EngineError,
  EngineAbortedError,
} from './thread-runner';
export { replayScenarioReport } from './scenario-report';
export { syntheticCluster, syntheticSnapshotContent } from './synthetic-cluster';
export { RunExecutor, type ExecutorSettings, type ExecutionOutcome } from './run-executor';
export { finishRun, type FinalStatus } from './run-finalizer';
export { runEventData, runLinks, sweepLinks } from './run-event';
export { ProgressReporter, publishProgress, percentOf } from './run-progress';
export { RunReconciler, type ReconcileReport } from './reconciler';
export { aggregateSweep, onChildFinished } from './sweeps';
