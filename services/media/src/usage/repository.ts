import { DuplicateKeyError, openCollection } from '@trove/kit';
import { USAGE } from './document';
import type { UsageDoc } from './document';
import type { Collection, DocStore } from '@trove/kit';

/** What the usage rules ask of their store (the repository; tests use it over the embedded store). */
export type UsageCounts = { [K in keyof UsageRepository]: UsageRepository[K] };

/**
 * The per-user totals (`media_usage`): one small document per user, changed with atomic `$inc`,
 * so a total costs one read by id whatever the size of the library.
 */
export class UsageRepository {
  private constructor(
    private readonly totals: Collection<UsageDoc>,
    private readonly now: () => Date,
  ) {}

  static async open(store: DocStore, opts: { now?: () => Date } = {}): Promise<UsageRepository> {
    return new UsageRepository(await openCollection(store, USAGE), opts.now ?? (() => new Date()));
  }

  /** The user's total, or null while it was never counted. */
  async get(userId: string): Promise<number | null> {
    return (await this.totals.findOne({ _id: userId }))?.bytes ?? null;
  }

  /** Starts the user's total at `bytes`, unless another process started it first (then theirs stands). */
  async start(userId: string, bytes: number): Promise<void> {
    try {
      await this.totals.insertOne({ _id: userId, bytes, updatedAt: this.now() });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
  }

  /**
   * Adds `bytes` to a started total, atomically: with a quota only while the result stays within
   * it, so concurrent uploads (also through other media replicas) can never together pass it.
   * False when the quota would be exceeded (nothing added), or when the total was never started.
   */
  async add(userId: string, bytes: number, quotaBytes: number | null): Promise<boolean> {
    const filter = quotaBytes === null ? { _id: userId } : { _id: userId, bytes: { $lte: quotaBytes - bytes } };
    const res = await this.totals.updateOne(filter, { $inc: { bytes }, $set: { updatedAt: this.now() } });
    return res.matched > 0;
  }

  /** Takes `bytes` off the user's total (a purged item); nothing when it was never started. */
  async subtract(userId: string, bytes: number): Promise<void> {
    await this.totals.updateOne({ _id: userId }, { $inc: { bytes: -bytes }, $set: { updatedAt: this.now() } });
  }

  /** Forgets the user's total (the user was deleted). */
  async remove(userId: string): Promise<void> {
    await this.totals.deleteOne({ _id: userId });
  }
}
