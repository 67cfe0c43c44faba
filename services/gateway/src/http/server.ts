import { createServer, maxHeaderSize } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { Duplex } from 'node:stream';

export interface ConnectionLimits {
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/**
 * How often Node looks for requests whose headers are overdue (its default, 30 s, would let a
 * slow client hold a socket that much longer than `headersTimeoutMs`).
 */
const CONNECTIONS_CHECK_MS = 1000;

/**
 * The gateway's HTTP server. Node's whole-request timeout is off (`requestTimeout: 0`): an upload
 * of several GiB streams for as long as data flows. Bodies are bounded per request instead
 * (`bodyDeadline`, and the upload's idle timeout); headers and idle connections are bounded here.
 */
export function listen(app: RequestListener, opts: ConnectionLimits & { port: number; host: string }): Promise<Server> {
  const server = createServer(
    { requestTimeout: 0, headersTimeout: opts.headersTimeoutMs, connectionsCheckingInterval: CONNECTIONS_CHECK_MS },
    app,
  );
  server.keepAliveTimeout = opts.keepAliveTimeoutMs;
  server.on('clientError', answerUnreadableRequest);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** What Node answers a request it cannot read, as Node chooses the status, with the contract's `{"message"}`. */
function unreadableRequestAnswer(code: string | undefined): { status: number; reason: string; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        message: `the request line and headers are over ${maxHeaderSize / 1024} KiB: send long lists in a body`,
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', message: 'the request headers did not arrive in time' };
    default:
      return { status: 400, reason: 'Bad Request', message: 'not a well-formed HTTP/1.1 request' };
  }
}

/**
 * Node answers a request it cannot parse (a request line or headers over its limit, headers too slow, bytes that are
 * not HTTP) itself, with a bare status line; this gives that answer the `{"message"}` every error of the contract has.
 */
function answerUnreadableRequest(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own condition for answering at all: the peer is still there and no answer has begun on the socket.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, reason, message } = unreadableRequestAnswer(err.code);
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
