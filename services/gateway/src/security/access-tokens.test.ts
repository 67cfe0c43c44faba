import jwt from 'jsonwebtoken';
import { AccessTokenVerifier } from './access-tokens';
import type { Revocations } from './revocations';

const SECRET = 's'.repeat(43);
const USER = '0b7e4c1d-2f3a-4b5c-8d9e-a0b1c2d3e4f5';
const SESSION = '8c2d4e6f-1a3b-4c5d-9e7f-0a1b2c3d4e5f';

function revocations(): Revocations & { keys: Set<string> } {
  const keys = new Set<string>();
  return { keys, ready: true, current: () => true, has: (k) => keys.has(k), add: (k) => void keys.add(k) };
}

const sign = (payload: object, opts: jwt.SignOptions = {}, secret = SECRET) =>
  jwt.sign(payload, secret, { algorithm: 'HS256', issuer: 'trove', subject: USER, expiresIn: 900, ...opts });

describe('access token verification', () => {
  it('accepts a token of ours and returns its user and session', () => {
    const v = new AccessTokenVerifier(SECRET, revocations());
    expect(v.verify(sign({ sid: SESSION }))).toEqual({ userId: USER, sessionId: SESSION });
  });

  it('rejects expired, forged, foreign, unsigned and malformed tokens', () => {
    const v = new AccessTokenVerifier(SECRET, revocations());
    const now = Math.floor(Date.now() / 1000);
    const bad = [
      jwt.sign({ sid: SESSION, sub: USER, iss: 'trove', iat: now - 1000, exp: now - 10 }, SECRET, {
        algorithm: 'HS256',
      }),
      sign({ sid: SESSION }, {}, 'x'.repeat(43)),
      sign({ sid: SESSION }, { issuer: 'someone-else' }),
      sign({ sid: SESSION }, { algorithm: 'HS512' }),
      jwt.sign({ sid: SESSION, sub: USER, iss: 'trove' }, SECRET, { algorithm: 'HS256' }), // no exp: would never expire
      sign({ sid: 'not-a-uuid' }),
      sign({}),
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: USER, sid: SESSION, iss: 'trove', exp: now + 100 })).toString('base64url')}.`,
      'garbage',
      '',
    ];
    for (const token of bad) expect(v.verify(token)).toBeUndefined();
  });

  it('rejects tokens of a revoked session or user', () => {
    const list = revocations();
    const v = new AccessTokenVerifier(SECRET, list);
    const token = sign({ sid: SESSION });
    list.add(`session.${SESSION}`);
    expect(v.verify(token)).toBeUndefined();
    list.keys.clear();
    list.add(`user.${USER}`);
    expect(v.verify(token)).toBeUndefined();
    list.keys.clear();
    expect(v.verify(token)).toBeDefined();
  });

  it('rejects a token it has verified before once it expires, or once its session is revoked', () => {
    let clockMs = Date.now();
    const list = revocations();
    const v = new AccessTokenVerifier(SECRET, list, () => clockMs);
    const token = sign({ sid: SESSION }, { expiresIn: 60 });
    const exp = (jwt.decode(token) as { exp: number }).exp;
    expect(v.verify(token)).toEqual({ userId: USER, sessionId: SESSION });
    expect(v.verify(token)).toEqual({ userId: USER, sessionId: SESSION });
    list.add(`session.${SESSION}`);
    expect(v.verify(token)).toBeUndefined();
    list.keys.clear();
    clockMs = exp * 1000 - 1;
    expect(v.verify(token)).toBeDefined();
    clockMs = exp * 1000;
    expect(v.verify(token)).toBeUndefined();
    expect(v.verify(token)).toBeUndefined();
  });

  it('never takes a token for another it remembers: a forged signature on a known payload fails', () => {
    const v = new AccessTokenVerifier(SECRET, revocations());
    const token = sign({ sid: SESSION });
    expect(v.verify(token)).toBeDefined();
    const [header, payload] = token.split('.');
    expect(v.verify(`${header}.${payload}.${Buffer.from('x'.repeat(32)).toString('base64url')}`)).toBeUndefined();
  });
});
