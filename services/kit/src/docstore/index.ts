import { join } from 'node:path';
import { openMongoDocStore } from './mongo';
import { openNedbDocStore } from './nedb';
import type { DocStore } from './port';

export * from './port';

export interface OpenDocStoreOptions {
  /**
   * The owning service. No service reads another's data: each gets its own NeDB directory or
   * MongoDB database, so several services can share one data dir or one MongoDB server.
   */
  service: string;
  /** When set, documents live in this MongoDB (cluster deployments). */
  mongodbUrl?: string;
  /** Data directory; without a MongoDB URL the embedded store keeps its files in `<dataDir>/docstore/<service>`. */
  dataDir: string;
}

/** Opens the document store the deployment asks for: MongoDB when a URL is configured, else embedded NeDB. */
export function openDocStore(options: OpenDocStoreOptions): Promise<DocStore> {
  if (options.mongodbUrl) return openMongoDocStore({ url: options.mongodbUrl, dbName: mongoDbName(options.mongodbUrl, options.service) });
  return openNedbDocStore({ dir: join(options.dataDir, 'docstore', options.service) });
}

/** `<database in the URL, else "trove">_<service>`, e.g. `trove_auth`. */
export function mongoDbName(url: string, service: string): string {
  let base = 'trove';
  try {
    const path = new URL(url).pathname.replace(/^\//, '');
    if (path) base = decodeURIComponent(path);
  } catch {
    // mongodb+srv URLs with several hosts are not WHATWG URLs; keep the default base.
  }
  return `${base}_${service}`;
}
