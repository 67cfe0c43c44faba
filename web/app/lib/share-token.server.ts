/**
 * The unlock token of a password-protected shared link, kept for the visitor in an HttpOnly cookie
 * scoped to that album's pages (`/share/<id>`): the page, its paging and its download send it to
 * the gateway as `X-Share-Token`. The browser's scripts never see it.
 */
import { createCookie } from '@remix-run/node';

const PREFIX = 'trove_share_';

function cookieFor(request: Request, albumId: string, maxAge?: number) {
  return createCookie(`${PREFIX}${albumId}`, {
    httpOnly: true,
    sameSite: 'lax',
    path: `/share/${albumId}`,
    secure: new URL(request.url).protocol === 'https:',
    ...(maxAge !== undefined ? { maxAge } : {}),
  });
}

/** The token the visitor's browser holds for this album, if any. */
export async function readShareToken(request: Request, albumId: string): Promise<string | undefined> {
  const value: unknown = await cookieFor(request, albumId).parse(request.headers.get('Cookie'));
  return typeof value === 'string' && value ? value : undefined;
}

/**
 * Seconds the token is good for: the gateway's tokens start with their expiry (unix seconds, then a dot).
 * Capped at 12 hours (the tokens' life), and a token of another shape gets an hour.
 */
export function tokenLifetime(token: string, now = Date.now()): number {
  const exp = Number(token.split('.')[0]);
  const left = Number.isFinite(exp) && exp > 0 ? Math.floor(exp - now / 1000) : 3600;
  return Math.max(0, Math.min(left, 12 * 3600));
}

/** A Set-Cookie value that stores the token for the album's pages for as long as the token lasts. */
export function shareTokenCookie(request: Request, albumId: string, token: string): Promise<string> {
  return cookieFor(request, albumId, tokenLifetime(token)).serialize(token);
}

/** A Set-Cookie value that forgets the album's token (the gateway no longer takes it). */
export function clearShareTokenCookie(request: Request, albumId: string): Promise<string> {
  return cookieFor(request, albumId, 0).serialize('', { expires: new Date(0) });
}
