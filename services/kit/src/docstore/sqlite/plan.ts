import type { Filter, SortSpec } from '../port';
import { isOperatorObject } from '../validate';
import { hasOwn } from '../values';
import { keyColumn } from './connection';
import type { KeyIndex } from './key-index';
import { encodeKey, isKeyable, typeBounds } from './keys';

/**
 * Query planning: which documents to read for a filter. The plan only narrows the candidates — every candidate is
 * still tested by the compiled matcher — so a plan must never leave out a matching document, and may include others.
 * Only top-level conditions of the filter narrow (a `$or` or `$and` is left to the matcher).
 */

/** What one field's condition allows of its index keys. */
interface KeyCondition {
  /** The key is one of these (equality, `$eq`, `$in`). */
  points?: string[];
  /**
   * The bounds of a range, each with its type bracket (a range compares values of one type only). On an index where
   * a document may have several keys (an array), only the first narrows: two bounds may be met by two elements.
   */
  ranges?: Array<{ op: '>' | '>=' | '<' | '<='; key: string; low: string; high: string }>;
  /** Whether a document without the field (keyed as null) can match: a sparse index lacks such documents. */
  admitsNull: boolean;
  /**
   * Whether a key match is a filter match on a top-level field: scalar points (see `isExactPoint`), or bounds of
   * dates or numbers, all of the condition's operators.
   */
  exact?: boolean;
}

export type Plan =
  | { kind: 'ids'; ids: string[] }
  | { kind: 'scan' }
  | {
      kind: 'index';
      index: KeyIndex;
      where: string;
      params: string[];
      orderBy?: string;
      ordered: boolean;
      exact: boolean;
    };

const RANGE_OPS = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/**
 * Scalars whose key equality is exactly the matcher's equality on a top-level field: the field's one leaf equals
 * the value or is an array holding it exactly when a key row of the document has the value's key (a missing field
 * and null both key as null; no NaN, whose keys are all alike). Sub-documents are left to the matcher.
 */
const isExactPoint = (value: unknown): boolean =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && !Number.isNaN(value)) ||
  (value instanceof Date && !Number.isNaN(value.getTime()));

function pointCondition(values: unknown[]): KeyCondition | undefined {
  if (!values.every(isKeyable)) return undefined;
  return {
    points: [...new Set(values.map(encodeKey))],
    admitsNull: values.some((v) => v === null),
    exact: values.every(isExactPoint),
  };
}

/** A range bound whose key order is the matcher's order on a top-level field: a valid date, or a number. */
const isExactBound = (value: unknown): boolean =>
  typeof value === 'number' || (value instanceof Date && !Number.isNaN(value.getTime()));

function keyCondition(condition: unknown): KeyCondition | undefined {
  if (!isOperatorObject(condition)) return pointCondition([condition]);
  // Another operator beside the one the keys answer (`{ $eq: 1, $ne: 2 }`) is left to the matcher: not exact.
  const only = (used: number) => (keys: KeyCondition | undefined) =>
    keys && { ...keys, exact: Boolean(keys.exact) && Object.keys(condition).length === used };
  if (hasOwn(condition, '$eq')) return only(1)(pointCondition([condition.$eq]));
  if (Array.isArray(condition.$in)) return only(1)(pointCondition(condition.$in));
  const ranges: NonNullable<KeyCondition['ranges']> = [];
  const operands: unknown[] = [];
  for (const [op, sql] of Object.entries(RANGE_OPS)) {
    if (!hasOwn(condition, op)) continue;
    const operand = condition[op];
    if (operand === null) {
      if (ranges.length > 0) break;
      return op === '$gte' || op === '$lte' ? only(1)(pointCondition([null])) : undefined;
    }
    ranges.push({ op: sql, key: encodeKey(operand), ...typeBounds(operand) });
    operands.push(operand);
  }
  if (ranges.length === 0) return undefined;
  const exact = operands.every(isExactBound) && Object.keys(condition).length === ranges.length;
  return { ranges, admitsNull: false, exact };
}

interface Bound {
  key: string;
  inclusive: boolean;
}

/** SQLite's order of TEXT (memcmp of UTF-8), which JavaScript's string comparison (UTF-16 units) is not. */
const compareKeys = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * One lower and one upper bound holding every bound of `ranges` and their type brackets: given several bounds on a
 * column, SQLite may seek by a loose one (a type bracket) and filter the rest, reading every key of the type.
 * Bounds of two types give an empty range (no one key is of both).
 */
