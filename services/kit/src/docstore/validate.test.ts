import { mongoDbName } from './index';
import { UnsupportedQueryError } from './port';
import {
  assertCollectionName,
  assertFilter,
  assertFindOptions,
  assertIndexSpec,
  indexName,
  normalizeUpdate,
  toStoredDocument,
  writeOptions,
} from './validate';

const rejects = (run: () => unknown): void => {
  expect(run).toThrow(UnsupportedQueryError);
};

describe('assertFilter', () => {
  test.each([
    ['empty filter', {}],
    ['equality and dotted paths', { a: 1, 'b.c': 'x', 'd.0': true, e: null, f: new Date(0) }],
    ['array and object literals', { tags: ['a', 'b'], address: { city: 'Oslo' } }],
    [
      'every comparison operator',
      { n: { $eq: 1, $ne: 2, $in: [1, 3], $nin: [4], $gt: 0, $gte: 0, $lt: 9, $lte: 9, $exists: true } },
    ],
    [
      'range on strings, dates, booleans, null',
      { s: { $gt: 'a' }, d: { $lt: new Date() }, b: { $gte: false }, z: { $lte: null } },
    ],
    ['nested logic', { $and: [{ a: 1 }, { $or: [{ b: 2 }, { c: { $in: [3] } }] }] }],
  ])('accepts %s', (_name, filter) => {
    expect(() => assertFilter(filter)).not.toThrow();
  });

  test.each([
    ['a non-object', 'a = 1'],
    ['an array', [{ a: 1 }]],
    ['$where', { $where: 'this.a == 1' }],
    ['$nor', { $nor: [{ a: 1 }] }],
    ['$expr', { $expr: { $eq: ['$a', 1] } }],
    ['$text', { $text: { $search: 'x' } }],
    ['$regex', { a: { $regex: '^x' } }],
    ['a RegExp literal', { a: /^x/ }],
    ['a RegExp inside $in', { a: { $in: [/^x/] } }],
    ['$not', { a: { $not: { $gt: 1 } } }],
    ['$elemMatch', { a: { $elemMatch: { b: 1 } } }],
    ['$size', { a: { $size: 2 } }],
    ['$all', { a: { $all: [1, 2] } }],
    ['$type', { a: { $type: 'string' } }],
    ['operators mixed with fields', { a: { $gt: 1, b: 2 } }],
    ['fields mixed with operators', { a: { b: 2, $gt: 1 } }],
    ['$in with a non-array', { a: { $in: 1 } }],
    ['$nin with a non-array', { a: { $nin: 'x' } }],
    ['$exists with a number', { a: { $exists: 1 } }],
    ['$gt with an object', { a: { $gt: { b: 1 } } }],
    ['$lt with an array', { a: { $lt: [1] } }],
    ['an undefined value', { a: undefined }],
    ['an undefined $eq', { a: { $eq: undefined } }],
    ['an empty $and', { $and: [] }],
    ['$or that is not an array', { $or: { a: 1 } }],
    ['a bad clause deep inside $and/$or', { $and: [{ $or: [{ a: 1 }, { b: { $regex: 'x' } }] }] }],
    ['an empty path component', { 'a..b': 1 }],
    ['a positional path', { 'a.$': 1 }],
    ['a literal with $-keys', { a: { b: { $gt: 1 } } }],
    ['a literal with dotted keys', { a: { 'b.c': 1 } }],
    ['a function value', { a: () => 1 }],
    ['a Map value', { a: new Map() }],
    ['a bigint value', { a: BigInt(1) }],
  ])('rejects %s', (_name, filter) => {
    rejects(() => assertFilter(filter));
  });
});

