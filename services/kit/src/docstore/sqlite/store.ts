import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { OpenPaths } from '../owners';
import { AdapterStore } from '../adapter';
import type { StoredDoc } from '../validate';
import type { Filter, SortSpec } from '../port';
import { SqliteCollection, type QueryPlan } from './collection';
import { openConnection, type Db } from './connection';

/**
 * Embedded adapter on SQLite (npm `libsql`): documents and index keys on disk, read through B-trees, a bounded page
 * cache in memory. Filters, sorts and updates keep the shared dialect modules' semantics (match.ts, sort.ts,
 * update.ts); SQL only narrows the candidates (plan.ts). One process owns a file at a time.
 */

export interface SqliteDocStoreOptions {
  /** The database file (its directory is created if missing; SQLite adds `-wal` and `-shm` beside it). */
  file: string;
}

const openFiles = new OpenPaths();

export class SqliteDocStore extends AdapterStore<SqliteCollection> {
  readonly kind = 'sqlite' as const;
  private closed = false;

  constructor(
    private readonly file: string,
    private readonly db: Db,
  ) {
    super();
  }

  private readonly assertOpen = (): void => {
    if (this.closed) throw new Error(`docstore at ${this.file} is closed`);
  };

  protected override assertUsable(): void {
    this.assertOpen();
  }

  protected open(name: string): SqliteCollection {
    return new SqliteCollection(this.db, name, this.assertOpen);
  }

  /** Whether any collection was ever written here (an import goes only into a store that has none). */
  hasCollections(): boolean {
    return (
      this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name LIKE 'd:%' LIMIT 1`).raw().get() !==
      undefined
    );
  }

  /**
   * Runs an import in one transaction: everything `load` stores commits together, or nothing when it throws.
   * Only while nobody else uses the store (at open): the transaction spans `load`'s awaits.
   */
  async importAll(
    load: (importDocuments: (name: string, docs: readonly StoredDoc[]) => void) => Promise<void>,
  ): Promise<void> {
    this.db.exec('BEGIN');
    try {
      await load((name, docs) => this.collections.adapter(name).importDocuments(docs));
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** How a query on `collection` would read (see SqliteCollection.explain). */
  explain(collection: string, filter: Filter, sort?: SortSpec): QueryPlan {
    this.assertOpen();
    return this.collections.adapter(collection).explain(filter, sort);
  }

  async ping(): Promise<void> {
    this.assertOpen();
    await access(this.file, constants.R_OK | constants.W_OK);
    this.db.prepare('SELECT 1').raw().get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      // libsql closes the file only once its statements are garbage: fold the log into the database now, so that the
      // next owner (maybe another process) starts without replaying it.
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.db.close();
    } finally {
      openFiles.release(this.file);
    }
  }
}

export async function openSqliteDocStore(options: SqliteDocStoreOptions): Promise<SqliteDocStore> {
  const file = resolve(options.file);
  return openFiles.claim(file, async () => {
    await mkdir(dirname(file), { recursive: true });
    return new SqliteDocStore(file, openConnection(file));
  });
}
