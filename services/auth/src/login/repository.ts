import { openCollection } from '@trove/kit';
import type { Collection, DocStore } from '@trove/kit';
import { LOGIN_ATTEMPTS } from './document';
import type { AttemptsDoc } from './document';

/**
 * Login attempt counts per key and fixed window (`login_attempts`), shared by every auth replica.
 * The sliding-window rule over them is `LoginRateLimiter`'s.
 */
export class LoginAttemptsRepository {
  private constructor(private readonly attempts: Collection<AttemptsDoc>) {}

  static async open(store: DocStore): Promise<LoginAttemptsRepository> {
    const attempts = await openCollection(store, LOGIN_ATTEMPTS);
    return new LoginAttemptsRepository(attempts);
  }

  /** Counts one attempt, atomically (concurrent attempts are all counted): the count after it. */
  async increment(id: string, expiresAt: Date): Promise<number> {
    const doc = await this.attempts.findOneAndUpdate(
      { _id: id },
      { $inc: { count: 1 }, $set: { expiresAt } },
      { upsert: true, returnDocument: 'after' },
    );
    return doc?.count ?? 1;
  }

  async count(id: string): Promise<number> {
    return (await this.attempts.findOne({ _id: id }))?.count ?? 0;
  }

  async purgeExpired(now: Date): Promise<number> {
    return this.attempts.deleteMany({ expiresAt: { $lte: now } });
  }
}
