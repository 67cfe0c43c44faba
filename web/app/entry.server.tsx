/**
 * The server entry: renders the app to HTML, and exports what server.mjs needs besides Remix's
 * request handler (configuration, load context, the content proxy, logging), so that all of it is
 * TypeScript, bundled by Vite with the rest of the server code, and tested.
 */
import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@remix-run/node';
import type { AppLoadContext, EntryContext, HandleErrorFunction } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { log } from './lib/log.server';
import { NonceProvider } from './lib/nonce';

export { webConfigOrExit } from './lib/config.server';
export { createWebContext, requestContext } from './lib/context.server';
export { mayChangeState } from './lib/same-origin.server';
export { createContentProxy, isContentRequest } from './lib/content-proxy.server';
export { bodyLimit } from './lib/body-limit.server';
export { cspNonceOf, securityHeaders } from './lib/security-headers.server';
export { log } from './lib/log.server';
export { httpRequestDuration, routeLabel, secondsSince, startMetricsServer } from './lib/metrics.server';

const ABORT_DELAY = 5_000;

export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Every inline script of the page carries the answer's CSP nonce (lib/security-headers.server.ts).
  const nonce = loadContext.cspNonce ?? '';
  // Crawlers get the whole page at once; browsers get it as soon as the shell is ready.
  const waitForAll = isbot(request.headers.get('user-agent') ?? '') || remixContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      headers.set('Content-Type', 'text/html; charset=utf-8');
      resolve(new Response(createReadableStreamFromReadable(body), { headers, status }));
      pipe(body);
    };
    const app = (
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />
      </NonceProvider>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce: nonce || undefined,
      onAllReady: waitForAll ? ready : undefined,
      onShellReady: waitForAll ? undefined : ready,
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        if (shellRendered) console.error(error);
      },
    });
    setTimeout(abort, ABORT_DELAY);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  log.error({ url: new URL(request.url).pathname, err: error }, 'request failed');
};
