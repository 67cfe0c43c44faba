import {
  faceThumbnailsPrefix,
  foreignBlobKeys,
  mediaBlobKey,
  mediaItemBlobPrefix,
  mediaPurgedEvent,
  mediaRestoredEvent,
  mediaTrashedEvent,
  mediaUpdatedEvent,
  processMediaItemWork,
  userBlobPrefix,
} from '@trove/proto-events';
import type {
  ContentLocationV1,
  CreateMediaItemRequestV1,
  ListMediaItemsRequestV1,
  LocateContentRequestV1,
  MediaItemChangedV1,
  MediaItemListV1,
  MediaItemProcessedV1,
  MediaItemV1,
  MediaItemWalkV1,
  MessageContract,
  WalkMediaItemsRequestV1,
  PurgeMediaItemsRequestV1,
  EmptyTrashRequestV1,
  TrashEmptyingV1,
  SetMediaFlagRequestV1,
  UpdateMediaItemRequestV1,
  TimelineBucketsRequestV1,
  TimelineBucketsV1,
  YearsAgoRequestV1,
} from '@trove/proto-events';
import { badRequest, conflict, insufficientStorage, notFound, unavailable, withoutLeapSecond } from '@trove/kit';
import type { BlobStore, EventPublisher, Logger } from '@trove/kit';
import {
  alreadyApplied,
  appliedFields,
  creationParts,
  newMediaDoc,
  shownCreationParts,
  toMediaItemV1,
} from './document';
import type { MediaDoc, UserLocation } from './document';
import { LivePhotos } from './live-photos';
import type { ItemChanges, MediaItems } from './repository';
import type { UsageService } from '../usage/service';

export interface MediaItemsDeps {
  items: MediaItems;
  blobs: BlobStore;
  /** Where its events and work items go (the Bus; a recorder in unit tests). */
  events: EventPublisher;
  log: Logger;
  /** Each user's bytes of originals (usage/): moved with every item stored or purged. */
  usage: UsageService;
  /** Trashed items older than this are purged. */
  trashRetentionMs: number;
  /** An item PROCESSING for longer than this without a change has its processing queued again. */
  stuckAfterMs?: number;
  now?: () => Date;
}

export const NOT_FOUND_MESSAGE = 'mediaitem not found';
export const QUOTA_EXCEEDED_MESSAGE = 'storage quota exceeded';
/** A sweeper's claim older than this is from a replica that died mid-purge: another may take over. */
const STALE_PURGE_CLAIM_MS = 10 * 60 * 1000;
const PURGE_BATCH = 100;
/** Attempts at queueing the processing of a new item (msgId makes repeats harmless). */
const PUBLISH_ATTEMPTS = 3;
/** Default of `stuckAfterMs`: longer than any processing that heartbeats (a long video) goes without a result. */
const DEFAULT_STUCK_AFTER_MS = 30 * 60 * 1000;
/** Requeues of one item before it is marked FAILED: processing that never finishes is a property of the file. */
const MAX_REQUEUES = 3;
const STUCK_BATCH = 100;

/**
 * The media items of every user. Every query carries the caller's userId, so another user's id is
 * indistinguishable from an unknown one (404 `mediaitem not found`).
 */
export class MediaItemsService {
  private readonly items: MediaItems;
  private readonly now: () => Date;
  private readonly live: LivePhotos;
  /** The emptier's run in this process, and whether a trash was emptied while it ran (it then goes round again). */
  private emptying: Promise<number> | undefined;
  private emptiedMeanwhile = false;

  constructor(private readonly deps: MediaItemsDeps) {
    this.items = deps.items;
    this.now = deps.now ?? (() => new Date());
    const announce = (userId: string, mediaItemId: string, at: Date) =>
      this.changed(mediaUpdatedEvent, { userId, _id: mediaItemId }, at);
    this.live = new LivePhotos({ items: deps.items, announce, log: deps.log, now: this.now });
  }

  // ---- upload ---------------------------------------------------------------------------------

