import type { UsageCounts } from './repository';

/** The sizes of a user's stored items, for a total that was never counted (items from before totals existed). */
export type SizeOfUser = (userId: string) => Promise<number>;

/** How long counts made after their answer gather before they are written: one write per user, not per upload. */
export const COUNT_LATER_MS = 100;
/** Users whose total is known to exist, remembered at most (then forgotten all at once and looked up again). */
const KNOWN_USERS_MAX = 100_000;

export interface UsageServiceOptions {
  /** A count made after its answer could not be written (the total stays that much short). */
  onCountError: (err: unknown, userId: string, bytes: number) => void;
  /** See COUNT_LATER_MS (tests wait longer). */
  countLaterMs?: number;
}

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
  /** Bytes counted by `countLater` and not yet written, per user: `of`, a quota's check and shutdown write them first. */
  private readonly later = new Map<string, number>();
  private laterTimer: NodeJS.Timeout | undefined;
  /** The write of the counts made later under way (they are written one batch after another). */
  private writing: Promise<void> = Promise.resolve();
  /** Users whose total exists: an upload need not look it up again (a total is only ever removed by `forget`). */
  private readonly known = new Set<string>();

  constructor(
    private readonly totals: UsageCounts,
    private readonly sizeOfUser: SizeOfUser,
    private readonly options: UsageServiceOptions,
  ) {}

  /** The user's bytes (never below 0, whatever a crash left). */
  async of(userId: string): Promise<number> {
    await this.flush();
    await this.ensureCounted(userId);
    return Math.max(0, (await this.totals.get(userId)) ?? 0);
  }

  /**
   * Makes sure the user's total exists. Called before an item is stored, never after: so the first
   * count cannot include an item that is then added again; concurrent first counts agree (one wins).
   */
  async ensureCounted(userId: string): Promise<void> {
    if (this.known.has(userId)) return;
    if ((await this.totals.get(userId)) === null) await this.totals.start(userId, await this.sizeOfUser(userId));
    if (this.known.size >= KNOWN_USERS_MAX) this.known.clear();
    this.known.add(userId);
  }

  /** Counts a stored item of `bytes`; false (nothing counted) when that would take the user past `quotaBytes`. */
  async add(userId: string, bytes: number, quotaBytes: number | null): Promise<boolean> {
    // Checked against the whole total: the user's counts made later (before a quota was set) first.
    if (quotaBytes !== null && this.later.has(userId)) await this.flush();
    return this.totals.add(userId, bytes, quotaBytes);
  }

  /**
   * Counts a stored item of a user without a quota after the current answer: there is no limit to
   * check, so the upload need not wait for the write. The counts of the next `COUNT_LATER_MS` are
   * written together, one write per user. A process killed in between leaves the total those items
   * short (the direction this total allows); a stop writes them first, and this process's `of` waits
   * for them.
   */
  countLater(userId: string, bytes: number): void {
    this.later.set(userId, (this.later.get(userId) ?? 0) + bytes);
    this.laterTimer ??= setTimeout(() => void this.flush(), this.options.countLaterMs ?? COUNT_LATER_MS).unref();
  }

  /** Writes the counts made later (see `countLater`); resolves once they and those before are written. */
  flush(): Promise<void> {
    clearTimeout(this.laterTimer);
    this.laterTimer = undefined;
    if (this.later.size === 0) return this.writing;
    const batch = [...this.later];
    this.later.clear();
    this.writing = this.writing.then(async () => {
      await Promise.all(
        batch.map(([userId, bytes]) =>
          this.totals.add(userId, bytes, null).then(
            () => undefined,
            (err: unknown) => this.options.onCountError(err, userId, bytes),
          ),
        ),
      );
    });
    return this.writing;
  }

  async subtract(userId: string, bytes: number): Promise<void> {
    await this.totals.subtract(userId, bytes);
  }

  async forget(userId: string): Promise<void> {
    this.known.delete(userId);
    this.later.delete(userId);
    await this.totals.remove(userId);
  }
}
