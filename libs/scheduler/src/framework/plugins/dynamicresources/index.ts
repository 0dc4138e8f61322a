export * from './dynamic-resources';
export * from './allocator';
