import { join } from 'node:path';
import { openMongoDocStore } from './mongo';
import { openNedbDocStore } from './nedb';
import type { DocStore } from './port';

export * from './port';

export interface OpenDocStoreOptions {
  /** When set, documents live in this MongoDB (cluster deployments). */
  mongodbUrl?: string;
  /** Service data directory; without a MongoDB URL the embedded store keeps its files in `<dataDir>/docstore`. */
  dataDir: string;
}

/** Opens the document store the deployment asks for: MongoDB when a URL is configured, else embedded NeDB. */
export function openDocStore(options: OpenDocStoreOptions): Promise<DocStore> {
  if (options.mongodbUrl) return openMongoDocStore({ url: options.mongodbUrl });
  return openNedbDocStore({ dir: join(options.dataDir, 'docstore') });
}
