import {
  changePasswordRpc,
  createApiKeyRpc,
  deleteApiKeyRpc,
  getUserRpc,
  listApiKeysRpc,
  mediaUsageRpc,
} from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { ClientAddresses } from '../http/client-address';
import type { OperationRouter } from '../openapi/operation-router';
import { schemaFields } from '../openapi/schema-fields';
import { requireUser } from '../security/authenticate';
import { userAnswer, userCommand } from './user-calls';

export interface AccountRouteDeps {
  bus: Bus;
  clientAddresses: ClientAddresses;
}

/**
 * The caller's own account: what the auth service keeps (name, features, quota) and what the media
 * service counts (usage), each asked of its owner. Only the administrator changes an account
 * (PUT /v1/users/{id}, basic auth), so nobody raises their own quota; a user changes their own
 * password, proving the current one.
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

  routes.handle('changePassword', async (req, res) => {
    const { userId, sessionId } = requireUser(res);
    const clientAddress = deps.clientAddresses.of(req);
    await deps.bus.request(changePasswordRpc, {
      userId,
      sessionId,
      currentPassword: req.body.currentPassword,
      newPassword: req.body.newPassword,
      ...(clientAddress ? { clientAddress } : {}),
    });
    res.status(204).end();
  });

  // API keys: the auth service keeps them; the secret is in the create answer only.
  routes.handle(
    'createApiKey',
    userAnswer(async (req, userId) => {
      const created = await deps.bus.request(createApiKeyRpc, { userId, name: req.body.name });
      return { ...schemaFields('ApiKey', created), key: created.key ?? '' };
    }, 201),
  );
  routes.handle(
    'listApiKeys',
    userAnswer(async (_req, userId) =>
      (await deps.bus.request(listApiKeysRpc, { userId })).apiKeys.map((k) => schemaFields('ApiKey', k)),
    ),
  );
  routes.handle(
    'deleteApiKey',
    userCommand((req, userId) => deps.bus.request(deleteApiKeyRpc, { userId, id: req.params.id })),
  );
}
