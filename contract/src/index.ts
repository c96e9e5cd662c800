export * from './common';
export * from './permissions';
export * from './user';
export * from './lookup';
export type * from './runtime-config';
