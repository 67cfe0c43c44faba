export * from './contract';
export * from './validate';
export * from './catalogue';
export * from './auth';
export * from './media-metadata';
export * from './media-contracts';
export * from './library-contracts';
export * from './explore-contracts';
export type * from './generated/types';
