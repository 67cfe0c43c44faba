import { DuplicateKeyError, instantOf, openCollection } from '@trove/kit';
import type { Collection, DocStore, Filter, SortSpec } from '@trove/kit';
import type { ListMediaItemsRequestV1, TimelineBucketsRequestV1 } from '@trove/proto-events';
import { MEDIA_ITEMS, creationMonthOf, fromStored } from './document';
import { MonthCountsCache, type MonthCount } from './month-counts-cache';
import type {
  CreationParts,
  MediaCategory,
  MediaDoc,
  MediaStatus,
  MediaType,
  ProcessedFields,
  StoredMediaDoc,
  UserLocation,
} from './document';

/** What a live photo's motion part takes from its still: the still's id and flags. */
export type StillFlags = Pick<MediaDoc, '_id' | 'favourite' | 'hidden' | 'deleted' | 'deletedAt'>;
export type View = ListMediaItemsRequestV1['view'];

/** The changes a user makes to one item (a new creation time comes with the creation parts it gives). */
export interface ItemChanges extends Partial<CreationParts> {
  description?: string | null;
  favourite?: boolean;
  hidden?: boolean;
  userCreationTime?: string | null;
  userLocation?: UserLocation | null;
}

/** What the media service asks of its store: the repository's public methods (a fake implements the same). */
export type MediaItems = { [K in keyof MediaItemsRepository]: MediaItemsRepository[K] };

/** Not claimed by a purge sweeper. */
const notPurging: Filter = { purgingAt: { $exists: false } };

/** The filter of a list view. The motion part of a Live Photo is shown by its still, never on its own. */
function viewFilter(userId: string, view: View): Filter {
  const own = { userId, stillMediaItemId: null };
  switch (view) {
    case 'library':
      return { ...own, deleted: false, hidden: false };
    case 'favourites':
      return { ...own, deleted: false, hidden: false, favourite: true };
    case 'hidden':
      return { ...own, deleted: false, hidden: true };
    case 'trash':
      // Not what a sweeper purges now, nor a trash being emptied: those are gone as far as the user is concerned.
      return { ...own, deleted: true, ...notPurging };
  }
}

/** Items shown under `category` (see `shownCategory`): `live` is a paired still, whatever the worker filed it under. */
function categoryFilter(category: MediaCategory): Filter {
  if (category === 'live') return { motionMediaItemId: { $nin: [null] } };
  return {
    motionMediaItemId: null,
    mediaItemCategory: category === 'default' ? { $in: ['default', 'live'] } : category,
  };
}

/** A list's filter: its view and the optional type, category and status. */
export function listFilter(
  q: Pick<ListMediaItemsRequestV1, 'userId' | 'view' | 'type' | 'category' | 'status'>,
): Filter {
  const filter = viewFilter(q.userId, q.view);
  if (q.type) filter.mediaItemType = q.type;
  if (q.category) Object.assign(filter, categoryFilter(q.category));
  if (q.status) filter.status = q.status;
  return filter;
}

/** The month before `YYYY-MM`. */
function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The month after `YYYY-MM`. */
function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The first instant of a UTC month `YYYY-MM`. */
const monthStart = (month: string): Date => new Date(`${month}-01T00:00:00Z`);

/** Newest first, ties broken by id so that pages never overlap; the trash by deletion time. */
export function viewSort(view: View): SortSpec {
  return view === 'trash' ? { deletedAt: -1, creationAt: -1, _id: -1 } : { creationAt: -1, _id: -1 };
}

/**
 * The claim an emptied trash's items get: one no sweeper holds (older than any `staleBefore`), so the emptier
 * (`abandonedClaims`) takes them one by one, as it takes over a purge a replica left half-done.
 */
export const EMPTYING_CLAIM = new Date(0);

/** Trashed items whose purge claim nobody holds any more (any user): a trash being emptied, a purge cut off. */
export function abandonedFilter(staleBefore: Date): Filter {
  return { deleted: true, purgingAt: { $lt: staleBefore } };
}

