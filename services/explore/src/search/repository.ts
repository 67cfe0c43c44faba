import { DuplicateKeyError, unavailable } from '@trove/kit';
import type { Collection, DocStore, Filter } from '@trove/kit';
import { FIELDS } from './document';
import type { FieldWords, SearchDoc } from './document';
import { terms } from './text';
import { UserIndexes } from './user-indexes';
import { WordIndex } from './word-index';
import type { IndexedItem, Match } from './word-index';

/** What a change sets on an item's document; fields left out keep their words. */
export interface SearchChange {
  fields?: Partial<FieldWords>;
  creationTime?: Date;
  visible?: boolean;
  stateVersion?: Date;
}

/** Attempts at a change while concurrent changes of the same item keep winning, before giving up (the event is then redelivered). */
const ATTEMPTS = 10;
const emptyFields = (): FieldWords => Object.fromEntries(FIELDS.map((f) => [f, []])) as unknown as FieldWords;

const indexed = (doc: SearchDoc): IndexedItem => ({ ...doc, fieldWords: FIELDS.map((f) => doc.fields[f]) });

export interface SearchRepositoryOptions {
  /**
   * Answer queries from each user's items held in memory (see word-index.ts and user-indexes.ts),
   * read from the store at the user's first query and kept up to date by this repository's own
   * writes. Only right when this process is the store's only writer: the default for the embedded
   * store (one process owns its files), not for MongoDB (replicas of the service share it).
   */
  inMemory?: boolean;
  /** Items held in memory, all users together (see UserIndexes); unbounded when left out. */
  maxItemsInMemory?: number;
  /** The longest a query waits for its user's items to be read into memory (see UserIndexes); no bound when left out. */
  maxWaitMs?: number;
}

/**
 * Search's documents: `search_items` (one per media item) and `search_deleted_users`. Every query
 * carries the user id. Nothing is read at start: a user's items are read (a page at a time) at their
 * first query.
 */
export class SearchRepository {
  /** Each user's items in memory (when `inMemory`). */
  private readonly indexes: UserIndexes<SearchDoc> | null;

  private constructor(
    private readonly items: Collection<SearchDoc>,
    private readonly deletedUsers: Collection<{ _id: string; deletedAt: Date }>,
    indexes: UserIndexes<SearchDoc> | null,
  ) {
    this.indexes = indexes;
  }

  static async open(
    store: DocStore,
    { inMemory = store.kind !== 'mongodb', maxItemsInMemory, maxWaitMs }: SearchRepositoryOptions = {},
  ): Promise<SearchRepository> {
    const items = store.collection<SearchDoc>('search_items');
    // Queries by words, when the store answers them. `terms` first: the embedded store looks
    // candidates up by an index's first field (MongoDB uses both). In memory, nothing reads it: its
    // key per word and word beginning (some 60 an item) would only slow every write down.
    if (!inMemory) await items.ensureIndex({ fields: { terms: 1, userId: 1 } });
    // A user's items in id order, a page after a given id: reading them into memory, rebuilds, deletion.
    await items.ensureIndex({ fields: { userId: 1, _id: 1 } });
    const indexes = inMemory
      ? new UserIndexes(indexed, FIELDS.length, { maxItems: maxItemsInMemory, maxWaitMs })
      : null;
    return new SearchRepository(items, store.collection('search_deleted_users'), indexes);
  }

  /** Items held in memory, all users together (0 when queries are answered by the store). */
  get itemsInMemory(): number {
    return this.indexes?.size ?? 0;
  }

  /** The best `count` of the user's visible items that have every one of `query`'s words, in rank order (see word-index.ts). */
  async visibleMatches(userId: string, query: string[], count?: number): Promise<Match[]> {
    if (this.indexes)
      return (await this.indexes.of(userId, (after, limit) => this.page(userId, after, limit))).visibleMatches(
        query,
        count,
      );
    const found = new WordIndex(FIELDS.length);
    for (const doc of await this.visibleHavingTerms(userId, query)) found.put(indexed(doc));
    return found.visibleMatches(query, count);
  }

