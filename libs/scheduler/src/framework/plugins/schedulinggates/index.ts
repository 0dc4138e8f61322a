export * from './scheduling-gates';
