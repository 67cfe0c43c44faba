import {
  changePasswordRpc,
  createApiKeyRpc,
  createUserRpc,
  deleteApiKeyRpc,
  listApiKeysRpc,
  resolveApiKeyRpc,
  deleteUserRpc,
  getUserRpc,
  listUsersRpc,
  loginRpc,
  lookupUsersRpc,
  logoutRpc,
  refreshRpc,
  setupStatusRpc,
  updateUserRpc,
} from '@trove/proto-events';
import { rpcCommand, rpcHandler } from '@trove/kit';
import type { AnyRpcHandler } from '@trove/kit';
import type { ApiKeysService } from './api-keys/service';
import type { SessionsService } from './sessions/service';
import type { UsersService } from './users/service';

/**
 * The auth service's RPCs, one line each: login, refresh, logout and the setup status (no user yet?) for anyone;
 * a user's own password change;
 * user administration for the administrator (the gateway checks); a user's API keys, and whose key a hash is.
 */
export function authHandlers(sessions: SessionsService, users: UsersService, apiKeys: ApiKeysService): AnyRpcHandler[] {
  return [
    rpcHandler(loginRpc, (req) => sessions.login(req)),
    rpcHandler(refreshRpc, ({ refreshToken }) => sessions.refresh(refreshToken)),
    rpcCommand(logoutRpc, ({ sessionId }) => sessions.logout(sessionId)),
    rpcCommand(changePasswordRpc, (req) => sessions.changePassword(req)),
    rpcHandler(createUserRpc, (req) => users.create(req)),
    rpcHandler(listUsersRpc, async ({ page, limit }) => ({ users: await users.list(page, limit) })),
    rpcHandler(getUserRpc, ({ id }) => users.get(id)),
    rpcHandler(lookupUsersRpc, async ({ ids, usernames }) => ({
      users: await users.lookup(ids ?? [], usernames ?? []),
    })),
    rpcHandler(updateUserRpc, (req) => users.update(req)),
    rpcCommand(deleteUserRpc, ({ id }) => users.delete(id)),
    rpcHandler(setupStatusRpc, async () => ({ needsSetup: await users.needsSetup() })),
    rpcHandler(createApiKeyRpc, ({ userId, name }) => apiKeys.create(userId, name)),
    rpcHandler(listApiKeysRpc, async ({ userId }) => ({ apiKeys: await apiKeys.list(userId) })),
    rpcCommand(deleteApiKeyRpc, ({ userId, id }) => apiKeys.delete(userId, id ?? '')),
    rpcHandler(resolveApiKeyRpc, ({ keyHash }) => apiKeys.resolve(keyHash)),
  ];
}
