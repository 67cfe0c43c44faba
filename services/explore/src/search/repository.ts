import { DuplicateKeyError, unavailable } from '@trove/kit';
import type { Collection, DocStore, Filter } from '@trove/kit';
import { terms } from './text';

/** Where a word of an item was found: ranking counts the fields a query matches. */
export const FIELDS = ['filename', 'description', 'camera', 'date', 'place', 'things', 'people', 'text'] as const;
export type Field = (typeof FIELDS)[number];
/** The normalised words of each field (see text.ts). */
export type FieldWords = Record<Field, string[]>;

/**
 * One media item as search knows it. `_id` is the media item's id. `terms` holds every word of
 * every field and each word's beginnings (what a query word is looked up by); `fields` keeps the
 * words per field, for ranking.
 */
export interface SearchDoc {
  _id: string;
  userId: string;
  /** When it was taken: among equally good matches, newest first. */
  creationTime: Date;
  fields: FieldWords;
  terms: string[];
  /** Neither hidden nor trashed, as the media service last answered: the only items found. */
  visible: boolean;
  /** The media item's `updatedAt` when its filename, description and flags were read (null: not yet); an older read never overwrites a newer one. */
  stateVersion: Date | null;
  /** Bumped by every write: a write only lands on the version it read. */
  revision: number;
}

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

/**
 * Search's documents: `search_items` (one per media item) and `search_deleted_users`. Every query
 * carries the user id.
 */
export class SearchRepository {
  private constructor(
    private readonly items: Collection<SearchDoc>,
    private readonly deletedUsers: Collection<{ _id: string; deletedAt: Date }>,
  ) {}

  static async open(store: DocStore): Promise<SearchRepository> {
    const items = store.collection<SearchDoc>('search_items');
    // `terms` first: the embedded store looks candidates up by an index's first field (MongoDB uses both).
    await items.ensureIndex({ fields: { terms: 1, userId: 1 } });
    await items.ensureIndex({ fields: { userId: 1 } });
    return new SearchRepository(items, store.collection('search_deleted_users'));
  }

  /**
   * The user's visible items that have every one of `queryTerms` among their terms. The rarest
   * condition cannot be known here; the longest word is usually the most selective, so it goes
   * last, where the embedded store takes its candidates from.
   */
  async visibleMatching(userId: string, queryTerms: string[]): Promise<SearchDoc[]> {
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
   * recomputes its terms. Without a document, `create` starts from an empty, invisible one; else
   * nothing happens. Answers whether it wrote.
   */
  async change(userId: string, id: string, change: (doc: SearchDoc) => SearchChange | null, { create = false } = {}): Promise<boolean> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const before = await this.items.findOne({ _id: id, userId });
      if (!before && !create) return false;
      const base: SearchDoc = before ?? { _id: id, userId, creationTime: new Date(0), fields: emptyFields(), terms: [], visible: false, stateVersion: null, revision: 0 };
      const wanted = change(base);
      if (!wanted) return false;
      const fields = { ...base.fields, ...wanted.fields };
      const next = { ...base, ...wanted, fields, terms: terms(FIELDS.flatMap((f) => fields[f])), revision: base.revision + 1 };
      if (!before) {
        try {
          await this.items.insertOne(next);
          return true;
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
          continue; // created at the same moment by another event: change that one
        }
      }
      const { _id, userId: owner, ...set } = next;
      const res = await this.items.updateOne({ _id, userId: owner, revision: base.revision }, { $set: set });
      if (res.matched > 0) return true;
    }
    throw unavailable('search item busy: its changes kept losing to concurrent ones');
  }

  /** Ids of the user's indexed items, `limit` at a time after `afterId` (id order: a walk that never skips one). */
  async itemIdsAfter(userId: string, afterId: string, limit: number): Promise<string[]> {
    const docs = await this.items.find({ userId, _id: { $gt: afterId } }, { sort: { _id: 1 }, limit });
    return docs.map((d) => d._id);
  }

  async deleteItem(userId: string, id: string): Promise<void> {
    await this.items.deleteOne({ _id: id, userId });
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
  }
}
