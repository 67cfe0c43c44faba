import './telemetry';
import { openDocStoreFromConfig, packageVersion, runService } from '@trove/kit';
import { authSpec } from './config';
import { authHandlers } from './handlers/auth';
import { userHandlers } from './handlers/users';
import { LoginRateLimiter } from './login/rate-limit';
import { jwtSecret } from './secrets';
import { RevocationWriter } from './sessions/revocations';
import { SessionStore } from './sessions/sessions';
import { AccessTokenIssuer } from './sessions/tokens';
import { resumeDeletions } from './users/deletion';
import { prepareDummyHash } from './users/passwords';
import { UsersRepository } from './users/repository';

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
    const sessions = await SessionStore.open(store, { ttlMs: config.sessionTtlDays * 24 * 60 * 60 * 1000 });
    const limiter = await LoginRateLimiter.open(store, { limit: config.loginRateLimit });
    const revocations = await RevocationWriter.open(bus.nc);
    const tokens = new AccessTokenIssuer(jwtSecret({ dataDir: config.dataDir, fromConfig: config.jwtSecret, log }), config.accessTokenTtlSeconds);
    await prepareDummyHash();

    const deletion = { users, sessions, revocations, bus, log };
    const service = await bus.serve({
      name,
      version,
      description: 'users, passwords and sessions',
      handlers: [...authHandlers({ users, sessions, tokens, limiter, revocations, log }), ...userHandlers(deletion)],
    });
    // Shutdown runs in reverse: stop taking requests before the store closes.
    onShutdown(async () => {
      await service.stop();
    });

    const housekeeping = () =>
      Promise.all([sessions.purgeExpired(), limiter.purgeExpired()]).catch((err) => log.warn({ err }, 'housekeeping failed'));
    const timer = setInterval(() => void housekeeping(), HOUSEKEEPING_MS);
    timer.unref();
    onShutdown(() => clearInterval(timer));
    void housekeeping();
    void resumeDeletions(deletion);
  },
});
