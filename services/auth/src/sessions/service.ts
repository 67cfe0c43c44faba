import type { LoginRequestV1, TokenPairV1 } from '@trove/proto-events';
import { AppError, unauthorized } from '@trove/kit';
import type { Logger } from '@trove/kit';
import type { LoginLimits } from '../login/limits';
import type { Revocations } from '../ports/revocations';
import { hashPassword, needsRehash, verifyDummy, verifyPassword } from '../users/passwords';
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
 * Login, refresh and logout. Every credential failure is the same 401 "Unauthorized": an unknown
 * username, a wrong password, a spent or unknown refresh token look alike to the caller.
 */
export class SessionsService {
  constructor(private readonly deps: SessionsDeps) {}

  /** A new session for a user name and password; rate-limited as `LoginLimits` says. */
  async login({ username, password, clientAddress }: LoginRequestV1): Promise<TokenPairV1> {
    const { users, sessions, limits, log } = this.deps;
    const decision = await limits.admit(username, clientAddress);
    if (!decision.allowed) {
      // Not the username: people type passwords into that field.
      log.warn({ clientAddress, limit: decision.limit }, 'login attempts over the limit');
      throw new AppError('TOO_MANY_REQUESTS', 'too many login attempts', {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
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
