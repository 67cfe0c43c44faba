/**
 * The media service's rules, over its real repository (SQLite) and over the in-memory fake (the same
 * suite, so the fake keeps answering like the real thing), with filesystem blobs and a recording
 * publisher: duplicates, views, flags, results, failures, purge, user deletion.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  emptyMediaMetadata,
  faceThumbnailKey,
  mediaBlobKey,
  mediaProcessedEvent,
  mediaPurgedEvent,
  processMediaItemWork,
} from '@trove/proto-events';
import type { MediaItemProcessedV1, MessageContract } from '@trove/proto-events';
import { AppError, createLogger, openBlobStore, openDocStore } from '@trove/kit';
import type { BlobStore, DocStore } from '@trove/kit';
import { tempDir, waitFor } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { newMediaDoc } from './document';
import { MediaItemsRepository } from './repository';
import type { MediaItems } from './repository';
import { FakeMediaItems } from './repository.fake';
import { MediaItemsService, QUOTA_EXCEEDED_MESSAGE, isCalendarDay } from './service';
import { UsageRepository } from '../usage/repository';
import { UsageService } from '../usage/service';

interface Published {
  subject: string;
  payload: Record<string, unknown>;
  msgId: string;
}

let dir: TempDir;
let store: DocStore;
let blobs: BlobStore;
let items: MediaItems;
let published: Published[];
let clock: Date;
/** How many of the next publishes fail (Infinity: NATS is down). */
let publishFailures: number;
let media: MediaItemsService;
let totals: UsageRepository;
/** Every UsageService made for a test: their counts made later are written before the store closes. */
let usages: UsageService[];
let countErrors: unknown[];

const log = createLogger({ service: 'media-test', level: 'silent' });
const sha = () => randomUUID().replace(/-/g, '').repeat(2);

function usageOver(repository: MediaItems, countLaterMs?: number): UsageService {
  const usage = new UsageService(totals, (userId) => repository.sizeOfUser(userId), {
    onCountError: (err) => countErrors.push(err),
    countLaterMs,
  });
  usages.push(usage);
  return usage;
}

function serviceOver(repository: MediaItems, countLaterMs?: number): MediaItemsService {
  return new MediaItemsService({
    items: repository,
    blobs,
    log,
    usage: usageOver(repository, countLaterMs),
    trashRetentionMs: 30 * 24 * 3600 * 1000,
    now: () => new Date(clock),
    events: {
      async publish<P>(contract: MessageContract<P>, payload: P, opts: { msgId: string }) {
        if (publishFailures-- > 0) throw new Error('nats down');
        published.push({ subject: contract.subject, payload: payload as Record<string, unknown>, msgId: opts.msgId });
      },
    },
  });
}

beforeEach(async () => {
  dir = await tempDir('trove-media-unit-');
  store = await openDocStore({ service: 'media', dataDir: dir.path });
  blobs = await openBlobStore({ dataDir: dir.path });
  totals = await UsageRepository.open(store);
  usages = [];
  countErrors = [];
  published = [];
  publishFailures = 0;
  clock = new Date('2025-06-24T12:00:00Z');
});

afterEach(async () => {
  await Promise.all(usages.map((u) => u.flush()));
  expect(countErrors).toEqual([]);
  await store.close();
  await dir.remove();
});

type UploadOptions = {
  type?: 'photo' | 'video';
  sha256?: string;
  size?: number;
  quotaBytes?: number | null;
  id?: string;
};

async function upload(userId: string, opts: UploadOptions = {}): Promise<string> {
  const id = opts.id ?? randomUUID();
  const key = mediaBlobKey(userId, id, 'original');
  await blobs.put(key, Readable.from(Buffer.from(`original ${id}`)));
  const quota = opts.quotaBytes === undefined ? {} : { quotaBytes: opts.quotaBytes };
  await media.create({
    userId,
    id,
    filename: `${id}.jpg`,
    mimeType: opts.type === 'video' ? 'video/mp4' : 'image/jpeg',
    mediaItemType: opts.type ?? 'photo',
    size: opts.size ?? 10,
    sha256: opts.sha256 ?? sha(),
    originalKey: key,
    ...quota,
  });
  return id;
}

/** One upload per options given, one after the other (so they were created in that order): their ids. */
async function uploads<T extends UploadOptions[]>(userId: string, ...each: T): Promise<{ [K in keyof T]: string }> {
  const ids: string[] = [];
  for (const opts of each) ids.push(await upload(userId, opts));
  return ids as { [K in keyof T]: string };
}

const usageOf = async (userId: string) => (await media.usageOf(userId)).usageBytes;

const PAIRING_ID = '599FEB0A-F64C-4A67-ABBE-2AE1A96A20EA';

/** The result of one part of a Live Photo: a still (HEIC) or its motion part (MOV) with the pairing id. */
function livePart(
  userId: string,
  id: string,
  type: 'photo' | 'video',
  contentIdentifier = PAIRING_ID,
): MediaItemProcessedV1 {
  const processed = result(userId, id, '2022-04-03T12:56:11+05:30', {
    mimeType: type === 'video' ? 'video/quicktime' : 'image/heic',
  });
  return { ...processed, metadata: { ...processed.metadata, contentIdentifier } };
}

/** A paired Live Photo of `owner`. */
async function livePhoto(owner: string): Promise<{ owner: string; still: string; video: string }> {
  const [still, video] = [await upload(owner), await upload(owner, { type: 'video' })];
  await media.applyProcessed(livePart(owner, still, 'photo'));
  await media.applyProcessed(livePart(owner, video, 'video'));
  return { owner, still, video };
}

function result(
  userId: string,
  id: string,
  creationTime: string,
  extra: Partial<MediaItemProcessedV1> = {},
): MediaItemProcessedV1 {
  return {
    userId,
    mediaItemId: id,
    mimeType: 'image/jpeg',
    metadata: {
      creationTime,
      width: 400,
      height: 300,
      latitude: 52.37,
      longitude: 4.89,
      cameraMake: 'Cam',
      cameraModel: 'One',
      focalLength: '50',
      apertureFNumber: '2.8',
      isoEquivalent: '100',
      exposureTime: '0.004',
      fps: null,
      durationSeconds: null,
    },
    category: 'default',
    placeholder: 'abc',
    variants: {
      preview: mediaBlobKey(userId, id, 'preview'),
      thumbnail: mediaBlobKey(userId, id, 'thumbnail'),
      playback: null,
    },
    ...extra,
  };
}

async function expectAppError(p: Promise<unknown>, code: string, message?: string): Promise<void> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  if (message) expect((err as AppError).message).toBe(message);
}

const repositories: Array<[string, () => Promise<MediaItems>]> = [
  ['the SQLite repository', () => MediaItemsRepository.open(store)],
  ['the in-memory fake repository', async () => new FakeMediaItems()],
];

