import { createHash } from 'node:crypto';
import { REVOCATIONS, resolveApiKeyRpc } from '@trove/proto-events';
import { isAppError } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { Revocations } from './revocations';

/** What a key stands for: its user, and its id (revoked as the session `session.<keyId>`). */
export interface ApiKeyOwner {
  userId: string;
  keyId: string;
}

/** Asks the auth service whose key has this SHA-256; `undefined` when nobody's. Other failures throw (503). */
export type ApiKeyLookup = (keyHash: string) => Promise<ApiKeyOwner | undefined>;

/** The shape of a key `newApiKey` makes: anything else is refused without asking auth. */
const KEY_SHAPE = /^trove_[A-Za-z0-9_-]{43}$/;

export interface ApiKeyResolverOptions {
  /** How long an answer of auth is reused (the revocation list is checked on every call regardless). */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Resolves `X-Api-Key` to its user. The key itself never leaves this process: auth is asked with
 * its SHA-256, which is also what the answer is remembered under. A remembered answer is reused for
 * `ttlMs` (a script's calls cost no round trip each), but every call still checks the revocation
 * list, which the auth service writes *before* it deletes a key or a user: a revoked key is refused
 * at once on every gateway, remembered or not.
 */
export class ApiKeyResolver {
  private readonly known = new Map<string, { owner: ApiKeyOwner; until: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly lookup: ApiKeyLookup,
    private readonly revocations: Revocations,
    opts: ApiKeyResolverOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 60_000;
    this.maxEntries = opts.maxEntries ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** The key's owner, or `undefined` for a malformed, unknown or revoked key. */
  async resolve(key: string): Promise<ApiKeyOwner | undefined> {
    if (!KEY_SHAPE.test(key)) return undefined;
    const keyHash = createHash('sha256').update(key).digest('hex');
    let owner = this.remembered(keyHash);
    if (!owner) {
      owner = await this.lookup(keyHash);
      if (!owner) return undefined;
      this.remember(keyHash, owner);
    }
    if (this.revoked(owner)) {
      this.known.delete(keyHash);
      return undefined;
    }
    return owner;
  }

  private revoked(owner: ApiKeyOwner): boolean {
    return (
      this.revocations.has(REVOCATIONS.sessionKey(owner.keyId)) ||
      this.revocations.has(REVOCATIONS.userKey(owner.userId))
    );
  }

  private remembered(keyHash: string): ApiKeyOwner | undefined {
    const entry = this.known.get(keyHash);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.owner;
    this.known.delete(keyHash);
    return undefined;
  }

  private remember(keyHash: string, owner: ApiKeyOwner): void {
    this.known.delete(keyHash);
    this.known.set(keyHash, { owner, until: this.now() + this.ttlMs });
    // The oldest first beyond the bound.
    if (this.known.size > this.maxEntries) this.known.delete(this.known.keys().next().value!);
  }
}

/** The lookup over the bus: auth's UNAUTHORIZED is "nobody's key"; anything else (auth down) propagates. */
export function apiKeyLookupOverBus(bus: Bus): ApiKeyLookup {
  return async (keyHash) => {
    try {
      return await bus.request(resolveApiKeyRpc, { keyHash });
    } catch (err) {
      if (isAppError(err) && err.code === 'UNAUTHORIZED') return undefined;
      throw err;
    }
  };
}
