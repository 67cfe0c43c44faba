import type { CommonConfig, ConfigOf, WireDeps, Wiring } from '@trove/kit';
import type { authSpec } from './config';
import { ApiKeysRepository } from './api-keys/repository';
import { ApiKeysService } from './api-keys/service';
import { authHandlers } from './handlers';
import { LoginLimits } from './login/limits';
import { LoginRateLimiter } from './login/rate-limit';
import { LoginAttemptsRepository } from './login/repository';
import { RevocationWriter } from './ports/revocations';
import { jwtSecret } from './secrets';
import { SessionsRepository } from './sessions/repository';
import { SessionsService } from './sessions/service';
import { AccessTokenIssuer } from './sessions/tokens';
import { UsersRepository } from './users/repository';
import { UsersService } from './users/service';

export interface AuthDeps extends WireDeps {
  config: CommonConfig & ConfigOf<typeof authSpec>;
}

export interface Auth extends Wiring {
  sessions: SessionsService;
  users: UsersService;
  apiKeys: ApiKeysService;
  /** What housekeeping purges. */
  sessionsRepository: SessionsRepository;
  limits: LoginLimits;
}

/** The auth service's parts, built once from the bus, its store and its configuration: main.ts starts them. */
export async function wire({ bus, store, log, config }: AuthDeps): Promise<Auth> {
  const usersRepository = await UsersRepository.open(store);
  const sessionsRepository = await SessionsRepository.open(store, {
    ttlMs: config.sessionTtlDays * 24 * 60 * 60 * 1000,
  });
  const attempts = await LoginAttemptsRepository.open(store);
  const limits = new LoginLimits({
    perClient: new LoginRateLimiter(attempts, { limit: config.loginRateLimit }),
    perUsername: new LoginRateLimiter(attempts, { limit: config.loginUserRateLimit }),
    slowDownAfter: config.loginRateLimit,
    slowDownMs: config.loginSlowdownMs,
  });
  const revocations = await RevocationWriter.open(bus.nc);
  const tokens = new AccessTokenIssuer(
    jwtSecret({ dataDir: config.dataDir, fromConfig: config.jwtSecret, log }),
    config.accessTokenTtlSeconds,
  );
  const repositories = { users: usersRepository, sessions: sessionsRepository, revocations, log };
  const sessions = new SessionsService({ ...repositories, tokens, limits });
  const apiKeysRepository = await ApiKeysRepository.open(store);
  const users = new UsersService({
    ...repositories,
    apiKeys: apiKeysRepository,
    events: bus,
    defaultQuotaBytes: config.defaultQuotaBytes ?? null,
  });
  const apiKeys = new ApiKeysService({ keys: apiKeysRepository, users: usersRepository, revocations, log });
  return {
    sessions,
    users,
    apiKeys,
    sessionsRepository,
    limits,
    description: 'users, passwords, sessions and API keys',
    handlers: authHandlers(sessions, users, apiKeys),
    consume: async () => [],
  };
}
