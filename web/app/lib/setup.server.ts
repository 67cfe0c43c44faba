/**
 * The first run: while no user account exists, the login page offers "Set up Trove", which makes
 * the first account through the administrator's users API (basic auth with the admin credentials
 * the visitor types; never stored or logged here) and logs it in.
 */
import createClient from 'openapi-fetch';
import { ApiError, ApiUnreachableError, apiFetch, createApiClient, ok } from '~/api/client.server';
import type { paths, User, UserRequest } from '~/api/types';
import { clientHeaders } from './tokens.server';
import type { LoginClient } from './tokens.server';

/** Whether no account exists yet (GET /v1/setup). Unknown (API down, old gateway): false, the plain login page. */
export async function needsSetup(apiUrl: string): Promise<boolean> {
  try {
    return (await ok(createApiClient(apiUrl).GET('/v1/setup'))).needsSetup;
  } catch (err) {
    if (err instanceof ApiError || err instanceof ApiUnreachableError) return false;
    throw err;
  }
}

/** `Authorization: Basic …` for the administrator's user name and password (UTF-8, as the gateway reads it). */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

export type CreateFirstUserResult =
  { ok: true; user: User } | { ok: false; status: number; message: string; field?: 'admin' };

/** Creates the first account with POST /v1/users as the administrator; a refusal comes back as the form's message. */
export async function createFirstUser(
  apiUrl: string,
  admin: { username: string; password: string },
  user: UserRequest,
  client?: LoginClient,
): Promise<CreateFirstUserResult> {
  const api = createClient<paths>({
    baseUrl: apiUrl,
    fetch: (r: Request) => apiFetch(r),
    // The gateway limits failed admin attempts per browser address, as it does logins.
    headers: { Authorization: basicAuthorization(admin.username, admin.password), ...clientHeaders(client) },
  });
  try {
    return { ok: true, user: await ok(api.POST('/v1/users', { body: user })) };
  } catch (err) {
    if (err instanceof ApiError) {
      if (err.status === 401)
        return {
          ok: false,
          status: 401,
          field: 'admin',
          message:
            'Wrong administrator user name or password: nothing was created. The password is in the file make up names (data/secrets/admin-password), or TROVE_ADMIN_PASSWORD.',
        };
      if (err.status === 429)
        return {
          ok: false,
          status: 429,
          field: 'admin',
          message: 'Too many attempts with wrong administrator credentials. Wait a minute, then try again.',
        };
      if (err.status === 400 || err.status === 409) return { ok: false, status: err.status, message: err.message };
      return { ok: false, status: 502, message: `The Trove server refused: ${err.message}` };
    }
    if (err instanceof ApiUnreachableError)
      return { ok: false, status: 503, message: 'The Trove server cannot be reached right now.' };
    throw err;
  }
}
