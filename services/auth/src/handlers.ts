import {
  createUserRpc,
  deleteUserRpc,
  getUserRpc,
  listUsersRpc,
  loginRpc,
  logoutRpc,
  refreshRpc,
  setupStatusRpc,
  updateUserRpc,
} from '@trove/proto-events';
import { rpcHandler } from '@trove/kit';
import type { ServeOptions } from '@trove/kit';
import type { Sessions } from './sessions/service';
import type { Users } from './users/service';

/** The auth service's RPCs: login, refresh, logout and the setup status (no user yet?) for anyone; user administration for the administrator (the gateway checks). */
export function authHandlers(sessions: Sessions, users: Users): ServeOptions['handlers'] {
  return [
    rpcHandler(loginRpc, (req) => sessions.login(req)),
    rpcHandler(refreshRpc, ({ refreshToken }) => sessions.refresh(refreshToken)),
    rpcHandler(logoutRpc, async ({ sessionId }) => {
      await sessions.logout(sessionId);
      return {};
    }),
    rpcHandler(createUserRpc, (req) => users.create(req)),
    rpcHandler(listUsersRpc, async ({ page, limit }) => ({ users: await users.list(page, limit) })),
    rpcHandler(getUserRpc, ({ id }) => users.get(id)),
    rpcHandler(updateUserRpc, (req) => users.update(req)),
    rpcHandler(deleteUserRpc, async ({ id }) => {
      await users.delete(id);
      return {};
    }),
    rpcHandler(setupStatusRpc, async () => ({ needsSetup: await users.needsSetup() })),
  ];
}
