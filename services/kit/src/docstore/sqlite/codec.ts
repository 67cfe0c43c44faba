import type { StoredDoc } from '../validate';

/**
 * Documents as JSON text. Dates become `{"$date": <ms>}`: no stored field name starts with `$` (the validator
 * refuses them), so the marker cannot clash with data. Decoding parses plainly, then revives the dates in one walk:
 * a JSON.parse reviver (a call per value) made decoding 6× slower.
 */

const DATE_MARK = '{"$date":';

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  return raw instanceof Date ? { $date: raw.getTime() } : value;
}

export function encodeDoc(doc: StoredDoc): string {
  return JSON.stringify(doc, replacer);
}

/** `value` with its `{ $date }` markers turned into Dates, in place. */
function revive(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) value[i] = revive(value[i]);
    return value;
  }
  const object = value as Record<string, unknown>;
  if (typeof object.$date === 'number') return new Date(object.$date);
  for (const key in object) object[key] = revive(object[key]);
  return object;
}

export function decodeDoc(text: string): StoredDoc {
  const doc = JSON.parse(text) as StoredDoc;
  return text.includes(DATE_MARK) ? (revive(doc) as StoredDoc) : doc;
}