  /**
   * Registers an original the gateway has stored, then queues its processing. The unique
   * (userId, sha256) index decides duplicates, so two concurrent uploads of the same file cannot
   * both get in. When the work item cannot be queued the item is removed again and the caller gets
   * an error (the gateway then removes the blob): nothing is left half-created.
   */
  async create(req: CreateMediaItemRequestV1): Promise<{ id: string }> {
    const { usage } = this.deps;
    await usage.ensureCounted(req.userId);
    const { duplicateOf } = await this.items.insert(newMediaDoc(req, this.now()));
    // The same request again (same id and content): it is done already.
    if (duplicateOf === req.id) return { id: req.id };
    if (duplicateOf) throw conflict('mediaitem already exists', { id: duplicateOf });
    const quota = req.quotaBytes ?? null;
    // Against a quota, counted after the duplicate check (a duplicate costs nothing) and atomically:
    // of concurrent uploads only those that fit get in, whichever replica serves them.
    if (quota !== null && !(await usage.add(req.userId, req.size, quota))) {
      await this.items.delete(req.userId, req.id);
      throw insufficientStorage(QUOTA_EXCEEDED_MESSAGE);
    }
    try {
      await this.publishWithRetry(() => this.queueProcessing(req, req.id));
    } catch (err) {
      this.deps.log.error({ err, mediaItemId: req.id }, 'could not queue processing; item removed');
      // Uncounted first: a crash in between leaves the total short, never over.
      if (quota !== null) await usage.subtract(req.userId, req.size);
      await this.items.delete(req.userId, req.id);
      throw unavailable('processing queue is unavailable');
    }
    // Without a quota nothing is checked: the count is written after the answer, with others (see countLater).
    if (quota === null) usage.countLater(req.userId, req.size);
    return { id: req.id };
  }

  /** The user's bytes of originals, trash included. */
  /**
   * Which of these contents the user already has, trashed items included: an uploader skips them, and
   * an upload of one would be refused as a duplicate anyway (restore it from the trash instead).
   */
  async existing(userId: string, sha256: string[]): Promise<{ existing: Array<{ sha256: string; id: string }> }> {
    const unique = [...new Set(sha256)];
    if (unique.length === 0) return { existing: [] };
    return { existing: await this.items.withContents(userId, unique) };
  }

  async usageOf(userId: string): Promise<{ usageBytes: number }> {
    return { usageBytes: await this.deps.usage.of(userId) };
  }

  /** Queues the item's processing; the user's position goes with it (the places component names the place from it). */
  private queueProcessing(
    item: Pick<MediaDoc, 'userId' | 'originalKey' | 'mimeType' | 'mediaItemType' | 'filename' | 'components'> & {
      id?: string;
      _id?: string;
      userLocation?: UserLocation | null;
      /** Work outside a job that follows a user's edit (see the contract's `round`). */
      round?: string;
    },
    msgId: string,
  ): Promise<void> {
    const mediaItemId = item.id ?? item._id!;
    const { userId, originalKey, mimeType, mediaItemType, filename, components, userLocation, round } = item;
    return this.deps.events.publish(
      processMediaItemWork,
      {
        userId,
        mediaItemId,
        originalKey,
        mimeType,
        mediaItemType,
        filename,
        ...(components ? { components } : {}),
        ...(userLocation ? { position: { ...userLocation } } : {}),
        ...(round ? { round } : {}),
      },
      { msgId },
    );
  }

  /**
   * The reconciler: an item still PROCESSING long after its last change most likely never had its
   * work queued (media stopped between storing it and publishing, or an upload timed out while it
   * was stored). Its processing is queued again; after MAX_REQUEUES tries it is FAILED. Results
   * apply idempotently, so a late duplicate is harmless. Returns how many items it touched.
   */
  async requeueStuckProcessing(): Promise<number> {
    const now = this.now();
    const before = new Date(now.getTime() - (this.deps.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS));
    let touched = 0;
    for (const doc of await this.items.stuckInProcessing(before, STUCK_BATCH)) {
      if ((doc.requeues ?? 0) >= MAX_REQUEUES) {
        await this.markFailed(doc.userId, doc._id, `processing did not finish after ${MAX_REQUEUES + 1} attempts`);
        touched += 1;
        continue;
      }
      const claimed = await this.items.claimStuck(doc._id, before, now);
      if (!claimed) continue; // finished meanwhile, or another replica took it
      await this.queueProcessing(claimed, `${claimed._id}-requeue-${claimed.requeues ?? 1}`);
      this.deps.log.warn(
        { mediaItemId: claimed._id, requeues: claimed.requeues },
        'item was stuck in PROCESSING; processing queued again',
      );
      touched += 1;
    }
    return touched;
  }

