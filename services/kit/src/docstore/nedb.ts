import Datastore from '@seald-io/nedb';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compileFilter } from './match';
import { Mutex } from './mutex';
import { OpenPaths } from './owners';
import { AdapterStore, type AdapterCollection, Change, type FullIndexSpec, type UpdateInput } from './adapter';
import {
  DuplicateKeyError,
  type DocStore,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateResult,
} from './port';
import { sortedPage } from './sort';
import { UniqueIndexes, type DocChange } from './unique';
import { isOperatorObject, type StoredDoc } from './validate';
import { cloneValue, hasOwn } from './values';

/**
 * Embedded adapter on @seald-io/nedb: one append-only datafile per collection, `<dir>/<name>.db`, plus
 * `<dir>/_indexes.db` listing the index specs (collection names cannot start with `_`).
 *
 * NeDB stores, persists and finds candidate documents (through its `_id` and field indexes); the MongoDB
 * semantics it lacks are supplied by the shared dialect modules: filters are evaluated by `compileFilter` (passed
 * to NeDB as `$where`), sorting by `sortDocuments`, updates by `applyUpdate` (written back as whole-document
 * replacements), unique indexes by `UniqueIndexes`. Every write runs under a per-collection mutex, which makes
 * read-modify-write sequences (findOneAndUpdate, upserts, unique checks) atomic.
 *
 * One process owns a directory at a time: opening it twice in the same process is refused.
 */

export interface NedbDocStoreOptions {
  /** Directory of the datafiles (created if missing). */
  dir: string;
  /** How often datafiles are compacted (NeDB appends every write); 0 disables. Defaults to 10 minutes. */
  compactionIntervalMs?: number;
}

const DEFAULT_COMPACTION_MS = 10 * 60 * 1000;
const INDEX_CATALOG = '_indexes.db';
const openDirs = new OpenPaths();

type Nedb = Datastore<Record<string, unknown>>;

interface CatalogEntry {
  _id: string;
  collection: string;
  name: string;
  /** Pairs rather than an object: NeDB refuses field names containing '.', and paths may be dotted. */
  fields: Array<[string, 1 | -1]>;
  unique: boolean;
  sparse: boolean;
}

function openDatastore(filename: string): Nedb {
  // The no-op onload makes a failed load reject `autoloadPromise` instead of throwing asynchronously.
  return new Datastore({ filename, autoload: true, onload: () => undefined });
}

// NeDB's typings declare an awaited cursor as a single document; at runtime it is the result (array or count).
async function findDocs(ds: Nedb, query: object, skip = 0, limit = 0): Promise<StoredDoc[]> {
  let cursor = ds.findAsync(query);
  if (skip > 0) cursor = cursor.skip(skip);
  if (limit > 0) cursor = cursor.limit(limit);
  return (await cursor) as unknown as StoredDoc[];
}

async function countDocs(ds: Nedb, query: object): Promise<number> {
  return (await ds.countAsync(query)) as unknown as number;
}

function isUniqueViolation(err: unknown): err is Error & { key?: unknown } {
  return err instanceof Error && (err as { errorType?: unknown }).errorType === 'uniqueViolated';
}

function isIndexable(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (value instanceof Date && !Number.isNaN(value.getTime()))
  );
}

/**
 * Top-level equality conditions NeDB can answer from its indexes (`_id` above all). For these value kinds NeDB's
 * own matching (equal, or contained in an array field; `$in`) accepts every document MongoDB would, so the hint
 * only narrows the candidates; the `$where` predicate decides.
 */
function indexHint(filter: Filter): Record<string, unknown> {
  const hint: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$') || key.includes('.')) continue;
    if (isIndexable(value)) {
      hint[key] = value;
    } else if (isOperatorObject(value)) {
      if (hasOwn(value, '$eq') && isIndexable(value.$eq)) hint[key] = value.$eq;
      else if (Array.isArray(value.$in) && value.$in.length > 0 && value.$in.every(isIndexable))
        hint[key] = { $in: value.$in };
    }
  }
  return hint;
}

/** The parts of NeDB this adapter reads without a copy (private, pinned by the lock file). */
interface NedbInternals {
  executor: { pushAsync<R>(task: () => Promise<R>): Promise<R> };
  _getRawCandidates(query: object): StoredDoc[];
}

/**
 * NeDB's own documents matching `filter` — read-only, never handed out — queued like NeDB's cursors (after the
 * writes before them). A cursor deep-copies every match; a sorted page of 100,000 matches then spends most of its
 * time copying documents that the page leaves out, so only the page is copied (by the caller).
 */
async function matchingDocs(ds: Nedb, filter: Filter): Promise<StoredDoc[]> {
  const nedb = ds as unknown as NedbInternals;
  const matches = compileFilter(filter);
  const hint = indexHint(filter);
  return nedb.executor.pushAsync(async () => nedb._getRawCandidates(hint).filter((doc) => matches(doc)));
}

function nedbQuery(filter: Filter): Record<string, unknown> {
  const matches = compileFilter(filter);
  return {
    ...indexHint(filter),
    $where(this: unknown): boolean {
      return matches(this);
    },
  };
}

