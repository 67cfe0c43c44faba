import Database from 'libsql';
import { ConfigError } from '../../config';

/**
 * The SQLite file of one store (libsql's engine, better-sqlite3's synchronous API). Schema:
 * - `"d:<collection>"(id, doc)`: the documents, JSON text (see codec.ts), `id` the primary key;
 * - `_indexes(collection, name, spec)`: the declared indexes; index number `rowid` keeps its keys in
 *   `"k<rowid>"(k0 … kn-1, id)` (see keys.ts), a B-tree on the keys in the index's directions, then `id`;
 * - `_unordered(ix, id)`: the documents whose keys in index `ix` cannot be sorted by their text (keys.ts);
 * - `_multikey(ix, id)`: the documents with more than one key row in index `ix` (an array field): while there is
 *   none, counting the index's rows counts documents.
 */

/** What the adapter uses of the engine (better-sqlite3's API). */
export type Db = InstanceType<typeof Database>;
/** What the adapter uses of a prepared statement (in raw mode: rows as arrays). */
export interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface ConnectionOptions {
  /** Page cache of this connection in KiB (SQLite's default is 2 MiB). */
  cacheKiB?: number;
}

export function openConnection(file: string, options: ConnectionOptions = {}): Db {
  const db = new Database(file);
  try {
    // First: a file another connection still holds (a process closing it, a seeder) is waited for, not a crash at start.
    db.pragma('busy_timeout = 5000');
    // WAL: readers never wait for the writer, and a commit appends to the log instead of rewriting pages.
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a committed transaction is in the OS before the call returns, so it survives a crash of
    // the process (what the NeDB adapter, which appends without fsync, guaranteed); only a power loss or an OS crash
    // may lose the last commits. FULL would fsync every write, which a library import of thousands of items pays dearly.
    db.pragma('synchronous = NORMAL');
    db.pragma(`cache_size = -${options.cacheKiB ?? 16 * 1024}`);
    db.pragma('temp_store = FILE');
    db.exec(
      `CREATE TABLE IF NOT EXISTS _indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, UNIQUE (collection, name))`,
    );
    db.exec(
      `CREATE TABLE IF NOT EXISTS _unordered (ix INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (ix, id)) WITHOUT ROWID`,
    );
    db.exec(
      `CREATE TABLE IF NOT EXISTS _multikey (ix INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (ix, id)) WITHOUT ROWID`,
    );
    migrate(db, file);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/**
 * The store format this code reads and writes, kept in SQLite's `user_version` (0: the files written before versions
 * were recorded, the same layout as 1). A store from a newer Trove is refused (a downgrade could misread it); an
 * older one is brought up by MIGRATIONS, one step per version, each in the transaction that records its version.
 */
export const SCHEMA_VERSION = 2;

/** `MIGRATIONS[v]` takes a store from version v to v + 1. */
const MIGRATIONS: ReadonlyArray<(db: Db) => void> = [
  // 0 → 1: nothing to change; version 1 only starts recording the version.
  () => undefined,
  // 1 → 2: `_multikey` filled for the indexes there are (one pass over each key table, once).
  (db) => {
    const indexes = db.prepare(`SELECT rowid FROM _indexes`).raw().all() as Array<[number]>;
    for (const [ix] of indexes) {
      const table = keyTable(ix);
      const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).raw().get(`k${ix}`);
      if (!exists) continue;
      db.exec(
        `INSERT OR IGNORE INTO _multikey (ix, id) SELECT ${ix}, id FROM ${table} GROUP BY id HAVING count(*) > 1`,
      );
    }
  },
];

export function schemaVersion(db: Db): number {
  // Raw rows: libsql's `pluck()` and `pragma(…, { simple })` answer row objects, not the value.
  const row = db.prepare('PRAGMA user_version').raw().get() as unknown[];
  return Number(row[0]);
}

function migrate(db: Db, file: string): void {
  const found = schemaVersion(db);
  if (found > SCHEMA_VERSION)
    throw new ConfigError([
      `the document store ${file} has schema version ${found}, newer than the ${SCHEMA_VERSION} this Trove reads: it was written by a newer release; run that release (or restore a backup taken before the upgrade)`,
    ]);
  for (let v = found; v < SCHEMA_VERSION; v++) {
    inTransaction(db, () => {
      MIGRATIONS[v](db);
      db.pragma(`user_version = ${v + 1}`);
    });
  }
}

export const docTable = (collection: string): string => `"d:${collection}"`;
export const keyTable = (ix: number): string => `"k${ix}"`;
export const keyColumn = (i: number): string => `k${i}`;

/** Whether an error is SQLite refusing a write for a UNIQUE or PRIMARY KEY constraint. */
export function isConstraintError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (code.startsWith('SQLITE_CONSTRAINT_UNIQUE') || code.startsWith('SQLITE_CONSTRAINT_PRIMARYKEY'))
  );
}

/**
 * Runs `write` in a transaction, or in a savepoint inside the caller's (libsql's own `transaction()` cannot nest):
 * all of it commits, or none of it when it throws.
 */
export function inTransaction<R>(db: Db, write: () => R): R {
  const nested = db.inTransaction;
  db.exec(nested ? 'SAVEPOINT nested' : 'BEGIN');
  try {
    const result = write();
    db.exec(nested ? 'RELEASE nested' : 'COMMIT');
    return result;
  } catch (err) {
    db.exec(nested ? 'ROLLBACK TO nested; RELEASE nested' : 'ROLLBACK');
    throw err;
  }
}