/** Trash deleted before `cutoff` that no sweeper holds (or whose sweeper's claim is older than `staleBefore`). */
function purgeable(cutoff: Date, staleBefore: Date): Filter {
  return {
    deleted: true,
    deletedAt: { $lte: cutoff },
    $or: [{ purgingAt: { $exists: false } }, { purgingAt: { $lt: staleBefore } }],
  };
}

/**
 * Library items taken on `monthDay` (MMDD) of a year before `beforeYear`. The year is the camera's local one, which
 * no index orders by; the same bound as an instant (local times are at most a day off UTC: before the 2nd of January
 * UTC) lets the day's index skip this year's items instead of reading and dropping them (a day's items of the
 * current year are the first in the index's order: at a million items, a page read twice as many documents).
 */
export function takenOnFilter(userId: string, monthDay: string, beforeYear: number): Filter {
  return {
    ...viewFilter(userId, 'library'),
    creationMonthDay: monthDay,
    creationAt: { $lt: new Date(Date.UTC(beforeYear, 0, 2)) },
    creationYear: { $lt: beforeYear },
  };
}

const page = (p: number, limit: number) => ({ skip: (p - 1) * limit, limit });

/**
 * The media items in the document store (`media_items`): the only code that speaks its query
 * dialect. Every method but `getAnyUser` and the purge sweeper's is scoped to one user.
 */
export class MediaItemsRepository {
  private constructor(
    private readonly items: Collection<StoredMediaDoc>,
    private readonly monthCountsCache: MonthCountsCache,
  ) {}

  /** Opens the collection and declares its indexes (idempotent). */
  static async open(store: DocStore): Promise<MediaItemsRepository> {
    const items = await openCollection(store, MEDIA_ITEMS);
    // The embedded store is one process's: every write of the items goes through this repository, which forgets
    // the user's counts. On MongoDB other replicas write too, and their writes do not reach this cache (no event
    // reaches every replica): their answers are then kept a few seconds at most.
    const monthCountsCache = new MonthCountsCache({ maxAgeMs: store.kind === 'mongodb' ? 5_000 : Infinity });
    return new MediaItemsRepository(items, monthCountsCache);
  }

  /** Stores a new item; when the user already has this content, nothing is stored and the other item's id is answered. */
  async insert(doc: MediaDoc): Promise<{ duplicateOf?: string }> {
    return this.writing(doc.userId, () => this.insertOnce(doc));
  }

  private async insertOnce(doc: MediaDoc): Promise<{ duplicateOf?: string }> {
    try {
      await this.items.insertOne(doc);
      return {};
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const existing = await this.items.findOne({ userId: doc.userId, sha256: doc.sha256 });
      if (!existing) throw err;
      return { duplicateOf: existing._id };
    }
  }

  async get(userId: string, id: string): Promise<MediaDoc | null> {
    return this.one({ _id: id, userId });
  }

  /** Any user's item: only for a content URL whose signature the gateway verified. */
  async getAnyUser(id: string): Promise<MediaDoc | null> {
    return this.one({ _id: id });
  }

  /** The user's items among `ids`, in no particular order. */
  async getMany(userId: string, ids: string[]): Promise<MediaDoc[]> {
    return this.many({ userId, _id: { $in: ids } });
  }

  /** The user's items (trashed ones too) with one of these contents: id and digest only. */
  async withContents(userId: string, sha256: string[]): Promise<Array<{ id: string; sha256: string }>> {
    // The unique (userId, sha256) index answers it; at most one item per digest.
    const found = await this.items.find({ userId, sha256: { $in: sha256 } });
    return found.map((d) => ({ id: d._id, sha256: d.sha256 }));
  }

  /** How many of `ids` are the user's. */
  async countOwned(userId: string, ids: string[]): Promise<number> {
    return this.items.count({ userId, _id: { $in: ids } });
  }

