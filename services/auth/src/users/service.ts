import { completeFeatures, USER_FEATURES, userDeletedEvent } from '@trove/proto-events';
import type { CreateUserRequestV1, FeatureSet, UpdateUserRequestV1, UserV1 } from '@trove/proto-events';
import { badRequest, notFound } from '@trove/kit';
import type { EventPublisher, Logger } from '@trove/kit';
import type { ApiKeysRepository } from '../api-keys/repository';
import type { Revocations } from '../ports/revocations';
import type { SessionsRepository } from '../sessions/repository';
import { hashPassword } from './passwords';
import { nameProblem, passwordProblem, usernameProblem } from './policy';
import { toUserV1 } from './document';
import type { UserDoc } from './document';
import type { UserChanges, UsersRepository } from './repository';

export interface UsersDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  revocations: Revocations;
  /** The users' API keys: a deletion removes them (the user's revocation has stopped them already). */
  apiKeys?: ApiKeysRepository;
  /** Where events.v1.user.deleted goes (the bus; a recorder in unit tests). */
  events: EventPublisher;
  log: Logger;
  /** A new user's quota when the request names none (TROVE_DEFAULT_QUOTA_BYTES); null: unlimited. */
  defaultQuotaBytes?: number | null;
}

const userNotFound = () => notFound('user not found');

/**
 * A new user's features: every one on when the request names none (the server default; what is off
 * for everybody, TROVE_FEATURES_OFF, the gateway takes away); given a features object, exactly the
 * keys it sets true are on and the keys it leaves out are off.
 */
export function featuresAtCreation(given: Partial<FeatureSet> | undefined): FeatureSet {
  if (given === undefined) return completeFeatures(undefined);
  return Object.fromEntries(USER_FEATURES.map((f) => [f, given[f] ?? false])) as FeatureSet;
}

/** A quota is a whole number of bytes, within what a JSON number holds exactly; null (unlimited) and absent are fine. */
export function quotaProblem(quotaBytes: number | null | undefined): string | undefined {
  if (quotaBytes === undefined || quotaBytes === null) return undefined;
  return Number.isSafeInteger(quotaBytes) && quotaBytes >= 0
    ? undefined
    : 'quotaBytes must be a whole number of bytes from 0 to 2^53-1, or null';
}

/** Throws 400 with the first problem found (its message names the field). */
function check(...problems: Array<string | undefined>): void {
  const problem = problems.find((p) => p !== undefined);
  if (problem) throw badRequest(problem);
}

/** User administration; the gateway only lets the administrator reach it. */
export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  /**
   * Throws 400 for a name, username or password the policy refuses, 409 when the username is taken.
   * Features: see featuresAtCreation (left-out keys are off when an object is given).
   */
  async create({ name, username, password, features, quotaBytes }: CreateUserRequestV1): Promise<UserV1> {
    check(nameProblem(name), usernameProblem(username), passwordProblem(password, username), quotaProblem(quotaBytes));
    const quota = quotaBytes === undefined ? (this.deps.defaultQuotaBytes ?? null) : quotaBytes;
    return toUserV1(
      await this.deps.users.create({
        name,
        username,
        passwordHash: await hashPassword(password),
        features: featuresAtCreation(features),
        quotaBytes: quota,
      }),
    );
  }

  /** A first run: no account exists yet (the web app then offers to create one through the admin API). */
  async needsSetup(): Promise<boolean> {
    return !(await this.deps.users.any());
  }

  /** One page, ordered by username. */
  async list(page: number, limit: number): Promise<UserV1[]> {
    return (await this.deps.users.list(page, limit)).map(toUserV1);
  }

  async get(id: string): Promise<UserV1> {
    const user = await this.deps.users.findById(id);
    if (!user) throw userNotFound();
    return toUserV1(user);
  }

  /** What other users may know of these users (id, name, user name): for sharing an album by user name. */
  async lookup(ids: string[], usernames: string[]): Promise<Array<{ id: string; name: string; username: string }>> {
    const found = await this.deps.users.findMany(ids, usernames);
    return found.map((u) => ({ id: u._id, name: u.name, username: u.username }));
  }

  /** Changes what is given (features: the keys given; left-out keys keep their values); a new password ends every session of the user. */
  async update({ id, name, username, password, features, quotaBytes }: UpdateUserRequestV1): Promise<UserV1> {
    const { users, sessions, revocations } = this.deps;
    const existing = await users.findById(id);
    if (!existing) throw userNotFound();
    check(
      name === undefined ? undefined : nameProblem(name),
      username === undefined ? undefined : usernameProblem(username),
      password === undefined ? undefined : passwordProblem(password, username ?? existing.username),
      quotaProblem(quotaBytes),
    );
    const changes: UserChanges = {};
    if (name !== undefined) changes.name = name;
    if (username !== undefined) changes.username = username;
    if (password !== undefined) changes.passwordHash = await hashPassword(password);
    if (features !== undefined) changes.features = { ...completeFeatures(existing.features), ...features };
    if (quotaBytes !== undefined) changes.quotaBytes = quotaBytes;
    const updated = await users.update(id, changes);
    if (!updated) throw userNotFound();
    if (password !== undefined) {
      // A new password ends every session: whoever knew the old one is logged out.
      for (const sessionId of await sessions.idsOfUser(id)) await revocations.revokeSession(sessionId);
      await sessions.deleteOfUser(id);
    }
    return toUserV1(updated);
  }

  /**
   * Deletes a user in steps that are each safe to repeat, so a deletion interrupted half-way (crash,
   * NATS hiccup) is finished by a retry or at the next start (`resumeDeletions`):
   * 1. mark the user as deleting (from now on it is "not found" and cannot log in);
   * 2. revoke its access tokens and API keys at once (revocation bucket) and delete its sessions (refresh tokens)
   *    and API keys;
   * 3. publish events.v1.user.deleted (de-duplicated by id) so the other services remove its data;
   * 4. remove the account.
   */
  async delete(id: string): Promise<void> {
    const user = await this.deps.users.markDeleting(id);
    if (!user) throw userNotFound();
    await this.finishDeletion(user);
  }

  /** At start: finishes deletions a previous run left half-way. */
  async resumeDeletions(): Promise<void> {
    for (const user of await this.deps.users.listDeleting()) {
      await this.finishDeletion(user).catch((err) =>
        this.deps.log.error({ err, deletedUserId: user._id }, 'could not finish a user deletion'),
      );
    }
  }

  private async finishDeletion(user: UserDoc): Promise<void> {
    const { users, sessions, revocations, events, log } = this.deps;
    const deletedAt = (user.deletingAt ?? new Date()).toISOString();
    await revocations.revokeUser(user._id);
    await sessions.deleteOfUser(user._id);
    await this.deps.apiKeys?.deleteAllOfUser(user._id);
    await events.publish(userDeletedEvent, { userId: user._id, deletedAt }, { msgId: `user-deleted-${user._id}` });
    await users.remove(user._id);
    log.info({ deletedUserId: user._id }, 'user deleted');
  }
}
