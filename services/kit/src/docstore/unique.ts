import { collectLeaves } from './paths';
import { DuplicateKeyError, type IndexSpec } from './port';
import type { StoredDoc } from './validate';
import { canonicalKey, EMPTY_ARRAY_KEY } from './values';

/**
 * Unique-index enforcement for the embedded adapter, with MongoDB's key rules: a missing field is keyed as null,
 * each element of an array is its own key (an empty array is one "undefined" key), a sparse index skips documents
 * lacking all of its fields. NeDB's built-in unique indexes differ on these points (missing vs null, compound
 * keys over arrays, object field order), so keys are computed here and held in memory, rebuilt from the data at
 * load. Callers serialise writes per collection, check before writing and apply after the write succeeded.
 */

export interface DocChange {
  before?: StoredDoc;
  after?: StoredDoc;
}

/**
 * The values `doc` has for each field of an index, with MongoDB's key rules (a missing field is null, each element
 * of an array its own value, an empty array one marker value), each field's values distinct by `keyOf`; null when
 * a sparse index skips the document. Throws for parallel arrays (several array fields), as MongoDB does.
 */
export function indexFieldKeys(doc: StoredDoc, spec: IndexSpec, keyOf: (value: unknown) => string): string[][] | null {
  let anyPresent = false;
  const perField = Object.keys(spec.fields).map((path) => {
    const leaves = collectLeaves(doc, path.split('.'));
    if (leaves.some((leaf) => leaf !== undefined)) anyPresent = true;
    const values =
      leaves.length === 0
        ? [null]
        : leaves.flatMap((leaf) => (Array.isArray(leaf) ? (leaf.length > 0 ? leaf : [EMPTY_ARRAY_KEY]) : [leaf]));
    return [...new Set(values.map(keyOf))];
  });
  if (spec.sparse && !anyPresent) return null;
  if (perField.filter((keys) => keys.length > 1).length > 1) {
    throw new Error(
      `cannot index parallel arrays: index fields ${Object.keys(spec.fields).join(', ')} are several arrays in document ${doc._id}`,
    );
  }
  return perField;
}

/** The index keys of `doc`, or null when a sparse index skips it. */
export function indexKeys(doc: StoredDoc, spec: IndexSpec): string[] | null {
  const perField = indexFieldKeys(doc, spec, canonicalKey);
  if (!perField) return null;
  // At most one field has several keys, so the cartesian product is a simple expansion.
  let keys = [''];
  for (const fieldKeys of perField) keys = keys.flatMap((prefix) => fieldKeys.map((key) => `${prefix}|${key}`));
  return keys;
}

class UniqueIndex {
  private readonly owners = new Map<string, string>();

  constructor(
    readonly name: string,
    readonly spec: IndexSpec,
  ) {}

  keysOf(doc: StoredDoc | undefined): string[] {
    return doc ? (indexKeys(doc, this.spec) ?? []) : [];
  }

  /** Throws DuplicateKeyError if applying `changes` (in order, as one batch) would violate the index. */
  check(collection: string, changes: readonly DocChange[]): void {
    const released = new Set<string>();
    for (const change of changes) for (const key of this.keysOf(change.before)) released.add(key);
    const claimed = new Map<string, string>();
    for (const { after } of changes) {
      if (!after) continue;
      for (const key of this.keysOf(after)) {
        const owner = claimed.get(key) ?? (released.has(key) ? undefined : this.owners.get(key));
        if (owner !== undefined && owner !== after._id) {
          throw new DuplicateKeyError(
            collection,
            `duplicate key in unique index ${this.name} of ${collection}: ${key.slice(1)}`,
          );
        }
        claimed.set(key, after._id);
      }
    }
  }

  apply(changes: readonly DocChange[]): void {
    for (const { before } of changes) {
      for (const key of this.keysOf(before)) if (this.owners.get(key) === before?._id) this.owners.delete(key);
    }
    for (const { after } of changes) {
      if (after) for (const key of this.keysOf(after)) this.owners.set(key, after._id);
    }
  }

  clear(): void {
    this.owners.clear();
  }
}

export class UniqueIndexes {
  private readonly indexes = new Map<string, UniqueIndex>();

  constructor(private readonly collection: string) {}

  /** Adds an index over the current documents; throws DuplicateKeyError (and adds nothing) if they violate it. */
  add(name: string, spec: IndexSpec, docs: readonly StoredDoc[]): void {
    const index = new UniqueIndex(name, spec);
    const inserts = docs.map((after) => ({ after }));
    index.check(this.collection, inserts);
    index.apply(inserts);
    this.indexes.set(name, index);
  }

  remove(name: string): void {
    this.indexes.delete(name);
  }

  check(changes: readonly DocChange[]): void {
    for (const index of this.indexes.values()) index.check(this.collection, changes);
  }

  apply(changes: readonly DocChange[]): void {
    for (const index of this.indexes.values()) index.apply(changes);
  }

  /** Recomputes every index from the stored documents (after a write failed half-way). */
  rebuild(docs: readonly StoredDoc[]): void {
    const inserts = docs.map((after) => ({ after }));
    for (const index of this.indexes.values()) {
      index.clear();
      index.apply(inserts);
    }
  }
}
