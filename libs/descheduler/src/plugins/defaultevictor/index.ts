export * from './args';
export * from './defaultevictor';
