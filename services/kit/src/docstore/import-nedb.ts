import Datastore from '@seald-io/nedb';
import { existsSync } from 'node:fs';
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqliteDocStore } from './sqlite/store';
import type { StoredDoc } from './validate';

/**
 * The first start on SQLite of a service that ran on NeDB: every collection's documents and index declarations
 * are copied into the SQLite store, then the NeDB directory is renamed aside (never deleted).
 */

export interface ImportSummary {
  from: string;
  movedTo: string;
  collections: Record<string, number>;
  indexes: number;
}

const INDEX_CATALOG = '_indexes.db';

interface CatalogEntry {
  collection: string;
  fields: Array<[string, 1 | -1]>;
  unique: boolean;
  sparse: boolean;
}

async function loadNedb(filename: string): Promise<Datastore<Record<string, unknown>>> {
  const ds = new Datastore<Record<string, unknown>>({ filename });
  await ds.loadDatabaseAsync();
  return ds;
}

/** Where the NeDB directory goes once imported: `<dir>.nedb-imported`, numbered if that exists. */
function asideName(dir: string): string {
  let aside = `${dir}.nedb-imported`;
  for (let n = 2; existsSync(aside); n += 1) aside = `${dir}.nedb-imported-${n}`;
  return aside;
}

/**
 * Imports `nedbDir` into `store` when the directory exists and the store has no collection yet; undefined when
 * there was nothing to do. All in one transaction: a crash part-way leaves the store empty, and the next start
 * imports again.
 */
export async function importNedbOnce(nedbDir: string, store: SqliteDocStore): Promise<ImportSummary | undefined> {
  if (!existsSync(nedbDir) || store.hasCollections()) return undefined;
  const collections: Record<string, number> = {};
  let indexes = 0;
  await store.importAll(async (importDocuments) => {
    const catalog = existsSync(join(nedbDir, INDEX_CATALOG))
      ? ((await loadNedb(join(nedbDir, INDEX_CATALOG))).getAllData() as unknown as CatalogEntry[])
      : [];
    // Indexes first: the documents' keys are then written as they go in, not by a second pass over them.
    for (const entry of catalog) {
      await store
        .collection(entry.collection)
        .ensureIndex({ fields: Object.fromEntries(entry.fields), unique: entry.unique, sparse: entry.sparse });
      indexes += 1;
    }
    const files = (await readdir(nedbDir)).filter((file) => file.endsWith('.db') && file !== INDEX_CATALOG);
    for (const file of files) {
      const name = file.slice(0, -'.db'.length);
      // One collection in memory at a time (NeDB reads a datafile whole).
      const docs = (await loadNedb(join(nedbDir, file))).getAllData() as StoredDoc[];
      importDocuments(name, docs);
      collections[name] = docs.length;
    }
  });
  const movedTo = asideName(nedbDir);
  await rename(nedbDir, movedTo);
  return { from: nedbDir, movedTo, collections, indexes };
}
