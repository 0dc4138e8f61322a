// Public API of @schedlab/k8s: Kubernetes API types and the API-machinery semantics the scheduler relies on.
export * from './types';
export * from './quantity';
export * from './labels';
export * from './nodeaffinity';
export * from './taints';
export * from './resources';
export * from './qos';
export * from './defaulting';
export * from './priority';
export * from './parse';
export * from './input-limits';
export {
  isQualifiedName,
  qualifiedNameErrors,
  labelValueErrors,
  dns1123SubdomainErrors,
  dns1123LabelErrors,
  dns1035LabelErrors,
} from './validation';
export * from './well-known';
export * from './random';
export * from './names';
export * from './canonical-json';
export * from './disruption';
