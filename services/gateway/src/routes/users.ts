import {
  REVOCATIONS,
  createUserRpc,
  deleteUserRpc,
  getUserRpc,
  listUsersRpc,
  updateUserRpc,
} from '@trove/proto-events';
import type { Bus } from '@trove/kit';
import type { OperationRouter } from '../openapi/operation-router';
import { requestedChanges, schemaFields } from '../openapi/schema-fields';
import type { Revocations } from '../security/revocations';
import { requireAdmin } from '../security/authenticate';
import { decodeFeatures } from '../features/user-features';

export interface UserRouteDeps {
  bus: Bus;
  revocations: Revocations;
}

/** User administration (basic auth with the administrator account, checked by `authenticate`). */
export function userRoutes(routes: OperationRouter, deps: UserRouteDeps): void {
  routes.handle('listUsers', async (req, res) => {
    requireAdmin(res);
    res.json((await deps.bus.request(listUsersRpc, { ...req.query })).users);
  });

  routes.handle('createUser', async (req, res) => {
    requireAdmin(res);
    const fields = schemaFields('UserRequest', req.body);
    res
      .status(201)
      .json(await deps.bus.request(createUserRpc, { ...fields, features: decodeFeatures(fields.features) }));
  });

  routes.handle('getUser', async (req, res) => {
    requireAdmin(res);
    res.json(await deps.bus.request(getUserRpc, { id: req.params.id }));
  });

  routes.handle('updateUser', async (req, res) => {
    requireAdmin(res);
    const changes = requestedChanges('UserUpdateRequest', req.body);
    await deps.bus.request(updateUserRpc, {
      id: req.params.id,
      ...changes,
      features: decodeFeatures(changes.features),
    });
    res.status(204).end();
  });

  routes.handle('deleteUser', async (req, res) => {
    requireAdmin(res);
    await deps.bus.request(deleteUserRpc, { id: req.params.id });
    // The watch brings the same revocation; recording it now leaves no window for this gateway.
    deps.revocations.add(REVOCATIONS.userKey(req.params.id));
    res.status(204).end();
  });
}
