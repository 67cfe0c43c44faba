/**
 * What the media repository adds to the document store: duplicate detection by content, and
 * documents stored before the metadata was one object, which it reads in today's shape.
 */
import { randomUUID } from 'node:crypto';
import { DuplicateKeyError } from '@trove/kit';
import { emptyMediaMetadata } from '@trove/proto-events';
import { docStorePerTest } from '@trove/kit/testing';
import { creationParts, newMediaDoc, toMediaItemV1 } from './document';
import type { LegacyMediaDoc } from './document';
import { MEDIA_ITEMS } from './document';
import { MediaItemsRepository } from './repository';

const db = docStorePerTest('media');
let repo: MediaItemsRepository;

beforeEach(async () => {
  repo = await MediaItemsRepository.open(db.store);
});

const request = (userId: string, sha256 = 'a'.repeat(64), id: string = randomUUID()) => ({
  userId,
  id,
  filename: 'a.jpg',
  mimeType: 'image/jpeg',
  mediaItemType: 'photo' as const,
  size: 1,
  sha256,
  originalKey: `media/${userId}/${id}/original`,
});

it('a second item with the same content answers the first one’s id and stores nothing; another id clash is an error', async () => {
  const user = randomUUID();
  const first = newMediaDoc(request(user), new Date());
  expect(await repo.insert(first)).toEqual({});
  expect(await repo.insert(newMediaDoc(request(user), new Date()))).toEqual({ duplicateOf: first._id });
  expect(await repo.ofUser(user, 10)).toHaveLength(1);
  await expect(
    repo.insert(newMediaDoc(request(randomUUID(), 'b'.repeat(64), first._id), new Date())),
  ).rejects.toBeInstanceOf(DuplicateKeyError);
});

it('reads a document stored with its metadata fields at the top level (before they were one object)', async () => {
  const user = randomUUID();
  const { metadata: _, ...today } = newMediaDoc(request(user), new Date('2024-05-01T08:00:00Z'));
  const expected = {
    ...emptyMediaMetadata('2019-06-24T18:15:12+02:00'),
    width: 4032,
    height: 3024,
    cameraMake: 'Apple',
    exposureTime: '0.004',
  };
  const legacy: LegacyMediaDoc = {
    ...today,
    ...expected,
    status: 'READY',
    creationAt: new Date('2019-06-24T16:15:12Z'),
    creationMonthDay: '0624',
    creationYear: 2019,
  };
  await db.store.collection<LegacyMediaDoc>(MEDIA_ITEMS.name).insertOne(legacy);
  const read = await repo.get(user, legacy._id);
  expect(read?.metadata).toEqual(expected);
  expect(read).not.toHaveProperty('width');
  expect(toMediaItemV1(read!).metadata).toEqual(expected);
  expect((await repo.list({ userId: user, view: 'library', page: 1, limit: 10 })).map((d) => d.metadata)).toEqual([
    expected,
  ]);
  expect((await repo.takenOn(user, '0624', 2025, 1, 10)).map((d) => d._id)).toEqual([legacy._id]);

  // A field missing from an old document is unknown.
  const { width: _w, ...withoutWidth } = legacy;
  const other = { ...withoutWidth, _id: randomUUID(), sha256: 'c'.repeat(64) };
  await db.store.collection<LegacyMediaDoc>(MEDIA_ITEMS.name).insertOne(other);
  expect((await repo.get(user, other._id))?.metadata).toEqual({ ...expected, width: null });
});

it('counts the items of every user by status (the metrics gauge)', async () => {
  const [alice, bob] = [randomUUID(), randomUUID()];
  const a1 = request(alice, 'b'.repeat(64));
  await repo.insert(newMediaDoc(a1, new Date()));
  await repo.insert(newMediaDoc(request(alice, 'c'.repeat(64)), new Date()));
  await repo.insert(newMediaDoc(request(bob, 'd'.repeat(64)), new Date()));
  await repo.setFailed(alice, a1.id, 'corrupt', new Date());
  expect(await repo.countByStatus()).toEqual({ UNSPECIFIED: 0, PROCESSING: 2, READY: 0, FAILED: 1 });
});

it('drops the retired month index when opened, and counts months as UTC ranges of creation times', async () => {
  const user = randomUUID();
  const raw = db.store.collection<Record<string, unknown> & { _id: string }>(MEDIA_ITEMS.name);
  // An index an earlier version kept (made unique here, so that its presence shows in a write).
  await raw.ensureIndex({ fields: { creationMonth: 1 }, unique: true });
  await raw.insertOne({
    ...newMediaDoc(request(user, '9'.repeat(64)), new Date('2019-05-01T00:00:00Z')),
    creationMonth: 'x',
  });
  await expect(raw.insertOne({ _id: randomUUID(), creationMonth: 'x' })).rejects.toBeInstanceOf(DuplicateKeyError);
  const reopened = await MediaItemsRepository.open(db.store);
  for (const [i, at] of ['2020-12-31T23:30:00Z', '2021-01-01T00:30:00Z', '2021-01-20T10:00:00Z'].entries())
    await raw.insertOne({ ...newMediaDoc(request(user, String(i).repeat(64)), new Date(at)), creationMonth: 'x' });
  expect(await reopened.monthCounts({ userId: user, view: 'library' })).toEqual([
    { month: '2021-01', count: 2 },
    { month: '2020-12', count: 1 },
    { month: '2019-05', count: 1 },
  ]);
});

it('years ago goes by the camera’s local day and year, whatever its offset from UTC around New Year', async () => {
  const user = randomUUID();
  const taken = async (iso: string) => {
    const doc = { ...newMediaDoc(request(user, randomUUID().replace(/-/g, '').padEnd(64, '0')), new Date()) };
    await repo.insert({ ...doc, ...creationParts(iso)! });
    return doc._id;
  };
  const lastEveningLocal = await taken('2025-12-31T20:00:00-10:00'); // 2026-01-01 in UTC, 2025 on the camera
  const newYearEast = await taken('2026-01-01T08:00:00+14:00'); // still 2025 in UTC, 2026 on the camera
  const newYearWest = await taken('2025-01-01T01:00:00-12:00');
  const thisYear = await taken('2026-04-15T12:00:00Z');
  const lastYear = await taken('2025-04-15T12:00:00Z');
  const ids = async (monthDay: string, beforeYear: number) =>
    (await repo.takenOn(user, monthDay, beforeYear, 1, 10)).map((d) => d._id);
  expect(await ids('1231', 2026)).toEqual([lastEveningLocal]);
  expect(await ids('0101', 2026)).toEqual([newYearWest]);
  expect(await ids('0101', 2027)).toEqual([newYearEast, newYearWest]);
  expect(await ids('0415', 2026)).toEqual([lastYear]);
  expect(await ids('0415', 2027)).toEqual([thisYear, lastYear]);
});
