import type { StoreUsage } from '@trove/kit';

/**
 * The blob store's usage as GET /disk reports it, measured at most once per `maxAgeMs` and never
 * twice at the same time: on S3 measuring lists the whole bucket, which an anonymous caller must
 * not be able to set off at will. Concurrent callers share the measurement under way; a failed one
 * is not kept, so the next call measures again.
 */
export class DiskUsage {
  private figure: { usage: StoreUsage; at: number } | undefined;
  private measuring: Promise<StoreUsage> | undefined;

  constructor(
    private readonly measure: () => Promise<StoreUsage>,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<StoreUsage> {
    if (this.figure && this.now() - this.figure.at < this.maxAgeMs) return Promise.resolve(this.figure.usage);
    this.measuring ??= this.measure()
      .then((usage) => {
        this.figure = { usage, at: this.now() };
        return usage;
      })
      .finally(() => {
        this.measuring = undefined;
      });
    return this.measuring;
  }
}
