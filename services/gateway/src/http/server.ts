import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';

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
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
