/**
 * What every loader and action receives as its `context`: the configuration and the long-lived
 * helpers built from it. server.mjs builds it once; tests build their own.
 */
import type { WebConfig } from './config.server';
import { SessionCookies } from './session.server';
import { TokenRefresher } from './tokens.server';

// A type alias, not an interface: Remix's AppLoadContext has an index signature it must satisfy.
export type WebContext = {
  config: WebConfig;
  sessions: SessionCookies;
  refresher: TokenRefresher;
  /** The browser's address (the socket's, or X-Forwarded-For from a trusted proxy): logins pass it to the gateway. */
  clientAddress?: string;
  /** This answer's Content-Security-Policy nonce, for the page's inline scripts (none in `--dev`). */
  cspNonce?: string;
};

declare module '@remix-run/node' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends WebContext {}
}

export function createWebContext(config: WebConfig): WebContext {
  return {
    config,
    sessions: new SessionCookies(config.sessionSecrets, config.sessionTtlDays),
    refresher: new TokenRefresher(config.apiUrl),
  };
}

/** The context of one request: the shared one plus who sent it. */
export function requestContext(shared: WebContext, clientAddress: string | undefined, cspNonce?: string): WebContext {
  return { ...shared, clientAddress, cspNonce };
}
