import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyV1 } from '@trove/proto-events';
import { defineCollection } from '@trove/kit';

/**
 * One API key of a user: only the SHA-256 of the secret is kept. Its `_id` doubles as the key's
 * "session" id: revoking it writes `session.<_id>` into the revocation bucket every gateway
 * watches, and the content URLs answers made for it carry it as their `sid`.
 */
export interface ApiKeyDoc {
  _id: string;
  userId: string;
  name: string;
  /** SHA-256 of the key, lowercase hex (what the gateway sends to resolve it). */
  keyHash: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export const API_KEYS = defineCollection<ApiKeyDoc>('api_keys', [
  { fields: { keyHash: 1 }, unique: true },
  { fields: { userId: 1, createdAt: -1 } },
]);

/** Every key starts with it: recognisable in a config file or a secret scanner's rules. */
export const API_KEY_PREFIX = 'trove_';

/** A new key: the prefix and 256 random bits, URL-safe (43 characters). */
export function newApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * What the store keeps and the gateway sends instead of the key. A plain digest is enough (no salt,
 * no stretching): the key has 256 random bits, and a digest can be looked up by equality.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function toApiKeyV1(doc: ApiKeyDoc): ApiKeyV1 {
  return {
    id: doc._id,
    name: doc.name,
    createdAt: doc.createdAt.toISOString(),
    lastUsedAt: doc.lastUsedAt ? doc.lastUsedAt.toISOString() : null,
  };
}
