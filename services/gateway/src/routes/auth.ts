import { REVOCATIONS, loginRpc, logoutRpc, refreshRpc } from '@trove/proto-events';
import { unauthorized } from '@trove/kit';
import type { Bus } from '@trove/kit';
import type { ClientAddresses } from '../http/client-address';
import type { OperationRouter } from '../openapi/operation-router';
import type { AccessTokenVerifier } from '../security/access-tokens';
import { parseBearer } from '../security/authorization-header';

export interface AuthRouteDeps {
  bus: Bus;
  tokens: AccessTokenVerifier;
  clientAddresses: ClientAddresses;
}

/** Longest refresh token worth sending to the auth service; anything longer is not one of ours. */
const MAX_REFRESH_TOKEN = 512;

/** Login, refresh, logout: declared without security, each checks the credentials it is given. */
export function authRoutes(routes: OperationRouter, deps: AuthRouteDeps): void {
  routes.handle('login', async (req, res) => {
    const { username, password } = req.body;
    const clientAddress = deps.clientAddresses.of(req);
    res.json(await deps.bus.request(loginRpc, { username, password, ...(clientAddress ? { clientAddress } : {}) }));
  });

  routes.handle('refresh', async (req, res) => {
    const token = parseBearer(req.get('authorization')) ?? req.body?.refreshToken;
    if (!token || token.length > MAX_REFRESH_TOKEN) throw unauthorized();
    res.json(await deps.bus.request(refreshRpc, { refreshToken: token }));
  });

  routes.handle('logout', async (req, res) => {
    const token = parseBearer(req.get('authorization'));
    const claims = token ? deps.tokens.verify(token) : undefined;
    if (!claims) throw unauthorized();
    await deps.bus.request(logoutRpc, { userId: claims.userId, sessionId: claims.sessionId });
    deps.tokens.revocations.add(REVOCATIONS.sessionKey(claims.sessionId));
    res.status(204).end();
  });
}
