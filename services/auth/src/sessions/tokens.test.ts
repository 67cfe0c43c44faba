import jwt from 'jsonwebtoken';
import { hashRefreshToken, AccessTokenIssuer, newRefreshToken } from './tokens';

const SECRET = 'a'.repeat(43);
const USER = '0b7e4c1d-2f3a-4b5c-8d9e-a0b1c2d3e4f5';
const SESSION = '8c2d4e6f-1a3b-4c5d-9e7f-0a1b2c3d4e5f';

describe('tokens', () => {
  it('issues HS256 access tokens carrying the user and session, issuer and expiry', () => {
    const token = new AccessTokenIssuer(SECRET, 900).issue(USER, SESSION);
    const claims = jwt.verify(token, SECRET, { algorithms: ['HS256'], issuer: 'trove' }) as jwt.JwtPayload;
    expect(claims).toMatchObject({ sub: USER, sid: SESSION, iss: 'trove' });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(jwt.decode(token, { complete: true })?.header.alg).toBe('HS256');
  });

  it('signs with the configured secret only', () => {
    const token = new AccessTokenIssuer(SECRET, 900).issue(USER, SESSION);
    expect(() => jwt.verify(token, 'b'.repeat(43))).toThrow(/signature/);
  });

  it('makes 256-bit random, URL-safe refresh tokens', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => newRefreshToken()));
    expect(tokens.size).toBe(100);
    for (const t of tokens) {
      expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    }
  });

  it('stores refresh tokens as a digest that does not reveal them', () => {
    const t = newRefreshToken();
    expect(hashRefreshToken(t)).toBe(hashRefreshToken(t));
    expect(hashRefreshToken(t)).not.toContain(t);
    expect(hashRefreshToken(t)).not.toBe(hashRefreshToken(newRefreshToken()));
  });
});