describe('normalizeUpdate', () => {
  test('keeps supported operators and drops undefined fields', () => {
    const at = new Date(5);
    const update = normalizeUpdate({
      $set: { a: 1, 'b.c': { d: at, skip: undefined }, gone: undefined },
      $unset: { e: 1 },
      $inc: { n: -2.5 },
      $addToSet: { tags: 'x', more: { $each: ['y', undefined] } },
      $pull: { list: null },
    });
    expect(update).toEqual({
      $set: { a: 1, 'b.c': { d: at } },
      $unset: { e: '' },
      $inc: { n: -2.5 },
      $addToSet: { tags: 'x', more: { $each: ['y', null] } },
      $pull: { list: null },
    });
    // Operands are copied: the caller's Date is not shared with the store.
    expect((update.$set?.['b.c'] as { d: Date }).d).not.toBe(at);
  });

  test('accepts empty operator objects (a no-op, as in MongoDB 5+)', () => {
    expect(normalizeUpdate({ $set: {} })).toEqual({ $set: {} });
  });

  test.each([
    ['a non-object', 'x'],
    ['no operator', {}],
    ['a replacement document', { a: 1 }],
    ['operators mixed with fields', { $set: { a: 1 }, b: 2 }],
    ['$rename', { $rename: { a: 'b' } }],
    ['$push', { $push: { a: 1 } }],
    ['$setOnInsert', { $setOnInsert: { a: 1 } }],
    ['$min', { $min: { a: 1 } }],
    ['$pop', { $pop: { a: 1 } }],
    ['$currentDate', { $currentDate: { a: true } }],
    ['an operator with a non-object operand', { $set: 5 }],
    ['$inc with a string', { $inc: { a: '1' } }],
    ['$inc with NaN', { $inc: { a: Number.NaN } }],
    ['$addToSet with $each and $position', { $addToSet: { a: { $each: [1], $position: 0 } } }],
    ['$addToSet with a non-array $each', { $addToSet: { a: { $each: 1 } } }],
    ['$pull with a condition', { $pull: { a: { $gt: 1 } } }],
    ['$pull with a sub-document', { $pull: { a: { b: 1 } } }],
    ['$pull with an array', { $pull: { a: [1] } }],
    ['a positional path', { $set: { 'a.$.b': 1 } }],
    ['an all-positional path', { $set: { 'a.$[].b': 1 } }],
    ['an empty path component', { $set: { 'a..b': 1 } }],
    ['a change of _id', { $set: { _id: 'x' } }],
    ['a change inside _id', { $set: { '_id.x': 1 } }],
    ['the same path twice', { $set: { a: 1 }, $inc: { a: 1 } }],
    ['a path and its parent', { $set: { a: { b: 1 } }, $unset: { 'a.b': '' } }],
    ['a path and its child in one operator', { $set: { 'a.b': 1, 'a.b.c': 2 } }],
    ['an unstorable $set value', { $set: { a: new Map() } }],
    ['a $set value with a dotted key', { $set: { a: { 'b.c': 1 } } }],
    ['a non-finite $set value', { $set: { a: Infinity } }],
  ])('rejects %s', (_name, update) => {
    rejects(() => normalizeUpdate(update));
  });

  test('similar but distinct paths do not conflict', () => {
    expect(() => normalizeUpdate({ $set: { a: 1, ab: 2, 'a-b': 3 }, $inc: { 'ac.d': 1 } })).not.toThrow();
  });
});

