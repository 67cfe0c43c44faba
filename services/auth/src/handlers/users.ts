import { createUserRpc, deleteUserRpc, getUserRpc, listUsersRpc, updateUserRpc } from '@trove/proto-events';
import { badRequest, notFound, rpcHandler } from '@trove/kit';
import type { ServeOptions } from '@trove/kit';
import type { DeletionDeps } from '../users/deletion';
import { deleteUser } from '../users/deletion';
import { hashPassword } from '../users/passwords';
import { nameProblem, passwordProblem, usernameProblem } from '../users/policy';
import { toUserV1 } from '../users/repository';
import type { UserChanges } from '../users/repository';

const userNotFound = () => notFound('user not found');

/** Throws 400 with the first problem found (its message names the field). */
function check(...problems: Array<string | undefined>): void {
  const problem = problems.find((p) => p !== undefined);
  if (problem) throw badRequest(problem);
}

/** User administration; the gateway only lets the administrator reach these. */
export function userHandlers(deps: DeletionDeps): ServeOptions['handlers'] {
  const { users, sessions, revocations } = deps;

  return [
    rpcHandler(createUserRpc, async ({ name, username, password }) => {
      check(nameProblem(name), usernameProblem(username), passwordProblem(password, username));
      const user = await users.create({ name, username, passwordHash: await hashPassword(password) });
      return toUserV1(user);
    }),

    rpcHandler(listUsersRpc, async ({ page, limit }) => ({ users: (await users.list(page, limit)).map(toUserV1) })),

    rpcHandler(getUserRpc, async ({ id }) => {
      const user = await users.findById(id);
      if (!user) throw userNotFound();
      return toUserV1(user);
    }),

    rpcHandler(updateUserRpc, async ({ id, name, username, password }) => {
      const existing = await users.findById(id);
      if (!existing) throw userNotFound();
      check(
        name === undefined ? undefined : nameProblem(name),
        username === undefined ? undefined : usernameProblem(username),
        password === undefined ? undefined : passwordProblem(password, username ?? existing.username),
      );
      const changes: UserChanges = {};
      if (name !== undefined) changes.name = name;
      if (username !== undefined) changes.username = username;
      if (password !== undefined) changes.passwordHash = await hashPassword(password);
      const updated = await users.update(id, changes);
      if (!updated) throw userNotFound();
      if (password !== undefined) {
        // A new password ends every session: whoever knew the old one is logged out.
        for (const sessionId of await sessions.idsOfUser(id)) await revocations.revokeSession(sessionId);
        await sessions.deleteOfUser(id);
      }
      return toUserV1(updated);
    }),

    rpcHandler(deleteUserRpc, async ({ id }) => {
      if (!(await deleteUser(deps, id))) throw userNotFound();
      return {};
    }),
  ];
}
