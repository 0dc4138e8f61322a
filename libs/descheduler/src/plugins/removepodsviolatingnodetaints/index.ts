export * from './node-taint';
