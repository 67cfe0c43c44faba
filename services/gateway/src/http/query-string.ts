import type { RequestHandler } from 'express';
import { AppError } from '@trove/kit';

/**
 * Characters a query value must carry percent-encoded: the brackets, which RFC 3986 does not allow
 * in a query (and Express's parser reads as nesting in a name). What it does allow stays readable
 * as it is — `:/?@!$'()*,;=`, so `takenBefore=2024-06-01T00:00:00Z` typed by hand or written by a
 * client that escapes less than it could works — and `+` is how
 * application/x-www-form-urlencoded writes a space (HTML forms, Python requests, URLSearchParams,
 * `curl --data-urlencode`). A literal plus is `%2B`.
 */
const RESERVED = /[[\]]/;
/** A `%` not followed by two hex digits. */
const BROKEN_ESCAPE = /%(?![0-9a-fA-F]{2})/;

/**
 * Checks the raw query string of every request before the OpenAPI validator (whose own reserved
 * character check is switched off, see validator.ts): `q=iphone+15` and `q=iphone%2015` are the
 * same query, while a value with a raw bracket, a broken `%` escape or escapes that are not UTF-8
 * answers `400 {"message": ...}` naming the parameter. Express's query parser already
 * decodes `+` as a space, so what the routes see is the same for both spellings.
 */
export function queryStringCheck(): RequestHandler {
  return (req, _res, next) => {
    const at = req.originalUrl.indexOf('?');
    if (at < 0) return next();
    for (const pair of req.originalUrl.slice(at + 1).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
      const name = decoded(rawName) ?? rawName;
      const problem = invalid(rawValue) ?? invalid(rawName);
      if (problem) return next(new AppError('BAD_REQUEST', `Parameter '${name}' ${problem}`));
    }
    next();
  };
}

function invalid(raw: string): string | undefined {
  if (RESERVED.test(raw)) return 'must be url encoded. Its value may not contain [ or ] unescaped (%5B, %5D).';
  if (BROKEN_ESCAPE.test(raw) || decoded(raw) === undefined)
    return 'must be url encoded. It has a % that does not start the escape of UTF-8 text.';
  return undefined;
}

function decoded(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
