/**
 * The query planner only narrows candidates: whatever index it picks, a query answers exactly what a full scan
 * answers. Random documents (missing fields, nulls, arrays, mixed types, sub-documents) in two collections, one with
 * indexes and one without, asked the same random queries.
 */
import { join } from 'node:path';
import Database from 'libsql';
import { tempDir, type TempDir } from '../../testing/temp';
import type { BaseDoc, Collection, Filter, SortSpec } from '../port';
import type { KeyIndex } from './key-index';
import { encodeKey } from './keys';
import { plan, type IndexChoice } from './plan';
import { openSqliteDocStore, type SqliteDocStore } from './store';

type Doc = BaseDoc & Record<string, unknown>;

let seed = 11;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <V>(values: readonly V[]): V => values[Math.floor(random() * values.length)];

const VALUES: unknown[] = [
  null,
  0,
  1,
  2,
  -1.5,
  'a',
  'b',
  'ab',
  '',
  true,
  false,
  new Date(0),
  new Date(86_400_000),
  new Date(-5),
  { x: 1 },
  { y: 'a' },
];
const value = (): unknown => (random() < 0.15 ? [pick(VALUES), pick(VALUES)] : random() < 0.05 ? [] : pick(VALUES));

function randomDoc(i: number): Doc {
  const doc: Doc = { _id: `d${String(i).padStart(3, '0')}` };
  for (const field of ['a', 'b', 'c']) if (random() < 0.85) doc[field] = field === 'c' ? pick(VALUES) : value();
  if (random() < 0.7) doc.s = { t: random() < 0.2 ? [{ u: pick(VALUES) }, { u: pick(VALUES) }] : pick(VALUES) };
  return doc;
}

function condition(): unknown {
  const v = (): unknown => pick(VALUES);
  const bound = (): unknown => pick([null, 0, 1, 2, -1.5, 'a', 'b', true, new Date(0), new Date(86_400_000)]);
  switch (Math.floor(random() * 7)) {
    case 0:
      return v();
    case 1:
      return { $in: [v(), v()] };
    case 2:
      return { [pick(['$gt', '$gte', '$lt', '$lte'])]: pick([null, 0, 1, 'a', 'b', true, new Date(0)]) };
    case 3:
      return { $eq: v() };
    case 4:
      return { $exists: random() < 0.5 };
    case 5:
      // Two bounds, of one type or not.
      return { [pick(['$gt', '$gte'])]: bound(), [pick(['$lt', '$lte'])]: bound() };
    default:
      return { $ne: v() };
  }
}

function randomQuery(): { filter: Filter; sort?: SortSpec; skip: number; limit: number } {
  const filter: Filter = {};
  for (const field of ['a', 'b', 'c', 's.t', 's.t.u']) if (random() < 0.4) filter[field] = condition();
  const sortFields = random() < 0.6 ? [pick(['a', 'b', 'c', 's.t'])] : [];
  if (sortFields.length > 0 && random() < 0.5) sortFields.push(pick(['b', 'c']));
  const sort: SortSpec | undefined =
    sortFields.length > 0
      ? { ...Object.fromEntries(sortFields.map((f) => [f, random() < 0.5 ? 1 : -1])), _id: random() < 0.5 ? 1 : -1 }
      : undefined;
  return {
    filter,
    sort,
    skip: random() < 0.3 ? Math.floor(random() * 10) : 0,
    limit: random() < 0.6 ? 1 + Math.floor(random() * 15) : 0,
  };
}

let dir: TempDir;
let store: SqliteDocStore;
let indexed: Collection<Doc>;
let plain: Collection<Doc>;

beforeAll(async () => {
  dir = await tempDir('trove-sqlite-plan-');
  store = await openSqliteDocStore({ file: join(dir.path, 'plan.sqlite') });
  indexed = store.collection<Doc>('indexed');
  plain = store.collection<Doc>('plain');
  const docs = Array.from({ length: 300 }, (_, i) => randomDoc(i));
  await indexed.ensureIndex({ fields: { a: 1, c: -1 } });
  await indexed.insertMany(docs.slice(0, 150));
  await indexed.ensureIndex({ fields: { b: -1 } });
  await indexed.ensureIndex({ fields: { c: 1, a: 1 }, sparse: true });
  await indexed.ensureIndex({ fields: { 's.t': 1 } });
  await indexed.ensureIndex({ fields: { 's.t.u': 1, c: 1 } });
  await indexed.insertMany(docs.slice(150));
  await plain.insertMany(docs);
});

afterAll(async () => {
  await store?.close();
  await dir?.remove();
});

