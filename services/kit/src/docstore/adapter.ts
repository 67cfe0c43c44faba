import {
  UnsupportedQueryError,
  type BaseDoc,
  type Collection,
  type DocStore,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateResult,
} from './port';
import { applyUpdate, upsertSeed } from './update';
import {
  assertCollectionName,
  assertFilter,
  assertFindOptions,
  checkedIndexSpec,
  normalizeUpdate,
  toStoredDocument,
  writeOptions,
  type StoredDoc,
} from './validate';

/**
 * What the adapters (MongoDB, NeDB, SQLite) share. The port's input is checked here, once, by `CheckedCollection`;
 * an adapter's collection only ever receives input in the dialect: valid filters and find options, normalized
 * updates, stored documents, complete index specs and, for an upsert, the document it starts from. So all adapters
 * reject exactly the same things.
 */

/** An upsert's starting document (from the filter's equalities); `idFromFilter` when the filter fixed `_id`. */
export type Upsert = ReturnType<typeof upsertSeed>;

/** A checked update: normalized, with the upsert's seed when one was asked, and what findOneAndUpdate answers. */
export interface UpdateInput {
  update: Update;
  upsert?: Upsert;
  returnDocument: 'before' | 'after';
}

/** An index spec with its flags spelled out. */
export type FullIndexSpec = Required<IndexSpec>;

/** The port's operations on checked input (findOne is a find of one). */
export interface AdapterCollection {
  readonly name: string;
  insertOne(doc: StoredDoc): Promise<StoredDoc>;
  insertMany(docs: StoredDoc[]): Promise<StoredDoc[]>;
  find(filter: Filter, options: FindOptions): Promise<StoredDoc[]>;
  count(filter: Filter): Promise<number>;
  updateOne(filter: Filter, input: UpdateInput): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  findOneAndUpdate(filter: Filter, input: UpdateInput): Promise<StoredDoc | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  ensureIndex(name: string, spec: FullIndexSpec): Promise<void>;
  /** Nothing when there is no index of that name. */
  dropIndex(name: string): Promise<void>;
}

/** Checks the arguments of updateOne / findOneAndUpdate. */
function updateInput(filter: Filter, update: Update, options: unknown): UpdateInput {
  assertFilter(filter);
  const normalized = normalizeUpdate(update);
  const { upsert, returnDocument } = writeOptions(options);
  // Seeded up front so a filter that cannot seed a document fails the same way whether or not it matches.
  return { update: normalized, upsert: upsert ? upsertSeed(filter) : undefined, returnDocument };
}

/** The port over an adapter's collection: checks every input, then hands it on. */
class CheckedCollection implements Collection<StoredDoc> {
  constructor(private readonly adapter: AdapterCollection) {}

  get name(): string {
    return this.adapter.name;
  }

  async insertOne(doc: StoredDoc): Promise<StoredDoc> {
    return this.adapter.insertOne(toStoredDocument(doc));
  }

  async insertMany(docs: StoredDoc[]): Promise<StoredDoc[]> {
    if (!Array.isArray(docs)) throw new UnsupportedQueryError('insertMany needs an array of documents');
    return this.adapter.insertMany(docs.map(toStoredDocument));
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<StoredDoc | null> {
    assertFindOptions(options);
    const [doc] = await this.find(filter, { sort: options?.sort, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<StoredDoc[]> {
    assertFilter(filter);
    assertFindOptions(options);
    return this.adapter.find(filter, options ?? {});
  }

  async count(filter: Filter): Promise<number> {
    assertFilter(filter);
    return this.adapter.count(filter);
  }

  async updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    return this.adapter.updateOne(filter, updateInput(filter, update, options));
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertFilter(filter);
    return this.adapter.updateMany(filter, normalizeUpdate(update));
  }

  async findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<StoredDoc | null> {
    return this.adapter.findOneAndUpdate(filter, updateInput(filter, update, options));
  }

  async deleteOne(filter: Filter): Promise<number> {
    assertFilter(filter);
    return this.adapter.deleteOne(filter);
  }

  async deleteMany(filter: Filter): Promise<number> {
    assertFilter(filter);
    return this.adapter.deleteMany(filter);
  }

  async ensureIndex(spec: IndexSpec): Promise<void> {
    const checked = checkedIndexSpec(spec);
    return this.adapter.ensureIndex(checked.name, checked.spec);
  }

  async dropIndex(spec: IndexSpec): Promise<void> {
    return this.adapter.dropIndex(checkedIndexSpec(spec).name);
  }
}

/**
 * The stores' common part: `collection(name)` answers the checked port over the adapter's collection `open` makes
 * (once per name).
 */
export abstract class AdapterStore<C extends AdapterCollection> implements DocStore {
  abstract readonly kind: DocStore['kind'];
  protected readonly collections = new AdapterCollections<C>((name) => this.open(name));

  protected abstract open(name: string): C;

  /** Throws when the store can no longer be used (after close). */
  protected assertUsable(): void {}

  collection<T extends BaseDoc>(name: string): Collection<T> {
    this.assertUsable();
    return this.collections.port<T>(name);
  }

  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;
}

/** A store's collections by name (checked names), each created on first use with its checked port. */
export class AdapterCollections<C extends AdapterCollection> {
  private readonly opened = new Map<string, { adapter: C; port: CheckedCollection }>();

  constructor(private readonly create: (name: string) => C) {}

  private entry(name: string): { adapter: C; port: CheckedCollection } {
    assertCollectionName(name);
    let entry = this.opened.get(name);
    if (!entry) {
      const adapter = this.create(name);
      entry = { adapter, port: new CheckedCollection(adapter) };
      this.opened.set(name, entry);
    }
    return entry;
  }

  /** The adapter's own collection, for what the store does beside the port (imports). */
  adapter(name: string): C {
    return this.entry(name).adapter;
  }

  port<T extends BaseDoc>(name: string): Collection<T> {
    // Documents carry no runtime type: as with MongoDB's collection<T>(), T is the caller's word on their shape.
    return this.entry(name).port as unknown as Collection<T>;
  }

  adapters(): C[] {
    return [...this.opened.values()].map((entry) => entry.adapter);
  }
}

/**
 * What updating one document writes, for the embedded adapters: `current` is the first match (if any). Nothing
 * matched: the upsert's new document, or nothing. Else the updated document, written only when it changed.
 */
export class Change {
  private constructor(
    readonly before: StoredDoc | undefined,
    readonly after: StoredDoc | undefined,
    readonly write: boolean,
  ) {}

  static of(current: StoredDoc | undefined, { update, upsert }: Pick<UpdateInput, 'update' | 'upsert'>): Change {
    if (!current) {
      if (!upsert) return new Change(undefined, undefined, false);
      return new Change(undefined, toStoredDocument(applyUpdate(upsert.seed, update).doc), true);
    }
    const { doc, modified } = applyUpdate(current, update);
    return modified ? new Change(current, toStoredDocument(doc), true) : new Change(current, current, false);
  }

  /** updateOne's answer. */
  get result(): UpdateResult {
    if (this.before) return { matched: 1, modified: this.write ? 1 : 0 };
    return this.after ? { matched: 0, modified: 0, upsertedId: this.after._id } : { matched: 0, modified: 0 };
  }

  /** findOneAndUpdate's answer. */
  returned(returnDocument: 'before' | 'after'): StoredDoc | null {
    return (returnDocument === 'after' ? this.after : this.before) ?? null;
  }
}
