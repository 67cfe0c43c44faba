import { randomUUID } from 'node:crypto';
import { openCollection } from '@trove/kit';
import type { Collection, DocStore } from '@trove/kit';
import { SESSIONS } from './document';
import type { SessionDoc } from './document';
import { hashRefreshToken, newRefreshToken } from './tokens';

export type RotateResult =
  | { kind: 'rotated'; session: SessionDoc; refreshToken: string }
  /** An already-rotated token: the session must be revoked. */
  | { kind: 'reused'; session: SessionDoc }
  /** Unknown or expired token. */
  | { kind: 'invalid' };

/** Sessions in the document store (`sessions`); expired ones are deleted by housekeeping. */
export class SessionsRepository {
  private constructor(
    private readonly sessions: Collection<SessionDoc>,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  static async open(store: DocStore, opts: { ttlMs: number; now?: () => number }): Promise<SessionsRepository> {
    const sessions = await openCollection(store, SESSIONS);
    return new SessionsRepository(sessions, opts.ttlMs, opts.now ?? Date.now);
  }

  async create(userId: string): Promise<{ session: SessionDoc; refreshToken: string }> {
    const refreshToken = newRefreshToken();
    const now = new Date(this.now());
    const session: SessionDoc = {
      _id: randomUUID(),
      userId,
      refreshHash: hashRefreshToken(refreshToken),
      rotatedHashes: [],
      createdAt: now,
      refreshedAt: now,
      expiresAt: new Date(now.getTime() + this.ttlMs),
    };
    await this.sessions.insertOne(session);
    return { session, refreshToken };
  }

  /** Replaces the presented token by a new one, atomically: of two concurrent uses only one rotates. */
  async rotate(refreshToken: string): Promise<RotateResult> {
    const hash = hashRefreshToken(refreshToken);
    const current = await this.sessions.findOne({ refreshHash: hash });
    if (current) {
      if (current.expiresAt.getTime() <= this.now()) {
        await this.sessions.deleteOne({ _id: current._id });
        return { kind: 'invalid' };
      }
      const next = newRefreshToken();
      const updated = await this.sessions.findOneAndUpdate(
        { _id: current._id, refreshHash: hash },
        {
          $set: { refreshHash: hashRefreshToken(next), refreshedAt: new Date(this.now()) },
          $addToSet: { rotatedHashes: hash },
        },
      );
      // Someone rotated the same token between our read and write: this use is the second one.
      if (!updated) return { kind: 'reused', session: current };
      return { kind: 'rotated', session: updated, refreshToken: next };
    }
    const rotated = await this.sessions.findOne({ rotatedHashes: hash });
    if (rotated) return { kind: 'reused', session: rotated };
    return { kind: 'invalid' };
  }

  async delete(sessionId: string): Promise<void> {
    await this.sessions.deleteOne({ _id: sessionId });
  }

  async idsOfUser(userId: string): Promise<string[]> {
    const found = await this.sessions.find({ userId });
    return found.map((s) => s._id);
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.sessions.deleteMany({ userId });
  }

  /** Housekeeping: sessions past their absolute expiry can never be refreshed again. */
  async purgeExpired(): Promise<number> {
    return this.sessions.deleteMany({ expiresAt: { $lte: new Date(this.now()) } });
  }
}
