import { ACCESS_TOKEN } from '@trove/proto-events';
import { docStoreSpec, int, str } from '@trove/kit';
import type { Var } from '@trove/kit';

/** The auth service's own variables (on top of the common ones). Documented in the README. */
export const authSpec = {
  /** Optional: without it the secret generated under the data dir is used (the gateway does the same). */
  jwtSecret: str('TROVE_JWT_SECRET', { required: false, minLength: ACCESS_TOKEN.minSecretLength }) as Var<
    string | undefined
  >,
  accessTokenTtlSeconds: int('TROVE_ACCESS_TOKEN_TTL_SECONDS', {
    default: 900,
    min: 30,
    max: ACCESS_TOKEN.maxTtlSeconds,
  }),
  sessionTtlDays: int('TROVE_SESSION_TTL_DAYS', { default: 30, min: 1, max: 365 }),
  /** Login attempts per minute per client address, and per user name from one address. */
  loginRateLimit: int('TROVE_LOGIN_RATE_LIMIT', { default: 10, min: 1, max: 100_000 }),
  /** Login attempts per minute on one user name from all addresses together: high, so nobody can lock the owner out. */
  loginUserRateLimit: int('TROVE_LOGIN_USER_RATE_LIMIT', { default: 100, min: 1, max: 1_000_000 }),
  /** How long each attempt on a user name waits once it is over TROVE_LOGIN_RATE_LIMIT (slows guessing from many addresses). */
  loginSlowdownMs: int('TROVE_LOGIN_SLOWDOWN_MS', { default: 1000, min: 0, max: 10_000 }),
  /**
   * Password hashes at once: each costs scrypt's 128 MiB, so this bounds auth's memory in a login burst
   * (the chart's limit is sized for the default of 1).
   */
  hashConcurrency: int('TROVE_AUTH_HASH_CONCURRENCY', { default: 1, min: 1, max: 16 }),
  /** Logins (and password changes) that may wait for a hash; the next is answered 429 with Retry-After. */
  hashQueue: int('TROVE_AUTH_HASH_QUEUE', { default: 16, min: 0, max: 1000 }),
  /** How long one may wait for its turn before it is answered 429. */
  hashWaitMs: int('TROVE_AUTH_HASH_WAIT_MS', { default: 3000, min: 100, max: 60_000 }),
  /** A new user's storage quota in bytes when the administrator names none; unset: unlimited. */
  defaultQuotaBytes: int('TROVE_DEFAULT_QUOTA_BYTES', { required: false, min: 0, max: Number.MAX_SAFE_INTEGER }) as Var<
    number | undefined
  >,
  ...docStoreSpec,
};
