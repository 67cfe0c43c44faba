/**
 * Anonymous API calls on behalf of a browser (shared albums). This server makes them from its own
 * address, so it names the browser's (with the proxy secret, as logins do): the gateway then counts
 * its per-address limits against each visitor, and one visitor cannot spend everyone's.
 */
import { createApiClient } from '~/api/client.server';
import type { ApiClient } from '~/api/client.server';
import type { WebContext } from './context.server';
import { clientHeaders } from './tokens.server';

export function visitorApi(context: WebContext): ApiClient {
  return createApiClient(
    context.config.apiUrl,
    undefined,
    clientHeaders({ address: context.clientAddress, proxySecret: context.config.proxySecret }),
  );
}