  private async publishWithRetry(publish: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await publish();
      } catch (err) {
        if (attempt >= PUBLISH_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }

  // ---- reads ----------------------------------------------------------------------------------

  /** A batch of a job's walk over the user's items, and how many items the walk covers. */
  async walk({ userId, after, until, limit }: WalkMediaItemsRequestV1): Promise<MediaItemWalkV1> {
    const end = new Date(until);
    const docs = await this.items.walk(
      userId,
      end,
      limit,
      after ? { createdAt: new Date(after.createdAt), id: after.id } : undefined,
    );
    return {
      total: await this.items.countWalk(userId, end),
      items: docs.map((d) => ({
        id: d._id,
        createdAt: d.createdAt.toISOString(),
        originalKey: d.originalKey,
        mimeType: d.mimeType,
        mediaItemType: d.mediaItemType,
        filename: d.filename,
        // A job's places work names the place from the user's position when there is one.
        ...(d.userLocation ? { position: { ...d.userLocation } } : {}),
      })),
    };
  }

  async get(userId: string, id: string): Promise<MediaItemV1> {
    return toMediaItemV1(await this.mine(userId, id));
  }

  /**
   * A page of a view. A full page of a view in creation order also says where the next one starts
   * (`nextAfter`: its last item), the keyset a client follows instead of page numbers to go deep.
   */
  async list(req: ListMediaItemsRequestV1): Promise<MediaItemListV1> {
    if (req.after && req.view === 'trash')
      throw badRequest('the trash is ordered by deletion time: page it by page number, not by cursor');
    const docs = await this.items.list(req);
    const last = docs.at(-1);
    const full = last !== undefined && docs.length === req.limit && req.view !== 'trash';
    return {
      items: docs.map(toMediaItemV1),
      ...(full ? { nextAfter: { creationTime: last.creationAt.toISOString(), id: last._id } } : {}),
    };
  }

  /** The timeline scrubber's per-month counts of the caller's library (or favourites), newest month first. */
  async timeline(req: TimelineBucketsRequestV1): Promise<TimelineBucketsV1> {
    return { buckets: await this.items.monthCounts(req) };
  }

  /** Items taken on monthDate (MMDD, the camera's local day) in a year before the current one. */
  async yearsAgo(req: YearsAgoRequestV1): Promise<{ items: MediaItemV1[] }> {
    if (!isCalendarDay(req.monthDate)) throw badRequest('monthDate must be a day of the year as MMDD');
    const docs = await this.items.takenOn(req.userId, req.monthDate, this.now().getUTCFullYear(), req.page, req.limit);
    return { items: docs.map(toMediaItemV1) };
  }

  /**
   * Several items of one user in the order asked; ids that are not theirs are left out, and so are
   * motion parts of Live Photos (albums and explore show their stills, never them on their own).
   */
  async getMany(userId: string, ids: string[]): Promise<{ items: MediaItemV1[] }> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return { items: [] };
    const docs = (await this.items.getMany(userId, unique)).filter((d) => !d.stillMediaItemId);
    const byId = new Map(docs.map((d) => [d._id, d]));
    return { items: unique.flatMap((id) => (byId.has(id) ? [toMediaItemV1(byId.get(id)!)] : [])) };
  }

