import { Router } from 'express';
import { REVOCATIONS, createUserRpc, deleteUserRpc, getUserRpc, listUsersRpc, updateUserRpc } from '@trove/proto-events';
import type { UpdateUserRequestV1 } from '@trove/proto-events';
import { badRequest } from '@trove/kit';
import type { Bus } from '@trove/kit';
import { handle } from '../http/async';
import type { Revocations } from '../security/revocations';
import { requireAdmin } from '../security/authenticate';

export interface UserRouteDeps {
  bus: Bus;
  revocations: Revocations;
}

type UserBody = { name?: string; username?: string; password?: string };

/** Only the fields the contract knows: unknown extra fields are ignored, never forwarded. */
function pick(body: UserBody): Omit<UpdateUserRequestV1, 'id'> {
  const out: Omit<UpdateUserRequestV1, 'id'> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.username !== undefined) out.username = body.username;
  if (body.password !== undefined) out.password = body.password;
  return out;
}

/** User administration (basic auth with the administrator account, checked by `authenticate`). */
export function userRoutes(deps: UserRouteDeps): Router {
  const r = Router();

  r.get(
    '/v1/users',
    handle(async (req, res) => {
      requireAdmin(res);
      // Coerced to integers, with their defaults, by the validator.
      const { page, limit } = req.query as unknown as { page: number; limit: number };
      res.json((await deps.bus.request(listUsersRpc, { page, limit })).users);
    }),
  );

  r.post(
    '/v1/users',
    handle(async (req, res) => {
      requireAdmin(res);
      const { name, username, password } = req.body as Required<UserBody>;
      res.status(201).json(await deps.bus.request(createUserRpc, { name, username, password }));
    }),
  );

  r.get(
    '/v1/users/:id',
    handle(async (req, res) => {
      requireAdmin(res);
      res.json(await deps.bus.request(getUserRpc, { id: req.params.id }));
    }),
  );

  r.put(
    '/v1/users/:id',
    handle(async (req, res) => {
      requireAdmin(res);
      const changes = pick(req.body as UserBody);
      if (Object.keys(changes).length === 0) throw badRequest('request/body must contain at least one of name, username, password');
      await deps.bus.request(updateUserRpc, { id: req.params.id, ...changes });
      res.status(204).end();
    }),
  );

  r.delete(
    '/v1/users/:id',
    handle(async (req, res) => {
      requireAdmin(res);
      await deps.bus.request(deleteUserRpc, { id: req.params.id });
      // The watch brings the same revocation; recording it now leaves no window for this gateway.
      deps.revocations.add(REVOCATIONS.userKey(req.params.id));
      res.status(204).end();
    }),
  );

  return r;
}
