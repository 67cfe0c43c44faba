/**
 * Logging in and refreshing against the gateway. Refresh tokens are single use and presenting one
 * twice ends the whole session (reuse detection), while a page load runs several loaders and
 * fetches at once: so concurrent refreshes of one refresh token share a single call, and its
 * answer is remembered briefly for requests that still carry the old cookie.
 */
import { ApiError, apiFetch, createApiClient, ok } from '~/api/client.server';
import type { AuthResponse } from '~/api/types';

export type LoginFailure =
  | { kind: 'credentials' }
  | { kind: 'rate-limited'; retryAfterSeconds: number | null }
  | { kind: 'unreachable' }
  | { kind: 'server'; status: number };

/**
 * Who is logging in, for the gateway's per-address limit: this server logs every browser in from its
 * own address, so it names the browser's, with the secret that makes the gateway believe it.
 */
export interface LoginClient {
  address?: string;
  proxySecret: string;
}

export function clientHeaders(client: LoginClient | undefined): Record<string, string> {
  if (!client?.address) return {};
  return { 'X-Trove-Client-Address': client.address, 'X-Trove-Proxy-Secret': client.proxySecret };
}

export async function loginWithPassword(
  apiUrl: string,
  username: string,
  password: string,
  client?: LoginClient,
): Promise<{ ok: true; tokens: AuthResponse } | { ok: false; failure: LoginFailure }> {
  let response: Response;
  try {
    response = await apiFetch(`${apiUrl}/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders(client) },
      body: JSON.stringify({ username, password }),
    });
  } catch {
    return { ok: false, failure: { kind: 'unreachable' } };
  }
  if (response.ok) return { ok: true, tokens: (await response.json()) as AuthResponse };
  await response.body?.cancel();
  if (response.status === 401 || response.status === 400) return { ok: false, failure: { kind: 'credentials' } };
  if (response.status === 429) {
    const after = Number(response.headers.get('Retry-After'));
    return {
      ok: false,
      failure: { kind: 'rate-limited', retryAfterSeconds: Number.isFinite(after) && after > 0 ? after : null },
    };
  }
  if (response.status === 502 || response.status === 503 || response.status === 504)
    return { ok: false, failure: { kind: 'unreachable' } };
  return { ok: false, failure: { kind: 'server', status: response.status } };
}

/** What the login page says for each failure. */
export function loginErrorMessage(failure: LoginFailure): string {
  switch (failure.kind) {
    case 'credentials':
      return 'Wrong username or password.';
    case 'rate-limited':
      return failure.retryAfterSeconds
        ? `Too many attempts. Try again in ${failure.retryAfterSeconds} second${failure.retryAfterSeconds === 1 ? '' : 's'}.`
        : 'Too many attempts. Wait a minute, then try again.';
    case 'unreachable':
      return 'The Trove server cannot be reached. Check that it is running, then try again.';
    case 'server':
      return `The Trove server had a problem (${failure.status}). Try again in a moment.`;
  }
}

/** Ends the API session of an access token; failures are ignored (the cookie goes anyway). */
export async function logoutSession(apiUrl: string, accessToken: string): Promise<void> {
  try {
    const r = await apiFetch(`${apiUrl}/v1/auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    await r.body?.cancel();
  } catch {
    // unreachable: the access token expires by itself
  }
}

export class TokenRefresher {
  private readonly inFlight = new Map<string, Promise<AuthResponse>>();

  constructor(
    private readonly apiUrl: string,
    /** How long an answer is shared with requests that still present the old refresh token. */
    private readonly shareMs = 60_000,
  ) {}

  /** New tokens for `refreshToken`; rejects with ApiError (401: the session is over) or ApiUnreachableError. */
  refresh(refreshToken: string): Promise<AuthResponse> {
    const known = this.inFlight.get(refreshToken);
    if (known) return known;
    const call = ok(
      createApiClient(this.apiUrl).POST('/v1/auth/refresh', {
        body: { refreshToken },
      }),
    );
    this.inFlight.set(refreshToken, call);
    const forget = () => {
      const timer = setTimeout(() => this.inFlight.delete(refreshToken), this.shareMs);
      timer.unref?.();
    };
    call.then(forget, () => this.inFlight.delete(refreshToken));
    return call;
  }
}

export function isSessionOver(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 401 || err.status === 400);
}
