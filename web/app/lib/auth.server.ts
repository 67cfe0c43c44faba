/**
 * The session of a request, for loaders and actions: an API client that sends the user's access
 * token, refreshing it shortly before it expires (or once after a 401), and the Set-Cookie header to
 * answer with when the tokens changed. No session → the login page (or 401 for the JSON routes).
 */
import { json, redirect } from '@remix-run/node';
import { ApiError, ApiUnreachableError, createApiClient } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import type { WebContext } from './context.server';
import type { SessionData } from './session.server';
import { loginUrl } from './login-url';
import { isSessionOver } from './tokens.server';

/** Refresh when the access token has less than this left. */
export const REFRESH_MARGIN_MS = 60_000;

export interface AuthedSession {
  api: ApiClient;
  username: string;
  /** A valid access token (refreshed when needed), for calls the typed client cannot make (streamed uploads). */
  accessToken(): Promise<string>;
  /** Headers for the answer: Set-Cookie when the tokens were refreshed. */
  headers(init?: HeadersInit): Promise<Headers>;
}

/** `page`: redirect to the login page; `api`: answer 401 JSON (fetch and XHR callers). */
export type AuthMode = 'page' | 'api';

/** Where to come back after logging in: the request's path without Remix's own query parameters. */
export function returnPath(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete('_data');
  url.searchParams.delete('index');
  const search = url.searchParams.toString();
  return `${url.pathname}${search ? `?${search}` : ''}`;
}

/** Stands for the app's own origin: a path that resolves anywhere else leaves the app. */
const OWN_ORIGIN = 'http://trove.invalid';
/** Control characters (browsers drop tabs and newlines from URLs) and backslashes (read as slashes). */
function hasUnsafeCharacter(path: string): boolean {
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/**
 * Only paths on this app: never redirect to another site after login. The path must start with one
 * `/`, hold no control characters or backslashes, and stay on the app's origin when a browser
 * resolves it, also once percent-decoded (so `/%2F/evil.example` is refused like `//evil.example`).
 */
export function safeRedirect(to: unknown, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/')) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(to);
  } catch {
    return fallback;
  }
  return [to, decoded].every(staysOnOrigin) ? to : fallback;
}

function staysOnOrigin(path: string): boolean {
  if (hasUnsafeCharacter(path)) return false;
  try {
    return new URL(path, OWN_ORIGIN).origin === OWN_ORIGIN;
  } catch {
    return false;
  }
}

async function unauthenticated(
  request: Request,
  ctx: WebContext,
  mode: AuthMode,
  hadSession: boolean,
): Promise<Response> {
  const headers = new Headers();
  if (hadSession) headers.append('Set-Cookie', await ctx.sessions.destroy(request));
  if (mode === 'api') return json({ message: 'Unauthorized' }, { status: 401, headers });
  return redirect(loginUrl(returnPath(request)), { headers });
}

export async function requireSession(
  request: Request,
  ctx: WebContext,
  mode: AuthMode = 'page',
): Promise<AuthedSession> {
  const data = await ctx.sessions.read(request);
  if (!data)
    throw await unauthenticated(request, ctx, mode, request.headers.get('Cookie')?.includes('trove_session=') ?? false);

  let current: SessionData = data;
  let changed = false;
  const refresh = async (): Promise<string> => {
    try {
      const t = await ctx.refresher.refresh(current.refreshToken);
      current = {
        ...current,
        accessToken: t.accessToken,
        refreshToken: t.refreshToken,
        expiresAt: Date.now() + t.expiresIn * 1000,
      };
      changed = true;
      return current.accessToken;
    } catch (err) {
      if (isSessionOver(err)) throw await unauthenticated(request, ctx, mode, true);
      throw err;
    }
  };
  const fresh = async () => (current.expiresAt - Date.now() < REFRESH_MARGIN_MS ? refresh() : current.accessToken);
  await fresh();

  return {
    api: createApiClient(ctx.config.apiUrl, { token: () => current.accessToken, onUnauthorized: refresh }),
    username: current.username,
    accessToken: fresh,
    async headers(init?: HeadersInit) {
      const h = new Headers(init);
      if (changed) h.append('Set-Cookie', await ctx.sessions.commit(request, current));
      return h;
    },
  };
}

/** The session's data when there is a valid one (the login page uses it to skip itself). */
export function readSession(request: Request, ctx: WebContext): Promise<SessionData | null> {
  return ctx.sessions.read(request);
}

/**
 * Turns a failed API call into what a loader or action throws: a 404 for unknown ids, a 503 when
 * the API is down, the API's status otherwise; thrown Responses (redirects) pass through.
 */
export function apiFailure(err: unknown): Response {
  if (err instanceof Response) return err;
  if (err instanceof ApiUnreachableError)
    return json({ message: 'The Trove server cannot be reached right now.' }, { status: 503 });
  if (err instanceof ApiError) {
    if (err.status === 404) return json({ message: 'Not found' }, { status: 404 });
    return json({ message: err.message }, { status: err.status >= 400 && err.status < 600 ? err.status : 502 });
  }
  return json({ message: 'Something went wrong.' }, { status: 500 });
}
