import type { ApiKeyOwnerV1, ApiKeyV1 } from '@trove/proto-events';
import { badRequest, conflict, notFound, unauthorized } from '@trove/kit';
import type { Logger } from '@trove/kit';
import type { Revocations } from '../ports/revocations';
import type { UsersRepository } from '../users/repository';
import { hashApiKey, newApiKey, toApiKeyV1 } from './document';
import type { ApiKeysRepository } from './repository';

export interface ApiKeysDeps {
  keys: ApiKeysRepository;
  users: UsersRepository;
  revocations: Revocations;
  log: Logger;
  /** Most keys one user may hold. */
  maxPerUser?: number;
}

export const MAX_API_KEYS_PER_USER = 100;
/** `lastUsedAt` is written at most this often per key. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const keyNotFound = () => notFound('API key not found');

/**
 * A user's API keys: made (the secret answered once, its SHA-256 stored), listed (never the secret),
 * revoked, and resolved for the gateway from the SHA-256 it sends. A key acts as its user; it is
 * revoked like a session (`session.<keyId>` in the revocation bucket), so every gateway refuses it
 * at once, and with the user when the user is deleted. A password change does not end keys: they
 * are listed in the settings, to revoke one by one.
 */
export class ApiKeysService {
  constructor(private readonly deps: ApiKeysDeps) {}

  async create(userId: string, name: string): Promise<ApiKeyV1> {
    const { keys, users } = this.deps;
    const trimmed = name.trim();
    // Counted in characters (code points), as the contract's maxLength counts them: an emoji is one.
    const length = [...trimmed].length;
    if (length === 0 || length > 100) throw badRequest('name must be 1 to 100 characters');
    if (!(await users.findById(userId))) throw unauthorized();
    if ((await keys.countOfUser(userId)) >= (this.deps.maxPerUser ?? MAX_API_KEYS_PER_USER))
      throw conflict('too many API keys: revoke one first');
    const key = newApiKey();
    const doc = await keys.create(userId, trimmed, hashApiKey(key));
    this.deps.log.info({ userId, apiKeyId: doc._id }, 'API key created');
    return { ...toApiKeyV1(doc), key };
  }

  async list(userId: string): Promise<ApiKeyV1[]> {
    return (await this.deps.keys.listOfUser(userId)).map(toApiKeyV1);
  }

  /** Revokes first: the key must stop working on every gateway even if the delete below fails. */
  async delete(userId: string, id: string): Promise<void> {
    const { keys, revocations, log } = this.deps;
    if (!(await keys.findOfUser(userId, id))) throw keyNotFound();
    await revocations.revokeSession(id);
    if (!(await keys.deleteOfUser(userId, id))) throw keyNotFound();
    log.info({ userId, apiKeyId: id }, 'API key revoked');
  }

  /** The owner of the key with this SHA-256; 401 for an unknown key or a user being deleted. */
  async resolve(keyHash: string): Promise<ApiKeyOwnerV1> {
    const { keys, users, log } = this.deps;
    const doc = await keys.findByHash(keyHash);
    if (!doc || !(await users.findById(doc.userId))) throw unauthorized();
    void keys
      .touch(doc._id, LAST_USED_RESOLUTION_MS)
      .catch((err) => log.warn({ err, apiKeyId: doc._id }, 'could not note an API key use'));
    return { userId: doc.userId, keyId: doc._id };
  }

  /** A user's deletion: every key revoked at once (the user's own revocation covers them too), then removed. */
  async deleteAllOfUser(userId: string): Promise<void> {
    const { keys, revocations } = this.deps;
    for (const id of await keys.idsOfUser(userId)) await revocations.revokeSession(id);
    await keys.deleteAllOfUser(userId);
  }
}
