import { compileFilter } from '../match';
import { type AdapterCollection, Change, type FullIndexSpec, type UpdateInput } from '../adapter';
import {
  DuplicateKeyError,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateResult,
} from '../port';
import { sortedPage } from '../sort';
import { toStoredDocument, type StoredDoc } from '../validate';
import { decodeDoc, encodeDoc } from './codec';
import { docTable, inTransaction, isConstraintError, type Db, type Statement } from './connection';
import { KeyIndex } from './key-index';
import { plan, type IndexChoice, type Plan } from './plan';

type Row = [id: string, doc: string];
type KeyRow = [id: string, rid: number];

/** The most rows a chunked read takes at once. */
const MAX_CHUNK = 16_384;

/** Which index a query reads, and how (see plan.ts): for tests that pin the plans of a service's queries. */
export interface QueryPlan {
  kind: Plan['kind'];
  /** The index's name (as `ensureIndex` gave it), for an index plan. */
  index?: string;
  /** Its key rows come in the sort's order: a page stops after the page. */
  ordered: boolean;
  /** Its key rows are exactly the matches: a page reads the page's documents only. */
  exact: boolean;
}

/**
 * One collection in SQLite. Every operation is synchronous inside (better-sqlite3's API), so a read and the write
 * that follows it cannot interleave with another call: findOneAndUpdate, upserts and unique checks are atomic
 * without a lock. Each document write and its index keys commit in one transaction.
 */
