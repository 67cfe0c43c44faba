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
  constructor(
    private readonly totals: UsageCounts,
    private readonly sizeOfUser: SizeOfUser,
  ) {}

  /** The user's bytes (never below 0, whatever a crash left). */
  async of(userId: string): Promise<number> {
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

  async subtract(userId: string, bytes: number): Promise<void> {
    await this.totals.subtract(userId, bytes);
  }

  async forget(userId: string): Promise<void> {
    await this.totals.remove(userId);
  }
}
