/**
 * The document-store port: a documented subset of the MongoDB query/update dialect that both
 * adapters (MongoDB via mongoose, embedded NeDB) implement identically. Services only ever talk
 * to this interface, so the same code runs in the cluster and on a laptop.
 *
 * Supported dialect (anything else is rejected with UnsupportedQueryError, never silently ignored;
 * both adapters run the same validator, so they reject exactly the same things):
 * - filters: field equality (dotted paths allowed), `$eq`, `$ne`, `$in`, `$nin`, `$gt`, `$gte`, `$lt`, `$lte`,
 *   `$exists`, and the logical `$and`, `$or` (non-empty arrays). MongoDB semantics throughout:
 *   - equality on an array field matches when the array contains the value (or equals it exactly, order included);
 *     a dotted path through an array of sub-documents matches when any element matches;
 *   - `null` (via equality, `$eq` or `$in`) also matches documents where the field is missing;
 *     `$ne` / `$nin` are the exact negations of `$eq` / `$in` (so they match missing fields);
 *   - `$gt`/`$gte`/`$lt`/`$lte` only compare values of the same kind (number with number, string with string
 *     by code point, Date with Date, boolean with boolean); on array fields any element may satisfy them;
 *   - embedded-document equality compares field order too, as MongoDB does.
 *   Values in filters must not be `undefined` (almost always a bug) or RegExp (no `$regex` in the subset).
 * - updates: `$set`, `$unset`, `$inc`, `$addToSet` (single value or `{ $each: [...] }`), `$pull` (a scalar or Date,
 *   removed wherever it occurs). At least one operator; no whole-document replacement; no path may touch `_id`,
 *   and no two paths may overlap (`a` with `a.b`), as in MongoDB. `$pull`/`$unset` on a missing field are no-ops;
 *   `$inc`/`$addToSet` on a missing field create it. Type errors (`$inc` on a string, `$addToSet` on a scalar,
 *   `$set` through a scalar) reject the write, with a backend-specific error class.
 * - find options: `sort` (1 | -1 per field, applied in key order; BSON order across types: null/missing first,
 *   then numbers, strings, objects, arrays, booleans, dates; an array sorts by its smallest element ascending and
 *   its largest descending), `skip`, `limit` (non-negative integers; limit 0 means no limit). Without `sort` the
 *   order is unspecified.
 * - upsert: when nothing matches, the new document is seeded from the filter's equality conditions (`field: value`,
 *   `field: { $eq: value }`, an `$in` of one value, inside `$and` or a one-clause `$or`), then the update is applied;
 *   `_id` comes from the filter or is a fresh `crypto.randomUUID()`.
 * - indexes: single or compound fields, optionally unique and/or sparse; a unique violation throws
 *   DuplicateKeyError and writes nothing. A missing field is indexed as null (so a non-sparse unique index admits
 *   one document without the field); each element of an array field is a separate key. `ensureIndex` is
 *   idempotent; re-declaring the same fields with other options fails (backend-specific error class). `dropIndex`
 *   removes the index of those fields (whatever its options), if there is one: a write no longer keeps its keys.
 * - `insertMany` is all-or-nothing: on DuplicateKeyError none of the given documents remain stored (on MongoDB the
 *   documents an ordered insert got in before the duplicate are removed again, so a concurrent reader may glimpse them).
 *   `updateMany` is not atomic across documents (as in MongoDB): a DuplicateKeyError part-way may leave earlier
 *   documents updated.
 * - `findOneAndUpdate` is atomic: two concurrent calls never both see the same "before" document.
 *
 * Documents are plain JSON-like objects with a non-empty string `_id` (services use uuids). Values may be
 * strings, finite numbers, booleans, null, Date, arrays and nested plain objects; properties whose value is
 * `undefined` are omitted (as JSON.stringify does). Field names must be non-empty and must not contain `.`,
 * start with `$` or be `__proto__`. Reads return fresh plain objects (mutating them never touches the store).
 * Collection names: letters, digits, `_`, `-`, `.`; starting with a letter or digit; at most 100 characters; not `system.*`.
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
  /**
   * Skip documents that have none of the indexed fields (needed for unique on optional fields). As in MongoDB, a
   * compound sparse index still indexes a document that has at least one of its fields (the others count as null).
   */
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
  dropIndex(spec: IndexSpec): Promise<void>;
}

export interface DocStore {
  /** Which adapter is behind the port: useful in logs and health answers. */
  readonly kind: 'mongodb' | 'nedb' | 'sqlite';
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

/**
 * Thrown for anything outside the documented dialect: unknown operators, malformed filters, updates, options or
 * index specs, invalid collection names, and values or field names that cannot be stored.
 */
export class UnsupportedQueryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedQueryError';
  }
}
