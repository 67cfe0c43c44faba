import { jsonBytes } from './json-bytes';

/** What express and the bus sent before: the reference these bytes must equal. */
const reference = (value: unknown) => {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? undefined : Buffer.from(text);
};

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe('jsonBytes', () => {
  const page = Array.from({ length: 100 }, (_, i) => ({
    id: `item-${i}`,
    filename: i % 7 ? `IMG_${i}.JPG` : 'Ünïcode — 東京 🏔️.heic',
    width: i * 10,
    favourite: i % 2 === 0,
    description: i % 3 ? null : undefined,
    takenAt: new Date(Date.UTC(2020, 0, 1 + i)),
    tags: ['a', undefined, () => 1, Symbol('s'), { nested: [1, undefined] }],
    callback: () => 0,
  }));

  it.each([
    ['a page of items (a bare array)', page],
    ['an answer holding a page', { items: page, nextCursor: 'abc', total: 100, missing: undefined }],
    ['a bus reply holding a page', { result: { items: page, nextAfter: { creationTime: 'x', id: 'y' } } }],
    ['arrays in arrays', [[page[0], [1, undefined]], [], [[[]]]]],
    ['an empty array and object', [[], {}, { a: [] }]],
    ['scalars', [0, -1.5, 'text', true, null, 'quote " backslash \\ newline \n control \u0001']],
    ['a bare string', 'é'],
    ['a bare number', 42],
    ['null', null],
    ['a Date (toJSON)', new Date(0)],
    ['an object with toJSON', { toJSON: () => ({ replaced: true }) }],
    ['an array with toJSON', Object.assign([1, 2], { toJSON: () => 'array replaced' })],
    ['a class instance (not split, stringified as JSON does)', [new Point(1, 2)]],
    ['an object without prototype', Object.assign(Object.create(null) as object, { b: 1, a: [2] })],
    ['a sparse array', [1, , 3]], // eslint-disable-line no-sparse-arrays
    ['keys that need escaping', { 'a"b': 1, 'line\nbreak': [true], '': 'empty key' }],
    ['deeper levels', { a: { b: { c: [{ d: undefined, e: 1 }] } } }],
    ['only members JSON leaves out', { f: () => 1, u: undefined }],
    ['non-finite numbers', [NaN, Infinity, { n: -Infinity }]],
  ])('writes the same bytes as JSON.stringify for %s', (_name, value) => {
    expect(jsonBytes(value)).toEqual(reference(value));
  });

  it('answers undefined where JSON.stringify does', () => {
    expect(jsonBytes(undefined)).toBeUndefined();
    expect(jsonBytes(() => 1)).toBeUndefined();
    expect(jsonBytes(Symbol('s'))).toBeUndefined();
  });

  it('throws where JSON.stringify throws (a BigInt, a cycle)', () => {
    expect(() => jsonBytes([1n])).toThrow(TypeError);
    const cycle: Record<string, unknown> = {};
    cycle.self = { again: cycle };
    expect(() => jsonBytes({ items: [cycle] })).toThrow(TypeError);
  });
});
