export * from './node-affinity';
