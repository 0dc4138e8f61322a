// Public API of @schedlab/analysis: the one pipeline from a cluster's objects to an analysis
// result, shared by the CLI and the worker, and the registry every run type plugs into.
export * from './options';
export * from './analysis';
export * from './cluster';
export * from './schedule';
export * from './registry';
export * from './run-options';
export * from './pipeline';
export * from './timeline';
