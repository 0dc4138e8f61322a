// Public API of @schedlab/scenarios: what-if operations and analyses over cluster snapshots.
export * from './analyses/capacity';
export * from './analyses/node-loss';
