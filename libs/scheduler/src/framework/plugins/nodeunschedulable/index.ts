export * from './node-unschedulable';
