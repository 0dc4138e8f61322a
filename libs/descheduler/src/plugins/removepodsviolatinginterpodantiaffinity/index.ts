export * from './pod-antiaffinity';
