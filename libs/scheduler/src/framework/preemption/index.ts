export * from './evaluator';
export * from './util';
