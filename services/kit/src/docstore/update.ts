import { update as mingoUpdate, type Modifier } from 'mingo/updater';
import { randomUUID } from 'node:crypto';
import { isArrayIndex } from './paths';
import { UnsupportedQueryError, type Filter, type Update } from './port';
import { isOperatorObject, type StoredDoc } from './validate';
import { cloneValue, compareStrings, equalValues, hasOwn, isPlainObject, type PlainObject } from './values';

/**
 * Applies (validated) updates with MongoDB semantics for the embedded adapter, and builds upsert documents
 * from filters the way MongoDB does. MongoDB itself runs the same updates natively; here mingo applies the
 * operators, and this module adds what it lacks (the contract suite checks both adapters agree).
 */

/** The value at a dotted path of plain sub-documents (arrays are not walked: `$inc` targets a scalar field). */
function valueAt(root: PlainObject, path: string): unknown {
  let current: unknown = root;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) current = isArrayIndex(part) ? current[Number(part)] : undefined;
    else if (isPlainObject(current)) current = hasOwn(current, part) ? current[part] : undefined;
    else return undefined;
  }
  return current;
}

/** mingo applies the operators; it lets `$inc` turn a string into a concatenation, which MongoDB refuses. */
function assertIncrementable(doc: PlainObject, update: Update): void {
  for (const path of Object.keys(update.$inc ?? {})) {
    const current = valueAt(doc, path);
    if (current !== undefined && typeof current !== 'number')
      throw new Error(`cannot update '${path}': $inc needs a numeric field`);
  }
}

/** Applies MongoDB update operators in place, by mingo (clones what it writes, so the operands stay the caller's). */
function applyOperators(doc: PlainObject, update: Update): void {
  if (applyTopLevel(doc, update)) return;
  mingoUpdate(doc, update as Modifier<PlainObject>, undefined, undefined, { cloneMode: 'deep' });
}

/**
 * `$set` and `$inc` of top-level fields, most of the updates services make (a flag, a counter, a
 * time), applied directly: mingo's general updater costs ~0.1 ms a call in set-up alone. New fields
 * are added in MongoDB's order (by path). False, untouched, for anything else. The operands are
 * validated already (no `_id`, no conflicting paths), and `$inc` only meets numbers or nothing.
 */
function applyTopLevel(doc: PlainObject, update: Update): boolean {
  const set = update.$set;
  const inc = update.$inc;
  if (Object.keys(update).some((op) => op !== '$set' && op !== '$inc')) return false;
  const paths = [...Object.keys(set ?? {}), ...Object.keys(inc ?? {})];
  if (paths.some((path) => path.includes('.'))) return false;
  for (const path of paths.sort(comparePaths)) {
    if (set && hasOwn(set, path)) {
      doc[path] = cloneValue(set[path]);
    } else if (inc) {
      const current = hasOwn(doc, path) ? (doc[path] as number | undefined) : undefined;
      doc[path] = (current ?? 0) + (inc[path] as number);
    }
  }
  return true;
}

/** Writes `value` at a dotted path of a seed document, creating the sub-documents on the way. */
function seedPath(seed: PlainObject, path: string, value: unknown): void {
  const parts = path.split('.');
  let current = seed;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(current[part])) current[part] = {};
    current = current[part] as PlainObject;
  }
  current[parts[parts.length - 1]] = value;
}

/** Path order MongoDB (5.0+) applies update fields in: component by component, numeric names numerically. */
function comparePaths(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.min(pa.length, pb.length); i += 1) {
    if (pa[i] === pb[i]) continue;
    if (isArrayIndex(pa[i]) && isArrayIndex(pb[i])) return Number(pa[i]) - Number(pb[i]);
    return compareStrings(pa[i], pb[i]);
  }
  return pa.length - pb.length;
}

export interface UpdateOutcome {
  doc: StoredDoc;
  modified: boolean;
}

/** Applies a normalized update to a copy of `doc`; `modified` tells whether anything changed. */
export function applyUpdate(doc: StoredDoc, update: Update): UpdateOutcome {
  const next = cloneValue(doc);
  assertIncrementable(next, update);
  applyOperators(next, update);
  return { doc: next, modified: !equalValues(doc, next) };
}

function collectEqualities(filter: Filter, out: Array<[string, unknown]>): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and') {
      for (const clause of value as Filter[]) collectEqualities(clause, out);
    } else if (key === '$or') {
      // MongoDB canonicalises a one-clause $or into the clause itself before extracting equalities.
      const clauses = value as Filter[];
      if (clauses.length === 1) collectEqualities(clauses[0], out);
    } else if (!isOperatorObject(value)) {
      out.push([key, value]);
    } else {
      if (hasOwn(value, '$eq')) out.push([key, value.$eq]);
      // ... and rewrites an $in of a single (distinct) value into an equality.
      const list = value.$in;
      if (Array.isArray(list) && list.length > 0 && list.every((v: unknown) => equalValues(v, list[0])))
        out.push([key, list[0]]);
    }
  }
}

/**
 * The document an upsert starts from when nothing matched: the filter's equality conditions, as MongoDB
 * extracts them, plus `_id` (from the filter, else a fresh uuid).
 */
export function upsertSeed(filter: Filter): { seed: StoredDoc; idFromFilter: boolean } {
  const equalities: Array<[string, unknown]> = [];
  collectEqualities(filter, equalities);
  equalities.sort(([a], [b]) => comparePaths(a, b));
  const seed: PlainObject = {};
  for (let i = 0; i < equalities.length; i += 1) {
    const [path, value] = equalities[i];
    const previous = equalities[i - 1]?.[0];
    if (previous !== undefined && (previous === path || path.startsWith(`${previous}.`))) {
      throw new UnsupportedQueryError(
        `upsert cannot seed a document: the filter constrains '${previous}' and '${path}' by equality`,
      );
    }
    seedPath(seed, path, cloneValue(value));
  }
  const idFromFilter = hasOwn(seed, '_id');
  if (idFromFilter && (typeof seed._id !== 'string' || seed._id === '')) {
    throw new UnsupportedQueryError('upsert needs the filter _id to be a non-empty string');
  }
  if (!idFromFilter) seed._id = randomUUID();
  return { seed: seed as StoredDoc, idFromFilter };
}
