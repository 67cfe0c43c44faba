import '@trove/kit/heap-growth';
import './threadpool';
import '@trove/kit/telemetry/register';
import { configOrExit, gitSha, openBlobStoreFromConfig, packageVersion, runService } from '@trove/kit';
import { createApp } from './app';
import { UserFeatures, globallyOff } from './features/user-features';
import { MIN_ADMIN_PASSWORD_LENGTH, gatewaySpec } from './config';
import { loadContentUrls } from './content/content-urls';
import { loadClientAddresses } from './http/client-address';
import { listen } from './http/server';
import { AccessTokenVerifier, loadJwtSecret } from './security/access-tokens';
import { loadAdminCredentials } from './security/admin-credentials';
import { ApiKeyResolver, apiKeyLookupOverBus } from './security/api-keys';
import { RevocationList } from './security/revocations';

void runService({
  name: 'gateway',
  version: packageVersion(__dirname),
  configSpec: gatewaySpec,
  async start({ config, log, bus, version, onShutdown }) {
    // Credentials first: a gateway without a usable admin password or signing secret must not start.
    const admin = loadAdminCredentials(config, MIN_ADMIN_PASSWORD_LENGTH, log);
    const jwtSecret = loadJwtSecret(config);
    const revocations = await RevocationList.start(bus.nc, log, {
      connected: () => bus.isConnected(),
      graceMs: config.revocationGraceSeconds * 1000,
    });
    onShutdown(() => revocations.stop());

    const blobs = await openBlobStoreFromConfig(config);
    onShutdown(() => blobs.close());
    const app = createApp({
      log,
      bus,
      blobs,
      version,
      gitSha: gitSha(__dirname),
      corsOrigins: config.corsOrigins,
      jsonBodyLimit: config.jsonBodyLimit,
      admin,
      tokens: new AccessTokenVerifier(jwtSecret, revocations),
      apiKeys: new ApiKeyResolver(apiKeyLookupOverBus(bus), revocations),
      features: new UserFeatures(
        bus,
        configOrExit('gateway', () => globallyOff(config)),
      ),
      validateResponses: config.validateResponses,
      contentUrls: loadContentUrls(config, log),
      uploadMaxBytes: config.uploadMaxBytes,
      trustedProxies: config.trustedProxies,
      clientAddresses: loadClientAddresses(config, log),
      limits: {
        bodyTimeoutMs: config.bodyTimeoutSeconds * 1000,
        uploadIdleTimeoutMs: config.uploadIdleTimeoutSeconds * 1000,
        diskUsageCacheMs: config.diskUsageCacheSeconds * 1000,
        adminAuthFailuresPerMinute: config.adminAuthFailureLimit,
        apiKeyFailuresPerMinute: config.apiKeyFailureLimit,
        sharingCallsPerMinute: config.sharingRateLimit,
        sharingMissesPerMinute: config.sharingMissRateLimit,
      },
    });
    const server = await listen(app, {
      port: config.port,
      host: config.host,
      headersTimeoutMs: config.headersTimeoutSeconds * 1000,
      keepAliveTimeoutMs: config.keepAliveTimeoutSeconds * 1000,
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log.info({ port, url: `http://localhost:${port}` }, 'gateway listening');
    onShutdown(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections?.();
        }),
    );
  },
});
