import { seededRandom } from '../testing/random';
import { sortDocuments, sortedPage } from './sort';

describe('sortedPage', () => {
  // Values that exercise BSON order across types, ties, arrays, nesting and missing fields.
  const random = seededRandom(7); // deterministic, so that a failure can be replayed
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const values = [null, 0, 1, 2, -1, 'a', 'b', 'B', [], [1, 3], [2], true, false, new Date(0), new Date(1000)];
  const docs = Array.from({ length: 2000 }, (_, i) => {
    const doc: Record<string, unknown> = { _id: `d${i}`, n: i };
    if (random() < 0.9) doc.a = pick(values);
    if (random() < 0.8) doc.b = { c: pick(values) };
    doc.t = Math.floor(random() * 5);
    return doc;
  });

  test.each([
    [{ a: 1 }, 0, 10],
    [{ a: -1 }, 0, 10],
    [{ t: -1, a: 1 }, 30, 20],
    [{ 'b.c': 1, t: -1 }, 100, 50],
    [{ t: 1 }, 0, 1],
    [{ t: 1 }, 490, 10],
    [{ a: 1 }, 0, 0],
    [{ a: -1, 'b.c': -1 }, 600, 0],
  ] as const)('sort %j, skip %i, limit %i: the same page as sorting everything', (sort, skip, limit) => {
    const expected = sortDocuments(docs, sort).slice(skip, limit > 0 ? skip + limit : undefined);
    const page = sortedPage(docs, sort, skip, limit);
    expect(page.map((d) => d._id)).toEqual(expected.map((d) => d._id));
    expect(page.length).toBe(limit > 0 ? limit : docs.length - skip);
  });
});