  /**
   * Where the bytes of a variant are. For a video, `preview` is the web-playable video: the
   * transcode when one was made, else the original (which then plays in browsers as is);
   * `thumbnail` is the poster image. Without userId the gateway verified a signed URL.
   */
  async locate(req: LocateContentRequestV1): Promise<ContentLocationV1> {
    const doc = req.userId ? await this.items.get(req.userId, req.id) : await this.items.getAnyUser(req.id);
    if (!doc) throw notFound(NOT_FOUND_MESSAGE);
    // What a shared view's signed URL is checked against when served: the item's own flags, the still
    // whose album membership counts for a motion part, whether the bytes are the upload's, whether it has a position.
    // A still names its motion part, which a download takes along.
    const facts = {
      stillMediaItemId: doc.stillMediaItemId ?? null,
      motionMediaItemId: doc.motionMediaItemId ?? null,
      hidden: doc.hidden,
      deleted: doc.deleted,
      located: doc.metadata.latitude !== null && doc.metadata.longitude !== null,
    };
    const at = (key: string, contentType: string): ContentLocationV1 => ({
      key,
      contentType,
      filename: doc.filename,
      userId: doc.userId,
      ...facts,
      original: key === doc.originalKey,
    });
    if (req.variant === 'original') return at(doc.originalKey, doc.mimeType);
    if (req.variant === 'thumbnail') {
      if (!doc.variants.thumbnail) throw notFound('thumbnail not generated yet');
      return at(doc.variants.thumbnail, 'image/webp');
    }
    if (doc.mediaItemType === 'video') {
      if (doc.variants.playback) return at(doc.variants.playback, 'video/mp4');
      if (doc.status === 'READY') return at(doc.originalKey, doc.mimeType);
      throw notFound('preview not generated yet');
    }
    if (!doc.variants.preview) throw notFound('preview not generated yet');
    return at(doc.variants.preview, 'image/webp');
  }

  // ---- changes --------------------------------------------------------------------------------

  /**
   * Changes the description, flags, creation time and position of one of the user's items. The
   * user's creation time and position are kept beside the file's (null: the file's again), reorder
   * the item in the lists at once, and a new position queues the item's `places` work so that its
   * place follows (when the owner's processing includes places).
   */
  async update(req: UpdateMediaItemRequestV1): Promise<void> {
    const changes: ItemChanges = {};
    if (req.description !== undefined) changes.description = req.description === '' ? null : req.description;
    if (req.favourite !== undefined) changes.favourite = req.favourite;
    if (req.hidden !== undefined) changes.hidden = req.hidden;
    const location = userLocationOf(req);
    if (location !== undefined) changes.userLocation = location;
    if (req.creationTime !== undefined) {
      const creationTime = req.creationTime === null ? null : withoutLeapSecond(req.creationTime);
      if (creationTime !== null && !creationParts(creationTime))
        throw badRequest('creationTime must be an ISO 8601 date-time with its UTC offset');
      // The creation parts (list order, "years ago") of the time that wins now: the user's, else the file's.
      const current = await this.mine(req.userId, req.id);
      changes.userCreationTime = creationTime;
      Object.assign(changes, shownCreationParts(creationTime, current.metadata.creationTime));
    }
    const doc = await this.items.update(req.userId, req.id, changes, this.now());
    if (!doc) throw notFound(NOT_FOUND_MESSAGE);
    await this.live.stillChanged(doc, changes);
    await this.changed(mediaUpdatedEvent, doc, doc.updatedAt);
    if (location !== undefined && (!doc.components || doc.components.includes('places'))) {
      const round = `places-${doc.updatedAt.getTime()}`;
      await this.queueProcessing({ ...doc, components: ['places'], round }, `${round}-${doc._id}`);
    }
  }

