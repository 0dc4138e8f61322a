export * from './node-declared-features';
