import type { StoredDoc } from '../validate';

/**
 * Documents as JSON text. Dates become `{"$date": <ms>}`: no stored field name starts with `$` (the validator
 * refuses them), so the marker cannot clash with data.
 */

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  return raw instanceof Date ? { $date: raw.getTime() } : value;
}

function reviver(_key: string, value: unknown): unknown {
  if (typeof value === 'object' && value !== null && typeof (value as { $date?: unknown }).$date === 'number') return new Date((value as { $date: number }).$date);
  return value;
}

export function encodeDoc(doc: StoredDoc): string {
  return JSON.stringify(doc, replacer);
}

export function decodeDoc(text: string): StoredDoc {
  return JSON.parse(text, reviver) as StoredDoc;
}
