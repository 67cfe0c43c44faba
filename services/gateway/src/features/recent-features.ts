import type { FeatureSet } from '@trove/proto-events';

/** Where features come from (UserFeatures: the auth service). */
export interface FeatureSource {
  of(userId: string): Promise<FeatureSet>;
}

/**
 * A user's features asked of the auth service at most once per `ttlMs`: for the upload, which only
 * picks the optional components (places, things, faces) from them, and which a client sends many
 * of in a row (one round trip through NATS and auth less for each). A change reaches uploads at
 * most `ttlMs` late; the feature gate of the API calls does not use it and sees changes at once.
 * A failed lookup is not kept.
 */
export class RecentFeatures implements FeatureSource {
  /** In the order they were asked: the oldest first, so expired ones are dropped from the front. */
  private readonly entries = new Map<string, { at: number; features: Promise<FeatureSet> }>();

  constructor(
    private readonly source: FeatureSource,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  of(userId: string): Promise<FeatureSet> {
    const now = this.now();
    this.dropExpired(now);
    const kept = this.entries.get(userId);
    if (kept) return kept.features;
    const features = this.source.of(userId);
    this.entries.set(userId, { at: now, features });
    features.catch(() => {
      if (this.entries.get(userId)?.features === features) this.entries.delete(userId);
    });
    return features;
  }

  private dropExpired(now: number): void {
    for (const [userId, entry] of this.entries) {
      if (now - entry.at < this.ttlMs) return;
      this.entries.delete(userId);
    }
  }
}