test('indexed queries answer what a full scan answers', async () => {
  for (let i = 0; i < 600; i += 1) {
    const { filter, sort, skip, limit } = randomQuery();
    const [got, want] = await Promise.all([
      indexed.find(filter, { sort, skip, limit }),
      plain.find(filter, { sort, skip, limit }),
    ]);
    const ids = (docs: Doc[]): string[] => (sort ? docs.map((d) => d._id) : docs.map((d) => d._id).sort());
    // Without a sort any page is a right answer; compare whole answers then.
    if (!sort && (limit > 0 || skip > 0)) {
      const all = await plain.find(filter);
      expect({
        filter,
        ok:
          got.every((doc) => all.some((other) => other._id === doc._id)) &&
          got.length === Math.max(0, Math.min(limit || Infinity, all.length - skip)),
      }).toEqual({ filter, ok: true });
      continue;
    }
    expect({ filter, sort, skip, limit, ids: ids(got) }).toEqual({ filter, sort, skip, limit, ids: ids(want) });
    expect(await indexed.count(filter)).toBe(await plain.count(filter));
  }
});

test('writes keep the keys in step: updates and deletes, then the same answers', async () => {
  await indexed.updateMany({ a: 1 }, { $set: { b: 'moved' }, $unset: { c: '' } });
  await plain.updateMany({ a: 1 }, { $set: { b: 'moved' }, $unset: { c: '' } });
  await indexed.deleteMany({ c: true });
  await plain.deleteMany({ c: true });
  for (const filter of [{ b: 'moved' }, { c: null }, { c: { $gte: 0 } }, { a: 1, c: null }] as Filter[]) {
    const ids = async (collection: Collection<Doc>): Promise<string[]> =>
      (await collection.find(filter, { sort: { b: -1, _id: 1 } })).map((d) => d._id);
    expect(await ids(indexed)).toEqual(await ids(plain));
  }
});