class NedbCollection implements AdapterCollection {
  private readonly ds: Nedb;
  private readonly mutex = new Mutex();
  private readonly unique: UniqueIndexes;
  private readonly specs = new Map<string, IndexSpec>();
  private loaded = false;
  private readonly ready: Promise<void>;

  constructor(
    readonly name: string,
    filename: string,
    private readonly catalog: Nedb,
    private readonly assertOpen: () => void,
  ) {
    this.ds = openDatastore(filename);
    this.unique = new UniqueIndexes(name);
    this.ready = this.load();
    // Failures surface on the first operation; don't let an unawaited rejection crash the process meanwhile.
    this.ready.catch(() => undefined);
  }

  private async load(): Promise<void> {
    await this.ds.autoloadPromise;
    this.loaded = true;
    const entries = (await findDocs(this.catalog, { collection: this.name })) as unknown as CatalogEntry[];
    for (const entry of entries) {
      const spec: IndexSpec = { fields: Object.fromEntries(entry.fields), unique: entry.unique, sparse: entry.sparse };
      this.specs.set(entry.name, spec);
      if (spec.unique) this.unique.add(entry.name, spec, this.allDocs());
    }
  }

  /** NeDB's in-memory documents: read-only use, never handed out. */
  private allDocs(): StoredDoc[] {
    return this.ds.getAllData() as StoredDoc[];
  }

  private async readable(): Promise<void> {
    this.assertOpen();
    await this.ready;
  }

  private async exclusive<R>(task: () => Promise<R>): Promise<R> {
    await this.readable();
    return this.mutex.runExclusive(task);
  }

  /** Runs one NeDB write; keeps the unique indexes in step with whatever NeDB ended up holding. */
  private async nedbWrite<R>(changes: DocChange[], write: () => Promise<R>): Promise<R> {
    this.unique.check(changes);
    let result: R;
    try {
      result = await write();
    } catch (err) {
      // Only `_id` reaches NeDB's own unique check, and NeDB rolls that back in memory.
      if (isUniqueViolation(err))
        throw new DuplicateKeyError(this.name, `duplicate _id in ${this.name}: ${String(err.key)}`);
      // NeDB changes its memory before it appends to the datafile and does not undo that when the
      // append fails: put the documents back as the datafile has them, so nothing unstored is answered.
      this.undoInMemory(changes);
      this.unique.rebuild(this.allDocs());
      throw err;
    }
    this.unique.apply(changes);
    return result;
  }

  private undoInMemory(changes: DocChange[]): void {
    const byId = new Map(this.allDocs().map((doc) => [doc._id, doc]));
    for (const { before, after } of [...changes].reverse()) {
      if (after && !before) byId.delete(after._id);
      else if (before) byId.set(before._id, cloneValue(before));
    }
    // Private to NeDB (pinned by the lock file): rebuilds every index, `_id` included, from these documents.
    (this.ds as unknown as { _resetIndexes(docs: StoredDoc[]): void })._resetIndexes([...byId.values()]);
  }

  private async insertStored(docs: StoredDoc[]): Promise<void> {
    await this.nedbWrite(
      docs.map((after) => ({ after })),
      () => this.ds.insertAsync(docs),
    );
  }

  /** Writes a change of one document: the upsert's insert or the replacement of `before`. */
  private async write({ before, after }: Change): Promise<void> {
    const stored = after as StoredDoc;
    if (!before) await this.insertStored([stored]);
    else await this.nedbWrite([{ before, after: stored }], () => this.ds.updateAsync({ _id: before._id }, stored, {}));
  }

  private async first(filter: Filter): Promise<StoredDoc | undefined> {
    const [doc] = await findDocs(this.ds, nedbQuery(filter), 0, 1);
    return doc;
  }

  async insertOne(doc: StoredDoc): Promise<StoredDoc> {
    await this.exclusive(() => this.insertStored([doc]));
    return cloneValue(doc);
  }

  async insertMany(docs: StoredDoc[]): Promise<StoredDoc[]> {
    if (docs.length === 0) return [];
    // NeDB inserts an array all-or-nothing, and the unique check covers the whole batch first.
    await this.exclusive(() => this.insertStored(docs));
    return docs.map(cloneValue);
  }

  async find(filter: Filter, { sort, skip = 0, limit = 0 }: FindOptions): Promise<StoredDoc[]> {
    await this.readable();
    const matches = await matchingDocs(this.ds, filter);
    const page =
      sort && Object.keys(sort).length > 0
        ? sortedPage(matches, sort, skip, limit)
        : matches.slice(skip, limit > 0 ? skip + limit : undefined);
    return page.map(cloneValue);
  }

  async count(filter: Filter): Promise<number> {
    await this.readable();
    return (await matchingDocs(this.ds, filter)).length;
  }

  /** Updates (or upserts) the first match, atomically. */
  private async updateFirst(filter: Filter, input: UpdateInput): Promise<Change> {
    return this.exclusive(async () => {
      const change = Change.of(await this.first(filter), input);
      if (change.write) await this.write(change);
      return change;
    });
  }

