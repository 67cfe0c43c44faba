import { addressKey } from './rate-limit';
import type { LoginRateLimiter } from './rate-limit';

export interface LoginLimitsOptions {
  /** TROVE_LOGIN_RATE_LIMIT: attempts per client address, and per user name from one address. */
  perClient: LoginRateLimiter;
  /** TROVE_LOGIN_USER_RATE_LIMIT: attempts on one user name from all addresses together (much higher). */
  perUsername: LoginRateLimiter;
  /** Once a user name has had this many attempts in the window, each further one waits `slowDownMs` first. */
  slowDownAfter: number;
  /** TROVE_LOGIN_SLOWDOWN_MS. */
  slowDownMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export type LoginDecision =
  { allowed: true } | { allowed: false; retryAfterSeconds: number; limit: 'client' | 'username' };

/**
 * Which login attempts go ahead. An attacker who guesses passwords must not be able to lock the
 * owner out, so the tight limit counts per client address and per user name *from that address*:
 * it stops the guesser, not the owner logging in from elsewhere. Across all addresses a user name
 * only has a much higher limit (a botnet spraying one account), and past the tight limit each
 * attempt on it first waits a moment, which slows guessing without refusing the owner. Attempts a
 * client's limit refuses never count against the user name: hammering from one address cannot
 * push the account over its own limit.
 */
export class LoginLimits {
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: LoginLimitsOptions) {
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Counts one attempt and answers whether it may go on to the password check (after any slowdown). */
  async admit(username: string, clientAddress: string | undefined): Promise<LoginDecision> {
    const user = `username:${username.toLowerCase()}`;
    const address = clientAddress ? addressKey(clientAddress) : 'address:unknown';
    const client = await this.opts.perClient.hit(
      clientAddress ? [`${user}|${address}`, address] : [`${user}|${address}`],
    );
    if (!client.allowed) return { ...client, limit: 'client' };
    const account = await this.opts.perUsername.hit([user]);
    if (!account.allowed) return { ...account, limit: 'username' };
    if (account.attempts > this.opts.slowDownAfter && this.opts.slowDownMs > 0) await this.sleep(this.opts.slowDownMs);
    return { allowed: true };
  }

  /** Housekeeping (both limiters share the attempts collection). */
  purgeExpired(): Promise<number> {
    return this.opts.perClient.purgeExpired();
  }
}