describe.each(repositories)('media service over %s', (_, openItems) => {
  beforeEach(async () => {
    items = await openItems();
    media = serviceOver(items);
  });

  describe('reconciler of items stuck in PROCESSING', () => {
    const minutes = (n: number) => new Date(clock.getTime() + n * 60_000);
    /** An item stored as PROCESSING whose work was never queued (media died between the two). */
    async function stored(userId: string): Promise<string> {
      const id = randomUUID();
      await items.insert(
        newMediaDoc(
          {
            userId,
            id,
            filename: `${id}.jpg`,
            mimeType: 'image/jpeg',
            mediaItemType: 'photo',
            size: 10,
            sha256: sha(),
            originalKey: mediaBlobKey(userId, id, 'original'),
          },
          clock,
        ),
      );
      return id;
    }
    const requeued = () => published.filter((p) => p.subject === processMediaItemWork.subject).map((p) => p.msgId);

    it('queues the processing of an item stuck past the bound again, once per bound, and leaves the others alone', async () => {
      const user = randomUUID();
      const stuck = await stored(user);
      const ready = await upload(user);
      await media.applyProcessed(result(user, ready, '2024-01-01T10:00:00Z'));
      published = [];
      expect(await media.requeueStuckProcessing()).toBe(0); // not stuck yet: within the bound
      clock = minutes(31);
      const fresh = await stored(user); // PROCESSING, but only just stored
      expect(await media.requeueStuckProcessing()).toBe(1);
      expect(requeued()).toEqual([`${stuck}-requeue-1`]);
      expect(published[0].payload).toEqual(
        expect.objectContaining({
          mediaItemId: stuck,
          userId: user,
          originalKey: mediaBlobKey(user, stuck, 'original'),
          mimeType: 'image/jpeg',
          mediaItemType: 'photo',
        }),
      );
      expect(await media.requeueStuckProcessing()).toBe(0); // just queued: it gets the full bound again
      expect((await media.get(user, fresh)).status).toBe('PROCESSING');
      // The worker's result arrives: nothing more to do.
      await media.applyProcessed(result(user, stuck, '2024-01-01T10:00:00Z'));
      clock = minutes(31);
      published = [];
      expect(await media.requeueStuckProcessing()).toBe(1); // only `fresh`, now past the bound itself
      expect(requeued()).toEqual([`${fresh}-requeue-1`]);
    });

    it('after three tries an item that never finishes is FAILED with its reason', async () => {
      const user = randomUUID();
      const id = await stored(user);
      for (let i = 1; i <= 3; i++) {
        clock = minutes(31);
        expect(await media.requeueStuckProcessing()).toBe(1);
      }
      expect(requeued()).toEqual([`${id}-requeue-1`, `${id}-requeue-2`, `${id}-requeue-3`]);
      clock = minutes(31);
      expect(await media.requeueStuckProcessing()).toBe(1);
      expect(await media.get(user, id)).toEqual(
        expect.objectContaining({ status: 'FAILED', failureReason: 'processing did not finish after 4 attempts' }),
      );
    });

    it('replicas reconciling at once queue a stuck item once', async () => {
      const id = await stored(randomUUID());
      clock = minutes(31);
      const counts = await Promise.all([media.requeueStuckProcessing(), serviceOver(items).requeueStuckProcessing()]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      expect(requeued()).toEqual([`${id}-requeue-1`]);
    });
  });

  describe('create', () => {
    it('stores a PROCESSING item with the upload time as creation time, then queues its processing (msgId = id)', async () => {
      const user = randomUUID();
      const id = await upload(user);
      expect(await media.get(user, id)).toEqual(
        expect.objectContaining({
          id,
          userId: user,
          status: 'PROCESSING',
          metadata: emptyMediaMetadata(clock.toISOString()),
          deleted: false,
          variants: { preview: false, thumbnail: false, playback: false },
        }),
      );
      expect(published).toEqual([
        {
          subject: processMediaItemWork.subject,
          payload: expect.objectContaining({ mediaItemId: id, userId: user }),
          msgId: id,
        },
      ]);
    });

    it('the same content twice is a conflict naming the first item; another user may have it too', async () => {
      const user = randomUUID();
      const content = sha();
      const first = await upload(user, { sha256: content });
      const err = await upload(user, { sha256: content }).catch((e: AppError) => e);
      expect(err).toMatchObject({ code: 'CONFLICT', message: 'mediaitem already exists', details: { id: first } });
      await expect(upload(randomUUID(), { sha256: content })).resolves.toEqual(expect.any(String));
    });

    it('a work item that fails to publish a few times is queued on a later attempt, once', async () => {
      publishFailures = 2;
      const user = randomUUID();
      const id = await upload(user);
      expect(published).toEqual([
        { subject: processMediaItemWork.subject, payload: expect.objectContaining({ mediaItemId: id }), msgId: id },
      ]);
      expect((await media.get(user, id)).status).toBe('PROCESSING');
    });

    it('when the work item cannot be queued the item is removed again and the call fails', async () => {
      publishFailures = Infinity;
      const user = randomUUID();
      await expectAppError(upload(user), 'UNAVAILABLE');
      expect(await items.ofUser(user, 10)).toEqual([]);
    });
  });

  describe('storage usage and quota', () => {
    it("counts the bytes of the user's originals, trash included, until they are purged; other users apart", async () => {
      const user = randomUUID();
      const other = randomUUID();
      expect(await usageOf(user)).toBe(0);
      const [a] = [await upload(user, { size: 1000 }), await upload(user, { size: 250 })];
      await upload(other, { size: 7 });
      expect(await usageOf(user)).toBe(1250);
      await media.setFlag({ userId: user, ids: [a], flag: 'deleted', value: true });
      expect(await usageOf(user)).toBe(1250);
      clock = new Date(clock.getTime() + 31 * 24 * 3600 * 1000);
      expect(await media.purgeExpiredTrash()).toBe(1);
      expect(await usageOf(user)).toBe(250);
      expect(await usageOf(other)).toBe(7);
    });

    it("counts an upload without a quota after its answer, and a read of the user's usage waits for that count", async () => {
      const user = randomUUID();
      await upload(user, { size: 300 });
      // Answered before the count was written (nothing to check against) …
      expect(await totals.get(user)).toBe(0);
      // … which a read of the usage waits for.
      expect(await usageOf(user)).toBe(300);
      expect(await totals.get(user)).toBe(300);
      // Against a quota the count is part of the upload.
      await upload(user, { size: 50, quotaBytes: 1000 });
      expect(await totals.get(user)).toBe(350);
    });

    it('writes the counts made after their answers by itself soon after', async () => {
      const user = randomUUID();
      await upload(user, { size: 30 });
      await upload(user, { size: 12 });
      await waitFor(async () => (await totals.get(user)) === 42, { what: 'the counts written' });
    });

    it('writes the counts gathered meanwhile together, one write per user', async () => {
      const [user, other] = [randomUUID(), randomUUID()];
      media = serviceOver(items, 3_600_000); // nothing written by itself during the test
      await upload(user, { size: 1 });
      await upload(other, { size: 1 });
      const adds = jest.spyOn(totals, 'add');
      await Promise.all([
        ...Array.from({ length: 10 }, () => upload(user, { size: 10 })),
        ...Array.from({ length: 5 }, () => upload(other, { size: 100 })),
      ]);
      expect(adds).not.toHaveBeenCalled();
      expect(await usageOf(user)).toBe(101);
      expect(await totals.get(other)).toBe(501);
      expect(adds).toHaveBeenCalledTimes(2);
      adds.mockRestore();
    });

    it("a quota's check counts the uploads made before it that were not yet written", async () => {
      const user = randomUUID();
      await upload(user, { size: 900 }); // without a quota: counted later
      // The quota then set: 900 + 200 would pass it, though the total written so far says 0.
      await expectAppError(upload(user, { size: 200, quotaBytes: 1000 }), 'INSUFFICIENT_STORAGE');
      await upload(user, { size: 100, quotaBytes: 1000 });
      expect(await usageOf(user)).toBe(1000);
    });

    it('an item that would take the user past the quota is refused (507) and nothing of it is stored or queued', async () => {
      const user = randomUUID();
      await upload(user, { size: 600, quotaBytes: 1000 });
      await upload(user, { size: 400, quotaBytes: 1000 }); // exactly the quota: fits
      published = [];
      const refused = randomUUID();
      await expectAppError(
        upload(user, { size: 1, quotaBytes: 1000, id: refused }),
        'INSUFFICIENT_STORAGE',
        QUOTA_EXCEEDED_MESSAGE,
      );
      await expectAppError(media.get(user, refused), 'NOT_FOUND');
      expect(published).toEqual([]);
      expect(await usageOf(user)).toBe(1000);
      expect(await items.ofUser(user, 10)).toHaveLength(2);
      // Unlimited (no quota, or null): fine.
      await upload(user, { size: 5 });
      await upload(user, { size: 5, quotaBytes: null });
      expect(await usageOf(user)).toBe(1010);
      // Another user with the same quota is not affected.
      await expect(upload(randomUUID(), { size: 1000, quotaBytes: 1000 })).resolves.toEqual(expect.any(String));
    });

    it('concurrent uploads never pass the quota together', async () => {
      const user = randomUUID();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, () => upload(user, { size: 100, quotaBytes: 500 })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
      expect(
        outcomes
          .filter((o) => o.status === 'rejected')
          .map((o) => ((o as PromiseRejectedResult).reason as AppError).code),
      ).toEqual(Array(7).fill('INSUFFICIENT_STORAGE'));
      expect(await usageOf(user)).toBe(500);
      expect(await items.ofUser(user, 20)).toHaveLength(5);
    });

    it('a duplicate, a repeated request and an item that could not be queued cost nothing', async () => {
      const user = randomUUID();
      const content = sha();
      const id = await upload(user, { sha256: content, size: 100, quotaBytes: 150 });
      // The same content again (409), and even over the quota the answer is the conflict.
      await expectAppError(upload(user, { sha256: content, size: 100, quotaBytes: 150 }), 'CONFLICT');
      // The very same request again (a retry): done already, counted once.
      await upload(user, { sha256: content, size: 100, quotaBytes: 150, id });
      expect(await usageOf(user)).toBe(100);
      publishFailures = Infinity;
      await expectAppError(upload(user, { size: 50, quotaBytes: 150 }), 'UNAVAILABLE');
      expect(await usageOf(user)).toBe(100);
    });

    it('a library from before totals were kept is counted once from its items, then kept up to date', async () => {
      const user = randomUUID();
      for (const size of [300, 200]) {
        const req = {
          userId: user,
          id: randomUUID(),
          filename: 'old.jpg',
          mimeType: 'image/jpeg',
          mediaItemType: 'photo' as const,
          size,
          sha256: sha(),
          originalKey: 'k',
        };
        await items.insert(newMediaDoc(req, clock));
      }
      expect(await totals.get(user)).toBeNull();
      expect(await usageOf(user)).toBe(500);
      await upload(user, { size: 1 });
      expect(await usageOf(user)).toBe(501);
      // First upload of such a library, against a quota: counted first, so the quota holds.
      const older = randomUUID();
      await items.insert(
        newMediaDoc(
          {
            userId: older,
            id: randomUUID(),
            filename: 'old.jpg',
            mimeType: 'image/jpeg',
            mediaItemType: 'photo',
            size: 900,
            sha256: sha(),
            originalKey: 'k',
          },
          clock,
        ),
      );
      await expectAppError(upload(older, { size: 200, quotaBytes: 1000 }), 'INSUFFICIENT_STORAGE');
      expect(await usageOf(older)).toBe(900);
    });

    it("a deleted user's total is forgotten with their items", async () => {
      const user = randomUUID();
      await upload(user, { size: 42 });
      await media.deleteUserMedia(user);
      expect(await totals.get(user)).toBeNull();
      expect(await usageOf(user)).toBe(0);
    });

    it('deletes trashed items for good on request, all or nothing, once while the sweeper runs too', async () => {
      const user = randomUUID();
      const [a, b, kept] = await uploads(user, { size: 100 }, { size: 20 }, { size: 3 });
      await expectAppError(media.purgeTrashed({ userId: user, ids: [a!] }), 'CONFLICT');
      await media.setFlag({ userId: user, ids: [a!, b!], flag: 'deleted', value: true });
      await expectAppError(media.purgeTrashed({ userId: user, ids: [a!, kept!] }), 'CONFLICT');
      await expectAppError(media.purgeTrashed({ userId: randomUUID(), ids: [a!] }), 'NOT_FOUND');
      await expectAppError(media.purgeTrashed({ userId: user, ids: [a!, randomUUID()] }), 'NOT_FOUND');
      expect(await usageOf(user)).toBe(123);
      // Before the retention ends: a sweep finds nothing, the request purges both (the same id twice counts once).
      await Promise.all([media.purgeTrashed({ userId: user, ids: [a!, b!, a!] }), media.purgeExpiredTrash()]);
      expect(await usageOf(user)).toBe(3);
      await expectAppError(media.get(user, a!), 'NOT_FOUND');
      expect((await media.get(user, kept!)).deleted).toBe(false);
      expect(published.filter((p) => p.subject === mediaPurgedEvent.subject).map((p) => p.msgId)).toEqual([
        `purged-${a}`,
        `purged-${b}`,
      ]);
    });

    it('replicas purging at once take each item off once', async () => {
      const user = randomUUID();
      const ids: [string, ...string[]] = await uploads(user, { size: 10 }, { size: 20 }, { size: 30 });
      await upload(user, { size: 5 });
      await media.setFlag({ userId: user, ids, flag: 'deleted', value: true });
      clock = new Date(clock.getTime() + 31 * 24 * 3600 * 1000);
      await Promise.all([media.purgeExpiredTrash(), media.purgeExpiredTrash(), media.purgeExpiredTrash()]);
      expect(await usageOf(user)).toBe(5);
    });
  });

  describe('views', () => {
    it('library, favourites, hidden and trash, newest creation first, with type/category/status filters and paging', async () => {
      const user = randomUUID();
      const [a, b, c, d] = await uploads(user, {}, {}, { type: 'video' }, {});
      await media.applyProcessed(result(user, a, '2020-01-01T10:00:00Z'));
      await media.applyProcessed(result(user, b, '2022-01-01T10:00:00+01:00', { category: 'screenshot' }));
      await media.applyProcessed(result(user, c, '2021-01-01T10:00:00Z', { mimeType: 'video/mp4' }));
      const ids = async (view: 'library' | 'favourites' | 'hidden' | 'trash', extra: Record<string, unknown> = {}) =>
        (await media.list({ userId: user, view, page: 1, limit: 10, ...extra })).items.map((i) => i.id);
      // d is still PROCESSING: its creation time is the upload time (2025), the newest.
      expect(await ids('library')).toEqual([d, b, c, a]);
      expect(await ids('library', { type: 'video' })).toEqual([c]);
      expect(await ids('library', { category: 'screenshot' })).toEqual([b]);
      expect(await ids('library', { status: 'PROCESSING' })).toEqual([d]);
      expect((await media.list({ userId: user, view: 'library', page: 2, limit: 3 })).items.map((i) => i.id)).toEqual([
        a,
      ]);

      await media.setFlag({ userId: user, ids: [a, b], flag: 'favourite', value: true });
      await media.setFlag({ userId: user, ids: [b], flag: 'hidden', value: true });
      await media.setFlag({ userId: user, ids: [c], flag: 'deleted', value: true });
      expect(await ids('library')).toEqual([d, a]);
      expect(await ids('favourites')).toEqual([a]);
      expect(await ids('hidden')).toEqual([b]);
      expect(await ids('trash')).toEqual([c]);
      expect(await media.get(user, c)).toMatchObject({ deleted: true, deletedAt: clock.toISOString() });
      // Another user sees none of it.
      expect((await media.list({ userId: randomUUID(), view: 'library', page: 1, limit: 10 })).items).toEqual([]);
    });

    it('years ago: the camera-local day in earlier years, newest first, not hidden or trashed', async () => {
      const user = randomUUID();
      const [a, b, c, d, e] = await uploads(user, {}, {}, {}, {}, {});
      await media.applyProcessed(result(user, a, '2019-06-24T23:30:00+05:30')); // 18:00 UTC: still 24 June locally
      await media.applyProcessed(result(user, b, '2021-06-24T00:10:00-07:00')); // 25 June in UTC, 24 June locally
      await media.applyProcessed(result(user, c, '2025-06-24T08:00:00Z')); // this year: not "years ago"
      await media.applyProcessed(result(user, d, '2018-06-25T08:00:00Z'));
      await media.applyProcessed(result(user, e, '2017-06-24T08:00:00Z'));
      await media.setFlag({ userId: user, ids: [e], flag: 'hidden', value: true });
      expect(
        (await media.yearsAgo({ userId: user, monthDate: '0624', page: 1, limit: 10 })).items.map((i) => i.id),
      ).toEqual([b, a]);
      await expectAppError(media.yearsAgo({ userId: user, monthDate: '0231', page: 1, limit: 10 }), 'BAD_REQUEST');
    });

    it('isCalendarDay knows the lengths of months (29 February included)', () => {
      expect(['0101', '0229', '0430', '1231'].every(isCalendarDay)).toBe(true);
      expect(['0230', '0431', '1301', '0000', '0100', '12345', 'ab12'].some(isCalendarDay)).toBe(false);
    });

    it('getMany keeps the order asked and leaves out ids that are not the user’s', async () => {
      const user = randomUUID();
      const [a, b] = [await upload(user), await upload(user)];
      const other = await upload(randomUUID());
      expect((await media.getMany(user, [b, other, a, b])).items.map((i) => i.id)).toEqual([b, a]);
    });
  });

  describe('timeline', () => {
    /** An item of `user` taken at `iso` (the file's date, then the user's when `userSet`). */
    async function takenAt(
      user: string,
      iso: string,
      opts: UploadOptions & { userSet?: boolean } = {},
    ): Promise<string> {
      const id = await upload(user, opts);
      if (opts.userSet) await media.update({ userId: user, id, creationTime: iso });
      else await media.applyProcessed(result(user, id, iso));
      return id;
    }

    it('counts the library per month (UTC) newest first, across years; user-set dates count, hidden, trashed and others’ items do not', async () => {
      const [user, other] = [randomUUID(), randomUUID()];
      await takenAt(user, '2024-01-02T10:00:00Z');
      await takenAt(user, '2024-01-31T23:59:59Z');
      await takenAt(user, '2023-12-31T23:00:00Z');
      // The camera's local day is 1 January, the instant (the list's order) still 2023-12.
      await takenAt(user, '2024-01-01T00:30:00+01:00');
      const moved = await takenAt(user, '2019-06-15T12:00:00Z');
      await media.update({ userId: user, id: moved, creationTime: '2010-03-01T08:00:00Z' });
      await takenAt(user, '2015-07-04T12:00:00Z', { userSet: true });
      const hidden = await takenAt(user, '2024-01-10T10:00:00Z');
      const trashed = await takenAt(user, '2022-05-05T10:00:00Z');
      await media.setFlag({ userId: user, ids: [hidden], flag: 'hidden', value: true });
      await media.setFlag({ userId: user, ids: [trashed], flag: 'deleted', value: true });
      await takenAt(other, '2024-01-15T10:00:00Z');
      await takenAt(other, '2001-01-01T00:00:00Z');

      expect(await media.timeline({ userId: user, view: 'library' })).toEqual({
        buckets: [
          { month: '2024-01', count: 2 },
          { month: '2023-12', count: 2 },
          { month: '2015-07', count: 1 },
          { month: '2010-03', count: 1 },
        ],
      });
      expect(await media.timeline({ userId: randomUUID(), view: 'library' })).toEqual({ buckets: [] });
    });

    it('takes the list’s filters: favourites and type', async () => {
      const user = randomUUID();
      const fav = await takenAt(user, '2021-02-03T10:00:00Z');
      await takenAt(user, '2021-02-04T10:00:00Z', { type: 'video' });
      await takenAt(user, '2020-08-04T10:00:00Z');
      await media.setFlag({ userId: user, ids: [fav], flag: 'favourite', value: true });
      expect((await media.timeline({ userId: user, view: 'favourites' })).buckets).toEqual([
        { month: '2021-02', count: 1 },
      ]);
      expect((await media.timeline({ userId: user, view: 'library', type: 'video' })).buckets).toEqual([
        { month: '2021-02', count: 1 },
      ]);
      expect((await media.timeline({ userId: user, view: 'library', type: 'photo' })).buckets).toEqual([
        { month: '2021-02', count: 1 },
        { month: '2020-08', count: 1 },
      ]);
    });

    it('the counts follow each write of the user’s items, asked again after each (they are kept between writes)', async () => {
      const user = randomUUID();
      const months = async (view: 'library' | 'favourites' = 'library') =>
        (await media.timeline({ userId: user, view })).buckets.map((b) => `${b.month}:${b.count}`);
      const a = await takenAt(user, '2021-02-03T10:00:00Z');
      expect(await months()).toEqual(['2021-02:1']);
      const b = await upload(user);
      const uploaded = await months();
      expect(uploaded).toHaveLength(2);
      await media.applyProcessed(result(user, b, '2021-02-20T10:00:00Z'));
      expect(await months()).toEqual(['2021-02:2']);
      expect(await months('favourites')).toEqual([]);
      await media.setFlag({ userId: user, ids: [a], flag: 'favourite', value: true });
      expect(await months('favourites')).toEqual(['2021-02:1']);
      await media.setFlag({ userId: user, ids: [a], flag: 'hidden', value: true });
      expect([await months(), await months('favourites')]).toEqual([['2021-02:1'], []]);
      await media.update({ userId: user, id: b, creationTime: '2019-05-01T08:00:00Z' });
      expect(await months()).toEqual(['2019-05:1']);
      await media.setFlag({ userId: user, ids: [b], flag: 'deleted', value: true });
      expect(await months()).toEqual([]);
      await media.setFlag({ userId: user, ids: [b], flag: 'deleted', value: false });
      expect(await months()).toEqual(['2019-05:1']);
      // Another user's writes leave these counts as they are.
      await takenAt(randomUUID(), '2019-05-02T10:00:00Z');
      expect(await months()).toEqual(['2019-05:1']);
    });

    it('a list taken before an instant starts there, in the same order, paged from there', async () => {
      const user = randomUUID();
      const [a, b, c, d] = [
        await takenAt(user, '2024-03-01T10:00:00Z'),
        await takenAt(user, '2024-02-29T23:59:59.999Z'),
        await takenAt(user, '2024-02-10T10:00:00Z'),
        await takenAt(user, '2023-11-10T10:00:00Z'),
      ];
      const ids = async (takenBefore: string, page = 1, limit = 10) =>
        (await media.list({ userId: user, view: 'library', page, limit, takenBefore })).items.map((i) => i.id);
      expect(await ids('2024-02-29T23:59:59.999Z')).toEqual([b, c, d]);
      expect(await ids('2024-02-29T23:59:59.999Z', 2, 1)).toEqual([c]);
      expect(await ids('2030-01-01T00:00:00Z')).toEqual([a, b, c, d]);
      expect(await ids('2000-01-01T00:00:00Z')).toEqual([]);
      // A leap second (RFC 3339 allows it, Date does not) is the minute's last millisecond.
      expect(await ids('2024-02-29T23:59:60Z')).toEqual([b, c, d]);
    });
    it('pages by cursor: each full page names the next, ties at one instant split by id, nothing twice or left out', async () => {
      const user = randomUUID();
      // Seven items, four of them taken at the same millisecond (a burst): the cursor must split them by id.
      const burst = '2024-05-01T10:00:00.000Z';
      const ids = [
        await takenAt(user, '2024-06-01T10:00:00Z'),
        await takenAt(user, burst),
        await takenAt(user, burst),
        await takenAt(user, burst),
        await takenAt(user, burst),
        await takenAt(user, '2023-01-01T10:00:00Z'),
        await takenAt(user, '2022-01-01T10:00:00Z'),
      ];
      await takenAt(randomUUID(), burst); // another user's item at the same instant never shows
      const expected = (await media.list({ userId: user, view: 'library', page: 1, limit: 100 })).items.map(
        (i) => i.id,
      );
      expect(new Set(expected)).toEqual(new Set(ids));
      for (const limit of [1, 2, 3]) {
        const seen: string[] = [];
        let page = await media.list({ userId: user, view: 'library', page: 1, limit });
        seen.push(...page.items.map((i) => i.id));
        while (page.nextAfter) {
          page = await media.list({ userId: user, view: 'library', page: 1, limit, after: page.nextAfter });
          seen.push(...page.items.map((i) => i.id));
        }
        expect(seen).toEqual(expected);
      }
      // A jump (takenBefore) after the cursor's instant lists from the cursor; before it, from the jump.
      const afterFirst = { creationTime: '2024-06-01T10:00:00.000Z', id: expected[0] };
      const jumpLater = await media.list({
        userId: user,
        view: 'library',
        page: 1,
        limit: 10,
        takenBefore: '2030-01-01T00:00:00Z',
        after: afterFirst,
      });
      expect(jumpLater.items.map((i) => i.id)).toEqual(expected.slice(1));
      const jumpEarlier = await media.list({
        userId: user,
        view: 'library',
        page: 1,
        limit: 10,
        takenBefore: '2023-06-01T00:00:00Z',
        after: afterFirst,
      });
      expect(jumpEarlier.items.map((i) => i.id)).toEqual(expected.slice(5));
      // A last page that is not full says nothing of a next one; the trash has no cursor.
      expect(jumpEarlier.nextAfter).toBeUndefined();
      await expectAppError(
        media.list({ userId: user, view: 'trash', page: 1, limit: 10, after: afterFirst }),
        'BAD_REQUEST',
        'the trash is ordered by deletion time: page it by page number, not by cursor',
      );
    });
  });

  describe('flags and updates', () => {
    it('all or nothing: one id that is not the caller’s fails the call and changes nothing', async () => {
      const user = randomUUID();
      const a = await upload(user);
      const foreign = await upload(randomUUID());
      published = [];
      await expectAppError(
        media.setFlag({ userId: user, ids: [a, foreign], flag: 'favourite', value: true }),
        'NOT_FOUND',
        'mediaitem not found',
      );
      expect((await media.get(user, a)).favourite).toBe(false);
      expect(published).toEqual([]);
    });

    it('trash and restore publish trashed/restored with msgIds that de-duplicate a repeated call', async () => {
      const user = randomUUID();
      const a = await upload(user);
      published = [];
      await media.setFlag({ userId: user, ids: [a], flag: 'deleted', value: true });
      const deletedAt = (await media.get(user, a)).deletedAt;
      clock = new Date(clock.getTime() + 5000);
      await media.setFlag({ userId: user, ids: [a], flag: 'deleted', value: true }); // again: nothing changes
      expect((await media.get(user, a)).deletedAt).toBe(deletedAt);
      expect(published.map((p) => p.subject)).toEqual(['events.v1.media.trashed', 'events.v1.media.trashed']);
      expect(published[0].msgId).toBe(published[1].msgId);
      published = [];
      await media.setFlag({ userId: user, ids: [a], flag: 'deleted', value: false });
      expect(await media.get(user, a)).toMatchObject({ deleted: false, deletedAt: null });
      expect(published).toEqual([
        {
          subject: 'events.v1.media.restored',
          payload: { userId: user, mediaItemId: a, at: clock.toISOString() },
          msgId: `restored-${a}-${clock.getTime()}`,
        },
      ]);
    });

    it('update sets description (empty clears it), favourite and hidden; unknown or foreign ids are not found', async () => {
      const user = randomUUID();
      const a = await upload(user);
      await media.update({ userId: user, id: a, description: 'sunset', hidden: true });
      expect(await media.get(user, a)).toMatchObject({ description: 'sunset', hidden: true, favourite: false });
      await media.update({ userId: user, id: a, description: '' });
      expect((await media.get(user, a)).description).toBeNull();
      await expectAppError(
        media.update({ userId: randomUUID(), id: a, favourite: true }),
        'NOT_FOUND',
        'mediaitem not found',
      );
      await expectAppError(media.get(randomUUID(), a), 'NOT_FOUND', 'mediaitem not found');
    });

    it("the user's creation time and position win over the file's, order the lists, survive processing again; null restores the file's", async () => {
      const user = randomUUID();
      const [a, b] = await uploads(user, {}, {});
      await media.applyProcessed(result(user, a, '2020-01-01T10:00:00+01:00'));
      await media.applyProcessed(result(user, b, '2021-01-01T10:00:00+01:00'));
      const library = async () =>
        (await media.list({ userId: user, view: 'library', page: 1, limit: 10 })).items.map((i) => i.id);
      const yearsAgo = async (monthDate: string) =>
        (await media.yearsAgo({ userId: user, monthDate, page: 1, limit: 10 })).items.map((i) => i.id);
      expect(await library()).toEqual([b, a]);

      await media.update({
        userId: user,
        id: a,
        creationTime: '2022-03-04T23:30:00-05:00',
        latitude: -33.86,
        longitude: 151.21,
      });
      const edited = { creationTime: '2022-03-04T23:30:00-05:00', latitude: -33.86, longitude: 151.21 };
      expect((await media.get(user, a)).metadata).toMatchObject({ ...edited, cameraModel: 'One', width: 400 });
      expect(await library()).toEqual([a, b]);
      // The camera-local day the user wrote (4 March), not the UTC one (5 March).
      expect(await yearsAgo('0304')).toEqual([a]);
      expect(await yearsAgo('0305')).toEqual([]);

      // The file processed again (a metadata job, then a full result): the file's values change, the user's still win.
      clock = new Date(clock.getTime() + 1000);
      await media.applyProcessed(result(user, a, '2020-02-02T10:00:00Z', { components: ['metadata'] }));
      await media.applyProcessed(result(user, a, '2020-02-02T10:00:00Z'));
      expect((await media.get(user, a)).metadata).toMatchObject(edited);
      expect(await library()).toEqual([a, b]);
      expect(await yearsAgo('0304')).toEqual([a]);

      // Position back to the file's; then the date too (the file's as last processed).
      await media.update({ userId: user, id: a, latitude: null, longitude: null });
      expect((await media.get(user, a)).metadata).toMatchObject({
        creationTime: edited.creationTime,
        latitude: 52.37,
        longitude: 4.89,
      });
      await media.update({ userId: user, id: a, creationTime: null });
      expect((await media.get(user, a)).metadata).toMatchObject({
        creationTime: '2020-02-02T10:00:00Z',
        latitude: 52.37,
      });
      expect(await library()).toEqual([b, a]);
      expect(await yearsAgo('0304')).toEqual([]);
      expect(await yearsAgo('0202')).toEqual([a]);
    });

    it("a new position queues the item's places work with it (and a job's walk carries it); bad or foreign updates change nothing", async () => {
      const user = randomUUID();
      const a = await upload(user);
      await media.applyProcessed(result(user, a, '2020-01-01T10:00:00Z'));
      published = [];
      await media.update({ userId: user, id: a, latitude: 48.8584, longitude: 2.2945 });
      const work = published.filter((p) => p.subject === processMediaItemWork.subject);
      expect(work).toHaveLength(1);
      expect(work[0].payload).toMatchObject({
        mediaItemId: a,
        components: ['places'],
        position: { latitude: 48.8584, longitude: 2.2945 },
      });
      const walked = await media.walk({ userId: user, until: clock.toISOString(), limit: 10 });
      expect(walked.items[0].position).toEqual({ latitude: 48.8584, longitude: 2.2945 });
      // A date alone queues no places work.
      published = [];
      await media.update({ userId: user, id: a, creationTime: '2001-01-01T00:00:00Z' });
      expect(published.map((p) => p.subject)).toEqual(['events.v1.media.updated']);
      // A leap second is kept as the minute's last millisecond, in its own offset.
      await media.update({ userId: user, id: a, creationTime: '2016-12-31T23:59:60+01:00' });
      expect((await media.get(user, a)).metadata.creationTime).toBe('2016-12-31T23:59:59.999+01:00');
      await media.update({ userId: user, id: a, creationTime: '2001-01-01T00:00:00Z' });

      const before = await media.get(user, a);
      const message = 'latitude and longitude go together: both numbers, or both null';
      await expectAppError(media.update({ userId: user, id: a, latitude: 1 }), 'BAD_REQUEST', message);
      await expectAppError(media.update({ userId: user, id: a, latitude: 1, longitude: null }), 'BAD_REQUEST', message);
      await expectAppError(media.update({ userId: user, id: a, creationTime: 'yesterday' }), 'BAD_REQUEST');
      for (const id of [a, randomUUID()])
        await expectAppError(
          media.update({ userId: randomUUID(), id, creationTime: '2001-01-01T00:00:00Z', latitude: 1, longitude: 2 }),
          'NOT_FOUND',
          'mediaitem not found',
        );
      expect(await media.get(user, a)).toEqual(before);
    });
  });

  describe('job walks and component subsets', () => {
    it("walks one user's items in (createdAt, id) order after a given item, up to `until`, with the walk's total", async () => {
      const user = randomUUID();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(await upload(user));
        if (i !== 1) clock = new Date(clock.getTime() + 1000); // items 1 and 2 share a createdAt: the id decides
      }
      await upload(randomUUID()); // another user's
      const until = new Date(clock.getTime() - 1000).toISOString();
      const later = await upload(user); // after `until`
      const all = await media.walk({ userId: user, until, limit: 100 });
      const order = [...ids].sort((a, b) =>
        (a === ids[1] || a === ids[2]) && (b === ids[1] || b === ids[2])
          ? a < b
            ? -1
            : 1
          : ids.indexOf(a) - ids.indexOf(b),
      );
      expect(all.items.map((i) => i.id)).toEqual(order);
      expect(all.total).toBe(5);
      expect(all.items.map((i) => i.id)).not.toContain(later);
      const first = all.items[1];
      const rest = await media.walk({
        userId: user,
        until,
        limit: 2,
        after: { createdAt: first.createdAt, id: first.id },
      });
      expect(rest.items.map((i) => i.id)).toEqual(order.slice(2, 4));
      expect(rest.items[0]).toMatchObject({
        mimeType: 'image/jpeg',
        mediaItemType: 'photo',
        originalKey: mediaBlobKey(user, rest.items[0].id, 'original'),
      });
    });

    it("an upload's components go into its work item; a result with components applies only those", async () => {
      const user = randomUUID();
      const id = randomUUID();
      const key = mediaBlobKey(user, id, 'original');
      await media.create({
        userId: user,
        id,
        filename: 'a.jpg',
        mimeType: 'image/jpeg',
        mediaItemType: 'photo',
        size: 1,
        sha256: sha(),
        originalKey: key,
        components: ['metadata', 'previews'],
      });
      expect(published.find((p) => p.subject === processMediaItemWork.subject)?.payload).toMatchObject({
        mediaItemId: id,
        components: ['metadata', 'previews'],
      });
      await media.applyProcessed(result(user, id, '2019-06-24T18:15:12+02:00'));
      const before = await media.get(user, id);
      published = [];
      clock = new Date(clock.getTime() + 1000);
      // A job's places/things result: nothing of the media item changes.
      await media.applyProcessed(
        result(user, id, '2001-01-01T00:00:00Z', {
          placeholder: 'other',
          components: ['places', 'things'],
          jobId: randomUUID(),
        }),
      );
      expect(await media.get(user, id)).toEqual(before);
      expect(published).toEqual([]);
      // A job's metadata result: the metadata changes, the previews do not.
      await media.applyProcessed(
        result(user, id, '2001-01-01T00:00:00Z', { placeholder: 'other', components: ['metadata'] }),
      );
      expect(await media.get(user, id)).toMatchObject({
        metadata: { creationTime: '2001-01-01T00:00:00Z' },
        placeholder: 'abc',
      });
    });
  });

  describe('processing results', () => {
    it('a result makes the item READY; the same result again changes nothing (no new updatedAt, no event)', async () => {
      const user = randomUUID();
      const a = await upload(user);
      clock = new Date(clock.getTime() + 1000);
      await media.applyProcessed(result(user, a, '2019-06-24T18:15:12+02:00'));
      const once = await media.get(user, a);
      expect(once).toMatchObject({
        status: 'READY',
        metadata: result(user, a, '2019-06-24T18:15:12+02:00').metadata,
        placeholder: 'abc',
        variants: { preview: true, thumbnail: true, playback: false },
      });
      published = [];
      clock = new Date(clock.getTime() + 1000);
      await media.applyProcessed(result(user, a, '2019-06-24T18:15:12+02:00'));
      expect(await media.get(user, a)).toEqual(once);
      expect(published).toEqual([]);
    });

    it('FAILED only from PROCESSING: a late dead letter does not undo READY', async () => {
      const user = randomUUID();
      const [a, b] = [await upload(user), await upload(user)];
      await media.markFailed(user, a, 'broken.jpg: cannot decode the image');
      expect(await media.get(user, a)).toMatchObject({
        status: 'FAILED',
        failureReason: 'broken.jpg: cannot decode the image',
      });
      await media.applyProcessed(result(user, b, '2020-01-01T00:00:00Z'));
      await media.markFailed(user, b, 'too late');
      expect(await media.get(user, b)).toMatchObject({ status: 'READY', failureReason: null });
    });

    it('a result for an item that is gone removes the blobs the worker made for it (face thumbnails too), and nothing else', async () => {
      const user = randomUUID();
      const gone = randomUUID();
      const keep = mediaBlobKey(user, randomUUID(), 'preview');
      const keepFace = faceThumbnailKey(user, randomUUID(), 0);
      const faces = [0, 1].map((i) => faceThumbnailKey(user, gone, i));
      for (const key of [
        mediaBlobKey(user, gone, 'preview'),
        mediaBlobKey(user, gone, 'thumbnail'),
        keep,
        keepFace,
        ...faces,
      ])
        await blobs.put(key, Readable.from(Buffer.from('x')));
      await media.applyProcessed(
        result(user, gone, '2020-01-01T00:00:00Z', {
          variants: {
            preview: mediaBlobKey(user, gone, 'preview'),
            thumbnail: mediaBlobKey(user, gone, 'thumbnail'),
            playback: null,
          },
        }),
      );
      expect(await blobs.head(mediaBlobKey(user, gone, 'preview'))).toBeNull();
      expect(await blobs.head(mediaBlobKey(user, gone, 'thumbnail'))).toBeNull();
      for (const face of faces) expect(await blobs.head(face)).toBeNull();
      expect(await blobs.head(keep)).not.toBeNull();
      expect(await blobs.head(keepFace)).not.toBeNull();
    });

    it("a result naming a blob that is not its item's (another user's original, a '..' way out) is ignored: item, blobs and events unchanged", async () => {
      const [alice, bob] = [randomUUID(), randomUUID()];
      const [mine, ready] = [await upload(alice), await upload(alice)];
      const bobs = await upload(bob);
      await media.applyProcessed(result(alice, ready, '2020-01-01T00:00:00Z'));
      const [before, readyBefore] = [await media.get(alice, mine), await media.get(alice, ready)];
      published = [];
      const bobsOriginal = mediaBlobKey(bob, bobs, 'original');
      const forged = [
        { preview: bobsOriginal, thumbnail: mediaBlobKey(alice, mine, 'thumbnail'), playback: null },
        { preview: `media/${alice}/${mine}/../../${bob}/${bobs}/original`, thumbnail: null, playback: null },
        { preview: mediaBlobKey(alice, mine, 'preview'), thumbnail: null, playback: `media/${alice}/${mine}` },
      ];
      for (const variants of forged) {
        await media.applyProcessed(result(alice, mine, '2021-01-01T00:00:00Z', { variants }));
        await media.applyProcessed(
          result(alice, ready, '2021-01-01T00:00:00Z', { variants: { ...variants, preview: bobsOriginal } }),
        );
      }
      await media.applyProcessed(
        result(alice, mine, '2021-01-01T00:00:00Z', {
          faces: [
            {
              box: { x: 0, y: 0, width: 1, height: 1 },
              score: 0.9,
              embedding: 'AAAAAAAAAAA=',
              thumbnailKey: bobsOriginal,
            },
          ],
        }),
      );
      expect(await media.get(alice, mine)).toEqual(before);
      expect(await media.get(alice, ready)).toEqual(readyBefore);
      expect(before).toMatchObject({ status: 'PROCESSING' });
      expect(await blobs.head(bobsOriginal)).not.toBeNull();
      expect(published).toEqual([]);
    });
  });

  describe('content locations', () => {
    it('photos: original and webp derivatives once made; videos: the playable file as preview', async () => {
      const user = randomUUID();
      const [photo, playable, transcoded] = await uploads(user, {}, { type: 'video' }, { type: 'video' });
      await expectAppError(media.locate({ userId: user, id: photo, variant: 'preview' }), 'NOT_FOUND');
      expect(await media.locate({ userId: user, id: photo, variant: 'original' })).toMatchObject({
        key: mediaBlobKey(user, photo, 'original'),
        contentType: 'image/jpeg',
      });
      await media.applyProcessed(result(user, photo, '2020-01-01T00:00:00Z'));
      expect(await media.locate({ userId: user, id: photo, variant: 'thumbnail' })).toMatchObject({
        key: mediaBlobKey(user, photo, 'thumbnail'),
        contentType: 'image/webp',
      });
      await expectAppError(media.locate({ userId: user, id: playable, variant: 'preview' }), 'NOT_FOUND');
      await media.applyProcessed(result(user, playable, '2020-01-01T00:00:00Z', { mimeType: 'video/mp4' }));
      expect(await media.locate({ userId: user, id: playable, variant: 'preview' })).toMatchObject({
        key: mediaBlobKey(user, playable, 'original'),
        contentType: 'video/mp4',
      });
      const withPlayback = result(user, transcoded, '2020-01-01T00:00:00Z', { mimeType: 'video/mp4' });
      withPlayback.variants.playback = mediaBlobKey(user, transcoded, 'playback');
      await media.applyProcessed(withPlayback);
      expect(await media.locate({ userId: user, id: transcoded, variant: 'preview' })).toMatchObject({
        key: mediaBlobKey(user, transcoded, 'playback'),
        contentType: 'video/mp4',
      });
      // Another user's id is not found; a verified signed URL (no userId) finds it.
      await expectAppError(
        media.locate({ userId: randomUUID(), id: photo, variant: 'original' }),
        'NOT_FOUND',
        'mediaitem not found',
      );
      expect((await media.locate({ id: photo, variant: 'original' })).userId).toBe(user);
      // What a shared view's URL is checked against: the flags, whether the bytes are the original's, whether it has a position.
      expect(await media.locate({ id: playable, variant: 'preview' })).toMatchObject({
        original: true,
        hidden: false,
        deleted: false,
        stillMediaItemId: null,
        located: true,
      });
      expect(await media.locate({ id: transcoded, variant: 'preview' })).toMatchObject({ original: false });
      expect(await media.locate({ id: photo, variant: 'thumbnail' })).toMatchObject({ original: false });
    });
  });

  describe('purge', () => {
    it('purges trash older than the retention: every blob, the document, one media.purged; younger trash and restored items stay', async () => {
      const user = randomUUID();
      const [old, young, restored, kept] = await uploads(user, {}, {}, {}, {});
      await media.applyProcessed(result(user, old, '2020-01-01T00:00:00Z'));
      for (const v of ['preview', 'thumbnail'] as const)
        await blobs.put(mediaBlobKey(user, old, v), Readable.from(Buffer.from(v)));
      // Face thumbnails are not in the document: they go because they are under the item's prefix.
      for (const i of [0, 1, 2])
        await blobs.put(faceThumbnailKey(user, old, i), Readable.from(Buffer.from(`face ${i}`)));
      await blobs.put(faceThumbnailKey(user, kept, 0), Readable.from(Buffer.from('face of a kept item')));
      await media.setFlag({ userId: user, ids: [old, restored], flag: 'deleted', value: true });
      clock = new Date(clock.getTime() + 20 * 24 * 3600 * 1000);
      await media.setFlag({ userId: user, ids: [young], flag: 'deleted', value: true });
      await media.setFlag({ userId: user, ids: [restored], flag: 'deleted', value: false });
      clock = new Date(clock.getTime() + 11 * 24 * 3600 * 1000);
      published = [];
      expect(await media.purgeExpiredTrash()).toBe(1);
      await expectAppError(media.get(user, old), 'NOT_FOUND');
      const left: string[] = [];
      for await (const b of blobs.list(`media/${user}/${old}/`)) left.push(b.key);
      expect(left).toEqual([]);
      expect(published).toEqual([
        {
          subject: 'events.v1.media.purged',
          payload: { userId: user, mediaItemId: old, at: clock.toISOString() },
          msgId: `purged-${old}`,
        },
      ]);
      for (const id of [young, restored, kept]) await expect(media.get(user, id)).resolves.toMatchObject({ id });
      expect(await blobs.head(faceThumbnailKey(user, kept, 0))).not.toBeNull();
      expect(await media.purgeExpiredTrash()).toBe(0);
    });

    it('replicas sweeping at once purge each item once', async () => {
      const user = randomUUID();
      const ids: [string, ...string[]] = [await upload(user), await upload(user), await upload(user)];
      await media.setFlag({ userId: user, ids, flag: 'deleted', value: true });
      clock = new Date(clock.getTime() + 31 * 24 * 3600 * 1000);
      published = [];
      const counts = await Promise.all([
        media.purgeExpiredTrash(),
        media.purgeExpiredTrash(),
        media.purgeExpiredTrash(),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(3);
      expect(
        published
          .filter((p) => p.subject === 'events.v1.media.purged')
          .map((p) => p.payload.mediaItemId)
          .sort(),
      ).toEqual([...ids].sort());
    });

    it('a purge that fails half-way keeps the item claimed; once the claim is stale another sweep finishes it', async () => {
      const user = randomUUID();
      const id = await upload(user);
      await media.setFlag({ userId: user, ids: [id], flag: 'deleted', value: true });
      clock = new Date(clock.getTime() + 31 * 24 * 3600 * 1000);
      publishFailures = 1;
      await expect(media.purgeExpiredTrash()).rejects.toThrow(/nats down/);
      // Claimed: it stays in the trash, cannot be restored, and a sweep at once leaves it to its claimant.
      await media.setFlag({ userId: user, ids: [id], flag: 'deleted', value: false });
      expect(await media.get(user, id)).toMatchObject({ deleted: true });
      expect(await media.purgeExpiredTrash()).toBe(0);
      clock = new Date(clock.getTime() + 11 * 60 * 1000);
      published = [];
      expect(await media.purgeExpiredTrash()).toBe(1);
      await expectAppError(media.get(user, id), 'NOT_FOUND');
      expect(published.map((p) => p.subject)).toEqual(['events.v1.media.purged']);
    });

    it('empties the trash: its items leave the list at once, a restore no longer takes them back, the emptier purges them; other trash stays', async () => {
      const user = randomUUID();
      const other = randomUUID();
      const [a, b, kept] = await uploads(user, { size: 100 }, { size: 20 }, { size: 3 });
      const live = await livePhoto(user);
      const theirs = await upload(other);
      await media.setFlag({ userId: user, ids: [a, b, live.still], flag: 'deleted', value: true });
      await media.setFlag({ userId: other, ids: [theirs], flag: 'deleted', value: true });
      const trashOf = async (userId: string) =>
        (await media.list({ userId, view: 'trash', page: 1, limit: 100 })).items.map((i) => i.id).sort();
      published = [];
      // Three listed (the Live Photo's motion part is its still's), all four go.
      expect(await media.emptyTrash({ userId: user })).toEqual({ count: 3 });
      expect(await trashOf(user)).toEqual([]);
      await media.setFlag({ userId: user, ids: [a], flag: 'deleted', value: false });
      await media.purgeEmptiedTrash();
      for (const id of [a, b, live.still, live.video]) await expectAppError(media.get(user, id), 'NOT_FOUND');
      expect(
        published
          .filter((p) => p.subject === mediaPurgedEvent.subject)
          .map((p) => p.payload.mediaItemId)
          .sort(),
      ).toEqual([a, b, live.still, live.video].sort());
      expect(await usageOf(user)).toBe(3);
      // Another user's trash, this user's other items and what goes to the trash afterwards stay.
      expect(await trashOf(other)).toEqual([theirs]);
      await media.setFlag({ userId: user, ids: [kept], flag: 'deleted', value: true });
      expect(await trashOf(user)).toEqual([kept]);
      expect(await media.purgeEmptiedTrash()).toBe(0);
      expect(await media.emptyTrash({ userId: randomUUID() })).toEqual({ count: 0 });
    });

    it('an emptied trash is purged by a later sweep when the replica that emptied it stopped first', async () => {
      const user = randomUUID();
      const ids: [string, ...string[]] = await uploads(user, {}, {}, {});
      await media.setFlag({ userId: user, ids, flag: 'deleted', value: true });
      // Marked as the call marks them, but nobody purged them (the process stopped): a new one's sweep does.
      expect(await items.markTrashEmptied(user)).toBe(3);
      const restarted = serviceOver(items);
      const counts = await Promise.all([restarted.purgeEmptiedTrash(), media.purgeEmptiedTrash()]);
      expect(counts.reduce((x, y) => x + y, 0)).toBe(3);
      for (const id of ids) await expectAppError(media.get(user, id), 'NOT_FOUND');
    });

    it("user deletion removes every item and every blob under the user's prefix, and is idempotent", async () => {
      const user = randomUUID();
      const other = randomUUID();
      const [a, b] = [await upload(user), await upload(user)];
      const theirs = await upload(other);
      await blobs.put(
        `media/${user}/${randomUUID()}/original`,
        Readable.from(Buffer.from('orphan of an aborted upload')),
      );
      published = [];
      expect(await media.deleteUserMedia(user)).toBe(2);
      expect(await items.ofUser(user, 10)).toEqual([]);
      const left: string[] = [];
      for await (const blob of blobs.list(`media/${user}/`)) left.push(blob.key);
      expect(left).toEqual([]);
      expect(published.map((p) => p.payload.mediaItemId).sort()).toEqual([a, b].sort());
      expect(await media.deleteUserMedia(user)).toBe(0);
      await expect(media.get(other, theirs)).resolves.toMatchObject({ id: theirs });
    });
  });

  describe('Live Photos', () => {
    const library = (userId: string, extra: { category?: 'live' | 'default' } = {}) =>
      media.list({ userId, view: 'library', page: 1, limit: 50, ...extra });
    const ids = async (listed: Promise<{ items: Array<{ id: string }> }>) =>
      (await listed).items.map((i) => i.id).sort();

    it.each([
      ['the still first', ['photo', 'video'] as const],
      ['the video first', ['video', 'photo'] as const],
    ])(
      '%s: a lone part is on its own; once both are in, the still is live, links its video, and only the still is listed',
      async (_, order) => {
        const user = randomUUID();
        const part = { photo: await upload(user), video: await upload(user, { type: 'video' }) };
        const [first, second] = order;
        await media.applyProcessed(livePart(user, part[first], first));
        expect(await media.get(user, part[first])).toMatchObject({
          mediaItemCategory: 'default',
          motionMediaItemId: null,
        });
        expect(await ids(library(user))).toEqual([part.photo, part.video].sort());
        published = [];
        await media.applyProcessed(livePart(user, part[second], second));

        const still = await media.get(user, part.photo);
        expect(still).toMatchObject({
          status: 'READY',
          mediaItemCategory: 'live',
          motionMediaItemId: part.video,
          metadata: expect.objectContaining({ cameraMake: 'Cam', contentIdentifier: PAIRING_ID }),
        });
        expect(await ids(library(user))).toEqual([part.photo]);
        expect(await ids(library(user, { category: 'live' }))).toEqual([part.photo]);
        expect(await ids(library(user, { category: 'default' }))).toEqual([]);
        expect(await ids(media.getMany(user, [part.video, part.photo]))).toEqual([part.photo]);
        // The motion part stays reachable by id (and its content by the still's motion URL).
        expect(await media.get(user, part.video)).toMatchObject({
          id: part.video,
          mediaItemType: 'video',
          motionMediaItemId: null,
        });
        expect(await media.locate({ id: part.video, variant: 'preview' })).toMatchObject({
          key: mediaBlobKey(user, part.video, 'original'),
          stillMediaItemId: part.photo,
        });
        // Both parts changed: explore and the others hear of it.
        expect(
          published.filter((p) => p.subject === 'events.v1.media.updated').map((p) => p.payload.mediaItemId),
        ).toEqual(expect.arrayContaining([part.photo, part.video]));
        // The same results again change nothing.
        const before = await items.getMany(user, [part.photo, part.video]);
        published = [];
        for (const type of order) await media.applyProcessed(livePart(user, part[type], type));
        expect(await items.getMany(user, [part.photo, part.video])).toEqual(before);
        expect(published).toEqual([]);
      },
    );

    it('pairs only a still and a video of one user with the same id; a second video with that id stays on its own', async () => {
      const user = randomUUID();
      const [still, video, otherVideo, otherStill] = await uploads(user, {}, { type: 'video' }, { type: 'video' }, {});
      const stranger = randomUUID();
      const theirVideo = await upload(stranger, { type: 'video' });
      await media.applyProcessed(livePart(stranger, theirVideo, 'video'));
      await media.applyProcessed(livePart(user, still, 'photo'));
      await media.applyProcessed(livePart(user, otherStill, 'photo', 'ANOTHER-ID'));
      expect(await media.get(user, still)).toMatchObject({ mediaItemCategory: 'default', motionMediaItemId: null });
      await media.applyProcessed(livePart(user, video, 'video'));
      await media.applyProcessed(livePart(user, otherVideo, 'video'));
      expect(await media.get(user, still)).toMatchObject({ mediaItemCategory: 'live', motionMediaItemId: video });
      expect(await media.get(user, otherStill)).toMatchObject({
        mediaItemCategory: 'default',
        motionMediaItemId: null,
      });
      expect(await ids(library(user))).toEqual([still, otherVideo, otherStill].sort());
      expect(await ids(library(stranger))).toEqual([theirVideo]);
    });

    it('trash, restore, hide and favourite of the still apply to its motion part, which no list shows', async () => {
      const user = randomUUID();
      const { still, video } = await livePhoto(user);
      const flags = async (id: string) => {
        const { favourite, hidden, deleted } = await media.get(user, id);
        return { favourite, hidden, deleted };
      };
      await media.setFlag({ userId: user, ids: [still], flag: 'favourite', value: true });
      await media.update({ userId: user, id: still, hidden: true });
      expect(await flags(video)).toEqual({ favourite: true, hidden: true, deleted: false });
      expect(await ids(media.list({ userId: user, view: 'hidden', page: 1, limit: 50 }))).toEqual([still]);
      await media.setFlag({ userId: user, ids: [still], flag: 'hidden', value: false });
      await media.update({ userId: user, id: still, favourite: false });
      expect(await flags(video)).toEqual({ favourite: false, hidden: false, deleted: false });
      await media.setFlag({ userId: user, ids: [still], flag: 'deleted', value: true });
      expect(await flags(video)).toMatchObject({ deleted: true });
      expect(await ids(media.list({ userId: user, view: 'trash', page: 1, limit: 50 }))).toEqual([still]);
      await media.setFlag({ userId: user, ids: [still], flag: 'deleted', value: false });
      expect(await flags(video)).toMatchObject({ deleted: false });
    });

    it('a still trashed before its video arrives: the motion part joins it in the trash and is purged with it', async () => {
      const user = randomUUID();
      const still = await upload(user);
      const video = await upload(user, { type: 'video' });
      await media.applyProcessed(livePart(user, still, 'photo'));
      await media.setFlag({ userId: user, ids: [still], flag: 'deleted', value: true });
      await media.applyProcessed(livePart(user, video, 'video'));
      expect(await media.get(user, video)).toMatchObject({ deleted: true });
      clock = new Date(clock.getTime() + 31 * 24 * 3600 * 1000);
      expect(await media.purgeExpiredTrash()).toBe(2);
      expect(await items.ofUser(user, 10)).toEqual([]);
    });

    it('purging either part unpairs the other: a still whose motion part was purged is default again', async () => {
      const user = randomUUID();
      const first = await livePhoto(user);
      // The motion part trashed by its own id (it is reachable by id) and purged.
      await media.setFlag({ userId: user, ids: [first.video], flag: 'deleted', value: true });
      clock = new Date(clock.getTime() + 31 * 24 * 3600 * 1000);
      published = [];
      expect(await media.purgeExpiredTrash()).toBe(1);
      expect(await media.get(user, first.still)).toMatchObject({
        mediaItemCategory: 'default',
        motionMediaItemId: null,
        deleted: false,
      });
      expect(
        published.filter((p) => p.subject === 'events.v1.media.updated').map((p) => p.payload.mediaItemId),
      ).toEqual([first.still]);

      // A still purged while its motion part was restored on its own: the video is listed again.
      const second = await livePhoto(randomUUID());
      const { owner } = second;
      await media.setFlag({ userId: owner, ids: [second.still], flag: 'deleted', value: true });
      await media.setFlag({ userId: owner, ids: [second.video], flag: 'deleted', value: false });
      clock = new Date(clock.getTime() + 31 * 24 * 3600 * 1000);
      expect(await media.purgeExpiredTrash()).toBe(1);
      expect(await ids(library(owner))).toEqual([second.video]);
    });

    it('two media replicas applying the still’s and the video’s results at once pair them', async () => {
      const user = randomUUID();
      const [still, video] = [await upload(user), await upload(user, { type: 'video' })];
      const replicas = [serviceOver(items), serviceOver(items)];
      await Promise.all([
        replicas[0].applyProcessed(livePart(user, still, 'photo')),
        replicas[1].applyProcessed(livePart(user, video, 'video')),
      ]);
      expect(await media.get(user, still)).toMatchObject({ mediaItemCategory: 'live', motionMediaItemId: video });
      expect(await ids(library(user))).toEqual([still]);
    });

    it('a redelivered result finishes a pairing that stopped half-way (the video claimed, the still not linked)', async () => {
      const user = randomUUID();
      const [still, video] = [await upload(user), await upload(user, { type: 'video' })];
      await media.applyProcessed(livePart(user, still, 'photo', 'OTHER'));
      await media.applyProcessed(livePart(user, video, 'video', 'OTHER-TOO'));
      // As if a replica died after claiming the video: the results as processed, the video claimed.
      await media.applyProcessed(livePart(user, still, 'photo'));
      await items.claimMotionPart(user, video, still, clock);
      await media.applyProcessed(livePart(user, video, 'video'));
      expect(await media.get(user, still)).toMatchObject({ mediaItemCategory: 'live', motionMediaItemId: video });
    });
  });
});

describe('races staged with the fake repository', () => {
  it('a result for an item purged between its read and its write removes the blobs the worker made and announces nothing', async () => {
    /** Another replica purges each item right after this one read it. */
    class PurgedAfterRead extends FakeMediaItems {
      override async get(userId: string, id: string) {
        const doc = await super.get(userId, id);
        await this.delete(userId, id);
        return doc;
      }
    }
    media = serviceOver(new PurgedAfterRead());
    const user = randomUUID();
    const id = await upload(user);
    const preview = mediaBlobKey(user, id, 'preview');
    await blobs.put(preview, Readable.from(Buffer.from('preview')));
    published = [];
    await media.applyProcessed(result(user, id, '2020-01-01T00:00:00Z'));
    expect(await blobs.head(preview)).toBeNull();
    expect(published).toEqual([]);
  });
});

describe('Live Photo races staged with the fake repository', () => {
  it('results of both parts written before either looks for the other: both find it, and the pair is linked once', async () => {
    /** Each replica looks for the other part only once both results are written. */
    let arrived = 0;
    let bothWritten: () => void;
    const written = new Promise<void>((resolve) => (bothWritten = resolve));
    class BothWrittenFirst extends FakeMediaItems {
      override async pairCandidates(...args: Parameters<FakeMediaItems['pairCandidates']>) {
        if (++arrived === 2) bothWritten();
        await written;
        return super.pairCandidates(...args);
      }
    }
    const shared = new BothWrittenFirst();
    media = serviceOver(shared);
    const user = randomUUID();
    const [still, video] = [await upload(user), await upload(user, { type: 'video' })];
    published = [];
    await Promise.all([
      serviceOver(shared).applyProcessed(livePart(user, still, 'photo')),
      serviceOver(shared).applyProcessed(livePart(user, video, 'video')),
    ]);
    expect(await media.get(user, still)).toMatchObject({ mediaItemCategory: 'live', motionMediaItemId: video });
    expect((await shared.get(user, video))?.stillMediaItemId).toBe(still);
    expect((await media.list({ userId: user, view: 'library', page: 1, limit: 10 })).items.map((i) => i.id)).toEqual([
      still,
    ]);
  });

  it('a second video racing for a still that pairs with the first stays on its own', async () => {
    /** Another replica links the still to a first video right after this one claimed a second. */
    let first = '';
    class LinkedMeanwhile extends FakeMediaItems {
      override async claimMotionPart(userId: string, videoId: string, stillId: string, at: Date) {
        const claimed = await super.claimMotionPart(userId, videoId, stillId, at);
        if (videoId !== first) await super.linkMotionPart(userId, stillId, first, at);
        return claimed;
      }
    }
    const shared = new LinkedMeanwhile();
    media = serviceOver(shared);
    const user = randomUUID();
    const still = await upload(user);
    first = await upload(user, { type: 'video' });
    const second = await upload(user, { type: 'video' });
    await media.applyProcessed(livePart(user, still, 'photo'));
    await media.applyProcessed(livePart(user, second, 'video'));
    expect(await media.get(user, still)).toMatchObject({ motionMediaItemId: first });
    expect((await shared.get(user, second))?.stillMediaItemId).toBeNull();
  });
});

it('mediaProcessed and processMediaItem are the contracts the service speaks', () => {
  expect(mediaProcessedEvent.subject).toBe('events.v1.media.processed');
  expect(processMediaItemWork.subject).toBe('work.v1.media.process');
});
