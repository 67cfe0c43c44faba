import { openBlobStore } from '../blobstore';
import type { BlobStore } from '../blobstore';
import type { ConfigOf } from '../config';
import type { blobStoreSpec, docStoreSpec } from '../config/common';
import { openDocStore } from '../docstore';
import type { DocStore, ImportSummary } from '../docstore';

export type BlobStoreConfig = ConfigOf<typeof blobStoreSpec> & { dataDir: string };
export type DocStoreConfig = ConfigOf<typeof docStoreSpec> & { dataDir: string };

/** The blob store the TROVE_S3_* variables ask for: S3/MinIO when a bucket is set, else files under the data dir. */
export function openBlobStoreFromConfig(config: BlobStoreConfig): Promise<BlobStore> {
  return openBlobStore({
    dataDir: config.dataDir,
    s3: config.s3Bucket
      ? {
          bucket: config.s3Bucket,
          endpoint: config.s3Endpoint,
          region: config.s3Region,
          accessKeyId: config.s3AccessKeyId ?? '',
          secretAccessKey: config.s3SecretAccessKey ?? '',
          forcePathStyle: config.s3ForcePathStyle,
          quotaBytes: config.s3QuotaBytes || undefined,
        }
      : undefined,
  });
}

/**
 * The service's own document store: its MongoDB database when TROVE_MONGODB_URL is set, else the embedded store
 * under the data dir that TROVE_EMBEDDED_STORE names. `onImport` hears of a first start's NeDB import.
 */
export function openDocStoreFromConfig(
  service: string,
  config: DocStoreConfig,
  onImport?: (summary: ImportSummary) => void,
): Promise<DocStore> {
  return openDocStore({
    service,
    mongodbUrl: config.mongodbUrl,
    dataDir: config.dataDir,
    embedded: config.embeddedStore,
    onImport,
  });
}
