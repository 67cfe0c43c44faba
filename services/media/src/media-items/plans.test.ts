/**
 * The index plans of the queries the media service serves, on the embedded store: which index each reads, whether
 * in the list's order (a page stops after the page) and whether its key rows are exactly the matches (a page reads
 * the page's items only). A library of a few thousand items is enough to plan on; what these pin is what makes a
 * page cost the same at a million items: a change that leaves a list without its index fails here, not in a bench.
 */
import { randomUUID } from 'node:crypto';
import { explainQuery, indexName } from '@trove/kit';
import type { Filter, QueryPlan, SortSpec } from '@trove/kit';
import { openTempDocStore, type TempDocStore } from '@trove/kit/testing';
import { MEDIA_ITEMS, creationParts, newMediaDoc } from './document';
import type { MediaDoc } from './document';
import { MediaItemsRepository, abandonedFilter, listFilter, takenOnFilter, viewSort } from './repository';

let db: TempDocStore;
let repo: MediaItemsRepository;
const userId = randomUUID();
const ITEMS = 3000;

/** A seeded library: 20 years, 1 in 20 a video, favourites, hidden, trashed, failed items, screenshots. */
function item(i: number): MediaDoc {
  const id = randomUUID();
  const video = i % 20 === 0;
  const doc = newMediaDoc(
    {
      id,
      userId,
      filename: `IMG_${i}.jpg`,
      mimeType: video ? 'video/mp4' : 'image/jpeg',
      mediaItemType: video ? 'video' : 'photo',
      size: 1,
      sha256: i.toString(16).padStart(64, '0'),
      originalKey: `media/${userId}/${id}/original`,
    },
    new Date('2026-11-01T00:00:00Z'),
  );
  const taken = new Date(Date.UTC(2006, 0, 1) + i * 3.5 * 86_400_000).toISOString();
  return {
    ...doc,
    ...creationParts(taken)!,
    status: i % 97 === 0 ? 'FAILED' : 'READY',
    mediaItemCategory: i % 31 === 0 ? 'screenshot' : 'default',
    favourite: i % 19 === 0,
    hidden: i % 101 === 0,
    deleted: i % 103 === 0,
    deletedAt: i % 103 === 0 ? new Date('2026-10-01T00:00:00Z') : null,
  };
}

beforeAll(async () => {
  db = await openTempDocStore('media');
  repo = await MediaItemsRepository.open(db.store);
  await db.store.collection(MEDIA_ITEMS.name).insertMany(Array.from({ length: ITEMS }, (_, i) => item(i)));
});

afterAll(async () => {
  await db?.remove();
});

const explain = (filter: Filter, sort?: SortSpec): QueryPlan | undefined =>
  explainQuery(db.store, MEDIA_ITEMS.name, filter, sort);

/** The index of these fields (as the schema declares it), read in order and exactly. */
const read = (fields: Record<string, 1 | -1>, how: { ordered: boolean; exact: boolean }): QueryPlan => ({
  kind: 'index',
  index: indexName({ fields }),
  ...how,
});

const view = { userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1 } as const;
const LIST = { ...view, creationAt: -1 } as const;
const ideal = { ordered: true, exact: true };
const inOrder = { ordered: true, exact: false };
const cursorAt = new Date('2015-06-01T00:00:00Z');
/** The two reads of a cursor page (the items after the cursor): its instant's ties, then the older ones. */
const olderThanCursor = { creationAt: { $lt: cursorAt } };

it('the store is the embedded SQLite one, whose plans these are', () => {
  expect(db.store.kind).toBe('sqlite');
  expect(explain({ userId })).toBeDefined();
});

it.each(['library', 'hidden'] as const)(
  'the %s view pages through its index in order, its key rows the matches',
  (name) => {
    const filter = listFilter({ userId, view: name });
    expect(explain(filter, viewSort(name))).toEqual(read(LIST, ideal));
    // The items after a cursor: a range of dates, exact too (a page reads the page's items).
    expect(explain({ ...filter, ...olderThanCursor }, viewSort(name))).toEqual(read(LIST, ideal));
    // A timeline jump (`takenBefore`) is the same range.
    expect(explain({ ...filter, creationAt: { $lte: cursorAt } }, viewSort(name))).toEqual(read(LIST, ideal));
  },
);

it('a cursor’s ties (its own instant, smaller ids) are read from that instant’s key rows', () => {
  const filter = { ...listFilter({ userId, view: 'library' }), creationAt: cursorAt, _id: { $lt: randomUUID() } };
  expect(explain(filter, viewSort('library'))).toMatchObject({ kind: 'index', index: indexName({ fields: LIST }) });
});

