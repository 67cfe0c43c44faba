import { completeFeatures } from '@trove/proto-events';
import type { FeatureSet, UserV1 } from '@trove/proto-events';
import { defineCollection } from '@trove/kit';

export interface UserDoc {
  _id: string;
  name: string;
  username: string;
  /** Lower-cased username under a unique index: "Alice" and "alice" are one account. */
  usernameKey: string;
  passwordHash: string;
  /** Every key (accounts from before features existed have none: all on). */
  features?: FeatureSet;
  /** Most bytes of originals the user may store; null or absent (accounts from before quotas): unlimited. */
  quotaBytes?: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** Set when a deletion began; such a user is gone for every caller while the deletion finishes. */
  deletingAt?: Date;
}

export const USERS = defineCollection<UserDoc>('users', [
  { fields: { usernameKey: 1 }, unique: true },
  { fields: { deletingAt: 1 }, sparse: true },
]);

/** The public shape: never the password hash. */
export function toUserV1(doc: UserDoc): UserV1 {
  return {
    id: doc._id,
    name: doc.name,
    username: doc.username,
    features: completeFeatures(doc.features),
    quotaBytes: doc.quotaBytes ?? null,
    createdAt: doc.createdAt.toISOString(),
    updatedAt: doc.updatedAt.toISOString(),
  };
}
