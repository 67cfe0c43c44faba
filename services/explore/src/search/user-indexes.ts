import { WordIndex } from './word-index';
import type { IndexedItem } from './word-index';

/** A user's index: being read (from a read whose moment is not known) or read. */
interface UserIndex {
  index: WordIndex;
  ready: Promise<void>;
  /** Deleted while the read ran: the read may still hold them. Null once read. */
  deletedWhileReading: Set<string> | null;
}

/** What was written while every user's items were being read: each item's latest (null: deleted), users whose data went. */
interface WrittenWhileWarming<D> {
  items: Map<string, { userId: string; doc: D | null }>;
  droppedUsers: Set<string>;
}

/**
 * Each user's WordIndex, for a repository that is its store's only writer: every user's read from
 * the store at start (`warm`), else a user's at their first query, then kept up to date by the
 * repository telling each write that succeeded. A read runs while writes go on and may answer
 * older documents than those told meanwhile: those told win.
 */
export class UserIndexes<D extends { _id: string; userId: string }> {
  private readonly users = new Map<string, UserIndex>();
  private warming: Promise<void> = Promise.resolve();
  private writtenWhileWarming: WrittenWhileWarming<D> | null = null;

  /** `fields`: how many fields each item has (see WordIndex). */
  constructor(
    private readonly toItem: (doc: D) => IndexedItem,
    private readonly fields: number,
  ) {}

  /**
   * Reads every user's items in the background, so that a first query after a start finds them in
   * memory. Queries wait for it; should it fail, each user's first query reads theirs.
   */
  warm(readAll: () => Promise<D[]>): void {
    const written: WrittenWhileWarming<D> = { items: new Map(), droppedUsers: new Set() };
    this.writtenWhileWarming = written;
    this.warming = readAll()
      .then((docs) => {
        const read = new Map<string, WordIndex>();
        for (const doc of docs) {
          if (written.items.has(doc._id) || written.droppedUsers.has(doc.userId) || this.users.has(doc.userId))
            continue;
          let index = read.get(doc.userId);
          if (!index) read.set(doc.userId, (index = new WordIndex(this.fields)));
          index.put(this.toItem(doc));
        }
        for (const { userId, doc } of written.items.values()) if (doc) read.get(userId)?.put(this.toItem(doc));
        for (const [userId, index] of read)
          this.users.set(userId, { index, ready: Promise.resolve(), deletedWhileReading: null });
      })
      .catch(() => undefined)
      .finally(() => {
        this.writtenWhileWarming = null;
      });
  }

  /** The user's index; `read` answers the user's items when it is not in memory yet. */
  async of(userId: string, read: () => Promise<D[]>): Promise<WordIndex> {
    await this.warming;
    for (;;) {
      let user = this.users.get(userId);
      if (!user) {
        const reading: UserIndex = {
          index: new WordIndex(this.fields),
          deletedWhileReading: new Set(),
          ready: Promise.resolve(),
        };
        reading.ready = read().then(
          (docs) => {
            // Writes since the read began are in the index already, at a later revision or as deletions.
            for (const doc of docs) if (!reading.deletedWhileReading?.has(doc._id)) reading.index.put(this.toItem(doc));
            reading.deletedWhileReading = null;
          },
          (err: unknown) => {
            if (this.users.get(userId) === reading) this.users.delete(userId);
            throw err;
          },
        );
        this.users.set(userId, reading);
        user = reading;
      }
      await user.ready;
      // The user's data was deleted meanwhile: what was read is gone, read again.
      if (this.users.get(userId) === user) return user.index;
    }
  }

  /** `doc` was written (inserted or updated). */
  written(doc: D): void {
    this.writtenWhileWarming?.items.set(doc._id, { userId: doc.userId, doc });
    this.users.get(doc.userId)?.index.put(this.toItem(doc));
  }

  deleted(userId: string, id: string): void {
    this.writtenWhileWarming?.items.set(id, { userId, doc: null });
    const user = this.users.get(userId);
    user?.index.remove(id);
    user?.deletedWhileReading?.add(id);
  }

  /** Every item of the user was deleted: the next query reads the store again. */
  userDropped(userId: string): void {
    this.writtenWhileWarming?.droppedUsers.add(userId);
    this.users.delete(userId);
  }
}