  /**
   * The store's answer: the user's visible items having every one of `queryTerms` among their
   * terms. The rarest condition cannot be known here; the longest word is usually the most
   * selective, so it goes last, where the embedded store takes its candidates from.
   */
  private async visibleHavingTerms(userId: string, queryTerms: string[]): Promise<SearchDoc[]> {
    const [lookup, ...rest] = [...queryTerms].sort((a, b) => b.length - a.length);
    if (lookup === undefined) return [];
    const filter: Filter = { userId, visible: true };
    if (rest.length > 0) filter.$and = rest.map((term) => ({ terms: term }));
    filter.terms = lookup;
    return this.items.find(filter);
  }

  async item(userId: string, id: string): Promise<SearchDoc | null> {
    return this.items.findOne({ _id: id, userId });
  }

  /**
   * Applies what `change` answers for the item's current document (null: nothing to do) and
   * recomputes its terms (when the store answers queries; in memory, nothing asks for them). Without a document, `create` starts from an empty, invisible one; else
   * nothing happens. Answers whether it wrote.
   */
  async change(
    userId: string,
    id: string,
    change: (doc: SearchDoc) => SearchChange | null,
    { create = false } = {},
  ): Promise<boolean> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const before = await this.items.findOne({ _id: id, userId });
      if (!before && !create) return false;
      const base: SearchDoc = before ?? {
        _id: id,
        userId,
        creationTime: new Date(0),
        fields: emptyFields(),
        terms: [],
        visible: false,
        stateVersion: null,
        revision: 0,
      };
      const wanted = change(base);
      if (!wanted) return false;
      const fields = { ...base.fields, ...wanted.fields };
      const next = {
        ...base,
        ...wanted,
        fields,
        terms: this.indexes ? [] : terms(FIELDS.flatMap((f) => fields[f])),
        revision: base.revision + 1,
      };
      if (!before) {
        try {
          await this.items.insertOne(next);
          this.indexes?.written(next);
          return true;
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
          continue; // created at the same moment by another event: change that one
        }
      }
      const { _id, userId: owner, ...set } = next;
      const res = await this.items.updateOne({ _id, userId: owner, revision: base.revision }, { $set: set });
      if (res.matched > 0) {
        this.indexes?.written(next);
        return true;
      }
    }
    throw unavailable('search item busy: its changes kept losing to concurrent ones');
  }

  /** Ids of the user's indexed items, `limit` at a time after `afterId` (id order: a walk that never skips one). */
  async itemIdsAfter(userId: string, afterId: string, limit: number): Promise<string[]> {
    return (await this.page(userId, afterId, limit)).map((d) => d._id);
  }

  /** The user's documents after `afterId` in id order, `limit` of them (the `userId, _id` index: each page costs the same). */
  private page(userId: string, afterId: string, limit: number): Promise<SearchDoc[]> {
    return this.items.find({ userId, _id: { $gt: afterId } }, { sort: { _id: 1 }, limit });
  }

  async deleteItem(userId: string, id: string): Promise<void> {
    await this.items.deleteOne({ _id: id, userId });
    this.indexes?.deleted(userId, id);
  }

  // ---- users ----------------------------------------------------------------------------------

  /** Remembers the deletion first, so an event racing with it can tell and clean up after itself. */
  async markUserDeleted(userId: string): Promise<void> {
    await this.deletedUsers.updateOne({ _id: userId }, { $set: { deletedAt: new Date() } }, { upsert: true });
  }

  async isUserDeleted(userId: string): Promise<boolean> {
    return (await this.deletedUsers.count({ _id: userId })) > 0;
  }

  async deleteUserData(userId: string): Promise<void> {
    await this.items.deleteMany({ userId });
    this.indexes?.userDropped(userId);
  }
}
