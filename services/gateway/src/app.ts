import cors from 'cors';
import express from 'express';
import helmet from 'helmet';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import { accessLog } from './http/access-log';
import { errorHandler, notFoundHandler } from './http/errors';
import { requestId } from './http/request-id';
import { systemRoutes } from './routes/system';

export interface AppDeps {
  log: Logger;
  bus: Bus;
  blobs: BlobStore;
  version: string;
  gitSha: string;
  corsOrigins?: string;
  jsonBodyLimit: string;
}

/** The HTTP surface of Trove: the only entry for the API. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.use(requestId());
  app.use(accessLog(deps.log));
  app.use(helmet());
  app.use(cors({ origin: corsOrigin(deps.corsOrigins), exposedHeaders: ['X-Request-Id', 'Content-Range', 'Accept-Ranges', 'ETag'] }));
  app.use(express.json({ limit: deps.jsonBodyLimit }));
  app.use(systemRoutes(deps));
  app.use(notFoundHandler());
  app.use(errorHandler(deps.log));
  return app;
}

/** TROVE_CORS_ORIGINS: unset → no cross-origin access; `*` → any; else a comma-separated list. */
function corsOrigin(setting: string | undefined): boolean | string | string[] {
  if (!setting) return false;
  if (setting.trim() === '*') return '*';
  return setting.split(',').map((s) => s.trim()).filter(Boolean);
}
