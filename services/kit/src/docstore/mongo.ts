import mongoose, { type Connection, type mongo } from 'mongoose';
import {
  DuplicateKeyError,
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
import { upsertSeed } from './update';
import {
  assertCollectionName,
  assertFilter,
  assertFindOptions,
  assertIndexSpec,
  indexName,
  normalizeUpdate,
  toStoredDocument,
  writeOptions,
  type StoredDoc,
} from './validate';

/**
 * MongoDB adapter: mongoose manages the connection, the work goes through the native driver collections behind
 * it (no schemas or models: the port is schemaless). Documents keep their string `_id`. Filters and updates pass
 * the shared validator and are then handed to MongoDB unchanged, since the subset *is* MongoDB's dialect.
 */

export interface MongoDocStoreOptions {
  url: string;
  /** Database to use; defaults to the one named in the URL (MongoDB's default is `test`). */
  dbName?: string;
  /** How long to wait for a usable server, at open and per operation (driver default: 30 s). */
  serverSelectionTimeoutMS?: number;
}

/** Documents as the driver sees them: string `_id` (the driver's default type would be ObjectId). */
interface NativeDoc extends mongo.Document {
  _id: string;
}
type NativeCollection = mongo.Collection<NativeDoc>;
type NativeFilter = mongo.Filter<NativeDoc>;
type NativeUpdate = mongo.UpdateFilter<NativeDoc>;

const DUPLICATE_KEY = 11000;

function writeErrorsOf(err: unknown): Array<{ code?: unknown; index?: unknown }> {
  const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
  if (Array.isArray(writeErrors)) return writeErrors as Array<{ code?: unknown; index?: unknown }>;
  return writeErrors && typeof writeErrors === 'object' ? [writeErrors] : [];
}

function isDuplicateKey(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  return (err as { code?: unknown }).code === DUPLICATE_KEY || writeErrorsOf(err).some((e) => e.code === DUPLICATE_KEY);
}

function mapError(collection: string, err: unknown): unknown {
  return isDuplicateKey(err) ? new DuplicateKeyError(collection, (err as Error).message) : err;
}

/** How many documents of an ordered insertMany made it in before the first failure. */
function insertedBeforeFailure(err: unknown): number {
  const indexes = writeErrorsOf(err)
    .map((e) => e.index)
    .filter((i): i is number => typeof i === 'number');
  if (indexes.length > 0) return Math.min(...indexes);
  const count = (err as { insertedCount?: unknown }).insertedCount;
  return typeof count === 'number' ? count : 0;
}

class MongoCollection implements Collection<StoredDoc> {
  constructor(
    readonly name: string,
    private readonly native: NativeCollection,
  ) {}

  private async run<R>(operation: () => Promise<R>): Promise<R> {
    try {
      return await operation();
    } catch (err) {
      throw mapError(this.name, err);
    }
  }

  /**
   * Validates an update; for an upsert whose filter fixes no `_id`, adds one so MongoDB does not invent an
   * ObjectId. The seed is computed either way so a filter that cannot seed a document fails as on NeDB.
   */
  private prepareUpdate(filter: Filter, update: Update, upsert: boolean): NativeUpdate {
    const normalized = normalizeUpdate(update) as NativeUpdate;
    if (!upsert) return normalized;
    const { seed, idFromFilter } = upsertSeed(filter);
    return idFromFilter ? normalized : { ...normalized, $setOnInsert: { _id: seed._id } };
  }

  async insertOne(doc: StoredDoc): Promise<StoredDoc> {
    const stored = toStoredDocument(doc);
    await this.run(() => this.native.insertOne({ ...stored }));
    return stored;
  }

  async insertMany(docs: StoredDoc[]): Promise<StoredDoc[]> {
    if (!Array.isArray(docs)) throw new UnsupportedQueryError('insertMany needs an array of documents');
    const stored = docs.map(toStoredDocument);
    if (stored.length === 0) return [];
    try {
      await this.native.insertMany(
        stored.map((doc) => ({ ...doc })),
        { ordered: true },
      );
    } catch (err) {
      if (isDuplicateKey(err)) {
        // An ordered insert stops at the first duplicate but keeps the documents before it. Take those out
        // again so the batch is all-or-nothing, as the port promises (a concurrent reader may glimpse them).
        const inserted = stored.slice(0, insertedBeforeFailure(err)).map((doc) => doc._id);
        if (inserted.length > 0) await this.native.deleteMany({ _id: { $in: inserted } });
      }
      throw mapError(this.name, err);
    }
    return stored;
  }

  async findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<StoredDoc | null> {
    assertFilter(filter);
    assertFindOptions(options);
    const doc = await this.run(() => this.native.findOne(filter as NativeFilter, { sort: options?.sort }));
    return doc as StoredDoc | null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<StoredDoc[]> {
    assertFilter(filter);
    assertFindOptions(options);
    const { sort, skip, limit } = options ?? {};
    const docs = await this.run(() => this.native.find(filter as NativeFilter, { sort, skip, limit }).toArray());
    return docs as StoredDoc[];
  }

  async count(filter: Filter): Promise<number> {
    assertFilter(filter);
    return this.run(() => this.native.countDocuments(filter as NativeFilter));
  }

  async updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult> {
    assertFilter(filter);
    const { upsert } = writeOptions(options);
    const prepared = this.prepareUpdate(filter, update, upsert);
    const result = await this.run(() => this.native.updateOne(filter as NativeFilter, prepared, { upsert }));
    const outcome: UpdateResult = { matched: result.matchedCount, modified: result.modifiedCount };
    if (result.upsertedId !== null && result.upsertedId !== undefined) outcome.upsertedId = String(result.upsertedId);
    return outcome;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    assertFilter(filter);
    const prepared = this.prepareUpdate(filter, update, false);
    const result = await this.run(() => this.native.updateMany(filter as NativeFilter, prepared));
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<StoredDoc | null> {
    assertFilter(filter);
    const { upsert, returnDocument } = writeOptions(options);
    const prepared = this.prepareUpdate(filter, update, upsert);
    const doc = await this.run(() =>
      this.native.findOneAndUpdate(filter as NativeFilter, prepared, {
        upsert,
        returnDocument,
        includeResultMetadata: false,
      }),
    );
    return doc as StoredDoc | null;
  }

  async deleteOne(filter: Filter): Promise<number> {
    assertFilter(filter);
    const result = await this.run(() => this.native.deleteOne(filter as NativeFilter));
    return result.deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    assertFilter(filter);
    const result = await this.run(() => this.native.deleteMany(filter as NativeFilter));
    return result.deletedCount;
  }

  async ensureIndex(spec: IndexSpec): Promise<void> {
    assertIndexSpec(spec);
    const options: mongo.CreateIndexesOptions = { name: indexName(spec) };
    // Only set flags that are on: MongoDB compares index options literally when the index already exists.
    if (spec.unique) options.unique = true;
    if (spec.sparse) options.sparse = true;
    await this.run(() => this.native.createIndex(spec.fields, options));
  }
}

class MongoDocStore implements DocStore {
  readonly kind = 'mongodb' as const;
  private readonly collections = new Map<string, MongoCollection>();

  constructor(
    private readonly connection: Connection,
    private readonly db: mongo.Db,
  ) {}

  collection<T extends BaseDoc>(name: string): Collection<T> {
    assertCollectionName(name);
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new MongoCollection(name, this.db.collection<NativeDoc>(name));
      this.collections.set(name, collection);
    }
    // Documents carry no runtime type: T is the caller's word on their shape, as with the driver's collection<T>().
    return collection as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    await this.db.admin().command({ ping: 1 });
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

export async function openMongoDocStore(options: MongoDocStoreOptions): Promise<DocStore> {
  const connectOptions: mongoose.ConnectOptions = {
    // Values are normalised before they get here; this keeps a stray `undefined` from being stored as null.
    ignoreUndefined: true,
  };
  if (options.dbName !== undefined) connectOptions.dbName = options.dbName;
  if (options.serverSelectionTimeoutMS !== undefined)
    connectOptions.serverSelectionTimeoutMS = options.serverSelectionTimeoutMS;
  const connection = mongoose.createConnection(options.url, connectOptions);
  try {
    await connection.asPromise();
    if (!connection.db) throw new Error('MongoDB connection opened without a database handle');
    return new MongoDocStore(connection, connection.db);
  } catch (err) {
    await connection.close().catch(() => undefined);
    throw err;
  }
}
