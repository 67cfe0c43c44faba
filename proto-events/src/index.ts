export * from './contract';
export * from './validate';
export * from './catalogue';
export * from './auth';
export type * from './generated/types';
