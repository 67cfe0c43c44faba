import cors from 'cors';
import express from 'express';
import helmet from 'helmet';
import { listOperations } from '@trove/openapi';
import type { BlobStore, Bus, Logger } from '@trove/kit';
import type { ContentUrls } from './content/content-urls';
import { accessLog } from './http/access-log';
import { bodyDeadline } from './http/body-deadline';
import { trustProxies } from './http/client-address';
import type { ClientAddresses } from './http/client-address';
import { errorHandler, notFoundHandler } from './http/error-handler';
import { queryStringCheck } from './http/query-string';
import { requestId } from './http/request-id';
import { sendJsonInPieces } from './http/json-response';
import { requestMetrics } from './http/request-metrics';
import { OperationMatcher } from './openapi/operation-matcher';
import { openApiValidator } from './openapi/validator';
import { featureGate } from './features/gate';
import type { UserFeatures } from './features/user-features';
import { RecentFeatures, RecentLookups } from './features/recent-features';
import { gatewayRoutes } from './routes/route-table';
import type { AccessTokenVerifier } from './security/access-tokens';
import type { AdminCredentials } from './security/admin-credentials';
import type { ApiKeyResolver } from './security/api-keys';
import { authenticate } from './security/authenticate';
import { RateLimiter } from './security/rate-limiter';
import { UNLOCK_FAILURES_PER_MINUTE } from './routes/sharing';
import { SharingAdmission } from './security/sharing-admission';
import { DiskUsage } from './storage/disk-usage';
import { UserQuotas } from './storage/user-quotas';

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
  /** Resolves `X-Api-Key` through the auth service (absent: API keys are refused). */
  apiKeys?: ApiKeyResolver;
  /** Each user's effective features (their own, minus what is off for everybody). */
  features: UserFeatures;
  validateResponses: boolean;
  contentUrls: ContentUrls;
  /** Largest accepted upload, in bytes (TROVE_UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** TROVE_TRUSTED_PROXIES: whose X-Forwarded-* headers are believed (none when empty). */
  trustedProxies: string[];
  clientAddresses: ClientAddresses;
  limits: AppLimits;
}

/** What keeps one client from holding the gateway's resources (README, "Security model"). */
export interface AppLimits {
  /** A request body (every call but the upload) must arrive within this. */
  bodyTimeoutMs: number;
  /** An upload sending no byte for this long is cut. */
  uploadIdleTimeoutMs: number;
  /** GET /disk reuses its figure this long. */
  diskUsageCacheMs: number;
  /** Failed administrator logins per minute and client address. */
  adminAuthFailuresPerMinute: number;
  /** Failed API keys (`X-Api-Key`) per minute and client address. */
  apiKeyFailuresPerMinute: number;
  /** Anonymous shared-album calls per minute and client address that find an album. */
  sharingCallsPerMinute: number;
  /** Anonymous shared-album calls per minute and client address answered 404 (counted apart). */
  sharingMissesPerMinute: number;
}

/**
 * How stale the features an upload picks its components by may be: a client uploads many files in
 * a row, and each would otherwise cost a round trip to the auth service; a change of features
 * (rare, by the administrator) reaches uploads this much later at most.
 */
const UPLOAD_FEATURES_TTL_MS = 2000;

/**
 * The HTTP surface of Trove: the only entry for the API. Order matters: request id, access log,
 * metrics and the body deadline first (they cover every request), then security headers and
 * CORS, authentication from the operation's declared security, body parsing, validation against
 * openapi.yaml, the routes (routes/route-table.ts: every operation of the contract has one).
 */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  sendJsonInPieces(app);
  trustProxies(app, deps.trustedProxies);
  const operations = new OperationMatcher(listOperations());
  const { limits } = deps;
  app.use(requestId());
  app.use(accessLog(deps.log));
  app.use(requestMetrics(operations));
  app.use(bodyDeadline(limits.bodyTimeoutMs));
  app.use(helmet());
  app.use(
    cors({
      origin: corsOrigin(deps.corsOrigins),
      exposedHeaders: [
        'X-Request-Id',
        'Content-Range',
        'Accept-Ranges',
        'ETag',
        'Retry-After',
        'X-Next-Cursor',
        'Link',
      ],
    }),
  );
  const adminFailures = new RateLimiter({ limit: limits.adminAuthFailuresPerMinute });
  app.use(
    authenticate({
      operations,
      admin: deps.admin,
      tokens: deps.tokens,
      signedUrls: (req) => deps.contentUrls.verify(req),
      adminFailures,
      apiKeys: deps.apiKeys,
      apiKeyFailures: new RateLimiter({ limit: limits.apiKeyFailuresPerMinute }),
      clientAddresses: deps.clientAddresses,
    }),
  );
  const routes = gatewayRoutes({
    ...deps,
    uploadFeatures: new RecentFeatures(deps.features, UPLOAD_FEATURES_TTL_MS),
    // A quota the administrator changes reaches uploads as late as a change of features.
    uploadQuotas: new RecentLookups(new UserQuotas(deps.bus), UPLOAD_FEATURES_TTL_MS),
    uploadIdleTimeoutMs: limits.uploadIdleTimeoutMs,
    disk: new DiskUsage(() => deps.blobs.usage(), limits.diskUsageCacheMs),
    revocations: deps.tokens.revocations,
    revocationsReady: () => deps.tokens.revocations.ready,
    unlockFailures: new RateLimiter({ limit: UNLOCK_FAILURES_PER_MINUTE }),
    sharingAdmission: new SharingAdmission({
      foundPerWindow: limits.sharingCallsPerMinute,
      missedPerWindow: limits.sharingMissesPerMinute,
    }),
  });
  app.use(routes.upload.router);
  app.use(express.json({ limit: deps.jsonBodyLimit }));
  app.use(queryStringCheck());
  app.use(openApiValidator({ validateResponses: deps.validateResponses }));
  app.use(featureGate({ operations, features: deps.features }));
  app.use(routes.api.router);
  app.use(notFoundHandler());
  app.use(errorHandler(deps.log));
  return app;
}

/** TROVE_CORS_ORIGINS: unset → no cross-origin access; `*` → any; else a comma-separated list. */
function corsOrigin(setting: string | undefined): boolean | string | string[] {
  if (!setting) return false;
  if (setting.trim() === '*') return '*';
  return setting
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
