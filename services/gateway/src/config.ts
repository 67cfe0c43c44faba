import { ACCESS_TOKEN } from '@trove/proto-events';
import { blobStoreSpec, bool, int, list, optionalStr, optionalUrl, proxyList, str } from '@trove/kit';
import type { Var } from '@trove/kit';
import { MIN_SECRET_LENGTH } from './content/url-signer';

/** Shortest administrator password the gateway starts with. */
export const MIN_ADMIN_PASSWORD_LENGTH = 12;

/** The gateway's own variables (on top of the common ones). Documented in the README. */
export const gatewaySpec = {
  port: int('TROVE_GATEWAY_PORT', { default: 5001, min: 0, max: 65535 }),
  host: str('TROVE_GATEWAY_HOST', { default: '0.0.0.0' }),
  corsOrigins: optionalStr('TROVE_CORS_ORIGINS'),
  jsonBodyLimit: str('TROVE_JSON_BODY_LIMIT', { default: '1mb' }),
  /** How long access tokens are still accepted after the revocation watch broke (then 503 until it is back). */
  revocationGraceSeconds: int('TROVE_REVOCATION_GRACE_SECONDS', { default: 10, min: 0, max: 300 }),
  featureFavourites: bool('TROVE_FEATURE_FAVOURITES', { default: true }),
  featureHidden: bool('TROVE_FEATURE_HIDDEN', { default: true }),
  /** Features switched off for every user (comma-separated names; checked at start). */
  featuresOff: list('TROVE_FEATURES_OFF'),
  adminUsername: str('TROVE_ADMIN_USERNAME', { default: 'admin' }),
  /** Optional: without it a generated one is kept under the data dir (its path is logged at start). */
  adminPassword: str('TROVE_ADMIN_PASSWORD', { required: false, minLength: MIN_ADMIN_PASSWORD_LENGTH }) as Var<
    string | undefined
  >,
  /** Optional: without it the secret generated under the data dir is used (the auth service does the same). */
  jwtSecret: str('TROVE_JWT_SECRET', { required: false, minLength: ACCESS_TOKEN.minSecretLength }) as Var<
    string | undefined
  >,
  /** Check every answer against openapi.yaml (tests turn it on; a breaking answer becomes a 500). */
  validateResponses: bool('TROVE_VALIDATE_RESPONSES', { default: false }),
  /** Largest accepted upload (the file part's bytes); above it the upload answers 413 and nothing is kept. */
  uploadMaxBytes: int('TROVE_UPLOAD_MAX_BYTES', { default: 10 * 1024 ** 3, min: 1 }),
  /** HMAC key of signed content URLs; without it one is generated under the data dir (set it explicitly when several gateways run). */
  urlSigningSecret: str('TROVE_URL_SIGNING_SECRET', { required: false, minLength: MIN_SECRET_LENGTH }) as Var<
    string | undefined
  >,
  /** A signed content URL stays valid at least this long (and at most twice as long). */
  // At most half the time revocations are kept (ACCESS_TOKEN.maxTtlSeconds): an owner's URL, valid up to twice this,
  // must not outlive the revocation of its session.
  contentUrlTtlSeconds: int('TROVE_CONTENT_URL_TTL_SECONDS', {
    default: 14400,
    min: 1,
    max: ACCESS_TOKEN.maxTtlSeconds / 2,
  }),
  /** Origin the content URLs in answers start with (e.g. https://photos.example.org behind a proxy); default: the request's own. */
  publicUrl: optionalUrl('TROVE_PUBLIC_URL', ['http', 'https']),
  /** Proxies whose X-Forwarded-For/-Proto/-Host are believed; none unless listed. */
  trustedProxies: proxyList('TROVE_TRUSTED_PROXIES'),
  /** Shared with the web server, whose X-Trove-Client-Address it authenticates; generated under the data dir when unset. */
  proxySecret: str('TROVE_PROXY_SECRET', { required: false, minLength: 32 }) as Var<string | undefined>,
  /** A request's headers must arrive within this (slow clients holding sockets). */
  headersTimeoutSeconds: int('TROVE_REQUEST_HEADERS_TIMEOUT_SECONDS', { default: 20, min: 1, max: 600 }),
  /** A request's body (every call but the upload) must arrive within this, or 408 and the connection is closed. */
  bodyTimeoutSeconds: int('TROVE_REQUEST_BODY_TIMEOUT_SECONDS', { default: 30, min: 1, max: 3600 }),
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutSeconds: int('TROVE_KEEP_ALIVE_TIMEOUT_SECONDS', { default: 5, min: 1, max: 600 }),
  /** An upload that sends no byte for this long is cut and nothing of it is kept. */
  uploadIdleTimeoutSeconds: int('TROVE_UPLOAD_IDLE_TIMEOUT_SECONDS', { default: 60, min: 1, max: 3600 }),
  /** How long GET /disk reuses its figure (on S3 it is a listing of the whole bucket). */
  diskUsageCacheSeconds: int('TROVE_DISK_USAGE_CACHE_SECONDS', { default: 60, min: 0, max: 86400 }),
  /** Failed administrator logins (basic auth) per minute and client address before 429. */
  adminAuthFailureLimit: int('TROVE_ADMIN_AUTH_FAILURE_LIMIT', { default: 10, min: 1 }),
  /** Failed API keys (`X-Api-Key`) per minute and client address before 429. */
  apiKeyFailureLimit: int('TROVE_API_KEY_FAILURE_LIMIT', { default: 10, min: 1 }),
  /** Anonymous shared-album calls per minute and client address before 429. */
  sharingRateLimit: int('TROVE_SHARING_RATE_LIMIT', { default: 120, min: 1 }),
  /** Anonymous shared-album calls answered 404 per minute and client address before 429 (a bucket apart). */
  sharingMissRateLimit: int('TROVE_SHARING_MISS_RATE_LIMIT', { default: 600, min: 1 }),
  ...blobStoreSpec,
};