  /**
   * Sets or clears a flag on several items (and on the motion parts of Live Photo stills among
   * them): all or nothing (404 and no change when any id is not the caller's). Only items whose
   * flag actually changes get a new updatedAt; the events are published for every listed item
   * with a msgId derived from that time, so repeating a call whose answer was lost re-sends the
   * same, de-duplicated events instead of losing them.
   */
  async setFlag(req: SetMediaFlagRequestV1): Promise<void> {
    const asked = [...new Set(req.ids)];
    if ((await this.items.countOwned(req.userId, asked)) !== asked.length) throw notFound(NOT_FOUND_MESSAGE);
    const ids = await this.live.withMotionParts(req.userId, asked);
    const now = this.now();
    if (req.flag === 'deleted') {
      await (req.value ? this.items.trash(req.userId, ids, now) : this.items.restore(req.userId, ids, now));
    } else {
      await this.items.setFlag(req.userId, ids, req.flag, req.value, now);
    }
    const docs = await this.items.getMany(req.userId, ids);
    const contract = req.flag !== 'deleted' ? mediaUpdatedEvent : req.value ? mediaTrashedEvent : mediaRestoredEvent;
    await inBatches(docs, 50, (doc) =>
      this.changed(contract, doc, req.flag === 'deleted' && req.value && doc.deletedAt ? doc.deletedAt : doc.updatedAt),
    );
  }

  // ---- processing results ---------------------------------------------------------------------

  /**
   * Applies a worker's result: READY with metadata, category, placeholder and variants. The same
   * result twice leaves the item as it is. A result for an item that is gone (purged, its user
   * deleted) removes the blobs the worker made for it, and is otherwise ignored. Then the item is
   * paired with the other part of its Live Photo, when the library has it (live-photos.ts). A result
   * naming a blob that is not under the item's own prefix is ignored and logged (foreignBlobKeys).
   */
  async applyProcessed(result: MediaItemProcessedV1): Promise<void> {
    // A result naming a blob outside its item's prefix is forged (the worker never makes one): ignored, the
    // item left as it is, nothing deleted.
    const foreign = foreignBlobKeys(result);
    if (foreign.length) {
      this.deps.log.warn(
        { mediaItemId: result.mediaItemId, userId: result.userId, foreignKeys: foreign.slice(0, 5) },
        "processing result ignored: it names blobs that are not its item's",
      );
      return;
    }
    const doc = await this.items.get(result.userId, result.mediaItemId);
    if (!doc || doc.purgingAt) {
      await this.deleteResultBlobs(result);
      this.deps.log.info(
        { mediaItemId: result.mediaItemId },
        'processing result for an item that is gone; its blobs removed',
      );
      return;
    }
    const fields = appliedFields(result, doc);
    // Applied before: its Live Photo pairing may not have finished then.
    if (alreadyApplied(doc, fields)) return this.live.pair(doc);
    const updatedAt = this.now();
    if (!(await this.items.setProcessed(doc.userId, doc._id, fields, updatedAt))) {
      await this.deleteResultBlobs(result);
      return;
    }
    await this.changed(mediaUpdatedEvent, doc, updatedAt);
    await this.live.pair({ ...doc, ...fields });
  }

  /** A work item that failed every delivery: FAILED with the reason, unless a result made it READY meanwhile. */
  async markFailed(userId: string, id: string, reason: string): Promise<void> {
    const updatedAt = this.now();
    const doc = await this.items.setFailed(userId, id, reason.slice(0, 1000) || 'processing failed', updatedAt);
    if (doc) await this.changed(mediaUpdatedEvent, doc, updatedAt);
  }

  private async deleteResultBlobs(result: MediaItemProcessedV1): Promise<void> {
    // Only keys of that item: a result never makes the media service delete anything else.
    const own = (['preview', 'thumbnail', 'playback'] as const).map((v) =>
      mediaBlobKey(result.userId, result.mediaItemId, v),
    );
    const keys = Object.values(result.variants).filter((k): k is string => typeof k === 'string' && own.includes(k));
    for await (const blob of this.deps.blobs.list(faceThumbnailsPrefix(result.userId, result.mediaItemId)))
      keys.push(blob.key);
    await Promise.all(keys.map((k) => this.deps.blobs.delete(k)));
  }

  // ---- purge ----------------------------------------------------------------------------------

