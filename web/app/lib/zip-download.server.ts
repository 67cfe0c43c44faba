/**
 * "Download album": the gateway's ZIP passed through as it streams (never buffered here), with its
 * Content-Disposition, so the browser saves it under the album's name. A refusal keeps its status
 * and the API's message.
 */
import { json } from '@remix-run/node';
import { ApiError } from '~/api/client.server';

/** What the browser is told of the ZIP (the rest of the gateway's headers stay behind). */
const PASSED = ['content-type', 'content-disposition', 'content-length'];

/** `call`: the API call made with `parseAs: 'stream'`, so that its body is left unread. */
export async function zipResponse(call: Promise<{ response: Response; error?: unknown }>): Promise<Response> {
  const { response, error } = await call;
  if (!response.ok || !response.body) {
    const message =
      error && typeof error === 'object' && 'message' in error && typeof error.message === 'string'
        ? error.message
        : `the API answered ${response.status}`;
    throw new ApiError(response.status, message, error);
  }
  const headers = new Headers({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
  for (const h of PASSED) {
    const v = response.headers.get(h);
    if (v !== null) headers.set(h, v);
  }
  return new Response(response.body, { status: 200, headers });
}

/** A refusal as the browser gets it: a plain message (the link is a download, not a page). */
export function zipFailure(err: unknown): Response {
  if (err instanceof Response) return err;
  if (err instanceof ApiError) {
    const status = err.status === 404 ? 404 : err.status >= 400 && err.status < 600 ? err.status : 502;
    return json({ message: err.status === 404 ? 'Not found' : err.message }, { status });
  }
  return json({ message: 'The Trove server cannot be reached right now.' }, { status: 503 });
}
