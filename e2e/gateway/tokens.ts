import jwt from 'jsonwebtoken';

/** Access tokens made by hand: expired ones, or ones signed with a key the server does not know. */
export function signAccessToken(
  secret: string,
  claims: { sub: string; sid: string },
  opts: { expiresInSeconds?: number } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + (opts.expiresInSeconds ?? 900);
  return jwt.sign({ sid: claims.sid, sub: claims.sub, iss: 'trove', iat: Math.min(now, exp - 60), exp }, secret, {
    algorithm: 'HS256',
  });
}
