export * from './remove-duplicates';
