import { collectLeaves } from './paths';
import type { SortSpec } from './port';
import { compareValues, EMPTY_ARRAY_KEY } from './values';

/**
 * MongoDB's sort for the embedded adapter: BSON order across types, missing sorts as null, and an array
 * field sorts by its smallest element ascending / largest descending (an empty array below null).
 */

function sortKey(doc: unknown, parts: readonly string[], direction: 1 | -1): unknown {
  let best: unknown = undefined;
  let found = false;
  for (const leaf of collectLeaves(doc, parts)) {
    const candidates: unknown[] = Array.isArray(leaf) ? (leaf.length > 0 ? leaf : [EMPTY_ARRAY_KEY]) : [leaf];
    for (const candidate of candidates) {
      if (!found || compareValues(candidate, best) * direction < 0) {
        best = candidate;
        found = true;
      }
    }
  }
  return best;
}

interface SortField {
  parts: string[];
  direction: 1 | -1;
}

interface Keyed<D> {
  doc: D;
  key: unknown[];
}

const sortFields = (sort: SortSpec): SortField[] =>
  Object.entries(sort).map(([path, direction]) => ({ parts: path.split('.'), direction }));

/**
 * A sort key made quick to compare: dates become their time (compared as numbers, within their own type rank);
 * every other value is compared by `compareValues`. Sorting 100,000 documents makes ~2 million comparisons.
 */
/** A Date's time, apart from every stored value (a sub-document may well have a `time` field). */
class TimeKey {
  constructor(readonly time: number) {}
}

function quickKey(value: unknown): unknown {
  return value instanceof Date ? new TimeKey(value.getTime()) : value;
}

const dateOf = (key: unknown): unknown => (key instanceof TimeKey ? new Date(key.time) : key);

function compareQuick(a: unknown, b: unknown): number {
  if (a instanceof TimeKey && b instanceof TimeKey) return a.time < b.time ? -1 : a.time > b.time ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b))
    return a < b ? -1 : a > b ? 1 : 0;
  return compareValues(dateOf(a), dateOf(b));
}

const keyed = <D>(doc: D, fields: readonly SortField[]): Keyed<D> => ({
  doc,
  key: fields.map(({ parts, direction }) => quickKey(sortKey(doc, parts, direction))),
});

function byKeys(fields: readonly SortField[]): (a: Keyed<unknown>, b: Keyed<unknown>) => number {
  return (a, b) => {
    for (let i = 0; i < fields.length; i += 1) {
      const c = compareQuick(a.key[i], b.key[i]) * fields[i].direction;
      if (c !== 0) return c;
    }
    return 0;
  };
}

/** A sorted copy of `docs` (stable: ties keep their input order). */
export function sortDocuments<D>(docs: readonly D[], sort: SortSpec): D[] {
  const fields = sortFields(sort);
  if (fields.length === 0) return [...docs];
  return docs
    .map((doc) => keyed(doc, fields))
    .sort(byKeys(fields))
    .map(({ doc }) => doc);
}

/** Where `entry` goes in `sorted`: after its equals, so that ties keep their input order. */
function upperBound<E>(sorted: readonly E[], entry: E, compare: (a: E, b: E) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid], entry) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * `sortDocuments(docs, sort).slice(skip, skip + limit)` (limit 0: to the end), without sorting what the page
 * leaves out: for a page near the start of many documents it keeps only the best `skip + limit` while going
 * through them once (a library's first page of 100,000 items: 600 kept, not 100,000 sorted).
 */
export function sortedPage<D>(docs: readonly D[], sort: SortSpec, skip: number, limit: number): D[] {
  const keep = limit > 0 ? skip + limit : Infinity;
  const fields = sortFields(sort);
  if (fields.length === 0 || keep >= docs.length / 4)
    return sortDocuments(docs, sort).slice(skip, limit > 0 ? skip + limit : undefined);
  const compare = byKeys(fields);
  const best: Array<Keyed<D>> = [];
  for (const doc of docs) {
    const entry = keyed(doc, fields);
    if (best.length === keep && compare(entry, best[best.length - 1]) >= 0) continue;
    best.splice(upperBound(best, entry, compare), 0, entry);
    if (best.length > keep) best.pop();
  }
  return best.slice(skip).map(({ doc }) => doc);
}
