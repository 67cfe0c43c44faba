import { InvalidBlobKeyError, RangeNotSatisfiableError, type ByteRange } from './port';

/** S3's own limit; keeping it everywhere keeps keys portable between adapters. */
const MAX_KEY_BYTES = 1024;

/**
 * Names the filesystem adapter uses for its own bookkeeping. They are rejected by every adapter so
 * a key that works on S3 always works on disk too (and data can move between the two).
 */
export const TEMP_DIR = '.tmp';
export const META_SUFFIX = '.meta.json';

/**
 * A key is a '/'-separated relative path: no leading or trailing '/', no empty, '.' or '..'
 * segment, no control characters or backslashes, at most 1024 UTF-8 bytes, and not one of the
 * reserved names above.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidBlobKeyError(String(key), 'empty key');
  checkChars(key);
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment === '') throw new InvalidBlobKeyError(key, 'empty segment (leading, trailing or double "/")');
    if (segment === '.' || segment === '..') throw new InvalidBlobKeyError(key, `"${segment}" segment`);
  }
  if (segments[0] === TEMP_DIR) throw new InvalidBlobKeyError(key, `"${TEMP_DIR}/" is reserved`);
  if (key.endsWith(META_SUFFIX)) throw new InvalidBlobKeyError(key, `the "${META_SUFFIX}" suffix is reserved`);
}

/** A list prefix: like a key, but may be empty and may end with '/'. */
export function assertValidPrefix(prefix: string): void {
  if (typeof prefix !== 'string') throw new InvalidBlobKeyError(String(prefix), 'prefix must be a string');
  if (prefix === '') return;
  checkChars(prefix);
  const segments = prefix.split('/');
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '' && !last) throw new InvalidBlobKeyError(prefix, 'empty segment in prefix');
    if (segment === '..' || (segment === '.' && !last))
      throw new InvalidBlobKeyError(prefix, `"${segment}" segment in prefix`);
  });
}

function checkChars(key: string): void {
  if (hasForbiddenChar(key)) throw new InvalidBlobKeyError(key, 'control character or backslash');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES)
    throw new InvalidBlobKeyError(key, `longer than ${MAX_KEY_BYTES} bytes`);
}

/** C0 controls (NUL included), DEL and backslash: never meaningful in a key, dangerous in a path. */
function hasForbiddenChar(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === 0x5c) return true;
  }
  return false;
}

/** A malformed range is a caller bug (not a 416): reject it before touching storage. */
export function assertValidRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`invalid range start: ${start}`);
  if (end !== undefined && (!Number.isSafeInteger(end) || end < start))
    throw new RangeError(`invalid range end: ${end}`);
}

/**
 * The bytes a store serves for `range` of the object `key` of `size` bytes: from its start to its end or the
 * object's last byte. A range starting at or past the end (any range of an empty object) is not satisfiable.
 */
export function servedRange(key: string, range: ByteRange, size: number): { start: number; end: number } {
  if (range.start >= size) throw new RangeNotSatisfiableError(key, size);
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}
