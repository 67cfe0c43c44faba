import { getUserRpc, mediaUsageRpc } from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { OperationRouter } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { requireUser } from '../security/authenticate';

export interface AccountRouteDeps {
  bus: Bus;
}

/**
 * The caller's own account: what the auth service keeps (name, features, quota) and what the media
 * service counts (usage), each asked of its owner. Read-only: only the administrator changes an
 * account (PUT /v1/users/{id}, basic auth), so nobody raises their own quota.
 */
export function accountRoutes(routes: OperationRouter, deps: AccountRouteDeps): void {
  routes.handle('getAccount', async (_req, res) => {
    const { userId } = requireUser(res);
    const [user, usage] = await Promise.all([
      deps.bus.request(getUserRpc, { id: userId }),
      deps.bus.request(mediaUsageRpc, { userId }),
    ]);
    res.json(schemaFields('Account', { ...user, usageBytes: usage.usageBytes }));
  });
}
