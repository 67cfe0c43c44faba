/**
 * The web server's bound on request bodies, checked from the headers before anything reads a byte:
 * every route but the streamed upload relay takes at most `limitBytes` (forms and JSON of a
 * thousand ids fit in a few dozen KiB). A larger declared length is answered 413 at once, and a
 * body without a length (chunked; browsers never send one) 411, so no route can be made to buffer
 * an unbounded body; Node reads exactly Content-Length bytes, so a declared length is a real bound.
 * The connection is closed after the refusal, so the unread body is never drained.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Routes whose body is relayed as a stream and never held (the upload relay, api.upload.tsx). */
export function isStreamedBodyRoute(method: string | undefined, url: string | undefined): boolean {
  return method === 'POST' && (url ?? '').split('?')[0] === '/api/upload';
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ message });
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}

export function bodyLimit(limitBytes: number) {
  return function limitBody(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (isStreamedBodyRoute(req.method, req.url)) return next();
    if (req.headers['transfer-encoding'] !== undefined) {
      return refuse(res, 411, `send the request body with a Content-Length (at most ${limitBytes} bytes)`);
    }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limitBytes) {
      return refuse(res, 413, `request body too large: at most ${limitBytes} bytes here`);
    }
    next();
  };
}
