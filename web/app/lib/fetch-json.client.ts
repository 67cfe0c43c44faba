/** The browser's calls to the web app's JSON routes. A 401 means the session ended: back to login. */

import { loginUrl } from './login-url';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

function toLogin(): never {
  // A call still under way when the user logged out answers 401 once the login page is shown: stay there.
  if (window.location.pathname !== '/login')
    window.location.assign(loginUrl(`${window.location.pathname}${window.location.search}`));
  throw new HttpError(401, 'Your session ended. Log in again.');
}

async function parse<T>(response: Response): Promise<T> {
  if (response.status === 401) toLogin();
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message =
      body && typeof body === 'object' && 'message' in body && typeof body.message === 'string'
        ? body.message
        : `The server answered ${response.status}.`;
    throw new HttpError(response.status, message);
  }
  return body as T;
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new HttpError(0, 'The server cannot be reached. Check your connection.');
  }
  const body = await parse<T>(response);
  // Aborted while the body was read, it reads as nothing: the caller wants no answer any more.
  signal?.throwIfAborted();
  return body;
}

export async function postJson<T>(url: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
  } catch {
    throw new HttpError(0, 'The server cannot be reached. Check your connection.');
  }
  return parse<T>(response);
}

/** A form's fields posted as a browser form would send them (`application/x-www-form-urlencoded`). */
export async function postForm<T>(url: string, fields: URLSearchParams): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      body: fields,
    });
  } catch {
    throw new HttpError(0, 'The server cannot be reached. Check your connection.');
  }
  return parse<T>(response);
}
