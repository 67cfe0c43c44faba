import type { IndexSpec } from '../port';
import type { StoredDoc } from '../validate';
import { indexFieldKeys } from '../unique';
import { canonicalKey, EMPTY_ARRAY_KEY, isPlainObject } from '../values';

/**
 * Index keys as text whose binary (memcmp) order is MongoDB's BSON order, so that SQLite's B-trees answer
 * equality, `$in`, ranges and sorts. One type letter first, in BSON rank order, then an order-preserving body:
 * numbers and dates as the 16 hex digits of their IEEE-754 bits (sign-flipped), strings as themselves (UTF-8 byte
 * order is code point order). Sub-documents and arrays held inside arrays get their canonical JSON: equal keys for
 * equal values, but no order within their type — such keys are flagged `unordered` so that a sort never trusts them.
 */

const EMPTY = 'a';
const NULL = 'b';
const NUMBER = 'c';
const STRING = 'd';
const OBJECT = 'e';
const ARRAY = 'f';
const BOOLEAN = 'g';
const DATE = 'h';
/** Just above every key of a type letter: the exclusive upper bound of a range. */
const next = (letter: string): string => String.fromCharCode(letter.charCodeAt(0) + 1);

const view = new DataView(new ArrayBuffer(8));

/** 16 hex digits ordering as the numbers do (NaN below every number, -0 as 0). */
function orderedNumber(n: number): string {
  if (Number.isNaN(n)) return '0000000000000000';
  view.setFloat64(0, n === 0 ? 0 : n);
  let hi = view.getUint32(0);
  let lo = view.getUint32(4);
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else {
    hi = (hi | 0x80000000) >>> 0;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** The key of one value; `ordered` is false when its order within its type is not the key's text order. */
export function encodeKey(value: unknown): string {
  if (value === EMPTY_ARRAY_KEY) return EMPTY;
  if (value === undefined || value === null) return NULL;
  if (typeof value === 'number') return NUMBER + orderedNumber(value);
  if (typeof value === 'string') return STRING + value;
  if (typeof value === 'boolean') return BOOLEAN + (value ? '1' : '0');
  if (value instanceof Date) return DATE + orderedNumber(value.getTime());
  if (Array.isArray(value)) return ARRAY + canonicalKey(value);
  return OBJECT + canonicalKey(value);
}

export function isOrderedKey(key: string): boolean {
  return key[0] !== OBJECT && key[0] !== ARRAY;
}

/** Keys of the values of the same type as `value` (for the type bracketing of `$gt` and friends). */
export function typeBounds(value: unknown): { low: string; high: string } {
  const letter = encodeKey(value)[0];
  return { low: letter, high: next(letter) };
}

/** The key rows of `doc` in an index (one per array element; missing counts as null), or [] when a sparse index skips it. */
export function indexRows(doc: StoredDoc, spec: IndexSpec): string[][] {
  const perField = indexFieldKeys(doc, spec, encodeKey);
  if (!perField) return [];
  // At most one field has several keys (no parallel arrays): the cartesian product is a simple expansion.
  let rows: string[][] = [[]];
  for (const fieldKeys of perField) rows = rows.flatMap((prefix) => fieldKeys.map((key) => [...prefix, key]));
  return rows;
}

/** A value a key lookup can find: arrays as a whole are not keys (their elements are). */
export function isKeyable(value: unknown): boolean {
  return (
    !Array.isArray(value) &&
    (value === null || isPlainObject(value) || typeof value !== 'object' || value instanceof Date)
  );
}