  /**
   * Purges trash older than the retention: blobs, then the event, then the document. Each item is
   * claimed atomically first, so media replicas sweeping at the same time never both purge it; a
   * claim left by a replica that died mid-purge expires and the item is taken over.
   */
  async purgeExpiredTrash(): Promise<number> {
    const now = this.now();
    const cutoff = new Date(now.getTime() - this.deps.trashRetentionMs);
    const staleBefore = new Date(now.getTime() - STALE_PURGE_CLAIM_MS);
    return this.purgeInBatches(
      () => this.items.purgeable(cutoff, staleBefore, PURGE_BATCH),
      async (candidate) => {
        const claimed = await this.items.claimForPurge(candidate._id, cutoff, staleBefore, now);
        return claimed ? [claimed] : [];
      },
    );
  }

  /**
   * Purges what `find` answers, a batch at a time, until a batch comes back short: each candidate is claimed first
   * (`claim` answers the documents that are this run's to purge: none when another replica took it).
   */
  private async purgeInBatches(
    find: () => Promise<MediaDoc[]>,
    claim: (candidate: MediaDoc) => Promise<MediaDoc[]>,
  ): Promise<number> {
    let purged = 0;
    for (;;) {
      const batch = await find();
      for (const candidate of batch) {
        for (const doc of await claim(candidate)) {
          await this.purge(doc);
          purged++;
        }
      }
      if (batch.length < PURGE_BATCH) return purged;
    }
  }

  /**
   * Deletes some of the user's trashed items for good now (the trash's "Delete for good"), all or
   * nothing: not found when any id is not theirs, conflict when any is not in the trash. A still
   * takes its motion part along. Each item is claimed as the sweeper claims one (its trash time is
   * always before now), so a sweep at the same moment never purges it twice.
   */
  async purgeTrashed(req: PurgeMediaItemsRequestV1): Promise<void> {
    const asked = [...new Set(req.ids)];
    const docs = await this.items.getMany(req.userId, asked);
    if (docs.length !== asked.length) throw notFound(NOT_FOUND_MESSAGE);
    if (docs.some((d) => !d.deleted)) throw conflict('mediaitem is not in the trash');
    const now = this.now();
    const staleBefore = new Date(now.getTime() - STALE_PURGE_CLAIM_MS);
    for (const id of await this.live.withMotionParts(req.userId, asked)) {
      const claimed = await this.items.claimForPurge(id, now, staleBefore, now);
      if (claimed) await this.purge(claimed);
    }
  }

  /**
   * Empties the user's trash ("Empty trash"): every item in it leaves the trash now (a restore no longer takes it
   * back) and is deleted for good in the background, started here at once and taken up by every replica's sweep (a
   * trash of tens of thousands takes minutes; a restart goes on where it stopped). How many items the trash listed.
   */
  async emptyTrash(req: EmptyTrashRequestV1): Promise<TrashEmptyingV1> {
    const count = await this.items.markTrashEmptied(req.userId);
    if (count > 0)
      this.purgeEmptiedTrash().catch((err: unknown) =>
        this.deps.log.warn({ err }, 'emptying the trash: failed; the next sweep goes on'),
      );
    return { count };
  }

  /**
   * Deletes for good what emptied trash left to the emptier, and the purges a replica left half-done (claims nobody
   * holds any more), of every user: one run at a time in this process, going round again for a trash emptied while
   * it ran. Each item is claimed first, so replicas emptying at once never purge one twice. How many it purged.
   */
  purgeEmptiedTrash(): Promise<number> {
    if (this.emptying) {
      this.emptiedMeanwhile = true;
      return this.emptying;
    }
    const run = async () => {
      let purged = 0;
      do {
        this.emptiedMeanwhile = false;
        purged += await this.purgeAbandoned();
      } while (this.emptiedMeanwhile);
      return purged;
    };
    this.emptying = run().finally(() => {
      this.emptying = undefined;
    });
    return this.emptying;
  }

