export * from './too-many-restarts';
