import { join } from 'node:path';
import { openFsBlobStore } from './fs';
import type { BlobStore } from './port';
import { openS3BlobStore, type S3Options } from './s3';

export * from './port';
export { assertValidKey, assertValidPrefix } from './validate';
export { FsBlobStore, openFsBlobStore, type FsBlobStoreOptions } from './fs';
export { S3BlobStore, openS3BlobStore, type S3Options } from './s3';

export interface OpenBlobStoreOptions {
  /** S3/MinIO settings; when absent the filesystem store is used. */
  s3?: S3Options;
  /** The service's data directory; the filesystem store lives in `<dataDir>/blobs`. */
  dataDir: string;
}

/** S3 when configured (the cluster), else files under `<dataDir>/blobs` (embedded mode). */
export async function openBlobStore(options: OpenBlobStoreOptions): Promise<BlobStore> {
  if (options.s3) return openS3BlobStore(options.s3);
  return openFsBlobStore({ root: join(options.dataDir, 'blobs') });
}