export class SqliteCollection implements AdapterCollection {
  private readonly table: string;
  private readonly indexes = new Map<string, KeyIndex>();
  private readonly insertDoc;
  private readonly updateDoc;
  private readonly deleteDoc;
  private readonly selectAll;
  private readonly selectRid;
  private readonly selectByRids;
  /** Statements of the queries planned lately, by their SQL (a plan's SQL varies with the filter's shape only). */
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Db,
    readonly name: string,
    private readonly assertOpen: () => void,
  ) {
    this.table = docTable(name);
    // `rid` is an explicit INTEGER PRIMARY KEY so that it never changes (the key tables point at documents by it).
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${this.table} (rid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, doc TEXT NOT NULL)`,
    );
    this.insertDoc = db.prepare(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`);
    this.selectRid = db.prepare(`SELECT rid FROM ${this.table} WHERE id = ?`).raw();
    this.selectByRids = db
      .prepare(`SELECT d.doc FROM json_each(?) j CROSS JOIN ${this.table} d ON d.rid = j.value ORDER BY j.key`)
      .raw();
    this.updateDoc = db.prepare(`UPDATE ${this.table} SET doc = ? WHERE id = ?`);
    this.deleteDoc = db.prepare(`DELETE FROM ${this.table} WHERE id = ?`);
    this.selectAll = db.prepare(`SELECT id, doc, rid FROM ${this.table}`).raw();
    const declared = db
      .prepare(`SELECT rowid, name, spec FROM _indexes WHERE collection = ? ORDER BY rowid`)
      .raw()
      .all(name) as Array<[number, string, string]>;
    for (const [ix, indexName, spec] of declared)
      this.indexes.set(indexName, new KeyIndex(db, ix, indexName, JSON.parse(spec) as IndexSpec));
  }

  /** Runs `write` in a transaction; a unique violation (of `_id` or an index) becomes DuplicateKeyError, with nothing written. */
  private transaction<R>(write: () => R): R {
    try {
      return inTransaction(this.db, write);
    } catch (err) {
      if (isConstraintError(err))
        throw new DuplicateKeyError(this.name, `duplicate key in ${this.name}: ${(err as Error).message}`);
      throw err;
    }
  }

  private store(before: StoredDoc | undefined, after: StoredDoc | undefined): void {
    let rid: number;
    if (!before && after) {
      rid = Number(this.insertDoc.run(after._id, encodeDoc(after)).lastInsertRowid);
    } else {
      const id = (before as StoredDoc)._id;
      rid = (this.selectRid.get(id) as [number])[0];
      if (after) this.updateDoc.run(encodeDoc(after), id);
      else this.deleteDoc.run(id);
    }
    for (const index of this.indexes.values()) index.write(before, after, rid);
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= 200) this.statements.clear();
      statement = this.db.prepare(sql).raw() as Statement;
      this.statements.set(sql, statement);
    }
    return statement;
  }

  // ---- reads ----------------------------------------------------------------------------------------------------

  private estimate = (choice: IndexChoice, cap: number): number => {
    const sql = `SELECT count(*) FROM (SELECT 1 FROM ${choice.index.table} k WHERE ${choice.where} LIMIT ${cap})`;
    return (this.prepared(sql).get(...choice.params) as [number])[0];
  };

  private plan(filter: Filter, sort: FindOptions['sort']): Plan {
    return plan({ filter, sort, indexes: [...this.indexes.values()], estimate: this.estimate, alias: 'k' });
  }

  /** The plan of a query, as `find` would read it (a debugging and test hook). */
  explain(filter: Filter, sort?: FindOptions['sort']): QueryPlan {
    this.assertOpen();
    const chosen = this.plan(filter, sort);
    if (chosen.kind !== 'index') return { kind: chosen.kind, ordered: false, exact: false };
    return { kind: 'index', index: chosen.index.name, ordered: chosen.ordered, exact: chosen.exact };
  }

  /** The query of the candidate rows for `filter` (possibly repeated: one per index key), in the sort's order when `ordered`. */
  private candidates(chosen: Plan): { sql: string; params: string[]; ordered: boolean } {
    switch (chosen.kind) {
      case 'ids':
        // Ids are strings: a filter on other values matches nothing.
        return {
          sql: `SELECT id, doc FROM ${this.table} WHERE id IN (${chosen.ids.map(() => '?').join(', ') || 'NULL'})`,
          params: chosen.ids,
          ordered: false,
        };
      case 'scan':
        return { sql: `SELECT id, doc FROM ${this.table}`, params: [], ordered: false };
      case 'index': {
        const order = chosen.orderBy ? ` ORDER BY ${chosen.orderBy}` : '';
        const sql = `SELECT d.id, d.doc FROM ${chosen.index.table} k CROSS JOIN ${this.table} d ON d.rid = k.rid WHERE ${chosen.where}${order}`;
        return { sql, params: chosen.params, ordered: chosen.ordered };
      }
    }
  }

  /**
   * The rows of a query. Read to the end when `firstChunk` is 0; else in chunks (LIMIT/OFFSET), the first of
   * `firstChunk` rows (what a page needs when every row is a match), then growing, so that a page read stops early
   * without leaving a statement half-read (libsql's iterator cannot be closed).
   */
  private *rows<R = Row>(sql: string, params: string[], firstChunk: number): Generator<R> {
    if (firstChunk <= 0) {
      yield* this.prepared(sql).iterate(...params) as Iterable<R>;
      return;
    }
    const statement = this.prepared(`${sql} LIMIT ? OFFSET ?`);
    let offset = 0;
    for (let size = Math.min(firstChunk, MAX_CHUNK); ; size = Math.min(Math.max(size * 4, 128), MAX_CHUNK)) {
      const chunk = statement.all(...params, size, offset) as R[];
      yield* chunk;
      if (chunk.length < size) return;
      offset += size;
    }
  }

  /**
   * A page of an exact plan (its key rows are the matches) in the index's order: the documents before the page are
   * counted from the key table alone, and only the page's are read. The matcher still checks what is read.
   */
  private exactPage(
    chosen: Extract<Plan, { kind: 'index' }>,
    filter: Filter,
    skip: number,
    limit: number,
  ): StoredDoc[] {
    const order = chosen.orderBy ? ` ORDER BY ${chosen.orderBy}` : '';
    const sql = `SELECT k.id, k.rid FROM ${chosen.index.table} k WHERE ${chosen.where}${order}`;
    let rids: number[] = [];
    if (!chosen.index.multikey()) {
      // One key row per document: SQLite skips the rows before the page itself.
      const page = this.prepared(`${sql} LIMIT ? OFFSET ?`).all(...chosen.params, limit, skip) as KeyRow[];
      rids = page.map(([, rid]) => rid);
    } else {
      const seen = new Set<string>();
      for (const [id, rid] of this.rows<KeyRow>(sql, chosen.params, skip + limit)) {
        if (seen.has(id)) continue;
        seen.add(id);
        if (seen.size > skip) rids.push(rid);
        if (rids.length >= limit) break;
      }
    }
    const matches = compileFilter(filter);
    // The page's documents in one statement, in the page's order (a statement per document cost a third more).
    const texts = rids.length > 0 ? (this.selectByRids.all(JSON.stringify(rids)) as Array<[string]>) : [];
    return texts.map(([text]) => decodeDoc(text)).filter((doc) => matches(doc));
  }

  /** Matching documents: all of them, or the first `stopAfter` when no sort is asked or the index order gives it. */
  private matching(
    filter: Filter,
    sort: FindOptions['sort'],
    stopAfter: number,
    chosen = this.plan(filter, sort),
  ): { docs: StoredDoc[]; ordered: boolean } {
    const matches = compileFilter(filter);
    const { sql, params, ordered } = this.candidates(chosen);
    const hasSort = Object.keys(sort ?? {}).length > 0;
    const canStop = stopAfter > 0 && (ordered || !hasSort);
    const seen = new Set<string>();
    const docs: StoredDoc[] = [];
    for (const [id, text] of this.rows(sql, params, canStop ? stopAfter : 0)) {
      if (seen.has(id)) continue;
      seen.add(id);
      const doc = decodeDoc(text);
      if (!matches(doc)) continue;
      docs.push(doc);
      if (canStop && docs.length >= stopAfter) break;
    }
    return { docs, ordered };
  }

  private first(filter: Filter): StoredDoc | undefined {
    return this.matching(filter, undefined, 1).docs[0];
  }

  async insertOne(doc: StoredDoc): Promise<StoredDoc> {
    this.assertOpen();
    this.transaction(() => this.store(undefined, doc));
    return doc;
  }

  async insertMany(docs: StoredDoc[]): Promise<StoredDoc[]> {
    this.assertOpen();
    if (docs.length === 0) return [];
    this.transaction(() => {
      for (const doc of docs) this.store(undefined, doc);
    });
    // The checked copies: fresh objects the store never reads again.
    return docs;
  }

  async find(filter: Filter, { sort, skip = 0, limit = 0 }: FindOptions): Promise<StoredDoc[]> {
    this.assertOpen();
    const chosen = this.plan(filter, sort);
    const hasSort = sort !== undefined && Object.keys(sort).length > 0;
    if (chosen.kind === 'index' && chosen.exact && limit > 0 && (chosen.ordered || !hasSort))
      return this.exactPage(chosen, filter, skip, limit);
    const { docs, ordered } = this.matching(filter, sort, limit > 0 ? skip + limit : 0, chosen);
    const end = limit > 0 ? skip + limit : undefined;
    if (sort && Object.keys(sort).length > 0 && !ordered) return sortedPage(docs, sort, skip, limit);
    return docs.slice(skip, end);
  }

  async count(filter: Filter): Promise<number> {
    this.assertOpen();
    const chosen = this.plan(filter, undefined);
    if (chosen.kind === 'index' && chosen.exact) {
      // The key rows are the matches: count their documents without reading them (one row each without arrays).
      const counted = chosen.index.multikey() ? 'count(DISTINCT k.id)' : 'count(*)';
      const sql = `SELECT ${counted} FROM ${chosen.index.table} k WHERE ${chosen.where}`;
      return (this.prepared(sql).get(...chosen.params) as [number])[0];
    }
    return this.matching(filter, undefined, 0, chosen).docs.length;
  }

  // ---- writes ---------------------------------------------------------------------------------------------------

  /** Updates (or upserts) the first match: read and write in one synchronous step, hence atomic. */
  private updateFirst(filter: Filter, input: UpdateInput): Change {
    this.assertOpen();
    const change = Change.of(this.first(filter), input);
    if (change.write) this.transaction(() => this.store(change.before, change.after));
    return change;
  }

  async updateOne(filter: Filter, input: UpdateInput): Promise<UpdateResult> {
    return this.updateFirst(filter, input).result;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    this.assertOpen();
    const { docs } = this.matching(filter, undefined, 0);
    let modified = 0;
    // One document at a time, like MongoDB: a failure part-way leaves the earlier ones updated.
    for (const current of docs) {
      const change = Change.of(current, { update });
      if (!change.write) continue;
      this.transaction(() => this.store(change.before, change.after));
      modified += 1;
    }
    return { matched: docs.length, modified };
  }

  async findOneAndUpdate(filter: Filter, input: UpdateInput): Promise<StoredDoc | null> {
    return this.updateFirst(filter, input).returned(input.returnDocument);
  }

  async deleteOne(filter: Filter): Promise<number> {
    this.assertOpen();
    const current = this.first(filter);
    if (!current) return 0;
    this.transaction(() => this.store(current, undefined));
    return 1;
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.assertOpen();
    const { docs } = this.matching(filter, undefined, 0);
    this.transaction(() => {
      for (const doc of docs) this.store(doc, undefined);
    });
    return docs.length;
  }

  async ensureIndex(name: string, wanted: FullIndexSpec): Promise<void> {
    this.assertOpen();
    const existing = this.indexes.get(name);
    if (existing) {
      if (existing.spec.unique === wanted.unique && existing.spec.sparse === wanted.sparse) return;
      // MongoDB refuses this too (IndexOptionsConflict).
      throw new Error(`index ${name} already exists on ${this.name} with different options`);
    }
    // The catalog row, the key table and its keys of the documents there are commit together or not at all.
    const index = this.transaction(() => {
      const { lastInsertRowid } = this.db
        .prepare(`INSERT INTO _indexes (collection, name, spec) VALUES (?, ?, ?)`)
        .run(this.name, name, JSON.stringify(wanted));
      const created = new KeyIndex(this.db, Number(lastInsertRowid), name, wanted);
      for (const [, text, rid] of this.selectAll.iterate() as Iterable<[string, string, number]>)
        created.write(undefined, decodeDoc(text), rid);
      return created;
    });
    this.indexes.set(name, index);
  }

  async dropIndex(name: string): Promise<void> {
    this.assertOpen();
    const index = this.indexes.get(name);
    if (!index) return;
    this.transaction(() => {
      index.drop();
      this.db.prepare(`DELETE FROM _indexes WHERE collection = ? AND name = ?`).run(this.name, name);
    });
    this.indexes.delete(name);
  }

  /** Stores documents read from another store (an import), in the caller's transaction. */
  importDocuments(docs: readonly StoredDoc[]): void {
    for (const doc of docs) this.store(undefined, toStoredDocument(doc));
  }
}
