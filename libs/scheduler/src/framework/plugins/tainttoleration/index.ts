export * from './taint-toleration';
