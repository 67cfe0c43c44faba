import { createSecretKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ACCESS_TOKEN, REVOCATIONS } from '@trove/proto-events';
import { loadOrCreateSecret } from '@trove/kit';
import type { Revocations } from './revocations';

export interface AccessClaims {
  userId: string;
  sessionId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * TROVE_JWT_SECRET, else the secret the auth service generated (or will find) under the shared
 * data dir; shorter than ACCESS_TOKEN.minSecretLength from either: a ConfigError (exit 78).
 */
export function loadJwtSecret(config: { dataDir: string; jwtSecret?: string }): string {
  return loadOrCreateSecret({
    dataDir: config.dataDir,
    name: ACCESS_TOKEN.secretName,
    fromConfig: config.jwtSecret,
    minLength: ACCESS_TOKEN.minSecretLength,
    variable: 'TROVE_JWT_SECRET',
  }).value;
}

/** Tokens remembered as verified at most (~0.5 KB each): far more than a household's open sessions. */
const VERIFIED_TOKENS_KEPT = 1000;

/**
 * Verifies access tokens locally: signature (HS256 only, no `none`), issuer, expiry, claim shapes,
 * then the revocation list. Any failure is simply "not authenticated".
 *
 * A client sends the same token with every call until it refreshes it, so a token that passed is
 * remembered with its claims until it expires: the signature check (~0.15 ms of CPU, a tenth of the
 * gateway's own work for a photo upload) is made once a token. Expiry and revocations are checked on
 * every call, remembered or not. The oldest are forgotten first beyond VERIFIED_TOKENS_KEPT.
 */
export class AccessTokenVerifier {
  /**
   * The secret as a key object, made once: given a string, jsonwebtoken first tries (and fails) to
   * parse it as a public key on every call, ~1 ms of CPU per request (~0.05 ms with the key object).
   */
  private readonly key: KeyObject;
  private readonly verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>();

  constructor(
    secret: string,
    readonly revocations: Revocations,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  verify(token: string): AccessClaims | undefined {
    const nowMs = this.now();
    const known = this.verified.get(token);
    if (known && nowMs >= known.expiresAtMs) {
      this.verified.delete(token);
      return undefined; // expired: no need to check its signature again
    }
    const claims = known ? known.claims : this.verifySignedClaims(token, nowMs);
    if (!claims) return undefined;
    if (
      this.revocations.has(REVOCATIONS.sessionKey(claims.sessionId)) ||
      this.revocations.has(REVOCATIONS.userKey(claims.userId))
    )
      return undefined;
    return claims;
  }

  private verifySignedClaims(token: string, nowMs: number): AccessClaims | undefined {
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.key, {
        algorithms: [ACCESS_TOKEN.algorithm],
        issuer: ACCESS_TOKEN.issuer,
        clockTimestamp: Math.floor(nowMs / 1000),
      });
    } catch {
      return undefined;
    }
    const p = payload as { sub?: unknown; sid?: unknown; exp?: unknown };
    // A token without exp would never expire: not one of ours.
    if (
      typeof p.exp !== 'number' ||
      typeof p.sub !== 'string' ||
      typeof p.sid !== 'string' ||
      !UUID.test(p.sub) ||
      !UUID.test(p.sid)
    )
      return undefined;
    const claims = { userId: p.sub, sessionId: p.sid };
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    // jsonwebtoken's rule: expired once the clock's second reaches exp.
    this.verified.set(token, { claims, expiresAtMs: p.exp * 1000 });
    return claims;
  }
}
