import { AppError } from '@trove/kit';
import { RateLimiter, tooManyRequests } from './rate-limiter';

export interface SharingAdmissionOptions {
  /** Lookups of existing shared albums per window and visitor. */
  foundPerWindow: number;
  /** Lookups answered 404 (unknown, unshared or deleted ids) per window and visitor: a separate, larger bucket. */
  missedPerWindow: number;
  windowMs?: number;
  now?: () => number;
}

/**
 * Who may look up a shared album now, per visitor (a client address key). Two token buckets: a
 * lookup that finds an album spends one of `found`; one answered 404 spends one of `missed` instead.
 * So a visitor guessing ids (or following dead links) only ever spends their own, larger miss
 * bucket, never anyone else's and never their own budget for real albums; and every lookup is
 * refused once either bucket of that visitor is empty, so misses stay bounded too.
 */
export class SharingAdmission {
  private readonly found: RateLimiter;
  private readonly missed: RateLimiter;

  constructor(opts: SharingAdmissionOptions) {
    this.found = new RateLimiter({ limit: opts.foundPerWindow, windowMs: opts.windowMs, now: opts.now });
    this.missed = new RateLimiter({ limit: opts.missedPerWindow, windowMs: opts.windowMs, now: opts.now });
  }

  /** Runs `lookup` for `visitor` when both buckets allow it (429 otherwise), then charges the right bucket. */
  async lookup<T>(visitor: string, lookup: () => Promise<T>): Promise<T> {
    // Taken before the lookup, so that concurrent calls cannot overspend; given back on a miss.
    const found = this.found.take(visitor);
    if (!found.allowed) throw tooManyRequests('too many requests', found.retryAfterSeconds);
    const missed = this.missed.check(visitor);
    if (!missed.allowed) {
      this.found.refund(visitor);
      throw tooManyRequests('too many requests', missed.retryAfterSeconds);
    }
    try {
      return await lookup();
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') {
        this.found.refund(visitor);
        this.missed.take(visitor);
      }
      throw err;
    }
  }
}
