/**
 * The document-store port: a documented subset of the MongoDB query/update dialect that both
 * adapters (MongoDB via mongoose, embedded NeDB) implement identically. Services only ever talk
 * to this interface, so the same code runs in the cluster and on a laptop.
 *
 * Supported dialect (anything else is rejected with UnsupportedQueryError, never silently ignored):
 * - filters: field equality (dotted paths allowed), `$eq`, `$ne`, `$in`, `$nin`, `$gt`, `$gte`, `$lt`, `$lte`,
 *   `$exists`, and the logical `$and`, `$or`. Equality on an array field matches when the array contains the value.
 * - updates: `$set`, `$unset`, `$inc`, `$addToSet` (single value or `{ $each: [...] }`), `$pull` (single value).
 * - find options: `sort` (1 | -1 per field, applied in key order), `skip`, `limit`.
 * - indexes: single or compound fields, optionally unique; a unique violation throws DuplicateKeyError.
 * - `findOneAndUpdate` is atomic: two concurrent calls never both see the same "before" document.
 *
 * Documents are plain JSON-like objects with a string `_id` (services use uuids). Values may be
 * strings, numbers, booleans, null, Date, arrays and nested objects.
 */

export type DocId = string;

export interface BaseDoc {
  _id: DocId;
}

export type Primitive = string | number | boolean | null | Date;

export interface FieldOperators {
  $eq?: unknown;
  $ne?: unknown;
  $in?: unknown[];
  $nin?: unknown[];
  $gt?: Primitive;
  $gte?: Primitive;
  $lt?: Primitive;
  $lte?: Primitive;
  $exists?: boolean;
}

export type Filter = {
  $and?: Filter[];
  $or?: Filter[];
  [field: string]: unknown;
};

export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, true | 1 | ''>;
  $inc?: Record<string, number>;
  $addToSet?: Record<string, unknown>;
  $pull?: Record<string, unknown>;
}

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface UpdateResult {
  matched: number;
  modified: number;
  /** Set when an upsert inserted a new document. */
  upsertedId?: DocId;
}

export interface FindOneAndUpdateOptions {
  /** Which version to return; defaults to 'after'. */
  returnDocument?: 'before' | 'after';
  upsert?: boolean;
}

export interface IndexSpec {
  fields: Record<string, 1 | -1>;
  unique?: boolean;
  /** Only index documents where every indexed field exists (needed for unique on optional fields). */
  sparse?: boolean;
}

export interface Collection<T extends BaseDoc> {
  readonly name: string;
  insertOne(doc: T): Promise<T>;
  insertMany(docs: T[]): Promise<T[]>;
  findOne(filter: Filter, options?: Pick<FindOptions, 'sort'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  updateOne(filter: Filter, update: Update, options?: { upsert?: boolean }): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  ensureIndex(spec: IndexSpec): Promise<void>;
}

export interface DocStore {
  /** Which adapter is behind the port: useful in logs and health answers. */
  readonly kind: 'mongodb' | 'nedb';
  collection<T extends BaseDoc>(name: string): Collection<T>;
  /** Round-trip to the backing store; throws when it is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when an insert or update would violate a unique index. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    message = 'duplicate key',
  ) {
    super(message);
    this.name = 'DuplicateKeyError';
  }
}

/** Thrown for query or update operators outside the documented subset. */
export class UnsupportedQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedQueryError';
  }
}
