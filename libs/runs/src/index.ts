export { RUN_TYPES, type RunType, type EngineJob, type EngineOutput, type EngineProgress, type PlacementRow } from './engine-job';
export { executeEngineJob, loadSnapshotItems, RunInputError } from './engine-task';
export { isDeterministicError } from './deterministic-errors';
export { runEngineInThread, EngineError, EngineAbortedError } from './thread-runner';
export { syntheticCluster, syntheticSnapshotContent } from './synthetic-cluster';
