import { loginRpc, logoutRpc, refreshRpc } from '@trove/proto-events';
import type { TokenPairV1 } from '@trove/proto-events';
import { AppError, rpcHandler, unauthorized } from '@trove/kit';
import type { Logger, ServeOptions } from '@trove/kit';
import { addressKey } from '../login/rate-limit';
import type { LoginRateLimiter } from '../login/rate-limit';
import type { RevocationWriter } from '../sessions/revocations';
import type { SessionStore } from '../sessions/sessions';
import type { AccessTokenIssuer } from '../sessions/tokens';
import { hashPassword, needsRehash, verifyDummy, verifyPassword } from '../users/passwords';
import type { UsersRepository } from '../users/repository';

export interface AuthHandlerDeps {
  users: UsersRepository;
  sessions: SessionStore;
  tokens: AccessTokenIssuer;
  limiter: LoginRateLimiter;
  revocations: RevocationWriter;
  log: Logger;
}

/** Login, refresh and logout. Every credential failure is the same 401 "Unauthorized". */
export function authHandlers(deps: AuthHandlerDeps): ServeOptions['handlers'] {
  const pair = (userId: string, sessionId: string, refreshToken: string): TokenPairV1 => ({
    accessToken: deps.tokens.issue(userId, sessionId),
    refreshToken,
    expiresIn: deps.tokens.ttlSeconds,
  });

  return [
    rpcHandler(loginRpc, async ({ username, password, clientAddress }) => {
      const keys = [`username:${username.toLowerCase()}`, ...(clientAddress ? [addressKey(clientAddress)] : [])];
      const decision = await deps.limiter.hit(keys);
      if (!decision.allowed) {
        // Not the username: people type passwords into that field.
        deps.log.warn({ clientAddress }, 'login attempts over the limit');
        throw new AppError('TOO_MANY_REQUESTS', 'too many login attempts', { retryAfterSeconds: decision.retryAfterSeconds });
      }
      const user = await deps.users.findByUsername(username);
      // An unknown username costs the same hashing work as a wrong password: timing tells nothing.
      const ok = user ? await verifyPassword(password, user.passwordHash) : await verifyDummy(password);
      if (!user || !ok) throw unauthorized();
      if (needsRehash(user.passwordHash)) {
        // The cost parameters were raised since this hash was made: upgrade it now that we know the password.
        void hashPassword(password)
          .then((stronger) => deps.users.upgradePasswordHash(user._id, user.passwordHash, stronger))
          .catch((err) => deps.log.warn({ err, userId: user._id }, 'password hash upgrade failed'));
      }
      const { session, refreshToken } = await deps.sessions.create(user._id);
      return pair(user._id, session._id, refreshToken);
    }),

    rpcHandler(refreshRpc, async ({ refreshToken }) => {
      const result = await deps.sessions.rotate(refreshToken);
      if (result.kind === 'reused') {
        // Two parties hold this session's tokens: end it for both.
        deps.log.warn({ sessionId: result.session._id, userId: result.session.userId }, 'rotated refresh token reused; session revoked');
        await deps.revocations.revokeSession(result.session._id);
        await deps.sessions.delete(result.session._id);
        throw unauthorized();
      }
      if (result.kind === 'invalid') throw unauthorized();
      // A user being deleted keeps no sessions; this guards the moment in between.
      if (!(await deps.users.findById(result.session.userId))) throw unauthorized();
      return pair(result.session.userId, result.session._id, result.refreshToken);
    }),

    rpcHandler(logoutRpc, async ({ sessionId }) => {
      // Revoke first: the access token must stop working even if the delete below fails.
      await deps.revocations.revokeSession(sessionId);
      await deps.sessions.delete(sessionId);
      return {};
    }),
  ];
}