  async updateOne(filter: Filter, input: UpdateInput): Promise<UpdateResult> {
    return (await this.updateFirst(filter, input)).result;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.exclusive(async () => {
      const matches = await findDocs(this.ds, nedbQuery(filter));
      let modified = 0;
      // One document at a time, like MongoDB: a failure part-way leaves the earlier ones updated.
      for (const current of matches) {
        const change = Change.of(current, { update });
        if (!change.write) continue;
        await this.write(change);
        modified += 1;
      }
      return { matched: matches.length, modified };
    });
  }

  async findOneAndUpdate(filter: Filter, input: UpdateInput): Promise<StoredDoc | null> {
    const doc = (await this.updateFirst(filter, input)).returned(input.returnDocument);
    return doc && cloneValue(doc);
  }

  async deleteOne(filter: Filter): Promise<number> {
    return this.exclusive(async () => {
      const current = await this.first(filter);
      if (!current) return 0;
      await this.nedbWrite([{ before: current }], () => this.ds.removeAsync({ _id: current._id }, {}));
      return 1;
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    return this.exclusive(async () => {
      const matches = await findDocs(this.ds, nedbQuery(filter));
      if (matches.length === 0) return 0;
      const ids = matches.map((doc) => doc._id);
      await this.nedbWrite(
        matches.map((before) => ({ before })),
        () => this.ds.removeAsync({ _id: { $in: ids } }, { multi: true }),
      );
      return matches.length;
    });
  }

  async ensureIndex(name: string, wanted: FullIndexSpec): Promise<void> {
    await this.exclusive(async () => {
      const existing = this.specs.get(name);
      if (existing) {
        if (existing.unique === wanted.unique && existing.sparse === wanted.sparse) return;
        // MongoDB refuses this too (IndexOptionsConflict).
        throw new Error(`index ${name} already exists on ${this.name} with different options`);
      }
      if (wanted.unique) this.unique.add(name, wanted, this.allDocs());
      const entry: CatalogEntry = {
        _id: `${this.name}/${name}`,
        collection: this.name,
        name,
        fields: Object.entries(wanted.fields),
        unique: wanted.unique,
        sparse: wanted.sparse,
      };
      try {
        await this.catalog.insertAsync(entry as unknown as Record<string, unknown>);
      } catch (err) {
        this.unique.remove(name);
        throw err;
      }
      this.specs.set(name, wanted);
      // A plain NeDB index on the first top-level field speeds up candidate lookup; NeDB persists it itself.
      const first = Object.keys(wanted.fields)[0];
      if (!first.includes('.')) await this.ds.ensureIndexAsync({ fieldName: first });
    });
  }

  async dropIndex(name: string): Promise<void> {
    await this.exclusive(async () => {
      if (!this.specs.has(name)) return;
      await this.catalog.removeAsync({ _id: `${this.name}/${name}` }, {});
      this.unique.remove(name);
      this.specs.delete(name);
      // NeDB's own index on the first field stays: it only speeds up finding candidates.
    });
  }

  /** Rewrites the datafile without superseded lines (skipped if it never loaded). */
  async compact(): Promise<void> {
    if (this.loaded) await this.ds.compactDatafileAsync();
  }

  /** Waits for queued writes, then compacts. */
  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.mutex.runExclusive(() => this.compact());
  }
}

class NedbDocStore extends AdapterStore<NedbCollection> {
  readonly kind = 'nedb' as const;
  private readonly timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly catalog: Nedb,
    compactionIntervalMs: number,
  ) {
    super();
    if (compactionIntervalMs > 0) {
      // NeDB's own autocompaction timer would keep the process alive; this one is unref'd.
      this.timer = setInterval(() => this.compactAll(), compactionIntervalMs);
      this.timer.unref();
    }
  }

  private readonly assertOpen = (): void => {
    if (this.closed) throw new Error(`docstore at ${this.dir} is closed`);
  };

  private compactAll(): void {
    // Best effort: compaction only reclaims space, and a real I/O problem will surface on the next write.
    for (const collection of this.collections.adapters()) collection.compact().catch(() => undefined);
  }

  protected override assertUsable(): void {
    this.assertOpen();
  }

  protected open(name: string): NedbCollection {
    return new NedbCollection(name, join(this.dir, `${name}.db`), this.catalog, this.assertOpen);
  }

  async ping(): Promise<void> {
    this.assertOpen();
    await access(this.dir, constants.R_OK | constants.W_OK);
    await countDocs(this.catalog, {});
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    try {
      await Promise.all(this.collections.adapters().map((collection) => collection.close()));
      await this.catalog.compactDatafileAsync();
    } finally {
      openDirs.release(this.dir);
    }
  }
}

export async function openNedbDocStore(options: NedbDocStoreOptions): Promise<DocStore> {
  const dir = resolve(options.dir);
  return openDirs.claim(dir, async () => {
    await mkdir(dir, { recursive: true });
    const catalog = openDatastore(join(dir, INDEX_CATALOG));
    await catalog.autoloadPromise;
    return new NedbDocStore(dir, catalog, options.compactionIntervalMs ?? DEFAULT_COMPACTION_MS);
  });
}
