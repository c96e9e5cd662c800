export * from './common';
export * from './permissions';
export * from './user';
export * from './lookup';
export * from './api-errors';
export type * from './runtime-config';
