export * from './default-binder';
