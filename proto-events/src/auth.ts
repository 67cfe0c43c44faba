/**
 * What the auth service and the gateway share besides RPCs: the access-token format and the
 * revocation bucket. The gateway verifies access tokens locally (no NATS round-trip per request),
 * so both ends must agree on these.
 */

/** Access tokens: HS256 JWTs `{sub: userId, sid: sessionId, iss, iat, exp}`. */
export const ACCESS_TOKEN = {
  issuer: 'trove',
  algorithm: 'HS256',
  /** Upper bound of the configurable lifetime: revocations are kept at least this long. */
  maxTtlSeconds: 24 * 60 * 60,
  /** Shortest accepted TROVE_JWT_SECRET: 256 bits of base64 text; shorter HS256 secrets can be brute-forced from one token. */
  minSecretLength: 32,
  /** Name of the generated signing secret under `<dataDir>/secrets/` when TROVE_JWT_SECRET is unset. */
  secretName: 'jwt-secret',
} as const;

/**
 * JetStream key-value bucket of revoked sessions and users. The auth service writes a key on
 * logout, refresh-token theft detection, password change (`session.<sid>`) and user deletion
 * (`user.<uid>`); every gateway watches the bucket into memory and rejects access tokens whose
 * `sid` or `sub` is revoked. Entries expire after `ttlMs`, by which time every token they could
 * match has expired too.
 */
export const REVOCATIONS = {
  bucket: 'TROVE_REVOCATIONS',
  ttlMs: ACCESS_TOKEN.maxTtlSeconds * 1000,
  sessionKey: (sessionId: string): string => `session.${sessionId}`,
  userKey: (userId: string): string => `user.${userId}`,
} as const;

/** The optional areas a user can have switched on or off (UserFeaturesV1's keys). */
export const USER_FEATURES = [
  'albums',
  'favourites',
  'hidden',
  'trash',
  'sharing',
  'explore',
  'places',
  'things',
  'people',
  'jobs',
] as const;
export type UserFeature = (typeof USER_FEATURES)[number];
export type FeatureSet = Record<UserFeature, boolean>;

/** Every key present: those left out of `given` are on. */
export function completeFeatures(given: Partial<FeatureSet> | undefined): FeatureSet {
  return Object.fromEntries(USER_FEATURES.map((f) => [f, given?.[f] ?? true])) as FeatureSet;
}
