import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import mongoose from 'mongoose';
import type { StartedTestContainer } from 'testcontainers';
import { tempDir, type TempDir } from '../testing/temp';
import { openDocStore } from './index';
import { openMongoDocStore } from './mongo';
import { openNedbDocStore } from './nedb';
import { openSqliteDocStore } from './sqlite/store';
import {
  DuplicateKeyError,
  UnsupportedQueryError,
  type BaseDoc,
  type Collection,
  type DocStore,
  type Filter,
  type Update,
} from './port';

/**
 * One contract, run against every adapter: the port promises MongoDB semantics for its subset, so each
 * expectation below is what a real MongoDB answers. NeDB always runs; MongoDB runs against
 * TROVE_TEST_MONGODB_URL or a throwaway `mongo:7` container when a Docker engine is reachable.
 */

type Doc = BaseDoc & Record<string, unknown>;

/** Opens stores of one backend; opening the same `name` again (after a close) reopens the same data. */
interface StoreFactory {
  kind: DocStore['kind'];
  open(name: string): Promise<DocStore>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const sortedIds = (docs: readonly BaseDoc[]): string[] => docs.map((doc) => doc._id).sort();
const idsInOrder = (docs: readonly BaseDoc[]): string[] => docs.map((doc) => doc._id);
/** For updates outside the typed subset, which must be rejected at runtime. */
const rawUpdate = (value: unknown): Update => value as Update;

function docStoreContract(getFactory: () => StoreFactory): void {
  let store: DocStore;
  let seq = 0;

  beforeAll(async () => {
    store = await getFactory().open('main');
  });
  afterAll(async () => {
    await store?.close();
  });

  /** A collection no other test uses. */
  function fresh(): Collection<Doc> {
    seq += 1;
    return store.collection<Doc>(`c${seq}_${randomUUID().slice(0, 8)}`);
  }

  test('identifies its backend and answers ping', async () => {
    expect(store.kind).toBe(getFactory().kind);
    await expect(store.ping()).resolves.toBeUndefined();
  });

  test('refuses invalid collection names', () => {
    for (const name of ['', 'a/b', '_private', 'has space', 'system.users']) {
      expect(() => store.collection(name)).toThrow(UnsupportedQueryError);
    }
  });

  describe('filters', () => {
    const people: Doc[] = [
      {
        _id: 'p1',
        name: 'ann',
        age: 31,
        tags: ['red', 'blue'],
        address: { city: 'Oslo', zip: '0150' },
        scores: [3, 9],
        items: [
          { sku: 'a', qty: 1 },
          { sku: 'b', qty: 5 },
        ],
        joined: new Date('2020-01-01T00:00:00Z'),
        active: true,
        nick: null,
      },
      {
        _id: 'p2',
        name: 'bob',
        age: 25,
        tags: ['green'],
        address: { city: 'Bergen', zip: '5003' },
        scores: [7],
        items: [{ sku: 'c', qty: 2 }],
        joined: new Date('2021-06-15T00:00:00Z'),
        active: false,
      },
      {
        _id: 'p3',
        name: 'cid',
        age: 40,
        tags: [],
        address: { city: 'Oslo' },
        scores: [],
        items: [],
        joined: new Date('2019-03-10T00:00:00Z'),
        active: true,
        nick: 'cc',
      },
      // A string age: comparisons must not mix types (MongoDB's type bracketing).
      { _id: 'p4', name: 'dan', age: '40', tags: ['red'] },
    ];
    let c: Collection<Doc>;

    beforeAll(async () => {
      c = fresh();
      await c.insertMany(people);
    });

    const cases: Array<[string, Filter, string[]]> = [
      ['match-all', {}, ['p1', 'p2', 'p3', 'p4']],
      ['equality', { name: 'ann' }, ['p1']],
      ['equality is type-strict (number)', { age: 40 }, ['p3']],
      ['equality is type-strict (string)', { age: '40' }, ['p4']],
      ['equality on a boolean', { active: false }, ['p2']],
      ['equality on a Date', { joined: new Date('2019-03-10T00:00:00Z') }, ['p3']],
      ['equality without a match', { name: 'zed' }, []],
      ['several fields are ANDed', { active: true, 'address.city': 'Oslo' }, ['p1', 'p3']],
      ['dotted path into a sub-document', { 'address.city': 'Oslo' }, ['p1', 'p3']],
      ['dotted path, other value', { 'address.zip': '5003' }, ['p2']],
      ['dotted path through an array of sub-documents', { 'items.sku': 'b' }, ['p1']],
      ['dotted path through an array, numeric value', { 'items.qty': 2 }, ['p2']],
      ['dotted path with an array index', { 'tags.0': 'red' }, ['p1', 'p4']],
      ['array contains the value', { tags: 'red' }, ['p1', 'p4']],
      ['array equals the array exactly', { tags: ['red', 'blue'] }, ['p1']],
      ['array equality is order-sensitive', { tags: ['blue', 'red'] }, []],
      ['empty array equality', { tags: [] }, ['p3']],
      ['sub-document equality', { address: { city: 'Oslo' } }, ['p3']],
      ['sub-document equality is field-order sensitive', { address: { zip: '0150', city: 'Oslo' } }, []],
      ['null matches null and missing', { nick: null }, ['p1', 'p2', 'p4']],
      ['$eq', { age: { $eq: 25 } }, ['p2']],
      ['$eq on an array field', { tags: { $eq: 'green' } }, ['p2']],
      ['$eq null', { nick: { $eq: null } }, ['p1', 'p2', 'p4']],
      ['$ne', { name: { $ne: 'ann' } }, ['p2', 'p3', 'p4']],
      ['$ne on an array field excludes arrays holding the value', { tags: { $ne: 'red' } }, ['p2', 'p3']],
      ['$ne matches missing fields', { 'address.city': { $ne: 'Oslo' } }, ['p2', 'p4']],
      ['$ne null means present and not null', { nick: { $ne: null } }, ['p3']],
      ['$in', { name: { $in: ['ann', 'dan', 'zed'] } }, ['p1', 'p4']],
      ['$in on an array field', { tags: { $in: ['green', 'blue'] } }, ['p1', 'p2']],
      ['$in with Dates', { joined: { $in: [new Date('2021-06-15T00:00:00Z')] } }, ['p2']],
      ['$in with null matches missing', { nick: { $in: [null] } }, ['p1', 'p2', 'p4']],
      ['empty $in matches nothing', { name: { $in: [] } }, []],
      ['$nin', { name: { $nin: ['ann'] } }, ['p2', 'p3', 'p4']],
      ['$nin on an array field', { tags: { $nin: ['red', 'green'] } }, ['p3']],
      ['$nin with null', { nick: { $nin: [null] } }, ['p3']],
      ['empty $nin matches everything', { name: { $nin: [] } }, ['p1', 'p2', 'p3', 'p4']],
      ['$gt (numbers only)', { age: { $gt: 31 } }, ['p3']],
      ['$gte', { age: { $gte: 31 } }, ['p1', 'p3']],
      ['$lt', { age: { $lt: 31 } }, ['p2']],
      ['$lte', { age: { $lte: 31 } }, ['p1', 'p2']],
      ['$gt on strings compares strings only', { age: { $gt: '30' } }, ['p4']],
      ['string range', { name: { $gt: 'b', $lt: 'd' } }, ['p2', 'p3']],
      ['$gte on Dates', { joined: { $gte: new Date('2020-01-01T00:00:00Z') } }, ['p1', 'p2']],
      ['$lt on Dates', { joined: { $lt: new Date('2020-01-01T00:00:00Z') } }, ['p3']],
      ['$gt on booleans', { active: { $gt: false } }, ['p1', 'p3']],
      ['$gt on an array field: any element', { scores: { $gt: 8 } }, ['p1']],
      ['$lte on an array field: any element', { scores: { $lte: 3 } }, ['p1']],
      ['range on an array: each bound may hold for a different element', { scores: { $gt: 4, $lt: 8 } }, ['p1', 'p2']],
      ['range without a match', { age: { $gt: 100 } }, []],
      ['$exists true (null counts as present)', { nick: { $exists: true } }, ['p1', 'p3']],
      ['$exists false', { nick: { $exists: false } }, ['p2', 'p4']],
      ['$exists on a dotted path', { 'address.zip': { $exists: true } }, ['p1', 'p2']],
      ['$exists on an empty array', { tags: { $exists: true } }, ['p1', 'p2', 'p3', 'p4']],
      ['$exists false on a dotted path', { 'address.zip': { $exists: false } }, ['p3', 'p4']],
      ['$or', { $or: [{ age: { $lt: 30 } }, { tags: 'blue' }] }, ['p1', 'p2']],
      ['$or without a match', { $or: [{ name: 'zed' }, { age: 99 }] }, []],
      ['$and', { $and: [{ 'address.city': 'Oslo' }, { active: true }, { age: { $gte: 35 } }] }, ['p3']],
      ['$and that contradicts itself', { $and: [{ name: 'ann' }, { name: 'bob' }] }, []],
      ['nested $or / $and', { $or: [{ $and: [{ active: true }, { tags: 'red' }] }, { name: 'bob' }] }, ['p1', 'p2']],
      ['$or beside plain fields', { active: true, $or: [{ age: 31 }, { age: 40 }] }, ['p1', 'p3']],
    ];

    test.each(cases)('%s', async (_name, filter, expected) => {
      expect(sortedIds(await c.find(filter))).toEqual(expected);
      await expect(c.count(filter)).resolves.toBe(expected.length);
      const first = await c.findOne(filter);
      if (expected.length === 0) expect(first).toBeNull();
      else expect(expected).toContain(first?._id);
    });

    const unsupported: Array<[string, () => Promise<unknown>]> = [
      ['$where', () => c.find({ $where: 'this.age > 1' })],
      ['$regex', () => c.find({ name: { $regex: '^a' } })],
      ['a RegExp value', () => c.find({ name: /^a/ })],
      ['$not', () => c.find({ age: { $not: { $gt: 1 } } })],
      ['$nor', () => c.find({ $nor: [{ age: 1 }] })],
      ['$elemMatch', () => c.find({ items: { $elemMatch: { sku: 'a' } } })],
      ['$size', () => c.find({ tags: { $size: 1 } })],
      ['$all', () => c.find({ tags: { $all: ['red'] } })],
      ['$expr', () => c.find({ $expr: { $gt: ['$age', 1] } })],
      ['operators mixed with fields', () => c.find({ age: { $gt: 1, x: 2 } })],
      ['$in with a non-array', () => c.find({ age: { $in: 5 } })],
      ['$exists with a non-boolean', () => c.find({ age: { $exists: 1 } })],
      ['an undefined value', () => c.find({ age: undefined })],
      ['an empty $or', () => c.find({ $or: [] })],
      ['$where in count', () => c.count({ $where: 'true' })],
      ['$regex in findOne', () => c.findOne({ name: { $regex: 'a' } })],
      ['$regex in deleteMany', () => c.deleteMany({ name: { $regex: 'a' } })],
      ['$where in updateMany', () => c.updateMany({ $where: 'true' }, { $set: { x: 1 } })],
      ['$rename', () => c.updateOne({ _id: 'p1' }, rawUpdate({ $rename: { name: 'n' } }))],
      ['$push', () => c.updateMany({}, rawUpdate({ $push: { tags: 'x' } }))],
      ['$setOnInsert', () => c.updateOne({ _id: 'p1' }, rawUpdate({ $setOnInsert: { x: 1 } }), { upsert: true })],
      ['$min', () => c.findOneAndUpdate({ _id: 'p1' }, rawUpdate({ $min: { age: 1 } }))],
      ['a replacement document', () => c.updateOne({ _id: 'p1' }, rawUpdate({ name: 'x' }))],
      ['an empty update', () => c.updateOne({ _id: 'p1' }, {})],
      ['a positional update', () => c.updateOne({ _id: 'p1' }, { $set: { 'items.$.qty': 9 } })],
      [
        'conflicting update paths',
        () => c.updateOne({ _id: 'p1' }, { $set: { address: {} }, $unset: { 'address.city': '' } }),
      ],
      ['an update of _id', () => c.updateOne({ _id: 'p1' }, { $set: { _id: 'p9' } })],
      ['$pull with a condition', () => c.updateOne({ _id: 'p1' }, { $pull: { scores: { $gt: 5 } } })],
      ['$inc with a string', () => c.updateOne({ _id: 'p1' }, rawUpdate({ $inc: { age: '1' } }))],
      ['a sort direction other than ±1', () => c.find({}, { sort: { age: 2 as 1 } })],
      ['a negative limit', () => c.find({}, { limit: -1 })],
      ['an unknown find option', () => c.find({}, { projection: { a: 1 } } as never)],
      ['a document field name with a dot', () => c.insertOne({ _id: 'x1', 'a.b': 1 })],
      ['a document field name with $', () => c.insertOne({ _id: 'x2', $a: 1 })],
      ['a non-string _id', () => c.insertOne({ _id: 5 } as unknown as Doc)],
      ['an unstorable value', () => c.insertMany([{ _id: 'x3' }, { _id: 'x4', m: new Map() }])],
      ['a non-finite number', () => c.insertOne({ _id: 'x5', n: Number.NaN })],
      ['an index direction other than ±1', () => c.ensureIndex({ fields: { name: 'text' as unknown as 1 } })],
      ['an unknown index option', () => c.ensureIndex({ fields: { name: 1 }, expireAfterSeconds: 1 } as never)],
    ];

    test.each(unsupported)('rejects %s with UnsupportedQueryError', async (_name, run) => {
      await expect(run()).rejects.toBeInstanceOf(UnsupportedQueryError);
    });

    test('rejected operations wrote nothing', async () => {
      expect(await c.find({}, { sort: { _id: 1 } })).toEqual(people);
    });
  });

  describe('sort, skip, limit, count', () => {
    const rows: Doc[] = [
      { _id: 'r1', group: 'b', rank: 2, at: new Date(3000) },
      { _id: 'r2', group: 'a', rank: 2, at: new Date(1000) },
      { _id: 'r3', group: 'b', rank: 1, at: new Date(2000) },
      { _id: 'r4', group: 'a', rank: 3, at: new Date(5000) },
      { _id: 'r5', group: 'c', rank: 1, at: new Date(4000) },
      { _id: 'r6', group: 'a', rank: 1, at: new Date(6000) },
    ];
    let c: Collection<Doc>;

    beforeAll(async () => {
      c = fresh();
      await c.insertMany(rows);
    });

    test('sorts on several keys in key order', async () => {
      expect(idsInOrder(await c.find({}, { sort: { group: 1, rank: -1 } }))).toEqual([
        'r4',
        'r2',
        'r6',
        'r1',
        'r3',
        'r5',
      ]);
      expect(idsInOrder(await c.find({}, { sort: { rank: 1, group: -1 } }))).toEqual([
        'r5',
        'r3',
        'r6',
        'r1',
        'r2',
        'r4',
      ]);
    });

    test('sorts on Dates', async () => {
      expect(idsInOrder(await c.find({}, { sort: { at: -1 } }))).toEqual(['r6', 'r4', 'r5', 'r1', 'r3', 'r2']);
    });

    test('applies skip and limit after sorting and filtering', async () => {
      expect(idsInOrder(await c.find({}, { sort: { group: 1, rank: -1 }, skip: 2, limit: 3 }))).toEqual([
        'r6',
        'r1',
        'r3',
      ]);
      expect(
        idsInOrder(await c.find({ rank: { $lte: 2 } }, { sort: { rank: 1, group: -1 }, skip: 1, limit: 2 })),
      ).toEqual(['r3', 'r6']);
      expect(await c.find({}, { sort: { _id: 1 }, skip: 10 })).toEqual([]);
      expect(await c.find({}, { sort: { _id: 1 }, limit: 0 })).toHaveLength(6);
    });

    test('skip and limit without a sort', async () => {
      const all = await c.find({});
      expect(all).toHaveLength(6);
      expect(await c.find({}, { limit: 4 })).toHaveLength(4);
      expect(await c.find({}, { skip: 4 })).toHaveLength(2);
      expect(sortedIds([...(await c.find({}, { limit: 3 })), ...(await c.find({}, { skip: 3 }))])).toEqual(
        sortedIds(rows),
      );
    });

    test('findOne honours sort', async () => {
      expect((await c.findOne({ group: 'a' }, { sort: { rank: 1 } }))?._id).toBe('r6');
      expect((await c.findOne({}, { sort: { at: 1 } }))?._id).toBe('r2');
      expect((await c.findOne({}, { sort: { at: -1 } }))?._id).toBe('r6');
    });

    test('count', async () => {
      await expect(c.count({})).resolves.toBe(6);
      await expect(c.count({ group: 'a' })).resolves.toBe(3);
      await expect(c.count({ rank: { $gt: 5 } })).resolves.toBe(0);
    });

    test('missing and null sort first ascending, last descending', async () => {
      const m = fresh();
      await m.insertMany([{ _id: 'm1', v: 2 }, { _id: 'm2' }, { _id: 'm3', v: null }, { _id: 'm4', v: 1 }]);
      expect(idsInOrder(await m.find({}, { sort: { v: 1, _id: 1 } }))).toEqual(['m2', 'm3', 'm4', 'm1']);
      expect(idsInOrder(await m.find({}, { sort: { v: -1, _id: 1 } }))).toEqual(['m1', 'm4', 'm2', 'm3']);
    });
  });

  describe('update operators', () => {
    test('$set: top-level, dotted, creating sub-documents; modified counts only real changes', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'u1', a: 1, nested: { x: 1 } });
      await expect(c.updateOne({ _id: 'u1' }, { $set: { a: 2, 'nested.y': 2, 'deep.er': 'z' } })).resolves.toEqual({
        matched: 1,
        modified: 1,
      });
      expect(await c.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', a: 2, nested: { x: 1, y: 2 }, deep: { er: 'z' } });
      await expect(c.updateOne({ _id: 'u1' }, { $set: { a: 2 } })).resolves.toEqual({ matched: 1, modified: 0 });
      await expect(c.updateOne({ _id: 'nope' }, { $set: { a: 3 } })).resolves.toEqual({ matched: 0, modified: 0 });
      await expect(c.count({})).resolves.toBe(1);
    });

    test('$set replaces arrays and sub-documents whole, and stores Dates', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'u1', tags: ['a'], nested: { x: 1, y: 2 } });
      const at = new Date('2024-02-29T12:00:00Z');
      await c.updateOne({ _id: 'u1' }, { $set: { tags: ['b', 'c'], nested: { z: 3 }, at } });
      const doc = await c.findOne({ _id: 'u1' });
      expect(doc).toEqual({ _id: 'u1', tags: ['b', 'c'], nested: { z: 3 }, at });
      expect(doc?.at).toBeInstanceOf(Date);
    });

    test('$unset: top-level and dotted; a missing field is a no-op', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'u1', a: 1, b: 2, nested: { x: 1, y: 2 } });
      await expect(c.updateOne({ _id: 'u1' }, { $unset: { a: '', 'nested.x': 1 } })).resolves.toEqual({
        matched: 1,
        modified: 1,
      });
      expect(await c.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', b: 2, nested: { y: 2 } });
      await expect(c.updateOne({ _id: 'u1' }, { $unset: { a: true, 'no.such': '' } })).resolves.toEqual({
        matched: 1,
        modified: 0,
      });
    });

    test('$inc: positive, negative, fractional, creating missing (nested) fields', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'u1', n: 5 });
      await c.updateOne({ _id: 'u1' }, { $inc: { n: 3 } });
      await c.updateOne({ _id: 'u1' }, { $inc: { n: -10, 'counters.views': 1, half: 0.5 } });
      expect(await c.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', n: -2, counters: { views: 1 }, half: 0.5 });
    });

    test('$inc on a non-number is refused and changes nothing', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'u1', name: 'x', n: 1 });
      await expect(c.updateOne({ _id: 'u1' }, { $inc: { name: 1, n: 1 } })).rejects.toThrow();
      expect(await c.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', name: 'x', n: 1 });
    });

    test('$addToSet: single values, $each, no duplicates, creates missing arrays', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'u1', tags: ['a'] });
      await expect(c.updateOne({ _id: 'u1' }, { $addToSet: { tags: 'b' } })).resolves.toEqual({
        matched: 1,
        modified: 1,
      });
      await expect(c.updateOne({ _id: 'u1' }, { $addToSet: { tags: 'a' } })).resolves.toEqual({
        matched: 1,
        modified: 0,
      });
      await c.updateOne({ _id: 'u1' }, { $addToSet: { tags: { $each: ['b', 'c', 'd'] }, labels: 'x' } });
      expect(await c.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', tags: ['a', 'b', 'c', 'd'], labels: ['x'] });
      await c.updateOne({ _id: 'u1' }, { $addToSet: { refs: { $each: [{ k: 1 }, { k: 2 }] } } });
      await c.updateOne({ _id: 'u1' }, { $addToSet: { refs: { k: 1 } } });
      expect((await c.findOne({ _id: 'u1' }))?.refs).toEqual([{ k: 1 }, { k: 2 }]);
    });

    test('$pull: removes every occurrence; a missing field is a no-op', async () => {
      const c = fresh();
      const at = new Date(1000);
      await c.insertOne({ _id: 'u1', scores: [1, 2, 1, 3], dates: [at, new Date(2000)] });
      await expect(c.updateOne({ _id: 'u1' }, { $pull: { scores: 1, dates: new Date(1000) } })).resolves.toEqual({
        matched: 1,
        modified: 1,
      });
      expect(await c.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', scores: [2, 3], dates: [new Date(2000)] });
      await expect(c.updateOne({ _id: 'u1' }, { $pull: { scores: 9 } })).resolves.toEqual({ matched: 1, modified: 0 });
      await expect(c.updateOne({ _id: 'u1' }, { $pull: { nothing: 1 } })).resolves.toEqual({ matched: 1, modified: 0 });
    });

    test('several operators in one update', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'u1', n: 1, tags: ['a'], scores: [1, 2], gone: true });
      await c.updateOne(
        { _id: 'u1' },
        { $set: { s: 'x' }, $inc: { n: 1 }, $addToSet: { tags: 'z' }, $pull: { scores: 2 }, $unset: { gone: '' } },
      );
      expect(await c.findOne({ _id: 'u1' })).toEqual({ _id: 'u1', n: 2, tags: ['a', 'z'], scores: [1], s: 'x' });
    });

    test('updateOne touches one document, updateMany all matches', async () => {
      const c = fresh();
      await c.insertMany([
        { _id: 'a', kind: 'x', flag: false },
        { _id: 'b', kind: 'x', flag: true },
        { _id: 'c', kind: 'x', flag: false },
        { _id: 'd', kind: 'y', flag: false },
      ]);
      await expect(c.updateOne({ kind: 'x', flag: false }, { $set: { one: true } })).resolves.toEqual({
        matched: 1,
        modified: 1,
      });
      await expect(c.count({ one: true })).resolves.toBe(1);
      await expect(c.updateMany({ kind: 'x' }, { $set: { flag: true } })).resolves.toEqual({ matched: 3, modified: 2 });
      await expect(c.count({ flag: true })).resolves.toBe(3);
      await expect(c.updateMany({ kind: 'zzz' }, { $set: { flag: true } })).resolves.toEqual({
        matched: 0,
        modified: 0,
      });
    });
  });

  describe('upsert', () => {
    test('updateOne inserts from the filter equalities plus the update, then updates', async () => {
      const c = fresh();
      await expect(
        c.updateOne({ _id: 'up1', kind: 'k' }, { $set: { a: 1 }, $inc: { n: 2 } }, { upsert: true }),
      ).resolves.toEqual({
        matched: 0,
        modified: 0,
        upsertedId: 'up1',
      });
      expect(await c.findOne({ _id: 'up1' })).toEqual({ _id: 'up1', kind: 'k', a: 1, n: 2 });
      const again = await c.updateOne({ _id: 'up1', kind: 'k' }, { $set: { a: 1 }, $inc: { n: 2 } }, { upsert: true });
      expect(again).toEqual({ matched: 1, modified: 1 });
      expect(again.upsertedId).toBeUndefined();
      expect((await c.findOne({ _id: 'up1' }))?.n).toBe(4);
    });

    test('without _id in the filter a uuid is generated; non-equality conditions are not copied', async () => {
      const c = fresh();
      const result = await c.updateOne({ email: 'e@x', age: { $gt: 5 } }, { $set: { name: 'E' } }, { upsert: true });
      expect(result.upsertedId).toMatch(UUID);
      expect(await c.findOne({ email: 'e@x' })).toEqual({ _id: result.upsertedId, email: 'e@x', name: 'E' });
    });

    test('equalities are taken from $eq, $and and dotted paths', async () => {
      const c = fresh();
      const result = await c.updateOne(
        { $and: [{ a: 1 }, { b: { $eq: 'two' } }], 'meta.kind': 'x' },
        { $set: { c: true } },
        { upsert: true },
      );
      const doc = await c.findOne({ _id: result.upsertedId });
      expect(doc).toEqual({ _id: result.upsertedId, a: 1, b: 'two', meta: { kind: 'x' }, c: true });
    });

    test('a one-clause $or and an $in of one value count as equalities', async () => {
      const c = fresh();
      const result = await c.updateOne(
        { $or: [{ kind: 'solo' }], tag: { $in: ['t'] } },
        { $set: { x: 1 } },
        { upsert: true },
      );
      expect(await c.findOne({ _id: result.upsertedId })).toEqual({
        _id: result.upsertedId,
        kind: 'solo',
        tag: 't',
        x: 1,
      });
    });

    test('a filter that pins one path twice cannot seed an upsert', async () => {
      const c = fresh();
      await expect(
        c.updateOne({ $and: [{ a: 1 }, { a: 2 }] }, { $set: { b: 1 } }, { upsert: true }),
      ).rejects.toBeInstanceOf(UnsupportedQueryError);
      await expect(c.findOneAndUpdate({ a: 1, 'a.b': 2 }, { $set: { b: 1 } }, { upsert: true })).rejects.toBeInstanceOf(
        UnsupportedQueryError,
      );
      await expect(c.count({})).resolves.toBe(0);
    });

    test('findOneAndUpdate upserts: after returns the new document, before returns null', async () => {
      const c = fresh();
      await expect(c.findOneAndUpdate({ _id: 'f1' }, { $inc: { n: 1 } }, { upsert: true })).resolves.toEqual({
        _id: 'f1',
        n: 1,
      });
      await expect(
        c.findOneAndUpdate({ _id: 'f2' }, { $inc: { n: 1 } }, { upsert: true, returnDocument: 'before' }),
      ).resolves.toBeNull();
      expect(await c.findOne({ _id: 'f2' })).toEqual({ _id: 'f2', n: 1 });
    });
  });

  describe('findOneAndUpdate', () => {
    test('returns the document before or after the update (after by default)', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'f1', n: 1 });
      await expect(
        c.findOneAndUpdate({ _id: 'f1' }, { $inc: { n: 1 } }, { returnDocument: 'before' }),
      ).resolves.toEqual({ _id: 'f1', n: 1 });
      await expect(c.findOneAndUpdate({ _id: 'f1' }, { $inc: { n: 1 } }, { returnDocument: 'after' })).resolves.toEqual(
        { _id: 'f1', n: 3 },
      );
      await expect(c.findOneAndUpdate({ n: { $gt: 2 } }, { $set: { s: 'x' } })).resolves.toEqual({
        _id: 'f1',
        n: 3,
        s: 'x',
      });
      await expect(c.findOneAndUpdate({ _id: 'f1' }, { $set: { s: 'x' } })).resolves.toEqual({
        _id: 'f1',
        n: 3,
        s: 'x',
      });
    });

    test('returns null and inserts nothing when nothing matches', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'f1', n: 1 });
      await expect(c.findOneAndUpdate({ n: 2 }, { $inc: { n: 1 } })).resolves.toBeNull();
      await expect(c.count({})).resolves.toBe(1);
    });
  });

  describe('unique indexes', () => {
    test('single-field unique: inserts and updates that collide fail with DuplicateKeyError and write nothing', async () => {
      const c = fresh();
      await c.ensureIndex({ fields: { email: 1 }, unique: true });
      await c.insertOne({ _id: 'u1', email: 'a@x' });
      await c.insertOne({ _id: 'u3', email: 'b@x' });

      const insert = c.insertOne({ _id: 'u2', email: 'a@x' });
      await expect(insert).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(insert).rejects.toMatchObject({ collection: c.name });
      await expect(c.findOne({ _id: 'u2' })).resolves.toBeNull();

      await expect(c.updateOne({ _id: 'u3' }, { $set: { email: 'a@x', other: 1 } })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await expect(c.findOneAndUpdate({ _id: 'u3' }, { $set: { email: 'a@x' } })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      await expect(c.updateOne({ _id: 'u9' }, { $set: { email: 'a@x' } }, { upsert: true })).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
        { _id: 'u1', email: 'a@x' },
        { _id: 'u3', email: 'b@x' },
      ]);

      // Keys are released by updates and deletes.
      await c.updateOne({ _id: 'u1' }, { $set: { email: 'c@x' } });
      await c.insertOne({ _id: 'u4', email: 'a@x' });
      await c.deleteOne({ _id: 'u4' });
      await c.insertOne({ _id: 'u5', email: 'a@x' });
      await expect(c.count({})).resolves.toBe(3);
    });

    test('a non-sparse unique index keys a missing field as null', async () => {
      const c = fresh();
      await c.ensureIndex({ fields: { email: 1 }, unique: true });
      await c.insertOne({ _id: 'n1' });
      await expect(c.insertOne({ _id: 'n2' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(c.insertOne({ _id: 'n3', email: null })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(c.count({})).resolves.toBe(1);
    });

    test('compound unique: only the full combination must be unique', async () => {
      const c = fresh();
      await c.ensureIndex({ fields: { owner: 1, name: 1 }, unique: true });
      await c.insertMany([
        { _id: 'a', owner: 'o1', name: 'n1' },
        { _id: 'b', owner: 'o1', name: 'n2' },
        { _id: 'c', owner: 'o2', name: 'n1' },
      ]);
      await expect(c.insertOne({ _id: 'd', owner: 'o1', name: 'n1' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(c.updateOne({ _id: 'c' }, { $set: { owner: 'o1' } })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(c.updateOne({ _id: 'c' }, { $set: { name: 'n3' } })).resolves.toEqual({ matched: 1, modified: 1 });
      await expect(c.count({})).resolves.toBe(3);
    });

    test('sparse unique: documents without the field do not collide', async () => {
      const c = fresh();
      await c.ensureIndex({ fields: { handle: 1 }, unique: true, sparse: true });
      await c.insertMany([{ _id: 's1' }, { _id: 's2' }, { _id: 's3', handle: 'h' }]);
      await expect(c.insertOne({ _id: 's4', handle: 'h' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(c.updateOne({ _id: 's1' }, { $set: { handle: 'h' } })).rejects.toBeInstanceOf(DuplicateKeyError);
      await c.insertOne({ _id: 's5' });
      await expect(c.count({})).resolves.toBe(4);
    });

    test('unique on an array field: every element is a key', async () => {
      const c = fresh();
      await c.ensureIndex({ fields: { aliases: 1 }, unique: true });
      await c.insertOne({ _id: 'a1', aliases: ['x', 'y'] });
      await expect(c.insertOne({ _id: 'a2', aliases: ['z', 'y'] })).rejects.toBeInstanceOf(DuplicateKeyError);
      await c.insertOne({ _id: 'a3', aliases: ['z'] });
      await expect(c.count({})).resolves.toBe(2);
    });

    test('ensureIndex is idempotent and fails with DuplicateKeyError over duplicate data', async () => {
      const c = fresh();
      await c.ensureIndex({ fields: { k: 1 } });
      await c.ensureIndex({ fields: { k: 1 } });
      await c.insertMany([
        { _id: 'd1', k: 1 },
        { _id: 'd2', k: 1 },
      ]);
      await expect(c.ensureIndex({ fields: { v: 1 }, unique: true })).rejects.toBeInstanceOf(DuplicateKeyError); // both lack v
      await c.insertOne({ _id: 'd3' }); // no unique index on v was left behind
      await c.ensureIndex({ fields: { k: 1, _id: 1 }, unique: true });
      await c.ensureIndex({ fields: { k: 1, _id: 1 }, unique: true });
    });

    test('dropIndex removes an index, whatever its options, and is a no-op without one', async () => {
      const c = fresh();
      await c.dropIndex({ fields: { email: 1 } }); // none yet
      await c.ensureIndex({ fields: { email: 1 }, unique: true });
      await c.insertOne({ _id: 'u1', email: 'a@x' });
      await expect(c.insertOne({ _id: 'u2', email: 'a@x' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await c.dropIndex({ fields: { email: 1 } });
      await c.dropIndex({ fields: { email: 1 } });
      await c.insertOne({ _id: 'u2', email: 'a@x' }); // no longer unique
      expect(await c.find({ email: 'a@x' }, { sort: { _id: 1 } })).toEqual([
        { _id: 'u1', email: 'a@x' },
        { _id: 'u2', email: 'a@x' },
      ]);
      // The same fields can be declared again, with other options.
      await c.ensureIndex({ fields: { email: 1 } });
      await c.insertOne({ _id: 'u3', email: 'b@x' });
      expect(await c.count({ email: 'b@x' })).toBe(1);
    });

    test('a duplicate _id is a DuplicateKeyError', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'x', v: 1 });
      await expect(c.insertOne({ _id: 'x', v: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await c.find({})).toEqual([{ _id: 'x', v: 1 }]);
    });

    test('insertMany is all-or-nothing on a duplicate', async () => {
      const c = fresh();
      await c.ensureIndex({ fields: { email: 1 }, unique: true, sparse: true });
      await c.insertOne({ _id: 'e0', email: 'taken@x' });
      await expect(
        c.insertMany([
          { _id: 'e1', email: 'one@x' },
          { _id: 'e2', email: 'two@x' },
          { _id: 'e3', email: 'taken@x' },
          { _id: 'e4', email: 'four@x' },
        ]),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
      await expect(c.insertMany([{ _id: 'e5' }, { _id: 'e6' }, { _id: 'e5' }])).rejects.toBeInstanceOf(
        DuplicateKeyError,
      );
      expect(sortedIds(await c.find({}))).toEqual(['e0']);
    });
  });

  describe('inserts and deletes', () => {
    test('insertOne and insertMany return what was stored', async () => {
      const c = fresh();
      await expect(c.insertOne({ _id: 'i1', a: 1 })).resolves.toEqual({ _id: 'i1', a: 1 });
      await expect(c.insertMany([{ _id: 'i2' }, { _id: 'i3', b: [1] }])).resolves.toEqual([
        { _id: 'i2' },
        { _id: 'i3', b: [1] },
      ]);
      await expect(c.insertMany([])).resolves.toEqual([]);
      await expect(c.count({})).resolves.toBe(3);
    });

    test('deleteOne and deleteMany return how many documents went', async () => {
      const c = fresh();
      await c.insertMany([
        { _id: 'a1', kind: 'a' },
        { _id: 'a2', kind: 'a' },
        { _id: 'a3', kind: 'a' },
        { _id: 'b1', kind: 'b' },
        { _id: 'b2', kind: 'b' },
      ]);
      await expect(c.deleteOne({ kind: 'a' })).resolves.toBe(1);
      await expect(c.deleteOne({ kind: 'zzz' })).resolves.toBe(0);
      await expect(c.count({ kind: 'a' })).resolves.toBe(2);
      await expect(c.deleteMany({ kind: 'a' })).resolves.toBe(2);
      await expect(c.deleteMany({ kind: 'a' })).resolves.toBe(0);
      await expect(c.deleteMany({})).resolves.toBe(2);
      await expect(c.count({})).resolves.toBe(0);
    });
  });

  describe('values', () => {
    test('Dates round-trip as Date, also nested and in arrays', async () => {
      const c = fresh();
      const doc = {
        _id: 'd1',
        at: new Date('2023-05-06T07:08:09.123Z'),
        nested: { at: new Date(0) },
        list: [new Date(86_400_000)],
      };
      await c.insertOne(doc);
      const found = await c.findOne({ _id: 'd1' });
      expect(found).toEqual(doc);
      expect(found?.at).toBeInstanceOf(Date);
      expect((found?.nested as { at: unknown }).at).toBeInstanceOf(Date);
      expect((found?.list as unknown[])[0]).toBeInstanceOf(Date);
    });

    test('reads return plain objects with exactly the stored fields', async () => {
      const c = fresh();
      const doc = {
        _id: 'v1',
        s: 'x',
        n: 1.5,
        b: false,
        z: null,
        arr: [1, 'a', { k: [] }],
        obj: { deep: { er: true } },
      };
      await c.insertOne(doc);
      const [found] = await c.find({ _id: 'v1' });
      expect(Object.getPrototypeOf(found)).toBe(Object.prototype);
      expect(Object.keys(found)).toEqual(Object.keys(doc));
      expect(found).toStrictEqual(doc);
    });

    test('results and inputs are copies: mutating them never changes the store', async () => {
      const c = fresh();
      const input = { _id: 'v1', at: new Date(1000), nested: { x: 1 } };
      const returned = await c.insertOne(input);
      input.nested.x = 2;
      input.at.setTime(2000);
      returned.nested = 'changed';
      const found = await c.findOne({ _id: 'v1' });
      expect(found).toEqual({ _id: 'v1', at: new Date(1000), nested: { x: 1 } });
      (found?.at as Date).setTime(3000);
      (found?.nested as { x: number }).x = 3;
      expect(await c.findOne({ _id: 'v1' })).toEqual({ _id: 'v1', at: new Date(1000), nested: { x: 1 } });
    });

    test('_id comes first, whatever order the caller used', async () => {
      const c = fresh();
      await c.insertOne({ a: 1, _id: 'k1', b: 2 });
      expect(Object.keys((await c.findOne({ _id: 'k1' })) ?? {})).toEqual(['_id', 'a', 'b']);
    });

    test('undefined properties are omitted, as JSON would', async () => {
      const c = fresh();
      await expect(c.insertOne({ _id: 'v1', a: 1, b: undefined })).resolves.toStrictEqual({ _id: 'v1', a: 1 });
      await c.updateOne({ _id: 'v1' }, { $set: { c: undefined, d: 2 } });
      const found = await c.findOne({ _id: 'v1' });
      expect(found).toStrictEqual({ _id: 'v1', a: 1, d: 2 });
    });
  });

  describe('atomicity', () => {
    test('concurrent findOneAndUpdate claims never hand out the same slot twice', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'slots', taken: 0 });
      const claims = await Promise.all(
        Array.from({ length: 20 }, () =>
          c.findOneAndUpdate({ _id: 'slots', taken: { $lt: 10 } }, { $inc: { taken: 1 } }),
        ),
      );
      const won = claims.filter((claim): claim is Doc => claim !== null).map((claim) => claim.taken as number);
      expect(won.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect((await c.findOne({ _id: 'slots' }))?.taken).toBe(10);
    });

    test('concurrent workers claim each queued job exactly once', async () => {
      const c = fresh();
      await c.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: `job${i}`, status: 'queued' })));
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, worker) =>
          c.findOneAndUpdate(
            { status: 'queued' },
            { $set: { status: 'running', worker: `w${worker}` } },
            { returnDocument: 'before' },
          ),
        ),
      );
      const won = claims.filter((claim): claim is Doc => claim !== null);
      expect(won).toHaveLength(5);
      expect(won.every((claim) => claim.status === 'queued')).toBe(true);
      expect(new Set(won.map((claim) => claim._id)).size).toBe(5);
      await expect(c.count({ status: 'running' })).resolves.toBe(5);
    });

    test('concurrent inserts of one unique key: exactly one wins', async () => {
      const c = fresh();
      await c.ensureIndex({ fields: { email: 1 }, unique: true });
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => c.insertOne({ _id: `u${i}`, email: 'same@x' })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(failures).toHaveLength(9);
      expect(failures.every((o) => o.reason instanceof DuplicateKeyError)).toBe(true);
      await expect(c.count({})).resolves.toBe(1);
    });

    test('concurrent $inc and concurrent upserts add up', async () => {
      const c = fresh();
      await c.insertOne({ _id: 'n', n: 0 });
      await Promise.all(Array.from({ length: 50 }, () => c.updateOne({ _id: 'n' }, { $inc: { n: 1 } })));
      expect((await c.findOne({ _id: 'n' }))?.n).toBe(50);
      await Promise.all(
        Array.from({ length: 10 }, () => c.updateOne({ _id: 'u' }, { $inc: { n: 1 } }, { upsert: true })),
      );
      expect(await c.findOne({ _id: 'u' })).toEqual({ _id: 'u', n: 10 });
    });
  });

  test('data and unique indexes survive closing and reopening the store', async () => {
    const factory = getFactory();
    const first = await factory.open('persist');
    const things = first.collection<Doc>('things');
    await things.ensureIndex({ fields: { code: 1 }, unique: true });
    await things.insertMany([
      { _id: 't1', code: 'a', at: new Date('2022-01-01T00:00:00Z') },
      { _id: 't2', code: 'b', tags: ['x'] },
      { _id: 't3', code: 'c' },
    ]);
    await things.updateOne({ _id: 't2' }, { $addToSet: { tags: 'y' }, $inc: { n: 1 } });
    await things.deleteOne({ _id: 't3' });
    await first.close();

    const second = await factory.open('persist');
    try {
      const again = second.collection<Doc>('things');
      const docs = await again.find({}, { sort: { _id: 1 } });
      expect(docs).toEqual([
        { _id: 't1', code: 'a', at: new Date('2022-01-01T00:00:00Z') },
        { _id: 't2', code: 'b', tags: ['x', 'y'], n: 1 },
      ]);
      expect(docs[0].at).toBeInstanceOf(Date);
      await expect(again.insertOne({ _id: 't4', code: 'a' })).rejects.toBeInstanceOf(DuplicateKeyError);
      await again.insertOne({ _id: 't5', code: 'c' });
    } finally {
      await second.close();
    }
  });

  test('a dropped index stays dropped after reopening the store', async () => {
    const factory = getFactory();
    const first = await factory.open('dropped');
    const things = first.collection<Doc>('things');
    await things.ensureIndex({ fields: { code: 1 }, unique: true });
    await things.ensureIndex({ fields: { name: 1 }, unique: true });
    await things.insertOne({ _id: 't1', code: 'a', name: 'n' });
    await things.dropIndex({ fields: { code: 1 } });
    await first.close();

    const second = await factory.open('dropped');
    try {
      const again = second.collection<Doc>('things');
      await again.insertOne({ _id: 't2', code: 'a', name: 'm' });
      await expect(again.insertOne({ _id: 't3', code: 'b', name: 'n' })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await again.count({ code: 'a' })).toBe(2);
    } finally {
      await second.close();
    }
  });
}

// ---------------------------------------------------------------------------------------------------------------
// NeDB: always.

describe('docstore contract: NeDB', () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await tempDir('trove-docstore-');
  });

  docStoreContract(() => ({ kind: 'nedb', open: (name) => openNedbDocStore({ dir: join(dir.path, name) }) }));

  describe('embedded specifics', () => {
    test('one datafile per collection, holding the caller _id', async () => {
      const store = await openNedbDocStore({ dir: join(dir.path, 'files') });
      try {
        await store.collection<Doc>('photos').insertOne({ _id: 'photo-1', title: 't' });
        const lines = (await readFile(join(dir.path, 'files', 'photos.db'), 'utf8')).trim().split('\n');
        expect(lines.map((line) => JSON.parse(line) as unknown)).toContainEqual({ _id: 'photo-1', title: 't' });
      } finally {
        await store.close();
      }
    });

    test('a directory has one owner per process, and a closed store refuses work', async () => {
      const path = join(dir.path, 'owner');
      const store = await openNedbDocStore({ dir: path });
      await expect(openNedbDocStore({ dir: path })).rejects.toThrow(/already open/);
      const photos = store.collection<Doc>('photos');
      await store.close();
      await expect(photos.find({})).rejects.toThrow(/closed/);
      expect(() => store.collection('photos')).toThrow(/closed/);
      await (await openNedbDocStore({ dir: path })).close();
    });

    test('openDocStore picks NeDB under <dataDir>/docstore/<service> when asked, without a MongoDB URL', async () => {
      const store = await openDocStore({ service: 'library', dataDir: join(dir.path, 'service'), embedded: 'nedb' });
      try {
        expect(store.kind).toBe('nedb');
        await store.collection<Doc>('albums').insertOne({ _id: 'a1' });
        await expect(
          readFile(join(dir.path, 'service', 'docstore', 'library', 'albums.db'), 'utf8'),
        ).resolves.toContain('"a1"');
      } finally {
        await store.close();
      }
    });
  });

  afterAll(async () => {
    await dir?.remove();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// SQLite: always.

describe('docstore contract: SQLite', () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await tempDir('trove-docstore-sqlite-');
  });

  docStoreContract(() => ({
    kind: 'sqlite',
    open: (name) => openSqliteDocStore({ file: join(dir.path, `${name}.sqlite`) }),
  }));

  describe('embedded specifics', () => {
    test('a file has one owner per process, and a closed store refuses work', async () => {
      const file = join(dir.path, 'owner.sqlite');
      const store = await openSqliteDocStore({ file });
      await expect(openSqliteDocStore({ file })).rejects.toThrow(/already open/);
      const photos = store.collection<Doc>('photos');
      await store.close();
      await expect(photos.find({})).rejects.toThrow(/closed/);
      expect(() => store.collection('photos')).toThrow(/closed/);
      await (await openSqliteDocStore({ file })).close();
    });

    test('openDocStore picks SQLite at <dataDir>/docstore/<service>.sqlite by default, without a MongoDB URL', async () => {
      const store = await openDocStore({ service: 'library', dataDir: join(dir.path, 'service') });
      try {
        expect(store.kind).toBe('sqlite');
        await store.collection<Doc>('albums').insertOne({ _id: 'a1' });
        await expect(stat(join(dir.path, 'service', 'docstore', 'library.sqlite'))).resolves.toBeTruthy();
      } finally {
        await store.close();
      }
    });
  });

  afterAll(async () => {
    await dir?.remove();
  });
});

// ---------------------------------------------------------------------------------------------------------------
// MongoDB: against TROVE_TEST_MONGODB_URL, else a mongo:7 container when a Docker engine answers, else skipped.

const MONGO_URL_VAR = 'TROVE_TEST_MONGODB_URL';

type MongoPlan = { source: 'url'; url: string } | { source: 'docker' } | { source: 'none'; why: string };

/**
 * Jest collects tests synchronously, so the Docker check runs in a child process with a hard timeout: it can
 * neither hang the run nor break this file if testcontainers fails to load (v12 needs Node 22+).
 */
function planMongoRun(): MongoPlan {
  const url = process.env[MONGO_URL_VAR];
  if (url) return { source: 'url', url };
  let entry: string;
  try {
    entry = require.resolve('testcontainers');
  } catch {
    return { source: 'none', why: 'testcontainers is not installed' };
  }
  const probe = [
    'let tc;',
    "try { tc = require(process.argv[1]); } catch (e) { console.error('cannot load it on Node ' + process.version + ': ' + e.message); process.exit(1); }",
    "tc.getContainerRuntimeClient().then(() => process.exit(0), (e) => { console.error('no container runtime: ' + e.message); process.exit(1); });",
  ].join('\n');
  const result = spawnSync(process.execPath, ['-e', probe, entry], { encoding: 'utf8', timeout: 15_000 });
  if (result.status === 0) return { source: 'docker' };
  const detail = result.error
    ? `probe failed: ${result.error.message}`
    : result.stderr.trim().split('\n')[0] || `probe exited with ${result.status}`;
  return { source: 'none', why: detail.slice(0, 200) };
}

const mongoPlan = planMongoRun();

if (mongoPlan.source === 'none') {
  process.stderr.write(
    `docstore contract: MongoDB run skipped — no ${MONGO_URL_VAR} and no Docker engine reachable (testcontainers: ${mongoPlan.why})\n`,
  );
}

(mongoPlan.source === 'none' ? describe.skip : describe)('docstore contract: MongoDB', () => {
  let url = mongoPlan.source === 'url' ? mongoPlan.url : '';
  let container: StartedTestContainer | undefined;
  // Databases unique to this run, so parallel or repeated runs never see each other's data.
  const prefix = `trove_test_${randomUUID().slice(0, 8)}`;
  const databases = new Set<string>();

  beforeAll(async () => {
    if (mongoPlan.source !== 'docker') return;
    const { GenericContainer, Wait } = await import('testcontainers');
    container = await new GenericContainer('mongo:7')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .start();
    url = `mongodb://${container.getHost()}:${container.getMappedPort(27017)}`;
  }, 180_000);

  docStoreContract(() => ({
    kind: 'mongodb',
    open: (name) => {
      const dbName = `${prefix}_${name}`;
      databases.add(dbName);
      return openMongoDocStore({ url, dbName, serverSelectionTimeoutMS: 10_000 });
    },
  }));

  test('openDocStore picks MongoDB when a URL is given', async () => {
    const store = await openDocStore({ service: `contract${Date.now()}`, mongodbUrl: url, dataDir: '/nonexistent' });
    try {
      expect(store.kind).toBe('mongodb');
      await store.ping();
    } finally {
      await store.close();
    }
  });

  afterAll(async () => {
    if (container) {
      await container.stop();
      return;
    }
    if (!url) return;
    // A shared server: drop what this run created.
    const connection = await mongoose.createConnection(url).asPromise();
    try {
      for (const name of databases) await connection.getClient().db(name).dropDatabase();
    } finally {
      await connection.close();
    }
  }, 60_000);
});