function tightestBounds(ranges: NonNullable<KeyCondition['ranges']>): { lower: Bound; upper: Bound } {
  const lowers: Bound[] = [];
  const uppers: Bound[] = [];
  for (const { op, key, low, high } of ranges) {
    lowers.push({ key: low, inclusive: true });
    uppers.push({ key: high, inclusive: false });
    if (op === '>' || op === '>=') lowers.push({ key, inclusive: op === '>=' });
    else uppers.push({ key, inclusive: op === '<=' });
  }
  // The greatest lower bound, exclusive over inclusive at the same key; the least upper bound likewise.
  const lower = lowers.reduce((a, b) => {
    const c = compareKeys(a.key, b.key);
    return c > 0 || (c === 0 && !a.inclusive) ? a : b;
  });
  const upper = uppers.reduce((a, b) => {
    const c = compareKeys(a.key, b.key);
    return c < 0 || (c === 0 && !a.inclusive) ? a : b;
  });
  return { lower, upper };
}

/** `_id` conditions answered by the primary key. */
function idLookup(filter: Filter): string[] | undefined {
  if (!hasOwn(filter, '_id')) return undefined;
  const condition = filter._id;
  const values = !isOperatorObject(condition)
    ? [condition]
    : hasOwn(condition, '$eq')
      ? [condition.$eq]
      : Array.isArray(condition.$in)
        ? condition.$in
        : undefined;
  if (!values) return undefined;
  // Ids are strings: any other value matches nothing.
  return [...new Set(values.filter((v): v is string => typeof v === 'string'))];
}

export interface IndexChoice {
  index: KeyIndex;
  where: string;
  params: string[];
  /** How many leading fields have one key each (for the order of what follows). */
  singlePoints: number;
  /** The fields whose conditions the key-table conditions hold exactly. */
  exactPaths: Set<string>;
  /** The fields whose conditions the key-table conditions apply (the candidates meet every one of them). */
  narrowed: Set<string>;
  orderBy?: string;
}

/** The key-table conditions an index can serve for the filter, or undefined when it serves none. */
function indexConditions(
  index: KeyIndex,
  conditions: Map<string, KeyCondition>,
  alias: string,
): IndexChoice | undefined {
  const clauses: string[] = [];
  const params: string[] = [];
  let singlePoints = 0;
  let onlyPoints = true;
  let excludesNull = false;
  const exactPaths = new Set<string>();
  const narrowed = new Set<string>();
  for (let i = 0; i < index.paths.length; i += 1) {
    const condition = conditions.get(index.paths[i]);
    if (!condition) break;
    narrowed.add(index.paths[i]);
    const column = `${alias}.${keyColumn(i)}`;
    if (!condition.admitsNull) excludesNull = true;
    if (condition.points) {
      if (condition.points.length === 1) {
        clauses.push(`${column} = ?`);
        if (onlyPoints) singlePoints += 1;
      } else {
        clauses.push(`${column} IN (${condition.points.map(() => '?').join(', ')})`);
        onlyPoints = false;
      }
      params.push(...condition.points);
      if (condition.exact && !index.paths[i].includes('.')) exactPaths.add(index.paths[i]);
      continue;
    }
    const ranges = condition.ranges as NonNullable<KeyCondition['ranges']>;
    const used = ranges.length > 1 && index.multikey() ? ranges.slice(0, 1) : ranges;
    const { lower, upper } = tightestBounds(used);
    clauses.push(`${column} ${lower.inclusive ? '>=' : '>'} ?`, `${column} ${upper.inclusive ? '<=' : '<'} ?`);
    params.push(lower.key, upper.key);
    if (condition.exact && used.length === ranges.length && !index.paths[i].includes('.'))
      exactPaths.add(index.paths[i]);
    break;
  }
  if (clauses.length === 0 && index.spec.sparse) return undefined;
  if (index.spec.sparse && !excludesNull) return undefined;
  return {
    index,
    where: clauses.length > 0 ? clauses.join(' AND ') : '1',
    params,
    singlePoints,
    exactPaths,
    narrowed,
  };
}

/**
 * The ORDER BY that reads the index in the order of `sort`, when the index gives it: the sort names the index
 * fields after the single-key prefix, in the index's directions or all reversed, then possibly `_id` (the key
 * table's last column) once every field is named.
 */
