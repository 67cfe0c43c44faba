import type { LoginRequestV1, PasswordChangeRequestV1, TokenPairV1 } from '@trove/proto-events';
import { AppError, badRequest, unauthorized } from '@trove/kit';
import type { Logger } from '@trove/kit';
import type { LoginLimits } from '../login/limits';
import type { Revocations } from '../ports/revocations';
import { hashPassword, needsRehash, verifyDummy, verifyPassword } from '../users/passwords';
import { passwordProblem } from '../users/policy';
import type { UsersRepository } from '../users/repository';
import type { SessionsRepository } from './repository';
import type { AccessTokenIssuer } from './tokens';

export interface SessionsDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  tokens: AccessTokenIssuer;
  limits: LoginLimits;
  revocations: Revocations;
  log: Logger;
}

/**
 * Login, refresh, logout and a user's own password change. Every credential failure of a login or
 * refresh is the same 401 "Unauthorized": an unknown username, a wrong password, a spent or unknown
 * refresh token look alike to the caller.
 */
export class SessionsService {
  constructor(private readonly deps: SessionsDeps) {}

  /** A new session for a user name and password; rate-limited as `LoginLimits` says. */
  async login({ username, password, clientAddress }: LoginRequestV1): Promise<TokenPairV1> {
    const { users, sessions, log } = this.deps;
    await this.admit(username, clientAddress, 'login');
    const user = await users.findByUsername(username);
    // An unknown username costs the same hashing work as a wrong password: timing tells nothing.
    const ok = user ? await verifyPassword(password, user.passwordHash) : await verifyDummy(password);
    if (!user || !ok) throw unauthorized();
    if (needsRehash(user.passwordHash)) {
      // The cost parameters were raised since this hash was made: upgrade it now that we know the password.
      void hashPassword(password)
        .then((stronger) => users.upgradePasswordHash(user._id, user.passwordHash, stronger))
        .catch((err) => log.warn({ err, userId: user._id }, 'password hash upgrade failed'));
    }
    const { session, refreshToken } = await sessions.create(user._id);
    return this.pair(user._id, session._id, refreshToken);
  }

  /** Swaps a refresh token for a new pair. A token presented twice ends its session for everyone holding it. */
  async refresh(refreshToken: string): Promise<TokenPairV1> {
    const { users, sessions, revocations, log } = this.deps;
    const result = await sessions.rotate(refreshToken);
    if (result.kind === 'reused') {
      // Two parties hold this session's tokens: end it for both.
      log.warn(
        { sessionId: result.session._id, userId: result.session.userId },
        'rotated refresh token reused; session revoked',
      );
      await revocations.revokeSession(result.session._id);
      await sessions.delete(result.session._id);
      throw unauthorized();
    }
    if (result.kind === 'invalid') throw unauthorized();
    // A user being deleted keeps no sessions; this guards the moment in between.
    if (!(await users.findById(result.session.userId))) throw unauthorized();
    return this.pair(result.session.userId, result.session._id, result.refreshToken);
  }

  /**
   * A logged-in user's new password, once the current one is proven: the guesses count against the
   * same limits as logins (someone at an unlocked screen must not get to try passwords freely). A
   * wrong current password is a 400 naming the field (not a 401, which would end the caller's
   * session in a client); a new one the policy refuses, a 400 saying why. Every other session of the
   * user ends; the caller's stays. API keys stay: the user revokes them one by one.
   */
  async changePassword({
    userId,
    sessionId,
    currentPassword,
    newPassword,
    clientAddress,
  }: PasswordChangeRequestV1): Promise<void> {
    const { users, sessions, revocations, log } = this.deps;
    const user = await users.findById(userId);
    if (!user) throw unauthorized();
    await this.admit(user.username, clientAddress, 'password change');
    if (!(await verifyPassword(currentPassword, user.passwordHash)))
      throw badRequest('currentPassword is not your password');
    const problem = passwordProblem(newPassword, user.username);
    if (problem) throw badRequest(problem.replace(/^password/, 'newPassword'));
    // The current password was just checked against the hash: no second hashing needed to compare.
    if (newPassword === currentPassword) throw badRequest('newPassword must differ from the current password');
    if (!(await users.update(userId, { passwordHash: await hashPassword(newPassword) }))) throw unauthorized();
    const others = (await sessions.idsOfUser(userId)).filter((id) => id !== sessionId);
    for (const id of others) {
      // Revoke first: the access token must stop working even if the delete below fails.
      await revocations.revokeSession(id);
      await sessions.delete(id);
    }
    log.info({ userId, sessionsEnded: others.length }, 'password changed by its user');
  }

  /** Counts an attempt at a password against the login limits; 429 with Retry-After past them. */
  private async admit(username: string, clientAddress: string | undefined, what: string): Promise<void> {
    const decision = await this.deps.limits.admit(username, clientAddress);
    if (decision.allowed) return;
    // Not the username: people type passwords into that field.
    this.deps.log.warn({ clientAddress, limit: decision.limit }, `${what} attempts over the limit`);
    throw new AppError('TOO_MANY_REQUESTS', `too many ${what} attempts`, {
      retryAfterSeconds: decision.retryAfterSeconds,
    });
  }

  async logout(sessionId: string): Promise<void> {
    // Revoke first: the access token must stop working even if the delete below fails.
    await this.deps.revocations.revokeSession(sessionId);
    await this.deps.sessions.delete(sessionId);
  }

  private pair(userId: string, sessionId: string, refreshToken: string): TokenPairV1 {
    return {
      accessToken: this.deps.tokens.issue(userId, sessionId),
      refreshToken,
      expiresIn: this.deps.tokens.ttlSeconds,
    };
  }
}
