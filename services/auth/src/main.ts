import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { authSpec } from './config';
import { authHandlers } from './handlers';
import { LoginLimits } from './login/limits';
import { LoginRateLimiter } from './login/rate-limit';
import { LoginAttemptsRepository } from './login/repository';
import { RevocationWriter } from './ports/revocations';
import { jwtSecret } from './secrets';
import { SessionsRepository } from './sessions/repository';
import { Sessions } from './sessions/service';
import { AccessTokenIssuer } from './sessions/tokens';
import { configureHashing, prepareDummyHash } from './users/passwords';
import { UsersRepository } from './users/repository';
import { Users } from './users/service';

const HOUSEKEEPING_MS = 10 * 60 * 1000;

/** The auth service: users, passwords and sessions. */
void runService({
  name: 'auth',
  version: packageVersion(__dirname),
  configSpec: authSpec,
  async start({ config, log, bus, onShutdown, docStore, serve }) {
    const store = await docStore();
    const users = await UsersRepository.open(store);
    const sessions = await SessionsRepository.open(store, { ttlMs: config.sessionTtlDays * 24 * 60 * 60 * 1000 });
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
    configureHashing({
      concurrency: config.hashConcurrency,
      maxQueued: config.hashQueue,
      maxWaitMs: config.hashWaitMs,
    });
    await prepareDummyHash();

    const logins = new Sessions({ users, sessions, tokens, limits, revocations, log });
    const accounts = new Users({
      users,
      sessions,
      revocations,
      events: bus,
      log,
      defaultQuotaBytes: config.defaultQuotaBytes ?? null,
    });
    await serve('users, passwords and sessions', authHandlers(logins, accounts));

    const housekeeping = () =>
      Promise.all([sessions.purgeExpired(), limits.purgeExpired()]).catch((err) =>
        log.warn({ err }, 'housekeeping failed'),
      );
    const timer = setInterval(() => void housekeeping(), HOUSEKEEPING_MS);
    timer.unref();
    onShutdown(() => clearInterval(timer));
    void housekeeping();
    void accounts.resumeDeletions();
  },
});
