import { badRequest } from '@trove/kit';

/** A list's keyset position: the last item of a page (the media service's `after` / `nextAfter`). */
export interface ListPosition {
  creationTime: string;
  id: string;
}

const INVALID = 'cursor is not one this server gave: pass back the X-Next-Cursor of the page before, as it is';

/**
 * The `cursor` of the list calls: the position as base64url JSON. Opaque to clients (the contract
 * promises nothing of its form), not secret: every list is scoped to the caller, so a made-up
 * cursor only starts a list of their own items somewhere else.
 */
export function encodeCursor(position: ListPosition): string {
  return Buffer.from(JSON.stringify([position.creationTime, position.id])).toString('base64url');
}

/** The position a `cursor` names; 400 when it is not one `encodeCursor` could have made. */
export function decodeCursor(cursor: string): ListPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID);
  }
  if (!Array.isArray(decoded) || decoded.length !== 2) throw badRequest(INVALID);
  const [creationTime, id] = decoded as unknown[];
  const valid =
    typeof creationTime === 'string' &&
    !Number.isNaN(Date.parse(creationTime)) &&
    new Date(creationTime).toISOString() === creationTime &&
    typeof id === 'string' &&
    id.length > 0 &&
    id.length <= 100;
  if (!valid) throw badRequest(INVALID);
  return { creationTime, id };
}

/** The `Link` header of the next page: this request's URL with the cursor instead of a page number. */
export function nextLink(originalUrl: string, cursor: string): string {
  const url = new URL(originalUrl, 'http://relative.invalid');
  url.searchParams.delete('page');
  url.searchParams.set('cursor', cursor);
  return `<${url.pathname}${url.search}>; rel="next"`;
}
