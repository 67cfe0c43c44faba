/**
 * The web server's bound on request bodies, checked from the headers before anything reads a byte:
 * every route but the streamed upload relay takes at most `limitBytes` (forms and JSON of a
 * thousand ids fit in a few dozen KiB). A larger declared length is answered 413 at once, and a
 * body without a length (chunked; browsers never send one) 411, so no route can be made to buffer
 * an unbounded body; Node reads exactly Content-Length bytes, so a declared length is a real bound.
 * After a refusal the rest of the body is read and dropped (nothing is kept) for at most `LINGER_MS`,
 * then the connection is cut: closing at once would make the client's next write fail before it has
 * read the answer (the kernel resets a socket that receives data after close), so it might never see
 * the 413; lingering briefly, as nginx does, lets it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Routes whose body is relayed as a stream and never held (the upload relay, api.upload.tsx). */
export function isStreamedBodyRoute(method: string | undefined, url: string | undefined): boolean {
  return method === 'POST' && (url ?? '').split('?')[0] === '/api/upload';
}

/** How long the rest of a refused body is drained before the connection is cut. */
export const LINGER_MS = 2_000;

function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ message });
  // The whole answer goes out now, but the connection ends only when the body has been drained (read and
  // dropped) or after the linger: a client still sending would otherwise be reset before reading it.
  req.resume();
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.write(body);
  const cut = setTimeout(() => {
    res.end();
    req.socket.destroy();
  }, LINGER_MS);
  cut.unref();
  req.once('end', () => {
    clearTimeout(cut);
    res.end();
  });
  req.socket.once('close', () => clearTimeout(cut));
}

export function bodyLimit(limitBytes: number) {
  return function limitBody(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (isStreamedBodyRoute(req.method, req.url)) return next();
    if (req.headers['transfer-encoding'] !== undefined) {
      return refuse(req, res, 411, `send the request body with a Content-Length (at most ${limitBytes} bytes)`);
    }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limitBytes) {
      return refuse(req, res, 413, `request body too large: at most ${limitBytes} bytes here`);
    }
    next();
  };
}
