import { createHash, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { ACCESS_TOKEN } from '@trove/proto-events';

/** Signs access tokens: `{sub: userId, sid: sessionId}`, HS256, short-lived. The gateway verifies them. */
export class AccessTokenIssuer {
  constructor(
    private readonly secret: string,
    readonly ttlSeconds: number,
  ) {}

  issue(userId: string, sessionId: string): string {
    return jwt.sign({ sid: sessionId }, this.secret, {
      algorithm: ACCESS_TOKEN.algorithm,
      subject: userId,
      issuer: ACCESS_TOKEN.issuer,
      expiresIn: this.ttlSeconds,
    });
  }
}

/** 256 random bits, URL-safe. Opaque: it means nothing without the session that stores its hash. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the store keeps instead of the token. A plain digest is enough (no salt, no stretching): the
 * token is random with 256 bits of entropy, and a digest can be looked up by equality.
 */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
