export * from './pod-lifetime';
