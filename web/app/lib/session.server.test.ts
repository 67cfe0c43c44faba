import { SESSION_COOKIE, SessionCodec, SessionCookies } from './session.server';
import type { SessionData } from './session.server';

const s1 = 'first-secret-first-secret-first-secret';
const s2 = 'second-secret-second-secret-second-secret';
const data: SessionData = {
  accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.sig',
  refreshToken: 'refresh-token-value',
  expiresAt: 1_700_000_000_000,
  username: 'alice',
};

function cookieHeader(setCookie: string): string {
  return setCookie.split(';')[0];
}

describe('session cookie', () => {
  it('seals the tokens with AES-GCM: nothing readable, and a round trip gives them back', () => {
    const codec = new SessionCodec([s1]);
    const sealed = codec.seal(data);
    expect(sealed).not.toContain('eyJ');
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain('refresh-token-value');
    expect(codec.unseal(sealed)).toEqual(data);
    // A fresh IV every time.
    expect(codec.seal(data)).not.toBe(sealed);
  });

  it('refuses tampered, foreign or garbage values', () => {
    const codec = new SessionCodec([s1]);
    const sealed = codec.seal(data);
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[20] ^= 1;
    expect(codec.unseal(`v1.${raw.toString('base64url')}`)).toBeNull();
    expect(new SessionCodec([s2]).unseal(sealed)).toBeNull();
    expect(codec.unseal('v1.abc')).toBeNull();
    expect(codec.unseal('garbage')).toBeNull();
  });

  it('opens cookies sealed with an older secret after rotation', () => {
    const old = new SessionCodec([s1]).seal(data);
    expect(new SessionCodec([s2, s1]).unseal(old)).toEqual(data);
  });

  it('is httpOnly, SameSite=Lax, Secure over https, and can be cleared', async () => {
    const cookies = new SessionCookies([s1], 30);
    const http = await cookies.commit(new Request('http://localhost:3000/login'), data);
    expect(http).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(http).toContain('HttpOnly');
    expect(http).toContain('SameSite=Lax');
    expect(http).toContain('Path=/');
    expect(http).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(http).not.toContain('Secure');
    expect(await cookies.commit(new Request('https://photos.example.org/login'), data)).toContain('Secure');

    const back = await cookies.read(new Request('http://localhost:3000/', { headers: { Cookie: cookieHeader(http) } }));
    expect(back).toEqual(data);
    expect(await cookies.read(new Request('http://localhost:3000/'))).toBeNull();
    expect(await cookies.destroy(new Request('http://localhost:3000/'))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
  });
});
