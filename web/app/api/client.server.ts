/**
 * The typed API client: openapi-fetch over the paths generated from openapi/openapi.yaml, so every
 * path, parameter, body and answer is checked against the contract at compile time. Only the
 * Remix server talks to the API; it adds the bearer token itself.
 */
import createClient from 'openapi-fetch';
import type { Client } from 'openapi-fetch';
import type { paths } from './types';

export type ApiClient = Client<paths>;

/** Where a client gets its access token, and a fresh one when the API answered 401. */
export interface TokenSource {
  token(): string;
  /** A new access token after a 401 (the session was refreshed), or null to give up with the 401. */
  onUnauthorized(): Promise<string | null>;
}

/** An answer other than 2xx from the API. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The API could not be reached at all (connection refused, DNS, reset). */
export class ApiUnreachableError extends Error {
  constructor(cause: unknown) {
    super(
      `the Trove API cannot be reached: ${cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause)}`,
    );
    this.name = 'ApiUnreachableError';
  }
}

/** `fetch`, with network failures turned into ApiUnreachableError. */
export async function apiFetch(input: Request | string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (err) {
    if (err instanceof Response) throw err;
    throw new ApiUnreachableError(err);
  }
}

/** `headers`: sent with every call (the visitor's address for anonymous calls, see visitor.server.ts). */
export function createApiClient(baseUrl: string, auth?: TokenSource, headers?: Record<string, string>): ApiClient {
  const withToken = (request: Request, token: string) => {
    const r = new Request(request);
    r.headers.set('Authorization', `Bearer ${token}`);
    return r;
  };
  const authedFetch = async (request: Request): Promise<Response> => {
    if (!auth) return apiFetch(request);
    const again = request.clone();
    const first = await apiFetch(withToken(request, auth.token()));
    if (first.status !== 401) return first;
    const token = await auth.onUnauthorized();
    if (!token) return first;
    await first.body?.cancel();
    return apiFetch(withToken(again, token));
  };
  return createClient<paths>({ baseUrl, fetch: authedFetch, ...(headers ? { headers } : {}) });
}

function messageOf(body: unknown, status: number): string {
  if (
    body &&
    typeof body === 'object' &&
    'message' in body &&
    typeof (body as { message: unknown }).message === 'string'
  ) {
    return (body as { message: string }).message;
  }
  return `the API answered ${status}`;
}

/** The data of a 2xx answer; anything else throws ApiError. */
export async function ok<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, messageOf(error, response.status), error);
  return data as D;
}
