import {
  UnsupportedQueryError,
  type BaseDoc,
  type Filter,
  type FindOptions,
  type IndexSpec,
  type Update,
} from './port';
import { hasOwn, isPlainObject, type PlainObject } from './values';

/**
 * The one gate of the dialect: both adapters run every filter, update, option, index spec and document through
 * these checks before touching their backend, so they accept and reject exactly the same inputs.
 */

export type StoredDoc = BaseDoc & PlainObject;

const FILTER_OPERATORS = new Set(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists']);
const RANGE_OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte']);
const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc', '$addToSet', '$pull']);
const FIND_OPTIONS = new Set(['sort', 'skip', 'limit']);
const INDEX_SPEC_KEYS = new Set(['fields', 'unique', 'sparse']);
const COLLECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;
/** MongoDB's own nesting limit; also stops runaway recursion on cyclic input. */
const MAX_DEPTH = 100;

function fail(message: string): never {
  throw new UnsupportedQueryError(message);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'object';
  return typeof value;
}

function assertFieldName(name: string, where: string): void {
  if (name === '') fail(`${where}: empty field name`);
  if (name.includes('.')) fail(`${where}: field name '${name}' contains '.'`);
  if (name.startsWith('$')) fail(`${where}: field name '${name}' starts with '$'`);
  if (name === '__proto__') fail(`${where}: field name '__proto__' is reserved`);
}

/** Checks a dotted field path and returns its components. */
export function assertFieldPath(path: string, where: string): string[] {
  if (path === '') fail(`${where}: empty field path`);
  const parts = path.split('.');
  for (const part of parts) {
    if (part === '') fail(`${where}: empty component in field path '${path}'`);
    if (part.startsWith('$')) fail(`${where}: '${part}' in '${path}' is outside the supported subset`);
    if (part === '__proto__') fail(`${where}: '__proto__' in '${path}' is reserved`);
  }
  return parts;
}

/**
 * Validates a value to be stored and returns a deep copy in canonical form: `undefined` properties dropped
 * (array holes and `undefined` elements become null, as JSON does), Dates copied.
 */
function storedValue(value: unknown, where: string, depth: number): unknown {
  if (depth > MAX_DEPTH) fail(`${where}: nested deeper than ${MAX_DEPTH} levels`);
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // NeDB's JSON file would turn these into null; MongoDB would keep them. Refuse rather than diverge.
      if (!Number.isFinite(value)) fail(`${where}: ${value} cannot be stored (numbers must be finite)`);
      return value;
    case 'object': {
      if (value === null) return null;
      if (value instanceof Date) {
        if (Number.isNaN(value.getTime())) fail(`${where}: invalid Date`);
        return new Date(value.getTime());
      }
      if (Array.isArray(value)) {
        return Array.from(value, (element: unknown, i) =>
          element === undefined ? null : storedValue(element, `${where}.${i}`, depth + 1),
        );
      }
      if (!isPlainObject(value)) fail(`${where}: ${kindOf(value)} values cannot be stored`);
      const out: PlainObject = {};
      for (const [key, inner] of Object.entries(value)) {
        if (inner === undefined) continue;
        assertFieldName(key, where || 'document');
        out[key] = storedValue(inner, where ? `${where}.${key}` : key, depth + 1);
      }
      return out;
    }
    default:
      return fail(`${where}: ${typeof value} values cannot be stored`);
  }
}

/** Validates a document for insertion and returns its canonical deep copy, `_id` first as MongoDB stores it. */
export function toStoredDocument(doc: unknown): StoredDoc {
  if (!isPlainObject(doc)) fail(`a document must be a plain object, got ${kindOf(doc)}`);
  if (typeof doc._id !== 'string' || doc._id === '') fail('a document needs a non-empty string _id');
  const { _id, ...rest } = storedValue(doc, '', 0) as StoredDoc;
  return { _id, ...rest };
}