  private async purgeAbandoned(): Promise<number> {
    const now = this.now();
    const staleBefore = new Date(now.getTime() - STALE_PURGE_CLAIM_MS);
    return this.purgeInBatches(
      () => this.items.abandonedClaims(staleBefore, PURGE_BATCH),
      async (candidate) => {
        const claimed = await this.items.claimAbandoned(candidate._id, staleBefore, now);
        if (!claimed) return [];
        // A Live Photo's motion part goes with its still (an emptied trash marks what it lists: the still). Claimed
        // before the still goes, so that it never shows in the trash on its own meanwhile.
        const part = claimed.motionMediaItemId
          ? await this.items.claimForPurge(claimed.motionMediaItemId, now, staleBefore, now)
          : null;
        return part ? [claimed, part] : [claimed];
      },
    );
  }

  /** Every item and blob of a deleted user. Idempotent: a repeat finds nothing left to do. */
  async deleteUserMedia(userId: string): Promise<number> {
    let purged = 0;
    for (;;) {
      const batch = await this.items.ofUser(userId, PURGE_BATCH);
      for (const doc of batch) {
        await this.purge(doc);
        purged++;
      }
      if (batch.length < PURGE_BATCH) break;
    }
    // Blobs without a document: uploads that were under way, results of purged items.
    const leftovers: string[] = [];
    for await (const blob of this.deps.blobs.list(userBlobPrefix(userId))) leftovers.push(blob.key);
    await inBatches(leftovers, 20, (key) => this.deps.blobs.delete(key));
    await this.deps.usage.forget(userId);
    return purged;
  }

  private async purge(doc: MediaDoc): Promise<void> {
    const keys = new Set([
      doc.originalKey,
      ...(['original', 'preview', 'thumbnail', 'playback'] as const).map((v) => mediaBlobKey(doc.userId, doc._id, v)),
    ]);
    for (const key of Object.values(doc.variants)) if (key) keys.add(key);
    // Whatever else was derived from it (face thumbnails, …) lives under the item's prefix.
    for await (const blob of this.deps.blobs.list(mediaItemBlobPrefix(doc.userId, doc._id))) keys.add(blob.key);
    for (const key of keys) await this.deps.blobs.delete(key);
    await this.deps.events.publish(
      mediaPurgedEvent,
      { userId: doc.userId, mediaItemId: doc._id, at: this.now().toISOString() },
      { msgId: `purged-${doc._id}` },
    );
    await this.live.unpair(doc);
    // Uncounted before the document goes: a purge cut off in between is finished again later,
    // which may take the size off twice (the user's favour), never leave it counted.
    await this.deps.usage.subtract(doc.userId, doc.size);
    await this.items.delete(doc.userId, doc._id);
    this.deps.log.info({ mediaItemId: doc._id }, 'media item purged');
  }

  // ---- helpers --------------------------------------------------------------------------------

  private async mine(userId: string, id: string): Promise<MediaDoc> {
    const doc = await this.items.get(userId, id);
    if (!doc) throw notFound(NOT_FOUND_MESSAGE);
    return doc;
  }

  private async changed(
    contract: MessageContract<MediaItemChangedV1>,
    doc: Pick<MediaDoc, 'userId' | '_id'>,
    at: Date,
  ): Promise<void> {
    const kind = contract.subject.split('.').pop();
    await this.deps.events.publish(
      contract,
      { userId: doc.userId, mediaItemId: doc._id, at: at.toISOString() },
      { msgId: `${kind}-${doc._id}-${at.getTime()}` },
    );
  }
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** MMDD of a real day (29 February included). */
export function isCalendarDay(monthDate: string): boolean {
  const m = /^(\d{2})(\d{2})$/.exec(monthDate);
  if (!m) return false;
  const month = Number(m[1]);
  const day = Number(m[2]);
  return month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1];
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

/**
 * The position an update asks for: undefined when it names none, null to go back to the file's.
 * Latitude and longitude come together (both numbers or both null), else 400.
 */
function userLocationOf(
  req: Pick<UpdateMediaItemRequestV1, 'latitude' | 'longitude'>,
): UserLocation | null | undefined {
  const { latitude, longitude } = req;
  if (latitude === undefined && longitude === undefined) return undefined;
  if (latitude === null && longitude === null) return null;
  if (typeof latitude !== 'number' || typeof longitude !== 'number')
    throw badRequest('latitude and longitude go together: both numbers, or both null');
  return { latitude, longitude };
}
