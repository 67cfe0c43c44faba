import { hasOwn, isPlainObject } from './values';

/** Dotted-path traversal with MongoDB's rules, shared by the matcher, the sorter and the unique indexes. */

const INDEX = /^(0|[1-9][0-9]*)$/;

export function isArrayIndex(part: string): boolean {
  return INDEX.test(part);
}

/**
 * Every value a dotted path reaches in `value`. An array met before the last component fans out over its
 * sub-documents (a numeric component picks one element instead); a branch where the path is missing yields
 * `undefined`. Arrays at the end of the path are returned whole: callers decide how to look inside them.
 */
export function collectLeaves(value: unknown, parts: readonly string[], from = 0, out: unknown[] = []): unknown[] {
  if (from === parts.length) {
    out.push(value);
    return out;
  }
  const part = parts[from];
  if (Array.isArray(value)) {
    if (isArrayIndex(part)) {
      collectLeaves(value[Number(part)], parts, from + 1, out);
    } else {
      for (const element of value) {
        if (isPlainObject(element))
          collectLeaves(hasOwn(element, part) ? element[part] : undefined, parts, from + 1, out);
      }
    }
  } else if (isPlainObject(value)) {
    collectLeaves(hasOwn(value, part) ? value[part] : undefined, parts, from + 1, out);
  } else {
    out.push(undefined);
  }
  return out;
}
