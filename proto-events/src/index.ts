export * from './contract';
export * from './validate';
export * from './catalogue';
export type * from './generated/types';