function coveredOrder(choice: IndexChoice, sort: SortSpec | undefined, alias: string): string | undefined {
  const entries = Object.entries(sort ?? {});
  if (entries.length === 0) return undefined;
  const { index, singlePoints } = choice;
  let reverse: boolean | undefined;
  const order: string[] = [];
  for (let j = 0; j < entries.length; j += 1) {
    const [path, direction] = entries[j];
    const field = singlePoints + j;
    const lastDirection = index.directions[index.directions.length - 1];
    const isTailId = path === '_id' && field === index.paths.length && j === entries.length - 1;
    const indexDirection = isTailId ? lastDirection : index.paths[field] === path ? index.directions[field] : undefined;
    if (indexDirection === undefined) return undefined;
    const flipped = direction !== indexDirection;
    if (reverse !== undefined && reverse !== flipped) return undefined;
    reverse = flipped;
    if (isTailId && index.spec.unique) break; // the keys are unique: no ties for the id to order
    order.push(`${alias}.${isTailId ? 'id' : keyColumn(field)} ${direction === 1 ? 'ASC' : 'DESC'}`);
  }
  return order.join(', ');
}

export interface PlanInput {
  filter: Filter;
  sort?: SortSpec;
  indexes: readonly KeyIndex[];
  /** How many candidates an index would yield, counting up to `cap` (for choosing between indexes). */
  estimate(choice: IndexChoice, cap: number): number;
  alias: string;
}

/** Counting beyond this many candidates tells nothing more about which index to use. */
const ESTIMATE_CAP = 5000;

/** An index choice as the planner weighs it. */
interface Candidate extends IndexChoice {
  /** Its key rows are exactly the matches (every condition of the filter held exactly, and not sparse). */
  exact: boolean;
}

const isSubset = (a: Set<string>, b: Set<string>): boolean => [...a].every((path) => b.has(path));

/**
 * Whether `other` is at least as good as `choice` whatever the data: it applies every condition `choice` applies
 * (so its candidates are among `choice`'s), and it gives the order whenever `choice` does. Of two alike, the
 * exact one, then the one declared first, stays.
 */
function outweighs(other: Candidate, choice: Candidate, otherFirst: boolean): boolean {
  if (!isSubset(choice.narrowed, other.narrowed)) return false;
  if (choice.orderBy && !other.orderBy) return false;
  const alike = other.narrowed.size === choice.narrowed.size && Boolean(other.orderBy) === Boolean(choice.orderBy);
  if (!alike) return true;
  if (other.exact !== choice.exact) return other.exact;
  return otherFirst;
}

export function plan({ filter, sort, indexes, estimate, alias }: PlanInput): Plan {
  const ids = idLookup(filter);
  if (ids) return { kind: 'ids', ids };
  const conditions = new Map<string, KeyCondition>();
  for (const [path, condition] of Object.entries(filter)) {
    if (path.startsWith('$')) continue;
    const keys = keyCondition(condition);
    if (keys) conditions.set(path, keys);
  }
  const hasSort = Object.keys(sort ?? {}).length > 0;
  const choices = indexes.flatMap((index): Candidate[] => {
    const choice = indexConditions(index, conditions, alias);
    if (!choice) return [];
    const orderBy = coveredOrder(choice, sort, alias);
    // An index that neither narrows nor orders is a scan with extra steps.
    if (choice.where === '1' && !orderBy) return [];
    // Exact: every condition of the filter is one the key table holds exactly, so its rows are the matches.
    const exact = !index.spec.sparse && Object.keys(filter).every((path) => choice.exactPaths.has(path));
    return [{ ...choice, exact, orderBy: orderBy && index.ordered() ? orderBy : undefined }];
  });
  // The best there can be: the key rows are the matches, in the order asked. Nothing to count.
  const ideal = choices.find((choice) => choice.exact && (choice.orderBy || !hasSort));
  if (ideal) return indexPlan(ideal);
  // Only the indexes no other one outweighs are worth counting.
  const plausible = choices.filter(
    (choice, i) => !choices.some((other, j) => j !== i && outweighs(other, choice, j < i)),
  );
  if (plausible.length === 0) return { kind: 'scan' };
  if (plausible.length === 1) return indexPlan(plausible[0]);
  // The fewest candidates wins; among indexes past the cap, one that gives the order (a page then stops early).
  const scored = plausible.map((choice) => ({
    choice,
    count: choice.where === '1' ? ESTIMATE_CAP : estimate(choice, ESTIMATE_CAP),
  }));
  scored.sort((a, b) => a.count - b.count || Number(Boolean(b.choice.orderBy)) - Number(Boolean(a.choice.orderBy)));
  return indexPlan(scored[0].choice);
}

function indexPlan(choice: Candidate): Plan {
  return {
    kind: 'index',
    index: choice.index,
    where: choice.where,
    params: choice.params,
    orderBy: choice.orderBy,
    ordered: Boolean(choice.orderBy),
    exact: choice.exact,
  };
}
