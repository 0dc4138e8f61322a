export * from './priority-sort';