  async list(q: ListMediaItemsRequestV1): Promise<MediaDoc[]> {
    const filter = listFilter(q);
    const sort = viewSort(q.view);
    const takenBefore = q.takenBefore ? instantOf(q.takenBefore) : undefined;
    const after = q.after && { creationAt: new Date(q.after.creationTime), id: q.after.id };
    // A cursor at or before a timeline jump's instant is where the list goes on; one after it is already passed.
    if (after && !(takenBefore && takenBefore < after.creationAt)) return this.listAfter(filter, sort, after, q);
    // A timeline jump: the same order, starting at an instant (the view's index serves the range).
    if (takenBefore) filter.creationAt = { $lte: takenBefore };
    return this.many(filter, { sort, ...page(q.page, q.limit) });
  }

  /**
   * Keyset pagination: the items after (creationAt, id) in the view's order, whatever the depth. Two
   * range reads, each stopping after the page: the cursor's own instant with smaller ids (items taken
   * at the same millisecond), then the older instants — a single condition on both fields would
   * need an `$or`, which no store plans through an index.
   */
  private async listAfter(
    filter: Filter,
    sort: SortSpec,
    after: { creationAt: Date; id: string },
    q: Pick<ListMediaItemsRequestV1, 'page' | 'limit'>,
  ): Promise<MediaDoc[]> {
    const { skip, limit } = page(q.page, q.limit);
    const wanted = skip + limit;
    const ties = await this.many(
      { ...filter, creationAt: after.creationAt, _id: { $lt: after.id } },
      { sort, limit: wanted },
    );
    const older =
      ties.length < wanted
        ? await this.many({ ...filter, creationAt: { $lt: after.creationAt } }, { sort, limit: wanted - ties.length })
        : [];
    return [...ties, ...older].slice(skip, wanted);
  }

  /**
   * The view counted per month of `creationAt` (UTC), newest month first, empty months left out.
   * Store-agnostic (the store has no group-by) and bounded in memory at any size: month after month
   * back from the newest item, one count of the month's `creationAt` range through the list's own
   * index (the view's, or its favourites', type's or status' one: the same fields then `creationAt`),
   * and after an empty month one lookup of the newest item before it through that index, so a gap of
   * years costs one query. The embedded store answers such a count from the key rows alone (points,
   * then both bounds of a date range): O(items) key rows in all, no document read, about one query
   * per month. A category filter makes a count read that month's candidates (that month's only).
   * Answers are kept per user until a write of theirs (see `writing`).
   */
  async monthCounts(q: TimelineBucketsRequestV1): Promise<MonthCount[]> {
    const key = JSON.stringify([q.view, q.type ?? null, q.category ?? null, q.status ?? null]);
    return this.monthCountsCache.get(q.userId, key, () => this.countMonths(q));
  }

  private async countMonths(q: TimelineBucketsRequestV1): Promise<MonthCount[]> {
    const filter = listFilter(q);
    const buckets: MonthCount[] = [];
    const newest = await this.items.findOne(filter, { sort: { creationAt: -1, _id: -1 } });
    let month = newest ? creationMonthOf(newest.creationAt) : null;
    while (month) {
      const count = await this.items.count({
        ...filter,
        creationAt: { $gte: monthStart(month), $lt: monthStart(nextMonth(month)) },
      });
      if (count > 0) {
        buckets.push({ month, count });
        month = previousMonth(month);
        continue;
      }
      // An empty month: skip the gap to the newest item before it (years of nothing cost one lookup).
      const older = await this.items.findOne(
        { ...filter, creationAt: { $lt: monthStart(month) } },
        { sort: { creationAt: -1, _id: -1 } },
      );
      month = older ? creationMonthOf(older.creationAt) : null;
    }
    return buckets;
  }

  /** Library items taken on `monthDay` (MMDD, the camera's local day) of a year before `beforeYear`, newest first. */
  async takenOn(userId: string, monthDay: string, beforeYear: number, p: number, limit: number): Promise<MediaDoc[]> {
    return this.many(takenOnFilter(userId, monthDay, beforeYear), { sort: viewSort('library'), ...page(p, limit) });
  }

