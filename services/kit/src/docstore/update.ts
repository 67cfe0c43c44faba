import { randomUUID } from 'node:crypto';
import { isArrayIndex } from './paths';
import { UnsupportedQueryError, type Filter, type Update } from './port';
import { isOperatorObject, type StoredDoc } from './validate';
import { cloneValue, compareStrings, equalValues, hasOwn, isPlainObject, type PlainObject } from './values';

/**
 * Applies (validated) updates with MongoDB semantics for the embedded adapter, and builds upsert documents
 * from filters the way MongoDB does. MongoDB itself runs the same updates natively.
 */

type Container = PlainObject | unknown[];

function isContainer(value: unknown): value is Container {
  return Array.isArray(value) || isPlainObject(value);
}

function pathError(path: string, detail: string): Error {
  return new Error(`cannot update '${path}': ${detail}`);
}

function readChild(container: Container, part: string): unknown {
  if (Array.isArray(container)) return isArrayIndex(part) ? container[Number(part)] : undefined;
  return hasOwn(container, part) ? container[part] : undefined;
}

function writeChild(container: Container, part: string, value: unknown, path: string): void {
  if (!Array.isArray(container)) {
    container[part] = value;
    return;
  }
  if (!isArrayIndex(part)) throw pathError(path, `cannot create field '${part}' in an array`);
  const index = Number(part);
  while (container.length < index) container.push(null); // MongoDB pads with nulls
  container[index] = value;
}

/** The container holding the last path component, created on the way when `create` is set. */
function parentOf(root: PlainObject, parts: readonly string[], path: string, create: boolean): Container | undefined {
  let current: Container = root;
  for (const part of parts.slice(0, -1)) {
    const next = readChild(current, part);
    if (isContainer(next)) {
      current = next;
    } else if (!create) {
      return undefined;
    } else if (next === undefined) {
      const created: PlainObject = {};
      writeChild(current, part, created, path);
      current = created;
    } else {
      throw pathError(path, `cannot create a field inside the ${next === null ? 'null' : typeof next} at '${part}'`);
    }
  }
  return current;
}

function setPath(root: PlainObject, path: string, value: unknown): void {
  const parts = path.split('.');
  const parent = parentOf(root, parts, path, true) as Container;
  writeChild(parent, parts[parts.length - 1], value, path);
}

function getPath(root: PlainObject, path: string): unknown {
  const parts = path.split('.');
  const parent = parentOf(root, parts, path, false);
  return parent === undefined ? undefined : readChild(parent, parts[parts.length - 1]);
}

function unsetPath(root: PlainObject, path: string): void {
  const parts = path.split('.');
  const parent = parentOf(root, parts, path, false);
  const last = parts[parts.length - 1];
  if (parent === undefined) return;
  if (Array.isArray(parent)) {
    // MongoDB keeps array positions stable: an unset element becomes null.
    if (isArrayIndex(last) && Number(last) < parent.length) parent[Number(last)] = null;
  } else {
    delete parent[last];
  }
}

function addToSet(root: PlainObject, path: string, operand: unknown): void {
  const values = isOperatorObject(operand) ? (operand.$each as unknown[]) : [operand];
  const current = getPath(root, path);
  if (current !== undefined && !Array.isArray(current)) throw pathError(path, '$addToSet needs an array field');
  const target: unknown[] = current === undefined ? [] : current;
  for (const value of values) {
    if (!target.some((existing) => equalValues(existing, value))) target.push(cloneValue(value));
  }
  if (current === undefined) setPath(root, path, target);
}

function applyOne(root: PlainObject, op: string, path: string, operand: unknown): void {
  switch (op) {
    case '$set':
      setPath(root, path, cloneValue(operand));
      return;
    case '$unset':
      unsetPath(root, path);
      return;
    case '$inc': {
      const current = getPath(root, path);
      if (current !== undefined && typeof current !== 'number') throw pathError(path, '$inc needs a numeric field');
      setPath(root, path, (current ?? 0) + (operand as number));
      return;
    }
    case '$addToSet':
      addToSet(root, path, operand);
      return;
    case '$pull': {
      const current = getPath(root, path);
      if (current === undefined) return;
      if (!Array.isArray(current)) throw pathError(path, '$pull needs an array field');
      const kept = current.filter((element: unknown) => !equalValues(element, operand));
      if (kept.length !== current.length) setPath(root, path, kept);
      return;
    }
    default:
      throw new UnsupportedQueryError(`update operator ${op} is outside the supported subset`);
  }
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
  const steps = Object.entries(update as Record<string, PlainObject>)
    .flatMap(([op, fields]) => Object.entries(fields).map(([path, operand]) => ({ op, path, operand })))
    .sort((a, b) => comparePaths(a.path, b.path));
  for (const { op, path, operand } of steps) applyOne(next, op, path, operand);
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
      if (Array.isArray(list) && list.length > 0 && list.every((v: unknown) => equalValues(v, list[0]))) out.push([key, list[0]]);
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
      throw new UnsupportedQueryError(`upsert cannot seed a document: the filter constrains '${previous}' and '${path}' by equality`);
    }
    setPath(seed, path, cloneValue(value));
  }
  const idFromFilter = hasOwn(seed, '_id');
  if (idFromFilter && (typeof seed._id !== 'string' || seed._id === '')) {
    throw new UnsupportedQueryError('upsert needs the filter _id to be a non-empty string');
  }
  if (!idFromFilter) seed._id = randomUUID();
  return { seed: seed as StoredDoc, idFromFilter };
}
