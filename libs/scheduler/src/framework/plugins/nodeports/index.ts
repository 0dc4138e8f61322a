export * from './node-ports';
