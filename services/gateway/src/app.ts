import cors from 'cors';
import express from 'express';
import helmet from 'helmet';
import { listOperations } from '@trove/openapi';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import type { ContentUrls } from './content/content-urls';
import { accessLog } from './http/access-log';
import { trustProxies } from './http/client-address';
import type { ClientAddresses } from './http/client-address';
import { errorHandler, notFoundHandler } from './http/error-handler';
import { requestId } from './http/request-id';
import { OperationMatcher } from './openapi/operation-matcher';
import { openApiValidator } from './openapi/validator';
import { albumRoutes } from './routes/albums';
import { authRoutes } from './routes/auth';
import { exploreRoutes } from './routes/explore';
import { featureRoutes } from './routes/features';
import { mediaRoutes } from './routes/media';
import { mediaUploadRoutes } from './routes/media-upload';
import type { Features } from './routes/features';
import { sharingRoutes } from './routes/sharing';
import { systemRoutes } from './routes/system';
import { userRoutes } from './routes/users';
import type { AccessTokenVerifier } from './security/access-tokens';
import type { AdminCredentials } from './security/admin-credentials';
import { authenticate } from './security/authenticate';

export interface AppDeps {
  log: Logger;
  bus: Bus;
  blobs: BlobStore;
  /** The gateway package's version (GET /version). */
  version: string;
  gitSha: string;
  corsOrigins?: string;
  jsonBodyLimit: string;
  admin: AdminCredentials;
  tokens: AccessTokenVerifier;
  features: Features;
  validateResponses: boolean;
  contentUrls: ContentUrls;
  /** Largest accepted upload, in bytes (TROVE_UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** TROVE_TRUSTED_PROXIES: whose X-Forwarded-* headers are believed (none when empty). */
  trustedProxies: string[];
  clientAddresses: ClientAddresses;
}

/**
 * The HTTP surface of Trove: the only entry for the API. Order matters: request id and access log
 * first (every answer has both), then security headers and CORS, authentication from the
 * operation's declared security, body parsing, validation against openapi.yaml, the routes.
 * Declared calls without a route yet answer 404 after authentication and validation.
 */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  trustProxies(app, deps.trustedProxies);
  app.use(requestId());
  app.use(accessLog(deps.log));
  app.use(helmet());
  app.use(cors({ origin: corsOrigin(deps.corsOrigins), exposedHeaders: ['X-Request-Id', 'Content-Range', 'Accept-Ranges', 'ETag', 'Retry-After'] }));
  app.use(authenticate({ operations: new OperationMatcher(listOperations()), admin: deps.admin, tokens: deps.tokens, signedUrls: (req) => deps.contentUrls.verify(req) }));
  app.use(mediaUploadRoutes(deps));
  app.use(express.json({ limit: deps.jsonBodyLimit }));
  app.use(openApiValidator({ validateResponses: deps.validateResponses }));
  app.use(systemRoutes({ ...deps, revocationsReady: () => deps.tokens.revocations.ready }));
  app.use(featureRoutes(deps.features));
  app.use(authRoutes(deps));
  app.use(userRoutes({ bus: deps.bus, revocations: deps.tokens.revocations }));
  app.use(mediaRoutes(deps));
  app.use(albumRoutes(deps));
  app.use(sharingRoutes(deps));
  app.use(exploreRoutes(deps));
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
