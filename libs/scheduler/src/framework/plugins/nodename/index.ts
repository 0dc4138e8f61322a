export * from './node-name';
