// Public API of @schedlab/scenarios: what-if operations and analyses over cluster snapshots.
export * from './analyses/capacity';
export * from './analyses/node-loss';
export * from './scenario/schema';
export { parseScenario, ScenarioError } from './scenario/parse';
export { runScenario, type ScenarioRun, type StepRecord, type RunOptions } from './scenario/run';
export * from './scenario/storage-report';
export { World, type Change, type ChangeType, type EngineOptions } from './scenario/world';
// A timeline applies any step at a time of its own (libs/analysis/src/timeline).
export { OPERATIONS, type OperationContext } from './scenario/operations';
export { releaseClaimsIn } from './scenario/device-claims';
export { parseLabelSelector, nodeFromTemplate } from './scenario/nodes';
export { budgetStatus, checkEviction, PDB_VIOLATION_MESSAGE, type BudgetStatus } from './scenario/disruption';
export { workloadOf, controllerOf } from './scenario/controllers';
export * from './analyses/utilization';
export * from './analyses/simulate-scenario';
export * from './analyses/resilience';
export * from './analyses/compare';
export * from './analyses/nodes-needed';
export * from './analyses/deschedule';
export * from './analyses/descheduler-runner';
