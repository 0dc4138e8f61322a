// Public API of @schedlab/workloads: workload controllers and admission that turn manifests into pods.
export * from './naming';
export * from './controllers/common';
export * from './controllers/hash';
export * from './controllers/replicaset';
export * from './controllers/deployment';
export * from './controllers/statefulset';
export * from './controllers/daemonset';
export * from './controllers/job';
export * from './controllers/cron';
export * from './controllers/cronjob';
export * from './controllers/static-pods';
export * from './controllers/recreate';