/** A value compared by equality in a filter: storable, and never `undefined` (a likely bug, ambiguous in MongoDB). */
function assertLiteral(value: unknown, where: string, depth = 0): void {
  if (depth > MAX_DEPTH) fail(`${where}: nested deeper than ${MAX_DEPTH} levels`);
  if (value === undefined) fail(`${where}: undefined is not a filter value`);
  if (typeof value === 'number') return; // NaN/Infinity are legal to compare with, they just never equal stored data
  if (value instanceof RegExp) fail(`${where}: regular expressions are outside the supported subset`);
  if (Array.isArray(value)) {
    Array.from(value, (element: unknown, i) => assertLiteral(element, `${where}.${i}`, depth + 1));
    return;
  }
  if (isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      assertFieldName(key, where);
      assertLiteral(inner, `${where}.${key}`, depth + 1);
    }
    return;
  }
  storedValue(value, where, depth);
}

/** A single value a range or `$pull` compares with: null, a string, number, boolean or Date. */
function isScalar(value: unknown): value is null | string | number | boolean | Date {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value instanceof Date
  );
}

function assertRangeOperand(value: unknown, where: string): void {
  if (!isScalar(value)) fail(`${where}: needs a string, number, boolean, null or Date, got ${kindOf(value)}`);
  if (value instanceof Date && Number.isNaN(value.getTime())) fail(`${where}: invalid Date`);
}

export function isOperatorObject(value: unknown): value is PlainObject {
  return isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'));
}

function assertCondition(path: string, condition: unknown): void {
  if (!isOperatorObject(condition)) {
    assertLiteral(condition, `filter '${path}'`);
    return;
  }
  for (const [op, operand] of Object.entries(condition)) {
    const where = `filter '${path}' ${op}`;
    if (!op.startsWith('$')) fail(`filter '${path}': cannot mix operators and the field '${op}'`);
    if (!FILTER_OPERATORS.has(op)) fail(`filter operator ${op} is outside the supported subset`);
    if (op === '$in' || op === '$nin') {
      if (!Array.isArray(operand)) fail(`${where}: needs an array`);
      operand.forEach((element: unknown, i) => assertLiteral(element, `${where}.${i}`));
    } else if (op === '$exists') {
      if (typeof operand !== 'boolean') fail(`${where}: needs true or false`);
    } else if (RANGE_OPERATORS.has(op)) {
      assertRangeOperand(operand, where);
    } else {
      assertLiteral(operand, where);
    }
  }
}

/** Recursively checks that a filter uses only the documented subset. */
export function assertFilter(filter: unknown, depth = 0): asserts filter is Filter {
  if (depth > MAX_DEPTH) fail(`filter nested deeper than ${MAX_DEPTH} levels`);
  if (!isPlainObject(filter)) fail(`a filter must be a plain object, got ${kindOf(filter)}`);
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(value) || value.length === 0) fail(`${key} needs a non-empty array of filters`);
      for (const clause of value) assertFilter(clause, depth + 1);
    } else if (key.startsWith('$')) {
      fail(`filter operator ${key} is outside the supported subset`);
    } else {
      assertFieldPath(key, 'filter');
      assertCondition(key, value);
    }
  }
}

const PULL_VALUE = 'a string, number, boolean, null or Date';

function updateOperand(op: string, path: string, value: unknown): unknown {
  const where = `${op} '${path}'`;
  switch (op) {
    case '$set':
      return storedValue(value, where, 1);
    case '$unset':
      return ''; // MongoDB ignores the value
    case '$inc':
      if (typeof value !== 'number' || !Number.isFinite(value)) fail(`${where}: needs a finite number`);
      return value;
    case '$addToSet':
      if (isOperatorObject(value)) {
        const keys = Object.keys(value);
        if (keys.length !== 1 || keys[0] !== '$each') fail(`${where}: only { $each: [...] } is supported`);
        if (!Array.isArray(value.$each)) fail(`${where}: $each needs an array`);
        return { $each: storedValue(value.$each, where, 1) };
      }
      return storedValue(value, where, 1);
    default: {
      // $pull: a single value; conditions and sub-document patterns are outside the subset.
      if (!isScalar(value)) fail(`${where}: needs ${PULL_VALUE}`);
      return storedValue(value, where, 1);
    }
  }
}

function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/**
 * Checks an update against the subset and returns a canonical copy (operands validated and copied,
 * `undefined` fields dropped as JSON would).
 */
