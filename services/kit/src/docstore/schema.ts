import type { BaseDoc, Collection, DocStore, IndexSpec } from './port';

/**
 * A collection as a service's `<domain>/document.ts` declares it: its name, the shape of its documents
 * (the type parameter) and its indexes. The repository opens it with `openCollection`.
 */
export interface CollectionSchema<T extends BaseDoc> {
  readonly name: string;
  readonly indexes: readonly IndexSpec[];
  /** Never set: carries the document type. */
  readonly doc?: T;
}

export function defineCollection<T extends BaseDoc>(name: string, indexes: readonly IndexSpec[]): CollectionSchema<T> {
  return { name, indexes };
}

/** The collection with every index of its schema made (idempotent: a restart makes none again). */
export async function openCollection<T extends BaseDoc>(
  store: DocStore,
  schema: CollectionSchema<T>,
): Promise<Collection<T>> {
  const collection = store.collection<T>(schema.name);
  for (const index of schema.indexes) await collection.ensureIndex(index);
  return collection;
}
