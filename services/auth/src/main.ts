import '@trove/kit/telemetry/register';
import { openDocStoreFromConfig, packageVersion, runService } from '@trove/kit';
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
import { prepareDummyHash } from './users/passwords';
import { UsersRepository } from './users/repository';
import { Users } from './users/service';

const HOUSEKEEPING_MS = 10 * 60 * 1000;

/** The auth service: users, passwords and sessions. */
void runService({
  name: 'auth',
  version: packageVersion(__dirname),
  configSpec: authSpec,
  async start({ config, log, bus, name, version, onShutdown }) {
    const store = await openDocStoreFromConfig('auth', config);
    onShutdown(() => store.close());
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
    const tokens = new AccessTokenIssuer(jwtSecret({ dataDir: config.dataDir, fromConfig: config.jwtSecret, log }), config.accessTokenTtlSeconds);
    await prepareDummyHash();

    const logins = new Sessions({ users, sessions, tokens, limits, revocations, log });
    const accounts = new Users({ users, sessions, revocations, events: bus, log });
    const service = await bus.serve({ name, version, description: 'users, passwords and sessions', handlers: authHandlers(logins, accounts) });
    // Shutdown runs in reverse: stop taking requests before the store closes.
    onShutdown(async () => {
      await service.stop();
    });

    const housekeeping = () =>
      Promise.all([sessions.purgeExpired(), limits.purgeExpired()]).catch((err) => log.warn({ err }, 'housekeeping failed'));
    const timer = setInterval(() => void housekeeping(), HOUSEKEEPING_MS);
    timer.unref();
    onShutdown(() => clearInterval(timer));
    void housekeeping();
    void accounts.resumeDeletions();
  },
});
