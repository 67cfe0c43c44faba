import type { BaseDoc, Collection, DocStore, IndexSpec } from './port';

/**
 * A collection as a service's `<domain>/document.ts` declares it: its name, the shape of its documents
 * (the type parameter) and its indexes. The repository opens it with `openCollection`.
 */
export interface CollectionSchema<T extends BaseDoc> {
  readonly name: string;
  readonly indexes: readonly IndexSpec[];
  /** Indexes earlier versions made and nothing reads any more: dropped at open, so writes stop keeping them. */
  readonly retired: readonly IndexSpec[];
  /** Never set: carries the document type. */
  readonly doc?: T;
}

export function defineCollection<T extends BaseDoc>(
  name: string,
  indexes: readonly IndexSpec[],
  options: { retired?: readonly IndexSpec[] } = {},
): CollectionSchema<T> {
  return { name, indexes, retired: options.retired ?? [] };
}

/** The collection with every index of its schema made and its retired ones gone (idempotent: a restart changes nothing). */
export async function openCollection<T extends BaseDoc>(
  store: DocStore,
  schema: CollectionSchema<T>,
): Promise<Collection<T>> {
  const collection = store.collection<T>(schema.name);
  for (const index of schema.retired) await collection.dropIndex(index);
  for (const index of schema.indexes) await collection.ensureIndex(index);
  return collection;
}

/** A repository's collections by the names it gives them, from their schemas. */
export type Collections<S extends Record<string, CollectionSchema<BaseDoc>>> = {
  readonly [K in keyof S]: S[K] extends CollectionSchema<infer T> ? Collection<T> : never;
};

/** Every collection of `schemas` opened as `openCollection` does, under the same names. */
export async function openCollections<S extends Record<string, CollectionSchema<BaseDoc>>>(
  store: DocStore,
  schemas: S,
): Promise<Collections<S>> {
  const opened: Record<string, Collection<BaseDoc>> = {};
  for (const [key, schema] of Object.entries(schemas)) opened[key] = await openCollection(store, schema);
  return opened as Collections<S>;
}

/** What a repository is opened with: a clock for tests (the system's otherwise). */
export interface RepositoryOptions {
  now?: () => Date;
}

/** The repository's clock: the options' `now`, else the system's. */
export const clockOf = (opts: RepositoryOptions): (() => Date) => opts.now ?? (() => new Date());

/**
 * A repository: its collections, opened from its schemas, and its clock. The subclass adds the queries and
 * a static `open(store, opts)` that builds it with `openCollections` and `clockOf`.
 */
export abstract class DocRepository<S extends Record<string, CollectionSchema<BaseDoc>>> {
  protected constructor(
    protected readonly c: Collections<S>,
    protected readonly now: () => Date,
  ) {}
}
