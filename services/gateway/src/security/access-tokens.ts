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
  return loadOrCreateSecret({ dataDir: config.dataDir, name: ACCESS_TOKEN.secretName, fromConfig: config.jwtSecret, minLength: ACCESS_TOKEN.minSecretLength, variable: 'TROVE_JWT_SECRET' }).value;
}

/**
 * Verifies access tokens locally: signature (HS256 only, no `none`), issuer, expiry, claim shapes,
 * then the revocation list. Any failure is simply "not authenticated".
 */
export class AccessTokenVerifier {
  /**
   * The secret as a key object, made once: given a string, jsonwebtoken first tries (and fails) to
   * parse it as a public key on every call, ~1 ms of CPU per request (~0.05 ms with the key object).
   */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    readonly revocations: Revocations,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  verify(token: string): AccessClaims | undefined {
    let payload: unknown;
    try {
      payload = jwt.verify(token, this.key, { algorithms: [ACCESS_TOKEN.algorithm], issuer: ACCESS_TOKEN.issuer });
    } catch {
      return undefined;
    }
    const p = payload as { sub?: unknown; sid?: unknown; exp?: unknown };
    // A token without exp would never expire: not one of ours.
    if (typeof p.exp !== 'number' || typeof p.sub !== 'string' || typeof p.sid !== 'string' || !UUID.test(p.sub) || !UUID.test(p.sid)) return undefined;
    if (this.revocations.has(REVOCATIONS.sessionKey(p.sid)) || this.revocations.has(REVOCATIONS.userKey(p.sub))) return undefined;
    return { userId: p.sub, sessionId: p.sid };
  }
}
