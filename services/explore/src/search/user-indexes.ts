import { unavailable } from '@trove/kit';
import { WordIndex } from './word-index';
import type { IndexedItem } from './word-index';

/** A user's index: being read (page after page, while writes go on) or read. */
interface UserIndex {
  index: WordIndex;
  ready: Promise<void>;
  /** Deleted while the read ran: a page read later cannot hold them, one read earlier may. Null once read. */
  deletedWhileReading: Set<string> | null;
}

/** The user's items whose id comes after `afterId`, in id order, at most `limit` of them. */
export type ReadPage<D> = (afterId: string, limit: number) => Promise<D[]>;

export interface UserIndexesOptions {
  /**
   * Items held in all users' indexes together: past it, the least recently searched users' are dropped
   * (their next query reads them again). The user being searched is always kept, even alone past it.
   */
  maxItems?: number;
  /** Documents read at a time while a user's index is being read. */
  pageSize?: number;
  /**
   * The longest a query waits for its user's read: past it, it is answered "unavailable" (try again)
   * while the read goes on, before the caller's own timeout cuts it short without a word.
   */
  maxWaitMs?: number;
}

/**
 * Each user's WordIndex, for a repository that is its store's only writer: read from the store at the
 * user's first query, a page at a time (never all their documents at once), then kept up to date by the
 * repository telling each write that succeeded. Nothing is read at start: a start costs the same
 * whatever the libraries' size, and a user who never searches costs no memory. A query waits for its
 * user's read: answering it from the store meanwhile would read as many documents as the read does.
 * A read runs while writes go on and may answer older documents than those told meanwhile: those
 * told win (a put keeps the later revision, a deletion told during the read keeps the item out).
 */
export class UserIndexes<D extends { _id: string; userId: string }> {
  /** In order of last use, the least recent first (a Map keeps insertion order: a use moves the user last). */
  private readonly users = new Map<string, UserIndex>();
  private readonly maxItems: number;
  private readonly pageSize: number;
  private readonly maxWaitMs: number;

  /** `fields`: how many fields each item has (see WordIndex). */
  constructor(
    private readonly toItem: (doc: D) => IndexedItem,
    private readonly fields: number,
    {
      maxItems = Number.POSITIVE_INFINITY,
      pageSize = 2000,
      maxWaitMs = Number.POSITIVE_INFINITY,
    }: UserIndexesOptions = {},
  ) {
    this.maxItems = maxItems;
    this.pageSize = pageSize;
    this.maxWaitMs = maxWaitMs;
  }

  /** Items held in memory, all users together. */
  get size(): number {
    let n = 0;
    for (const user of this.users.values()) n += user.index.size;
    return n;
  }

  /** Whether the user's index is in memory (read or being read). */
  holds(userId: string): boolean {
    return this.users.has(userId);
  }

  /** The user's index; `readPage` answers the user's documents when it is not in memory yet. */
  async of(userId: string, readPage: ReadPage<D>): Promise<WordIndex> {
    for (;;) {
      let user = this.users.get(userId);
      if (!user) {
        const reading: UserIndex = {
          index: new WordIndex(this.fields),
          deletedWhileReading: new Set(),
          ready: Promise.resolve(),
        };
        this.users.set(userId, reading);
        reading.ready = this.read(userId, reading, readPage).catch((err: unknown) => {
          if (this.users.get(userId) === reading) this.users.delete(userId);
          throw err;
        });
        user = reading;
      }
      await this.atMostMaxWait(user.ready);
      // The user's data was deleted meanwhile (or their index dropped): what was read is gone, read again.
      if (this.users.get(userId) === user) {
        this.users.delete(userId);
        this.users.set(userId, user);
        this.evictFor(userId);
        return user.index;
      }
    }
  }

  private async atMostMaxWait(ready: Promise<void>): Promise<void> {
    if (!Number.isFinite(this.maxWaitMs)) return ready;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(unavailable('search is reading this library into memory: try again in a few seconds')),
        this.maxWaitMs,
      );
    });
    try {
      await Promise.race([ready, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async read(userId: string, reading: UserIndex, readPage: ReadPage<D>): Promise<void> {
    for (let after = ''; ;) {
      const docs = await readPage(after, this.pageSize);
      // Dropped meanwhile: whoever asks next reads again; this read is of no use.
      if (this.users.get(userId) !== reading) return;
      // Writes since the read began are in the index already, at a later revision or as deletions.
      for (const doc of docs) if (!reading.deletedWhileReading?.has(doc._id)) reading.index.put(this.toItem(doc));
      if (docs.length < this.pageSize) break;
      after = docs[docs.length - 1]!._id;
    }
    reading.deletedWhileReading = null;
    reading.index.trim();
  }

  /** Drops the least recently used users' indexes (read ones, not `keep`'s) while all hold more than the budget. */
  private evictFor(keep: string): void {
    let total = this.size;
    for (const [userId, user] of this.users) {
      if (total <= this.maxItems) return;
      if (userId === keep || user.deletedWhileReading) continue;
      total -= user.index.size;
      this.users.delete(userId);
    }
  }

  /** `doc` was written (inserted or updated). */
  written(doc: D): void {
    this.users.get(doc.userId)?.index.put(this.toItem(doc));
  }

  deleted(userId: string, id: string): void {
    const user = this.users.get(userId);
    user?.index.remove(id);
    user?.deletedWhileReading?.add(id);
  }

  /** Every item of the user was deleted: the next query reads the store again. */
  userDropped(userId: string): void {
    this.users.delete(userId);
  }
}