describe('choosing an index', () => {
  /** A key index as the planner reads it (no table behind it: the estimates are the test's). */
  const index = (fields: Record<string, 1 | -1>, options: { sparse?: boolean } = {}): KeyIndex =>
    ({
      name: Object.entries(fields)
        .map(([path, direction]) => `${path}_${direction}`)
        .join('_'),
      table: 'k',
      paths: Object.keys(fields),
      directions: Object.values(fields),
      spec: { fields, unique: false, sparse: options.sparse ?? false },
      ordered: () => true,
      multikey: () => false,
    }) as unknown as KeyIndex;

  /** The plan, the indexes counted, and how the plan reads. */
  function planned(
    filter: Filter,
    sort: SortSpec | undefined,
    indexes: KeyIndex[],
    counts: Record<string, number> = {},
  ) {
    const counted: string[] = [];
    const chosen = plan({
      filter,
      sort,
      indexes,
      alias: 'k',
      estimate: (choice: IndexChoice, cap: number) => {
        counted.push(choice.index.name);
        return Math.min(cap, counts[choice.index.name] ?? cap);
      },
    });
    if (chosen.kind !== 'index') return { kind: chosen.kind, counted };
    return { kind: chosen.kind, index: chosen.index.name, ordered: chosen.ordered, exact: chosen.exact, counted };
  }

  const view = { userId: 'u', stillMediaItemId: null, deleted: false, hidden: false };
  const newest: SortSpec = { creationAt: -1, _id: -1 };
  const lists = [
    index({ userId: 1, sha256: 1 }),
    index({ userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, creationAt: -1 }),
    index({ userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, mediaItemType: 1, creationAt: -1 }),
    index({ userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, creationMonthDay: 1, creationAt: -1 }),
    index({ userId: 1, creationMonthDay: 1 }),
    index({ userId: 1, stillMediaItemId: 1, deleted: 1, hidden: 1, creationMonth: 1 }),
    index({ userId: 1, createdAt: 1 }),
    index({ deleted: 1, deletedAt: 1 }),
  ];

  test('an index holding every condition exactly, in the order asked, is chosen without counting any', () => {
    expect(planned(view, newest, lists)).toEqual({
      kind: 'index',
      index: 'userId_1_stillMediaItemId_1_deleted_1_hidden_1_creationAt_-1',
      ordered: true,
      exact: true,
      counted: [],
    });
    expect(planned({ ...view, mediaItemType: 'video' }, newest, lists)).toMatchObject({
      index: 'userId_1_stillMediaItemId_1_deleted_1_hidden_1_mediaItemType_1_creationAt_-1',
      ordered: true,
      exact: true,
      counted: [],
    });
    // No sort: exact is enough.
    expect(planned({ ...view, creationMonth: '2020-01' }, undefined, lists)).toMatchObject({
      index: 'userId_1_stillMediaItemId_1_deleted_1_hidden_1_creationMonth_1',
      exact: true,
      counted: [],
    });
  });

  test('an index another one outweighs (its conditions and more, and the order when it gives it) is not counted', () => {
    // Years ago: the day's index in the list's order; the (userId, creationMonthDay) one narrows less and orders not.
    expect(
      planned({ ...view, creationMonthDay: '0415', creationYear: { $lt: 2026 } }, newest, lists, {
        userId_1_creationMonthDay_1: 10,
      }),
    ).toMatchObject({
      index: 'userId_1_stillMediaItemId_1_deleted_1_hidden_1_creationMonthDay_1_creationAt_-1',
      ordered: true,
      exact: false,
      counted: [],
    });
  });

  test('indexes that narrow different conditions are counted: the fewest candidates win, then the ordered one', () => {
    const indexes = [index({ a: 1, t: -1 }), index({ b: 1 }), index({ c: 1 })];
    expect(planned({ a: 1, b: 2, c: 3 }, { t: -1 }, indexes, { 'a_1_t_-1': 40, b_1: 30, c_1: 50 })).toEqual({
      kind: 'index',
      index: 'b_1',
      ordered: false,
      exact: false,
      counted: ['a_1_t_-1', 'b_1', 'c_1'],
    });
    expect(planned({ a: 1, b: 2 }, { t: -1 }, indexes)).toMatchObject({ index: 'a_1_t_-1', ordered: true });
  });

  test('a range on the last field of the index, sorted on it then the id, reads in order (a cursor page)', () => {
    const older = { ...view, creationAt: { $lt: new Date('2020-01-01T00:00:00Z') } };
    expect(planned(older, newest, lists)).toMatchObject({
      index: 'userId_1_stillMediaItemId_1_deleted_1_hidden_1_creationAt_-1',
      ordered: true,
      exact: true,
      counted: [],
    });
    expect(planned({ ...older, mediaItemType: 'video' }, newest, lists)).toMatchObject({
      index: 'userId_1_stillMediaItemId_1_deleted_1_hidden_1_mediaItemType_1_creationAt_-1',
      ordered: true,
      counted: [],
    });
  });

  test('a range seeks by one lower and one upper bound, the tightest of its bounds and type brackets', () => {
    // Given a loose bound beside a tight one, SQLite may seek by the loose one: every key of the type read.
    const where = (condition: unknown) => {
      const chosen = plan({ filter: { a: condition }, indexes: [index({ a: 1 })], alias: 'k', estimate: () => 0 });
      return chosen.kind === 'index' ? { where: chosen.where, params: chosen.params } : chosen.kind;
    };
    const [d1, d2] = [new Date(1000), new Date(2000)];
    expect(where({ $gte: d1, $lt: d2 })).toEqual({
      where: 'k.k0 >= ? AND k.k0 < ?',
      params: [encodeKey(d1), encodeKey(d2)],
    });
    expect(where({ $lt: 5 })).toEqual({ where: 'k.k0 >= ? AND k.k0 < ?', params: ['c', encodeKey(5)] });
    expect(where({ $gt: 'b', $lte: 'd' })).toEqual({ where: 'k.k0 > ? AND k.k0 <= ?', params: ['db', 'dd'] });
    expect(where({ $gt: 1, $gte: 1 })).toEqual({ where: 'k.k0 > ? AND k.k0 < ?', params: [encodeKey(1), 'd'] });
    // Bounds of two types: an empty range (no key is of both).
    expect(where({ $gt: 1, $lt: 'b' })).toEqual({ where: 'k.k0 >= ? AND k.k0 < ?', params: ['d', 'd'] });
  });

  test('a sparse index is never exact, and one without the condition on its first field is no candidate', () => {
    const sparse = [index({ a: 1 }, { sparse: true })];
    expect(planned({ a: 1 }, undefined, sparse)).toMatchObject({ index: 'a_1', exact: false });
    expect(planned({ b: 1 }, undefined, sparse)).toEqual({ kind: 'scan', counted: [] });
  });
});

