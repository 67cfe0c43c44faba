import mongoose, { type Connection, type mongo } from 'mongoose';
import { AdapterStore, type AdapterCollection, type FullIndexSpec, type UpdateInput } from './adapter';
import {
  DuplicateKeyError,
  type DocStore,
  type Filter,
  type FindOptions,
  type Update,
  type UpdateResult,
} from './port';
import type { StoredDoc } from './validate';

/**
 * MongoDB adapter: mongoose manages the connection, the work goes through the native driver collections behind
 * it (no schemas or models: the port is schemaless). Documents keep their string `_id`. Filters and updates pass
 * the shared checks (adapter.ts) and are then handed to MongoDB unchanged, since the subset *is* MongoDB's dialect.
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
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;

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

class MongoCollection implements AdapterCollection {
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

  /** For an upsert whose filter fixes no `_id`, adds the seed's so MongoDB does not invent an ObjectId. */
  private prepareUpdate({ update, upsert }: UpdateInput): NativeUpdate {
    const native = update as NativeUpdate;
    return upsert && !upsert.idFromFilter ? { ...native, $setOnInsert: { _id: upsert.seed._id } } : native;
  }

  async insertOne(doc: StoredDoc): Promise<StoredDoc> {
    await this.run(() => this.native.insertOne({ ...doc }));
    return doc;
  }

  async insertMany(docs: StoredDoc[]): Promise<StoredDoc[]> {
    if (docs.length === 0) return [];
    try {
      await this.native.insertMany(
        docs.map((doc) => ({ ...doc })),
        { ordered: true },
      );
    } catch (err) {
      if (isDuplicateKey(err)) {
        // An ordered insert stops at the first duplicate but keeps the documents before it. Take those out
        // again so the batch is all-or-nothing, as the port promises (a concurrent reader may glimpse them).
        const inserted = docs.slice(0, insertedBeforeFailure(err)).map((doc) => doc._id);
        if (inserted.length > 0) await this.native.deleteMany({ _id: { $in: inserted } });
      }
      throw mapError(this.name, err);
    }
    return docs;
  }

  async find(filter: Filter, { sort, skip, limit }: FindOptions): Promise<StoredDoc[]> {
    const docs = await this.run(() => this.native.find(filter as NativeFilter, { sort, skip, limit }).toArray());
    return docs as StoredDoc[];
  }

  async count(filter: Filter): Promise<number> {
    return this.run(() => this.native.countDocuments(filter as NativeFilter));
  }

  async updateOne(filter: Filter, input: UpdateInput): Promise<UpdateResult> {
    const upsert = input.upsert !== undefined;
    const result = await this.run(() =>
      this.native.updateOne(filter as NativeFilter, this.prepareUpdate(input), { upsert }),
    );
    const outcome: UpdateResult = { matched: result.matchedCount, modified: result.modifiedCount };
    if (result.upsertedId !== null && result.upsertedId !== undefined) outcome.upsertedId = String(result.upsertedId);
    return outcome;
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const result = await this.run(() => this.native.updateMany(filter as NativeFilter, update as NativeUpdate));
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  async findOneAndUpdate(filter: Filter, input: UpdateInput): Promise<StoredDoc | null> {
    const doc = await this.run(() =>
      this.native.findOneAndUpdate(filter as NativeFilter, this.prepareUpdate(input), {
        upsert: input.upsert !== undefined,
        returnDocument: input.returnDocument,
        includeResultMetadata: false,
      }),
    );
    return doc as StoredDoc | null;
  }

  async deleteOne(filter: Filter): Promise<number> {
    const result = await this.run(() => this.native.deleteOne(filter as NativeFilter));
    return result.deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const result = await this.run(() => this.native.deleteMany(filter as NativeFilter));
    return result.deletedCount;
  }

  async ensureIndex(name: string, spec: FullIndexSpec): Promise<void> {
    const options: mongo.CreateIndexesOptions = { name };
    // Only set flags that are on: MongoDB compares index options literally when the index already exists.
    if (spec.unique) options.unique = true;
    if (spec.sparse) options.sparse = true;
    await this.run(() => this.native.createIndex(spec.fields, options));
  }

  async dropIndex(name: string): Promise<void> {
    try {
      await this.native.dropIndex(name);
    } catch (err) {
      // No such index (27), or no such collection yet (26): nothing to drop.
      const code = (err as { code?: unknown }).code;
      if (code === INDEX_NOT_FOUND || code === NAMESPACE_NOT_FOUND) return;
      throw mapError(this.name, err);
    }
  }
}

class MongoDocStore extends AdapterStore<MongoCollection> {
  readonly kind = 'mongodb' as const;

  constructor(
    private readonly connection: Connection,
    private readonly db: mongo.Db,
  ) {
    super();
  }

  protected open(name: string): MongoCollection {
    return new MongoCollection(name, this.db.collection<NativeDoc>(name));
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
