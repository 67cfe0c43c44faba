/**
 * Value semantics of MongoDB (BSON comparison order, equality, index keys) for the stored value types of the port.
 * The embedded adapter evaluates filters, sorts and unique indexes with these, so it answers like MongoDB does.
 */

export type PlainObject = Record<string, unknown>;

/** Sort key of an empty array: MongoDB sorts `[]` below null/missing in both directions. */
export const EMPTY_ARRAY_KEY: unique symbol = Symbol('empty array');

export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Rank of a value's type in the BSON comparison order (missing counts as null). */
export function typeRank(value: unknown): number {
  if (value === EMPTY_ARRAY_KEY) return 0;
  if (value === undefined || value === null) return 1;
  if (typeof value === 'number') return 2;
  if (typeof value === 'string') return 3;
  if (Array.isArray(value)) return 5;
  if (typeof value === 'boolean') return 8;
  if (value instanceof Date) return 9;
  return 4;
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

function compareNumbers(a: number, b: number): number {
  // MongoDB orders NaN below every number and equal to itself.
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Binary (UTF-8) order, which is code point order; plain `<` compares UTF-16 units and differs above U+FFFF. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      return (a.codePointAt(i) as number) < (b.codePointAt(i) as number) ? -1 : 1;
    }
  }
  return sign(a.length - b.length);
}

function compareObjects(a: PlainObject, b: PlainObject): number {
  // BSON compares embedded documents field by field, in stored order: type, then name, then value.
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i += 1) {
    const va = a[ka[i]];
    const vb = b[kb[i]];
    const byType = sign(typeRank(va) - typeRank(vb));
    if (byType !== 0) return byType;
    const byName = compareStrings(ka[i], kb[i]);
    if (byName !== 0) return byName;
    const byValue = compareValues(va, vb);
    if (byValue !== 0) return byValue;
  }
  return sign(ka.length - kb.length);
}

function compareArrays(a: unknown[], b: unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return sign(a.length - b.length);
}

/** Total order of stored values following MongoDB's BSON comparison order; returns -1, 0 or 1. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 2:
      return compareNumbers(a as number, b as number);
    case 3:
      return compareStrings(a as string, b as string);
    case 4:
      return compareObjects(a as PlainObject, b as PlainObject);
    case 5:
      return compareArrays(a as unknown[], b as unknown[]);
    case 8:
      return a === b ? 0 : a ? 1 : -1;
    case 9:
      return compareNumbers((a as Date).getTime(), (b as Date).getTime());
    default:
      return 0; // null/missing, or the empty-array marker
  }
}

/** MongoDB equality of two values (deep, field order included; a missing value equals null). */
export function equalValues(a: unknown, b: unknown): boolean {
  return compareValues(a, b) === 0;
}

/** Deep copy of a stored value; Dates are copied too so callers never share instances with the store. */
export function cloneValue<V>(value: V): V {
  if (value instanceof Date) return new Date(value.getTime()) as V;
  if (Array.isArray(value)) return value.map((element: unknown) => cloneValue(element)) as V;
  if (typeof value === 'object' && value !== null) {
    const out: PlainObject = {};
    for (const [key, inner] of Object.entries(value)) out[key] = cloneValue(inner);
    return out as V;
  }
  return value;
}

function encode(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (value === EMPTY_ARRAY_KEY) return ['u'];
  if (typeof value === 'number') return ['n', Object.is(value, -0) ? '0' : String(value)];
  if (typeof value === 'string') return ['s', value];
  if (typeof value === 'boolean') return ['b', value];
  if (value instanceof Date) return ['d', String(value.getTime())];
  if (Array.isArray(value)) return ['a', value.map(encode)];
  return ['o', Object.entries(value as PlainObject).map(([key, inner]) => [key, encode(inner)])];
}

/** A string that is equal for two values exactly when they are equal for a MongoDB index. */
export function canonicalKey(value: unknown): string {
  return JSON.stringify(encode(value));
}
