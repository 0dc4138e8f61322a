export type * from './framework/types';