test('explain tells how a query reads, and a cursor-like range page answers what a scan answers', async () => {
  // Keys of sub-documents have no order (see keys.ts): such an index is exact, but gives no order.
  expect(store.explain('indexed', { a: 1 }, { c: -1, _id: -1 })).toEqual({
    kind: 'index',
    index: 'a_1_c_-1',
    ordered: false,
    exact: true,
  });
  expect(store.explain('indexed', { _id: 'd001' })).toEqual({ kind: 'ids', ordered: false, exact: false });
  expect(store.explain('plain', { a: 1 })).toEqual({ kind: 'scan', ordered: false, exact: false });
  const ranged = store.collection<Doc>('ranged');
  const unindexed = store.collection<Doc>('ranged_plain');
  await ranged.ensureIndex({ fields: { u: 1, t: -1 } });
  const docs = Array.from({ length: 2000 }, (_, i) => ({
    _id: `r${String(i).padStart(4, '0')}`,
    u: i % 3 === 0 ? 'x' : 'y',
    t: new Date(Math.floor(i / 4) * 1000),
  }));
  await ranged.insertMany(docs);
  await unindexed.insertMany(docs);
  const range: Filter = { u: 'x', t: { $lt: new Date(300_000) } };
  const newest: SortSpec = { t: -1, _id: -1 };
  expect(store.explain('ranged', { u: 'x' }, newest)).toEqual({
    kind: 'index',
    index: 'u_1_t_-1',
    ordered: true,
    exact: true,
  });
  // Bounds of dates (or numbers) are exact: the key rows in range are the matches, both bounds on an index where
  // no document has several keys.
  expect(store.explain('ranged', range, newest)).toEqual({
    kind: 'index',
    index: 'u_1_t_-1',
    ordered: true,
    exact: true,
  });
  const month: Filter = { u: 'x', t: { $gte: new Date(100_000), $lt: new Date(200_000) } };
  expect(store.explain('ranged', month)).toEqual({ kind: 'index', index: 'u_1_t_-1', ordered: false, exact: true });
  expect(store.explain('ranged', { u: 'x', t: { $lt: 'b' } })).toMatchObject({ exact: false });
  expect(store.explain('ranged', { u: 'x', t: { $lt: new Date(5), $ne: new Date(1) } })).toMatchObject({
    exact: false,
  });
  for (const filter of [range, month, { u: 'y', t: { $gt: new Date(7000), $lte: new Date(8000) } }]) {
    for (const [skip, limit] of [
      [0, 1],
      [0, 3],
      [2, 100],
      [0, 500],
    ]) {
      const ids = async (collection: Collection<Doc>): Promise<string[]> =>
        (await collection.find(filter, { sort: newest, skip, limit })).map((d) => d._id);
      expect(await ids(ranged)).toEqual(await ids(unindexed));
    }
    expect(await ranged.count(filter)).toBe(await unindexed.count(filter));
  }
  // A document with several keys: then one bound narrows, the other is the matcher's.
  const arrays = { _id: 'r-array', u: 'x', t: [new Date(50_000), new Date(250_000)] };
  await ranged.insertOne(arrays);
  await unindexed.insertOne(arrays);
  expect(store.explain('ranged', month)).toMatchObject({ exact: false });
  expect(await ranged.count(month)).toBe(await unindexed.count(month));
  expect(await ranged.count(range)).toBe(await unindexed.count(range));
});

describe('counting from the key rows', () => {
  const inAny: Filter = { a: { $in: [1, 2] } };

  test('counts documents, whether one of them has several key rows (an array) or none has', async () => {
    const multi = store.collection<Doc>('multikey');
    await multi.ensureIndex({ fields: { a: 1 } });
    await multi.insertMany([
      { _id: 'm1', a: 1 },
      { _id: 'm2', a: 2 },
      { _id: 'm3', a: 1 },
    ]);
    expect(store.explain('multikey', inAny)).toMatchObject({ exact: true });
    expect(await multi.count(inAny)).toBe(3);
    await multi.updateOne({ _id: 'm2' }, { $set: { a: [1, 2] } });
    expect([await multi.count(inAny), await multi.count({ a: 1 })]).toEqual([3, 3]);
    await multi.updateOne({ _id: 'm2' }, { $set: { a: 2 } });
    expect([await multi.count(inAny), await multi.count({ a: 1 })]).toEqual([3, 2]);
    await multi.deleteOne({ _id: 'm1' });
    expect(await multi.count(inAny)).toBe(2);
  });

  test('a store of schema version 1 learns which documents have several key rows when it is opened', async () => {
    const file = join(dir.path, 'version-1.sqlite');
    const old = await openSqliteDocStore({ file });
    const docs = old.collection<Doc>('items');
    await docs.ensureIndex({ fields: { a: 1 } });
    await docs.insertMany([
      { _id: 'v1', a: [1, 2] },
      { _id: 'v2', a: 2 },
    ]);
    await old.close();
    // As version 1 left it: no `_multikey` rows.
    const raw = new Database(file);
    raw.exec('DELETE FROM _multikey');
    raw.pragma('user_version = 1');
    raw.close();
    const upgraded = await openSqliteDocStore({ file });
    try {
      expect(await upgraded.collection<Doc>('items').count(inAny)).toBe(2);
    } finally {
      await upgraded.close();
    }
  });
});
