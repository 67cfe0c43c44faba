import { defineCollection } from '@trove/kit';

/**
 * One login: the current refresh token's hash, and the hashes of every token it replaced. A
 * replaced token presented again means two parties hold the session's tokens (one of them stole
 * them), so the caller revokes the whole session.
 */
export interface SessionDoc {
  _id: string;
  userId: string;
  refreshHash: string;
  rotatedHashes: string[];
  createdAt: Date;
  refreshedAt: Date;
  /** Absolute end: refreshing does not extend it. */
  expiresAt: Date;
}

export const SESSIONS = defineCollection<SessionDoc>('sessions', [
  { fields: { refreshHash: 1 }, unique: true },
  { fields: { rotatedHashes: 1 } },
  { fields: { userId: 1 } },
  { fields: { expiresAt: 1 } },
]);
