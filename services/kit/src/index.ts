export * from './errors';
export * from './config';
export * from './config/common';
export * from './log';
export * from './bus';
// export * from './docstore';
export * from './blobstore';
export * from './service/run';
export * from './service/package-info';
