/**
 * A stand-in for the gateway in loader/action tests: a real HTTP server on loopback whose answers
 * the test chooses per route, recording every request it got (method, path, headers, body).
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebContext } from '../app/lib/context.server';
import type { WebContext } from '../app/lib/context.server';
import { parseWebConfig } from '../app/lib/config.server';
import type { SessionData } from '../app/lib/session.server';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = (req: Recorded) => Answer | Promise<Answer>;

export interface FakeGateway {
  url: string;
  requests: Recorded[];
  /** Answers `METHOD /path` (path without the query) with `handler`. */
  on(route: string, handler: Handler | Answer): void;
  close(): Promise<void>;
}

export async function startFakeGateway(): Promise<FakeGateway> {
  const routes = new Map<string, Handler>();
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(rec);
      const handler = routes.get(`${rec.method} ${rec.path.split('?')[0]}`);
      Promise.resolve(handler ? handler(rec) : { status: 404, body: { message: 'not found' } }).then((a) => {
        res.writeHead(a.status, {
          ...(a.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...a.headers,
        });
        res.end(
          a.body === undefined
            ? undefined
            : typeof a.body === 'string' || Buffer.isBuffer(a.body)
              ? a.body
              : JSON.stringify(a.body),
        );
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    on(route, handler) {
      routes.set(route, typeof handler === 'function' ? handler : () => handler);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const TEST_SECRET = 'test-session-secret-test-session-secret';

export function testContext(apiUrl: string): WebContext {
  return createWebContext(
    parseWebConfig({ TROVE_API_URL: apiUrl, TROVE_SESSION_SECRET: TEST_SECRET }, () => TEST_SECRET),
  );
}

export function session(over: Partial<SessionData> = {}): SessionData {
  return {
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    expiresAt: Date.now() + 10 * 60_000,
    username: 'alice',
    ...over,
  };
}

/** A request to the web app carrying a session cookie. */
export async function requestWith(
  ctx: WebContext,
  url: string,
  data: SessionData | null,
  init: RequestInit = {},
): Promise<Request> {
  const headers = new Headers(init.headers);
  if (data) {
    const setCookie = await ctx.sessions.commit(new Request(url), data);
    headers.set('Cookie', setCookie.split(';')[0]);
  }
  return new Request(url, { ...init, headers });
}

/** The session a response's Set-Cookie stores (null when it clears it or sets none). */
export async function sessionFrom(ctx: WebContext, response: Response): Promise<SessionData | null> {
  const setCookie = response.headers.get('Set-Cookie');
  if (!setCookie) return null;
  return ctx.sessions.read(new Request('http://web/', { headers: { Cookie: setCookie.split(';')[0] } }));
}

/** What a loader or action answered, whether it returned or threw the Response. */
export async function settle(p: unknown): Promise<Response> {
  try {
    return (await p) as Response;
  } catch (err) {
    if (err instanceof Response) return err;
    throw err;
  }
}

/** A form POST's request options. */
export function form(fields: Record<string, string> | [string, string][]): RequestInit {
  return {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  };
}
