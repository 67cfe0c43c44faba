import '@trove/kit/telemetry/register';
import { packageVersion, runService } from '@trove/kit';
import { authSpec } from './config';
import { configureHashing, prepareDummyHash } from './users/passwords';
import { wire } from './wire';

const HOUSEKEEPING_MS = 10 * 60 * 1000;

/** The auth service: users, passwords and sessions. */
void runService({
  name: 'auth',
  version: packageVersion(__dirname),
  configSpec: authSpec,
  async start({ config, log, bus, onShutdown, docStore, serveWiring }) {
    configureHashing({
      concurrency: config.hashConcurrency,
      maxQueued: config.hashQueue,
      maxWaitMs: config.hashWaitMs,
    });
    await prepareDummyHash();
    const auth = await wire({ bus, store: await docStore(), log, config });
    await serveWiring(auth);

    const housekeeping = () =>
      Promise.all([auth.sessionsRepository.purgeExpired(), auth.limits.purgeExpired()]).catch((err) =>
        log.warn({ err }, 'housekeeping failed'),
      );
    const timer = setInterval(() => void housekeeping(), HOUSEKEEPING_MS);
    timer.unref();
    onShutdown(() => clearInterval(timer));
    void housekeeping();
    void auth.users.resumeDeletions();
  },
});
