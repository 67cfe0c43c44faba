import { AppError } from '@trove/kit';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

export interface RateLimiterOptions {
  /** Events allowed per `windowMs` (also the burst: a quiet client may spend them at once). */
  limit: number;
  windowMs?: number;
  now?: () => number;
  /** Most clients remembered at once; beyond it the longest-quiet ones are forgotten. */
  maxKeys?: number;
}

/**
 * Counts events per key (a client address) in this process, as token buckets: `limit` tokens
 * that refill evenly over `windowMs`. So `limit` events a window on average, a burst of at most
 * `limit`, and an exact Retry-After. Memory stays bounded: beyond `maxKeys` clients the one
 * counted longest ago (the fullest bucket) is forgotten.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(opts: RateLimiterOptions) {
    this.limit = opts.limit;
    this.windowMs = opts.windowMs ?? 60_000;
    this.now = opts.now ?? Date.now;
    this.maxKeys = opts.maxKeys ?? 100_000;
  }

  /** Whether an event for `key` would be allowed now, without counting one. */
  check(key: string): RateDecision {
    return this.decide(this.refill(key));
  }

  /** Counts one event for `key` when allowed (a refused one is not counted). */
  take(key: string): RateDecision {
    const bucket = this.refill(key);
    const decision = this.decide(bucket);
    if (decision.allowed) this.store(key, { tokens: bucket.tokens - 1, at: bucket.at });
    return decision;
  }

  /** Gives back one event taken for `key` (never beyond `limit`): the caller learned it should not have counted. */
  refund(key: string): void {
    const bucket = this.buckets.get(key);
    if (!bucket) return;
    const refilled = this.refill(key);
    this.store(key, { tokens: Math.min(this.limit, refilled.tokens + 1), at: refilled.at });
  }

  private decide(bucket: Bucket): RateDecision {
    if (bucket.tokens >= 1) return { allowed: true };
    // Whole milliseconds first: the refill's float error must not add a second.
    const waitMs = Math.round(((1 - bucket.tokens) * this.windowMs) / this.limit);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  private refill(key: string): Bucket {
    const now = this.now();
    const bucket = this.buckets.get(key);
    if (!bucket) return { tokens: this.limit, at: now };
    // Refilled evenly since it was last counted, up to full.
    const tokens = Math.min(this.limit, bucket.tokens + ((now - bucket.at) * this.limit) / this.windowMs);
    return { tokens, at: now };
  }

  private store(key: string, bucket: Bucket): void {
    // Re-inserted, so the map's order is least recently counted first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
  }

  /** Keys currently remembered (tests, metrics). */
  get size(): number {
    return this.buckets.size;
  }
}

/** 429 with a Retry-After (the error handler sets the header from `retryAfterSeconds`). */
export function tooManyRequests(message: string, retryAfterSeconds: number): AppError {
  return new AppError('TOO_MANY_REQUESTS', message, { retryAfterSeconds });
}