describe('toStoredDocument', () => {
  test('copies the document, drops undefined properties, nulls undefined array slots', () => {
    const at = new Date(7);
    const input = { _id: 'x', a: undefined, b: [1, undefined, { c: at, d: undefined }], e: { f: null } };
    const stored = toStoredDocument(input);
    expect(stored).toEqual({ _id: 'x', b: [1, null, { c: at }], e: { f: null } });
    expect(Object.keys(stored)).toEqual(['_id', 'b', 'e']);
    expect((stored.b as Array<{ c: Date }>)[2].c).not.toBe(at);
  });

  test('puts _id first, as MongoDB stores it', () => {
    expect(Object.keys(toStoredDocument({ a: 1, _id: 'x', b: 2 }))).toEqual(['_id', 'a', 'b']);
  });

  test.each([
    ['a non-object', 5],
    ['a missing _id', { a: 1 }],
    ['a numeric _id', { _id: 1 }],
    ['an empty _id', { _id: '' }],
    ['a dotted field name', { _id: 'x', 'a.b': 1 }],
    ['a $-prefixed field name', { _id: 'x', $a: 1 }],
    ['a nested $-prefixed field name', { _id: 'x', a: [{ $b: 1 }] }],
    ['an empty field name', { _id: 'x', '': 1 }],
    ['a __proto__ field', JSON.parse('{"_id":"x","__proto__":{"a":1}}') as unknown],
    ['NaN', { _id: 'x', n: Number.NaN }],
    ['Infinity', { _id: 'x', n: -Infinity }],
    ['an invalid Date', { _id: 'x', d: new Date('nope') }],
    ['a RegExp', { _id: 'x', r: /x/ }],
    ['a Buffer', { _id: 'x', b: Buffer.from('x') }],
    [
      'a class instance',
      {
        _id: 'x',
        v: new (class Point {
          x = 1;
        })(),
      },
    ],
    ['a function', { _id: 'x', f: () => 1 }],
    ['a symbol', { _id: 'x', s: Symbol('s') }],
  ])('rejects %s', (_name, doc) => {
    rejects(() => toStoredDocument(doc));
  });

  test('rejects cyclic documents instead of recursing forever', () => {
    const doc: Record<string, unknown> = { _id: 'x' };
    doc.self = doc;
    rejects(() => toStoredDocument(doc));
  });
});

describe('options, index specs and names', () => {
  test('find options', () => {
    expect(() => assertFindOptions(undefined)).not.toThrow();
    expect(() => assertFindOptions({ sort: { a: 1, 'b.c': -1 }, skip: 0, limit: 10 })).not.toThrow();
    rejects(() => assertFindOptions({ sort: { a: 2 } }));
    rejects(() => assertFindOptions({ sort: { a: 'asc' } }));
    rejects(() => assertFindOptions({ skip: -1 }));
    rejects(() => assertFindOptions({ limit: 1.5 }));
    rejects(() => assertFindOptions({ projection: { a: 1 } }));
  });

  test('write options', () => {
    expect(writeOptions(undefined)).toEqual({ upsert: false, returnDocument: 'after' });
    expect(writeOptions({ upsert: true, returnDocument: 'before' })).toEqual({
      upsert: true,
      returnDocument: 'before',
    });
    rejects(() => writeOptions({ upsert: 'yes' }));
    rejects(() => writeOptions({ returnDocument: 'new' }));
    rejects(() => writeOptions({ arrayFilters: [] }));
  });

  test('index specs and their MongoDB-style names', () => {
    expect(() => assertIndexSpec({ fields: { a: 1, 'b.c': -1 }, unique: true, sparse: false })).not.toThrow();
    expect(indexName({ fields: { a: 1, 'b.c': -1 } })).toBe('a_1_b.c_-1');
    rejects(() => assertIndexSpec({ fields: {} }));
    rejects(() => assertIndexSpec({ fields: { a: 'text' } }));
    rejects(() => assertIndexSpec({ fields: { a: 1 }, unique: 'yes' }));
    rejects(() => assertIndexSpec({ fields: { a: 1 }, expireAfterSeconds: 60 }));
    rejects(() => assertIndexSpec({ fields: { $a: 1 } }));
  });

  test('collection names', () => {
    for (const name of ['photos', 'Albums2', 'media.items', 'a_b-c'])
      expect(() => assertCollectionName(name)).not.toThrow();
    for (const name of ['', '_indexes', '.hidden', 'a/b', 'a$b', 'system.users', 'x'.repeat(101), 42]) {
      rejects(() => assertCollectionName(name));
    }
  });
});

describe('mongoDbName', () => {
  it('gives each service its own database', () => {
    expect(mongoDbName('mongodb://db:27017', 'auth')).toBe('trove_auth');
    expect(mongoDbName('mongodb://u:p@db:27017/photos?authSource=admin', 'media')).toBe('photos_media');
  });
});
