import type { UsageCounts } from './repository';

/** The sizes of a user's stored items, for a total that was never counted (items from before totals existed). */
export type SizeOfUser = (userId: string) => Promise<number>;

/**
 * How many bytes of originals each user stores, trash included (a trashed item still holds its
 * storage until it is purged). Kept as a running total per user that the media service moves
 * with every item it stores or purges, so asking costs one read; a user whose total was never
 * kept (a library from before quotas) is counted once from their items, on first need.
 *
 * The total errs on the user's side: a media process killed between storing an item and adding it,
 * or between taking a purged item off and deleting it (a purge is then finished again), leaves the
 * total that item's size short. It never counts bytes that are not stored.
 */
export class UsageService {
  /** Counts made after their upload's answer (`countLater`) and not yet written: `of` waits for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly totals: UsageCounts,
    private readonly sizeOfUser: SizeOfUser,
  ) {}

  /** The user's bytes (never below 0, whatever a crash left). */
  async of(userId: string): Promise<number> {
    await Promise.all(this.pending);
    await this.ensureCounted(userId);
    return Math.max(0, (await this.totals.get(userId)) ?? 0);
  }

  /**
   * Makes sure the user's total exists. Called before an item is stored, never after: so the first
   * count cannot include an item that is then added again; concurrent first counts agree (one wins).
   */
  async ensureCounted(userId: string): Promise<void> {
    if ((await this.totals.get(userId)) !== null) return;
    await this.totals.start(userId, await this.sizeOfUser(userId));
  }

  /** Counts a stored item of `bytes`; false (nothing counted) when that would take the user past `quotaBytes`. */
  async add(userId: string, bytes: number, quotaBytes: number | null): Promise<boolean> {
    return this.totals.add(userId, bytes, quotaBytes);
  }

  /**
   * Counts a stored item of a user without a quota once the current answer is sent: there is no
   * limit to check, so the upload need not wait for the write. A process stopped in between leaves
   * the total that item short (the direction this total allows); this process's `of` waits for it.
   */
  countLater(userId: string, bytes: number, onError: (err: unknown) => void): void {
    const counted: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.totals.add(userId, bytes, null))
      .then(
        () => undefined,
        (err: unknown) => onError(err),
      )
      .finally(() => this.pending.delete(counted));
    this.pending.add(counted);
  }

  async subtract(userId: string, bytes: number): Promise<void> {
    await this.totals.subtract(userId, bytes);
  }

  async forget(userId: string): Promise<void> {
    await this.totals.remove(userId);
  }
}
