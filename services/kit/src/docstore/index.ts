import { join } from 'node:path';
import { importNedbOnce, type ImportSummary } from './import-nedb';
import { openMongoDocStore } from './mongo';
import { openNedbDocStore } from './nedb';
import type { DocStore, Filter, SortSpec } from './port';
import { openSqliteDocStore, SqliteDocStore } from './sqlite/store';
import type { QueryPlan } from './sqlite/collection';

export * from './port';
export * from './schema';
export type { ImportSummary } from './import-nedb';
export type { QueryPlan } from './sqlite/collection';
/** The name `ensureIndex` gives an index (as `explainQuery` reports it). */
export { indexName } from './validate';

/** The embedded adapters: SQLite (the default), or NeDB (every document in memory; kept for a way back). */
export type EmbeddedStore = 'sqlite' | 'nedb';

export interface OpenDocStoreOptions {
  /**
   * The owning service. No service reads another's data: each gets its own SQLite file (or NeDB directory) or
   * MongoDB database, so several services can share one data dir or one MongoDB server.
   */
  service: string;
  /** When set, documents live in this MongoDB (cluster deployments). */
  mongodbUrl?: string;
  /**
   * Data directory of the embedded store: SQLite in `<dataDir>/docstore/<service>.sqlite`, NeDB in
   * `<dataDir>/docstore/<service>/` (one file per collection).
   */
  dataDir: string;
  /** Which embedded adapter, without a MongoDB URL; defaults to SQLite. */
  embedded?: EmbeddedStore;
  /** Told once when a service's NeDB data was imported into SQLite (its first start on SQLite). */
  onImport?: (summary: ImportSummary) => void;
}

/**
 * Opens the document store the deployment asks for: MongoDB when a URL is configured, else the embedded SQLite
 * store — which, on its first start, imports the service's NeDB data if there is some — or NeDB when asked.
 */
export async function openDocStore(options: OpenDocStoreOptions): Promise<DocStore> {
  if (options.mongodbUrl)
    return openMongoDocStore({ url: options.mongodbUrl, dbName: mongoDbName(options.mongodbUrl, options.service) });
  const nedbDir = join(options.dataDir, 'docstore', options.service);
  if (options.embedded === 'nedb') return openNedbDocStore({ dir: nedbDir });
  const file = join(options.dataDir, 'docstore', `${options.service}.sqlite`);
  const store = await openSqliteDocStore({ file });
  try {
    const imported = await importNedbOnce(nedbDir, store);
    if (imported) options.onImport?.(imported);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
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

/**
 * How the embedded SQLite store would read a query on `collection`: which index, whether in the sort's order and
 * whether its key rows are exactly the matches. Undefined on the other stores. For tests that pin a service's
 * query plans, so that a change cannot silently turn a page into a scan.
 */
export function explainQuery(
  store: DocStore,
  collection: string,
  filter: Filter,
  sort?: SortSpec,
): QueryPlan | undefined {
  return store instanceof SqliteDocStore ? store.explain(collection, filter, sort) : undefined;
}
