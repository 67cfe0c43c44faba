import { update as mingoUpdate, type Modifier } from 'mingo/updater';
import type { Update } from './port';
import { applyUpdate } from './update';
import { normalizeUpdate, type StoredDoc } from './validate';
import type { PlainObject } from './values';

/** What mingo's general updater makes of the update (the path every update took before the direct one). */
function byMingo(doc: StoredDoc, update: Update): PlainObject {
  const next = structuredClone(doc) as PlainObject;
  mingoUpdate(next, update as Modifier<PlainObject>, undefined, undefined, { cloneMode: 'deep' });
  return next;
}

/** Only `$set` and `$inc` of top-level fields: the updates applied without mingo. */
const isTopLevel = (update: Update) =>
  Object.keys(update).every((op) => op === '$set' || op === '$inc') &&
  Object.values(update).every((fields: object) => Object.keys(fields).every((path) => !path.includes('.')));

const at = new Date('2026-11-27T10:00:00Z');
const docs: StoredDoc[] = [
  { _id: 'a', bytes: 100, favourite: false, tags: ['x'], meta: { w: 1 }, updatedAt: at },
  { _id: 'b' },
  { _id: 'c', bytes: -5.5, status: 'PROCESSING', nested: { deep: { n: 1 } } },
];
const updates: unknown[] = [
  { $inc: { bytes: 250 } },
  { $inc: { bytes: -1000 }, $set: { updatedAt: new Date('2026-11-28T00:00:00Z') } },
  { $set: { favourite: true } },
  { $set: { zeta: 1, alpha: 'first', meta: { w: 2, h: [1, { k: null }] } } },
  { $inc: { fresh: 3, bytes: 0.5 } },
  { $set: { status: 'READY', tags: [] } },
  // Not top-level, or other operators: mingo as before.
  { $set: { 'meta.w': 9 } },
  { $unset: { bytes: 1 }, $set: { favourite: true } },
  { $addToSet: { tags: 'y' } },
];

describe('applyUpdate', () => {
  it.each(docs.flatMap((doc) => updates.map((u) => [doc._id, doc, u] as const)))(
    "on %s: %j gives what mingo gives (new fields in MongoDB's order) and leaves its operands alone",
    (_id, doc, raw) => {
      const update = normalizeUpdate(raw);
      const operands = structuredClone(update);
      const before = structuredClone(doc);
      const { doc: next, modified } = applyUpdate(doc, update);
      const expected = byMingo(doc, update);
      expect(next).toEqual(expected);
      // Fields kept stay where they were; new ones follow in MongoDB's order (by name: mingo adds them
      // in the operands' order, MongoDB 5.0+ sorts them).
      const kept = Object.keys(doc).filter((key) => key in next);
      const added = Object.keys(next).filter((key) => !(key in doc));
      expect(Object.keys(next)).toEqual([...kept, ...(isTopLevel(update) ? [...added].sort() : added)]);
      expect(modified).toBe(JSON.stringify(next) !== JSON.stringify(before));
      // The input and the operands are not shared with the result.
      expect(doc).toEqual(before);
      expect(update).toEqual(operands);
      for (const [key, value] of Object.entries(next))
        if (typeof value === 'object' && value !== null && !(value instanceof Date))
          expect(value).not.toBe((update.$set ?? {})[key]);
    },
  );

  it('refuses $inc on a field that is not a number, as MongoDB does', () => {
    expect(() => applyUpdate({ _id: 'd', name: 'x' }, normalizeUpdate({ $inc: { name: 1 } }))).toThrow(/numeric/);
    expect(() => applyUpdate({ _id: 'd', n: null }, normalizeUpdate({ $inc: { n: 1 } }))).toThrow(/numeric/);
  });
});
