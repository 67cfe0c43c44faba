import { userDeletedEvent } from '@trove/proto-events';
import type { Bus, Logger } from '@trove/kit';
import type { SessionStore } from '../sessions/sessions';
import type { RevocationWriter } from '../sessions/revocations';
import type { UserDoc, UsersRepository } from './repository';

export interface DeletionDeps {
  users: UsersRepository;
  sessions: SessionStore;
  revocations: RevocationWriter;
  bus: Bus;
  log: Logger;
}

/**
 * Deletes a user in steps that are each safe to repeat, so a deletion interrupted half-way (crash,
 * NATS hiccup) is finished by a retry or at the next start:
 * 1. mark the user as deleting (from now on it is "not found" and cannot log in);
 * 2. revoke its access tokens at once (revocation bucket) and delete its sessions (refresh tokens);
 * 3. publish events.v1.user.deleted (de-duplicated by id) so the other services remove its data;
 * 4. remove the account.
 * Returns false when there is no such user.
 */
export async function deleteUser(deps: DeletionDeps, id: string): Promise<boolean> {
  const user = await deps.users.markDeleting(id);
  if (!user) return false;
  await finishDeletion(deps, user);
  return true;
}

export async function finishDeletion(deps: DeletionDeps, user: UserDoc): Promise<void> {
  const deletedAt = (user.deletingAt ?? new Date()).toISOString();
  await deps.revocations.revokeUser(user._id);
  await deps.sessions.deleteOfUser(user._id);
  await deps.bus.publish(userDeletedEvent, { userId: user._id, deletedAt }, { msgId: `user-deleted-${user._id}` });
  await deps.users.remove(user._id);
  deps.log.info({ deletedUserId: user._id }, 'user deleted');
}

/** At start: finishes deletions a previous run left half-way. */
export async function resumeDeletions(deps: DeletionDeps): Promise<void> {
  for (const user of await deps.users.listDeleting()) {
    await finishDeletion(deps, user).catch((err) => deps.log.error({ err, deletedUserId: user._id }, 'could not finish a user deletion'));
  }
}