export function normalizeUpdate(update: unknown): Update {
  if (!isPlainObject(update)) fail(`an update must be a plain object, got ${kindOf(update)}`);
  const operators = Object.keys(update);
  if (operators.length === 0) fail('an update needs at least one operator');
  const out: Record<string, PlainObject> = {};
  const paths: string[] = [];
  for (const op of operators) {
    if (!op.startsWith('$'))
      fail(`update field '${op}' is not an operator (whole-document replacement is outside the subset)`);
    if (!UPDATE_OPERATORS.has(op)) fail(`update operator ${op} is outside the supported subset`);
    const fields = update[op];
    if (!isPlainObject(fields)) fail(`${op} needs an object of field paths`);
    const clean: PlainObject = {};
    for (const [path, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const parts = assertFieldPath(path, op);
      if (parts[0] === '_id') fail(`${op} cannot modify _id`);
      for (const other of paths) {
        if (overlaps(path, other)) fail(`update paths '${other}' and '${path}' conflict`);
      }
      paths.push(path);
      clean[path] = updateOperand(op, path, value);
    }
    out[op] = clean;
  }
  return out as Update;
}

export function assertSort(sort: unknown): void {
  if (!isPlainObject(sort)) fail('sort must be an object of field paths');
  for (const [path, direction] of Object.entries(sort)) {
    assertFieldPath(path, 'sort');
    if (direction !== 1 && direction !== -1) fail(`sort '${path}': direction must be 1 or -1`);
  }
}

export function assertFindOptions(options: unknown): asserts options is FindOptions | undefined {
  if (options === undefined) return;
  if (!isPlainObject(options)) fail('find options must be an object');
  for (const [key, value] of Object.entries(options)) {
    if (!FIND_OPTIONS.has(key)) fail(`find option '${key}' is outside the supported subset`);
    if (value === undefined) continue;
    if (key === 'sort') assertSort(value);
    else if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
      fail(`${key} must be a non-negative integer`);
  }
}

export interface WriteOptions {
  upsert: boolean;
  returnDocument: 'before' | 'after';
}

/** Options of updateOne / findOneAndUpdate, with their defaults. */
export function writeOptions(options: unknown): WriteOptions {
  if (options === undefined) return { upsert: false, returnDocument: 'after' };
  if (!isPlainObject(options)) fail('update options must be an object');
  for (const key of Object.keys(options)) {
    if (key !== 'upsert' && key !== 'returnDocument') fail(`update option '${key}' is outside the supported subset`);
  }
  const { upsert = false, returnDocument = 'after' } = options;
  if (typeof upsert !== 'boolean') fail('upsert must be a boolean');
  if (returnDocument !== 'before' && returnDocument !== 'after') fail("returnDocument must be 'before' or 'after'");
  return { upsert, returnDocument };
}

export function assertIndexSpec(spec: unknown): asserts spec is IndexSpec {
  if (!isPlainObject(spec)) fail('an index spec must be an object');
  for (const key of Object.keys(spec)) {
    if (!INDEX_SPEC_KEYS.has(key)) fail(`index option '${key}' is outside the supported subset`);
  }
  const { fields } = spec;
  if (!isPlainObject(fields) || Object.keys(fields).length === 0) fail('an index needs at least one field');
  for (const [path, direction] of Object.entries(fields)) {
    assertFieldPath(path, 'index');
    if (direction !== 1 && direction !== -1) fail(`index '${path}': direction must be 1 or -1`);
  }
  for (const flag of ['unique', 'sparse'] as const) {
    if (hasOwn(spec, flag) && spec[flag] !== undefined && typeof spec[flag] !== 'boolean')
      fail(`index option ${flag} must be a boolean`);
  }
}

/** A checked index spec with its flags spelled out, and its name. */
export function checkedIndexSpec(spec: unknown): { name: string; spec: Required<IndexSpec> } {
  assertIndexSpec(spec);
  const full = { fields: { ...spec.fields }, unique: spec.unique === true, sparse: spec.sparse === true };
  return { name: indexName(spec), spec: full };
}

/** MongoDB's default index name (`a_1_b_-1`), used by both adapters to recognise an index. */
export function indexName(spec: IndexSpec): string {
  return Object.entries(spec.fields)
    .map(([path, direction]) => `${path}_${direction}`)
    .join('_');
}

export function assertCollectionName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name) || name.startsWith('system.')) {
    fail(
      `invalid collection name ${JSON.stringify(name)}: use letters, digits, '_', '-', '.', start with a letter or digit, at most 100 characters`,
    );
  }
}
