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

/** A sorted copy of `docs` (stable: ties keep their input order). */
export function sortDocuments<D>(docs: readonly D[], sort: SortSpec): D[] {
  const keys = Object.entries(sort).map(([path, direction]) => ({ parts: path.split('.'), direction }));
  if (keys.length === 0) return [...docs];
  return docs
    .map((doc) => ({ doc, key: keys.map(({ parts, direction }) => sortKey(doc, parts, direction)) }))
    .sort((a, b) => {
      for (let i = 0; i < keys.length; i += 1) {
        const c = compareValues(a.key[i], b.key[i]) * keys[i].direction;
        if (c !== 0) return c;
      }
      return 0;
    })
    .map(({ doc }) => doc);
}
