import './telemetry';
import type { Server } from 'node:http';
import { gitSha, openBlobStore, packageVersion, runService } from '@trove/kit';
import { createApp } from './app';
import { gatewaySpec } from './config';

void runService({
  name: 'gateway',
  version: packageVersion(__dirname),
  configSpec: gatewaySpec,
  async start({ config, log, bus, version, onShutdown }) {
    const blobs = await openBlobStore({
      dataDir: config.dataDir,
      s3: config.s3Bucket
        ? {
            bucket: config.s3Bucket,
            endpoint: config.s3Endpoint,
            region: config.s3Region,
            accessKeyId: config.s3AccessKeyId ?? '',
            secretAccessKey: config.s3SecretAccessKey ?? '',
            forcePathStyle: config.s3ForcePathStyle,
            quotaBytes: config.s3QuotaBytes || undefined,
          }
        : undefined,
    });
    onShutdown(() => blobs.close());
    const app = createApp({ log, bus, blobs, version, gitSha: gitSha(__dirname), corsOrigins: config.corsOrigins, jsonBodyLimit: config.jsonBodyLimit });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(config.port, config.host, () => resolve(s));
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
