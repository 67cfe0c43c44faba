/**
 * Anonymous API calls on behalf of a browser (shared albums). This server makes them from its own
 * address, so it names the browser's (with the proxy secret, as logins do): the gateway then counts
 * its per-address limits against each visitor, and one visitor cannot spend everyone's.
 */
import { createApiClient } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import type { WebContext } from './context.server';
import { clientHeaders } from './tokens.server';

/** The visitor's headers: their address, and the unlock token of a password-protected link. */
export function visitorHeaders(context: WebContext, shareToken?: string): Record<string, string> {
  const headers = clientHeaders({ address: context.clientAddress, proxySecret: context.config.proxySecret });
  return shareToken ? { ...headers, 'X-Share-Token': shareToken } : headers;
}

export function visitorApi(context: WebContext, shareToken?: string): ApiClient {
  return createApiClient(context.config.apiUrl, undefined, visitorHeaders(context, shareToken));
}
