/**
 * The administrator's pages: the browser's basic-auth dialog asks for the admin credentials (as the
 * API does), and this server passes them on to the gateway's users API with each call. They live
 * only in the browser's credential cache: never stored, logged or put in a page here.
 */
import { json } from '@remix-run/node';
import createClient from 'openapi-fetch';
import { ApiError, ApiUnreachableError, apiFetch } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import type { paths } from '~/api/types';
import type { WebContext } from './context.server';
import { clientHeaders } from './tokens.server';

const REALM = 'Trove administration';

/** The answer that makes the browser ask for (new) credentials. */
export function askForCredentials(): Response {
  return json(
    { message: 'The administrator credentials are needed.' },
    {
      status: 401,
      headers: { 'WWW-Authenticate': `Basic realm="${REALM}", charset="UTF-8"`, 'Cache-Control': 'no-store' },
    },
  );
}

/** An API client calling as the administrator whose basic credentials the request carries; thrown: the 401 that asks for them. */
export function adminApi(request: Request, context: WebContext): ApiClient {
  const authorization = request.headers.get('Authorization');
  if (!authorization || !/^Basic [A-Za-z0-9+/=]+$/.test(authorization)) throw askForCredentials();
  return createClient<paths>({
    baseUrl: context.config.apiUrl,
    fetch: (r: Request) => apiFetch(r),
    // The gateway limits failed admin attempts per browser, as it does logins.
    headers: {
      Authorization: authorization,
      ...clientHeaders({ address: context.clientAddress, proxySecret: context.config.proxySecret }),
    },
  });
}

/** A failed admin call as the page answers it: wrong credentials ask again; a refusal of the input is the form's message (null: rethrow). */
export function adminFailure(err: unknown): { response: Response } | { message: string } {
  if (err instanceof ApiError) {
    if (err.status === 401) return { response: askForCredentials() };
    if (err.status === 400 || err.status === 409) return { message: err.message };
    if (err.status === 404) return { message: 'That user no longer exists.' };
    if (err.status === 429)
      return { message: 'Too many attempts with wrong credentials. Wait a minute, then try again.' };
  }
  if (err instanceof ApiUnreachableError)
    return { response: json({ message: 'The Trove server cannot be reached right now.' }, { status: 503 }) };
  throw err;
}
