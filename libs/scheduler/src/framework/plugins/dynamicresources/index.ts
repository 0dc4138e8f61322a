export * from './dynamic-resources';
export * from './allocator';
export * from './claim-templates';
export * from './device-summary';
export * from './taint-rules';
export * from './args';
