/**
 * Streams media bytes from the gateway for the content URLs rewritten to the web app's origin
 * (see content-url.server.ts). It forwards exactly what the signed URL needs — path, `exp`, `sig`,
 * `Range`, `If-None-Match` — and never the browser's cookies: the signature is the authorisation.
 * Range answers (206) pass through, so videos seek.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** A media item's bytes, and a face's own thumbnail (people's covers). */
export const CONTENT_PATH =
  /^\/v1\/(mediaItems\/[0-9a-fA-F-]{36}\/(original|preview|thumbnail)|explore\/faces\/[0-9a-fA-F-]{36}\/thumbnail)$/;

const REQUEST_HEADERS = ['range', 'if-none-match', 'if-range', 'accept'];
const RESPONSE_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'etag',
  'cache-control',
  'last-modified',
  'content-disposition',
];

export function isContentRequest(method: string | undefined, url: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  const path = (url ?? '').split('?')[0];
  return CONTENT_PATH.test(path);
}

export function createContentProxy(apiUrl: string) {
  return async function contentProxy(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers: Record<string, string> = {};
    for (const h of REQUEST_HEADERS) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    let upstream: Response;
    try {
      upstream = await fetch(`${apiUrl}${req.url ?? '/'}`, {
        method: req.method,
        headers,
        redirect: 'manual',
        signal: abort.signal,
      });
    } catch {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'The Trove server cannot be reached right now.' }));
      }
      return;
    }
    const out: Record<string, string> = { 'x-content-type-options': 'nosniff' };
    for (const h of RESPONSE_HEADERS) {
      const v = upstream.headers.get(h);
      if (v !== null) out[h] = v;
    }
    res.writeHead(upstream.status, out);
    if (!upstream.body || req.method === 'HEAD') {
      res.end();
      return;
    }
    const body = Readable.fromWeb(upstream.body as NodeReadableStream<Uint8Array>);
    body.on('error', () => res.destroy());
    body.pipe(res);
  };
}
