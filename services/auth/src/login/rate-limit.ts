import { createHash } from 'node:crypto';
import { addressKey as clientKey } from '@trove/kit';
import type { LoginAttemptsRepository } from './repository';

/** `attempts`: the most counted on any of the keys in the sliding window, this one included. */
export type RateDecision = { allowed: true; attempts: number } | { allowed: false; retryAfterSeconds: number };

/**
 * Login attempts per key (a username, a client address) in a sliding window, counted in the
 * document store so every auth replica shares the counts. Each attempt is one atomic increment of
 * the count of the current fixed window; the previous window's count is weighted by how much of
 * it still overlaps the sliding window, so a burst cannot double its budget across a window boundary.
 */
export class LoginRateLimiter {
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(
    private readonly attempts: LoginAttemptsRepository,
    opts: { limit: number; windowMs?: number; now?: () => number },
  ) {
    this.limit = opts.limit;
    this.windowMs = opts.windowMs ?? 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** Counts one attempt against every key; refused when any key is over the limit. */
  async hit(keys: string[]): Promise<RateDecision> {
    const decisions = await Promise.all(keys.map((k) => this.hitOne(k)));
    const refused = decisions.filter((d): d is Extract<RateDecision, { allowed: false }> => !d.allowed);
    if (refused.length === 0)
      return { allowed: true, attempts: Math.max(0, ...decisions.map((d) => (d.allowed ? d.attempts : 0))) };
    return { allowed: false, retryAfterSeconds: Math.max(...refused.map((d) => d.retryAfterSeconds)) };
  }

  private async hitOne(key: string): Promise<RateDecision> {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    // Keys are digested: attacker-chosen usernames never end up verbatim in the store.
    const digest = createHash('sha256').update(key).digest('base64url').slice(0, 32);
    // The window's count stops mattering once the window after next has begun.
    const current = await this.attempts.increment(`${digest}:${window}`, new Date((window + 2) * this.windowMs));
    const previous = await this.attempts.count(`${digest}:${window - 1}`);
    const elapsed = (now - window * this.windowMs) / this.windowMs;
    const estimate = previous * (1 - elapsed) + current;
    if (estimate <= this.limit) return { allowed: true, attempts: estimate };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000)) };
  }

  /** Housekeeping. */
  async purgeExpired(): Promise<number> {
    return this.attempts.purgeExpired(new Date(this.now()));
  }
}

/** The rate-limit key of a client address (an IPv6 /64 counts as one client; see the kit's `addressKey`). */
export function addressKey(address: string): string {
  return `address:${clientKey(address)}`;
}
