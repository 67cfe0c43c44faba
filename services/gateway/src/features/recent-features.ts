import type { FeatureSet } from '@trove/proto-events';

/** Where features come from (UserFeatures: the auth service). */
export interface FeatureSource {
  of(userId: string): Promise<FeatureSet>;
}

/** Anything looked up per user (their features, their storage quota). */
export interface PerUserSource<T> {
  of(userId: string): Promise<T>;
}

/**
 * A per-user lookup asked of the auth service at most once per `ttlMs`: for the upload, which a
 * client sends many of in a row (one round trip through NATS and auth less for each). A change
 * reaches uploads at most `ttlMs` late. A failed lookup is not kept.
 */
export class RecentLookups<T> implements PerUserSource<T> {
  /** In the order they were asked: the oldest first, so expired ones are dropped from the front. */
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private readonly source: PerUserSource<T>,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  of(userId: string): Promise<T> {
    const now = this.now();
    this.dropExpired(now);
    const kept = this.entries.get(userId);
    if (kept) return kept.value;
    const value = this.source.of(userId);
    this.entries.set(userId, { at: now, value });
    value.catch(() => {
      if (this.entries.get(userId)?.value === value) this.entries.delete(userId);
    });
    return value;
  }

  private dropExpired(now: number): void {
    for (const [userId, entry] of this.entries) {
      if (now - entry.at < this.ttlMs) return;
      this.entries.delete(userId);
    }
  }
}

/**
 * A user's features for their uploads, which only pick the optional components (places, things,
 * faces) from them; the feature gate of the API calls does not use it and sees changes at once.
 */
export class RecentFeatures extends RecentLookups<FeatureSet> implements FeatureSource {}