  /** The item after the change, or null when it is not the user's. */
  async update(userId: string, id: string, changes: ItemChanges, at: Date): Promise<MediaDoc | null> {
    return this.writing(userId, async () =>
      this.read(await this.items.findOneAndUpdate({ _id: id, userId }, { $set: { ...changes, updatedAt: at } })),
    );
  }

  /** Sets favourite or hidden on the user's `ids`; items that already have that value keep their updatedAt. */
  async setFlag(userId: string, ids: string[], flag: 'favourite' | 'hidden', value: boolean, at: Date): Promise<void> {
    await this.writing(userId, () =>
      this.items.updateMany(
        { userId, _id: { $in: ids }, [flag]: { $ne: value } },
        { $set: { [flag]: value, updatedAt: at } },
      ),
    );
  }

  /** Moves the user's `ids` to the trash; items already there keep their deletion time. */
  async trash(userId: string, ids: string[], at: Date): Promise<void> {
    await this.writing(userId, () =>
      this.items.updateMany(
        { userId, _id: { $in: ids }, deleted: false },
        { $set: { deleted: true, deletedAt: at, updatedAt: at } },
      ),
    );
  }

  /** Takes the user's `ids` out of the trash, except items a sweeper is purging. */
  async restore(userId: string, ids: string[], at: Date): Promise<void> {
    await this.writing(userId, () =>
      this.items.updateMany(
        { userId, _id: { $in: ids }, deleted: true, purgingAt: { $exists: false } },
        { $set: { deleted: false, deletedAt: null, updatedAt: at } },
      ),
    );
  }

  /** Writes a worker's result; false when the item is gone by now. */
  async setProcessed(userId: string, id: string, fields: Partial<ProcessedFields>, at: Date): Promise<boolean> {
    return this.setOne({ _id: id, userId }, fields, at);
  }

  // ---- Live Photos (live-photos.ts) ----------------------------------------------------------

  /** The user's READY items of `type` with the Live Photo pairing id `contentIdentifier` that no sweeper is purging, oldest first. */
  async pairCandidates(userId: string, contentIdentifier: string, type: MediaType): Promise<MediaDoc[]> {
    return this.many(
      { userId, 'metadata.contentIdentifier': contentIdentifier, mediaItemType: type, status: 'READY', ...notPurging },
      { sort: { createdAt: 1, _id: 1 } },
    );
  }

  /** Makes the video the motion part of `stillId`, unless it is another still's or being purged; the video after, else null. */
  async claimMotionPart(userId: string, videoId: string, stillId: string, at: Date): Promise<MediaDoc | null> {
    return this.linkOnce(userId, videoId, 'video', 'stillMediaItemId', stillId, at);
  }

  /** Links the still to its motion part, unless it has another or is being purged; the still after, else null. */
  async linkMotionPart(userId: string, stillId: string, videoId: string, at: Date): Promise<MediaDoc | null> {
    return this.linkOnce(userId, stillId, 'photo', 'motionMediaItemId', videoId, at);
  }

  /** Points the item's `field` at `otherId` while it points nowhere or there already, and the item is not being purged. */
  private async linkOnce(
    userId: string,
    id: string,
    type: MediaType,
    field: 'stillMediaItemId' | 'motionMediaItemId',
    otherId: string,
    at: Date,
  ): Promise<MediaDoc | null> {
    const filter = { _id: id, userId, mediaItemType: type, [field]: { $in: [null, otherId] }, ...notPurging };
    return this.writing(userId, async () =>
      this.read(await this.items.findOneAndUpdate(filter, { $set: { [field]: otherId, updatedAt: at } })),
    );
  }

  /** Gives the motion part of `stillId` the still's flags (trash included, so that they are purged together). */
  async followStill(userId: string, videoId: string, still: StillFlags, at: Date): Promise<void> {
    const { favourite, hidden, deleted, deletedAt } = still;
    await this.writing(userId, () =>
      this.items.updateOne(
        { _id: videoId, userId, stillMediaItemId: still._id },
        { $set: { favourite, hidden, deleted, deletedAt, updatedAt: at } },
      ),
    );
  }