it('favourites, a type and a status page through an index of their own, in order, exactly', () => {
  const cases: Array<[Filter, Record<string, 1 | -1>]> = [
    [listFilter({ userId, view: 'favourites' }), { ...view, favourite: 1, creationAt: -1 }],
    [listFilter({ userId, view: 'library', type: 'video' }), { ...view, mediaItemType: 1, creationAt: -1 }],
    [listFilter({ userId, view: 'hidden', type: 'photo' }), { ...view, mediaItemType: 1, creationAt: -1 }],
    [listFilter({ userId, view: 'library', status: 'FAILED' }), { ...view, status: 1, creationAt: -1 }],
  ];
  for (const [filter, fields] of cases) {
    expect({ filter, plan: explain(filter, viewSort('library')) }).toEqual({ filter, plan: read(fields, ideal) });
    const older = { ...filter, ...olderThanCursor };
    expect({ older, plan: explain(older, viewSort('library')) }).toEqual({ older, plan: read(fields, ideal) });
  }
});

it('the favourites of a type read in order through one of the two indexes', () => {
  const filter = listFilter({ userId, view: 'favourites', type: 'video' });
  expect(explain(filter, viewSort('favourites'))).toMatchObject({ kind: 'index', ordered: true });
});

it('a category reads the view’s index in order (the matcher leaves out the other categories)', () => {
  for (const category of ['screenshot', 'default', 'live'] as const) {
    const filter = listFilter({ userId, view: 'library', category });
    expect({ category, plan: explain(filter, viewSort('library')) }).toEqual({ category, plan: read(LIST, inOrder) });
  }
});

it('years ago reads the day’s items newest first, stopping after the page', () => {
  expect(explain(takenOnFilter(userId, '0415', 2026), viewSort('library'))).toEqual(
    read({ ...view, creationMonthDay: 1, creationAt: -1 }, inOrder),
  );
});

it('the trash pages through its index by deletion time (the matcher leaves out what is being purged)', () => {
  const filter = listFilter({ userId, view: 'trash' });
  expect(explain(filter, viewSort('trash'))).toEqual(
    read({ userId: 1, stillMediaItemId: 1, deleted: 1, deletedAt: -1, creationAt: -1 }, inOrder),
  );
});

it('the emptier reads the claims nobody holds from their own index, whatever the size of the trash', () => {
  expect(explain(abandonedFilter(new Date()))).toEqual(
    read({ deleted: 1, purgingAt: 1 }, { ordered: false, exact: true }),
  );
});

it('the timeline counts a month from the list index’s key rows, and finds the newest item before a gap in order', () => {
  const month = { creationAt: { $gte: new Date('2010-04-01T00:00:00Z'), $lt: new Date('2010-05-01T00:00:00Z') } };
  const counted = { ordered: false, exact: true };
  const cases: Array<[Filter, Record<string, 1 | -1>]> = [
    [listFilter({ userId, view: 'library' }), LIST],
    [listFilter({ userId, view: 'favourites' }), { ...view, favourite: 1, creationAt: -1 }],
    [listFilter({ userId, view: 'library', type: 'video' }), { ...view, mediaItemType: 1, creationAt: -1 }],
    [listFilter({ userId, view: 'library', status: 'READY' }), { ...view, status: 1, creationAt: -1 }],
  ];
  for (const [filter, fields] of cases) {
    expect({ filter, plan: explain({ ...filter, ...month }) }).toEqual({ filter, plan: read(fields, counted) });
    expect({ filter, plan: explain(filter, viewSort('library')) }).toEqual({ filter, plan: read(fields, ideal) });
    const gap = { ...filter, ...olderThanCursor };
    expect({ gap, plan: explain(gap, viewSort('library')) }).toEqual({ gap, plan: read(fields, ideal) });
  }
});

it('what the plans say is what the lists answer', async () => {
  const page = await repo.list({ userId, view: 'favourites', page: 2, limit: 10 });
  const all = (await repo.list({ userId, view: 'library', page: 1, limit: ITEMS })).filter((d) => d.favourite);
  expect(page.map((d) => d._id)).toEqual(all.slice(10, 20).map((d) => d._id));
  const years = await repo.takenOn(userId, '0415', 2026, 1, 100);
  expect(years.length).toBeGreaterThan(0);
  expect(years.every((d) => d.creationMonthDay === '0415' && !d.deleted && !d.hidden)).toBe(true);
  const months = new Map<string, number>();
  for (const doc of await repo.list({ userId, view: 'library', page: 1, limit: ITEMS })) {
    const month = doc.creationAt.toISOString().slice(0, 7);
    months.set(month, (months.get(month) ?? 0) + 1);
  }
  expect(await repo.monthCounts({ userId, view: 'library' })).toEqual(
    [...months].map(([month, count]) => ({ month, count })),
  );
});
