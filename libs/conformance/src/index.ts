// Public API of @schedlab/conformance: replay golden kube-scheduler cases and compare exactly.
export * from './case';
export * from './compare';
export * from './project';
export * from './replay';