  /** The video is no longer the motion part of `stillId`; false when it was not. */
  async releaseMotionPart(userId: string, videoId: string, stillId: string, at: Date): Promise<boolean> {
    return this.setOne({ _id: videoId, userId, stillMediaItemId: stillId }, { stillMediaItemId: null }, at);
  }

  /** The still no longer has `videoId` as its motion part; false when it did not. */
  async unlinkMotionPart(userId: string, stillId: string, videoId: string, at: Date): Promise<boolean> {
    return this.setOne({ _id: stillId, userId, motionMediaItemId: videoId }, { motionMediaItemId: null }, at);
  }

  /** Sets `fields` (and `updatedAt`) on the user's document `filter` matches; false when none does. */
  private async setOne(filter: Filter & { userId: string }, fields: object, at: Date): Promise<boolean> {
    return this.writing(
      filter.userId,
      async () => (await this.items.updateOne(filter, { $set: { ...fields, updatedAt: at } })).matched > 0,
    );
  }

  /** FAILED with `reason`, only while the item is PROCESSING; the item after the change, else null. */
  async setFailed(userId: string, id: string, reason: string, at: Date): Promise<MediaDoc | null> {
    return this.writing(userId, async () =>
      this.read(
        await this.items.findOneAndUpdate(
          { _id: id, userId, status: 'PROCESSING' },
          { $set: { status: 'FAILED', failureReason: reason, updatedAt: at } },
        ),
      ),
    );
  }

  /** Up to `limit` items of trash deleted before `cutoff` that no live sweeper holds (any user). */
  async purgeable(cutoff: Date, staleBefore: Date, limit: number): Promise<MediaDoc[]> {
    return this.many(purgeable(cutoff, staleBefore), { limit });
  }

  /**
   * Claims one purgeable item for this sweeper, atomically: of sweepers racing for it one wins.
   * The item as claimed, or null when it is no longer purgeable (restored, or claimed by another).
   */
  async claimForPurge(id: string, cutoff: Date, staleBefore: Date, at: Date): Promise<MediaDoc | null> {
    return this.read(
      await this.items.findOneAndUpdate({ ...purgeable(cutoff, staleBefore), _id: id }, { $set: { purgingAt: at } }),
    );
  }

  /**
   * Empties the user's trash: marks what it lists with the emptier's claim (found through the trash's index, whatever
   * the library's size), so the trash no longer lists them, a restore leaves them and the emptier deletes them (a
   * Live Photo's motion part, which the trash does not list, with its still). How many it marked.
   */
  async markTrashEmptied(userId: string): Promise<number> {
    const marked = await this.writing(userId, () =>
      this.items.updateMany(viewFilter(userId, 'trash'), { $set: { purgingAt: EMPTYING_CLAIM } }),
    );
    return marked.modified;
  }

  /** Up to `limit` items (any user) whose purge claim nobody holds any more (see `abandonedFilter`). */
  async abandonedClaims(staleBefore: Date, limit: number): Promise<MediaDoc[]> {
    return this.many(abandonedFilter(staleBefore), { limit });
  }

  /** Claims an item of `abandonedClaims` for this sweeper, atomically; null when another took it (or it is gone). */
  async claimAbandoned(id: string, staleBefore: Date, at: Date): Promise<MediaDoc | null> {
    return this.read(
      await this.items.findOneAndUpdate({ ...abandonedFilter(staleBefore), _id: id }, { $set: { purgingAt: at } }),
    );
  }

  /** Up to `limit` items (any user) PROCESSING and unchanged since before `before`: their processing may never have been queued. */
  async stuckInProcessing(before: Date, limit: number): Promise<MediaDoc[]> {
    return this.many({ status: 'PROCESSING', updatedAt: { $lt: before } }, { limit });
  }

