export * from './topology-spread-constraint';