  /**
   * Claims a stuck item for another try, atomically (of replicas racing, one wins): updatedAt
   * moves to `at` and `requeues` counts up. The item as claimed, or null when it moved on meanwhile.
   */
  async claimStuck(id: string, before: Date, at: Date): Promise<MediaDoc | null> {
    return this.read(
      await this.items.findOneAndUpdate(
        { _id: id, status: 'PROCESSING', updatedAt: { $lt: before } },
        { $set: { updatedAt: at }, $inc: { requeues: 1 } },
      ),
    );
  }

  /** How many items (of every user) have each status: the metrics' "items by status". */
  async countByStatus(): Promise<Record<MediaStatus, number>> {
    const statuses: MediaStatus[] = ['UNSPECIFIED', 'PROCESSING', 'READY', 'FAILED'];
    const counts = await Promise.all(statuses.map((status) => this.items.count({ status })));
    return Object.fromEntries(statuses.map((s, i) => [s, counts[i]])) as Record<MediaStatus, number>;
  }

  /**
   * A job's walk: up to `limit` of the user's items created no later than `until`, in (createdAt,
   * id) order, after the item `after` (its createdAt and id) when given. Items being purged are left out.
   */
  async walk(userId: string, until: Date, limit: number, after?: { createdAt: Date; id: string }): Promise<MediaDoc[]> {
    const filter: Filter = { userId, createdAt: { $lte: until }, purgingAt: { $exists: false } };
    if (after)
      filter.$or = [{ createdAt: { $gt: after.createdAt } }, { createdAt: after.createdAt, _id: { $gt: after.id } }];
    return this.many(filter, { sort: { createdAt: 1, _id: 1 }, limit });
  }

  /** How many items a walk until `until` covers. */
  async countWalk(userId: string, until: Date): Promise<number> {
    return this.items.count({ userId, createdAt: { $lte: until }, purgingAt: { $exists: false } });
  }

  /**
   * The bytes of all the user's originals, trash included: read once per user, when their running
   * total (usage/) was never kept. Pages through the user's items by (createdAt, id), an index.
   */
  async sizeOfUser(userId: string): Promise<number> {
    const PAGE = 1000;
    let total = 0;
    let after: StoredMediaDoc | undefined;
    for (;;) {
      const filter: Filter = { userId };
      if (after)
        filter.$or = [{ createdAt: { $gt: after.createdAt } }, { createdAt: after.createdAt, _id: { $gt: after._id } }];
      const batch = await this.items.find(filter, { sort: { createdAt: 1, _id: 1 }, limit: PAGE });
      for (const doc of batch) total += doc.size;
      if (batch.length < PAGE) return total;
      after = batch[batch.length - 1];
    }
  }

  /** Up to `limit` of the user's items, whatever their state (deleting a user). */
  async ofUser(userId: string, limit: number): Promise<MediaDoc[]> {
    return this.many({ userId }, { limit });
  }

  async delete(userId: string, id: string): Promise<void> {
    await this.writing(userId, () => this.items.deleteOne({ _id: id, userId }));
  }

  /**
   * Runs a write of the user's items, then forgets the user's timeline counts (after the write, failed or not: an
   * answer computed meanwhile is not kept either, see MonthCountsCache). Every write that can move an item between
   * months, views or filters goes through here; claims of a sweeper or the reconciler change none of those.
   */
  private async writing<R>(userId: string, write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } finally {
      this.monthCountsCache.forget(userId);
    }
  }

  private async one(filter: Filter): Promise<MediaDoc | null> {
    return this.read(await this.items.findOne(filter));
  }

  private async many(filter: Filter, options?: Parameters<Collection<StoredMediaDoc>['find']>[1]): Promise<MediaDoc[]> {
    return (await this.items.find(filter, options)).map(fromStored);
  }

  private read(doc: StoredMediaDoc | null): MediaDoc | null {
    return doc ? fromStored(doc) : null;
  }
}
