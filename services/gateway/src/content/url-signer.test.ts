import { ContentUrlSigner } from './url-signer';

const id = '3f1c1b8e-2a4b-4c59-9a0e-6a1d2b3c4d5e';
const secret = 'x'.repeat(40);
const own = { sid: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e', uid: '7a6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e' };

function parse(url: string) {
  const u = new URL(url, 'http://h');
  return { path: u.pathname, exp: u.searchParams.get('exp') ?? undefined, sig: u.searchParams.get('sig') ?? undefined };
}

describe('ContentUrlSigner', () => {
  it('signs a path that it then accepts', () => {
    const s = new ContentUrlSigner({ secret, ttlSeconds: 3600 });
    const u = parse(s.sign(id, 'preview', own));
    expect(u.path).toBe(`/v1/mediaItems/${id}/preview`);
    expect(s.verify(u.path, u.exp, u.sig, own)).toBe(true);
  });

  it('rejects another path, a changed expiry, a forged signature and another key', () => {
    const s = new ContentUrlSigner({ secret, ttlSeconds: 3600 });
    const u = parse(s.sign(id, 'preview', own));
    expect(s.verify(`/v1/mediaItems/${id}/original`, u.exp, u.sig, own)).toBe(false);
    expect(s.verify(u.path, String(Number(u.exp) + 3600), u.sig, own)).toBe(false);
    expect(s.verify(u.path, u.exp, 'A'.repeat(u.sig!.length), own)).toBe(false);
    expect(s.verify(u.path, u.exp, undefined, own)).toBe(false);
    const other = new ContentUrlSigner({ secret: 'y'.repeat(40), ttlSeconds: 3600 });
    expect(other.verify(u.path, u.exp, u.sig, own)).toBe(false);
  });

  it('expires, and keeps the same URL within a period so browsers can cache it', () => {
    let now = 1_700_000_000_000;
    const s = new ContentUrlSigner({ secret, ttlSeconds: 60, now: () => now });
    const first = s.sign(id, 'thumbnail', own);
    now += 1000;
    expect(s.sign(id, 'thumbnail', own)).toBe(first);
    const u = parse(first);
    expect(Number(u.exp) * 1000 - now).toBeGreaterThanOrEqual(59_000);
    now = Number(u.exp) * 1000 + 1;
    expect(s.verify(u.path, u.exp, u.sig, own)).toBe(false);
  });

  it('binds the URL to its one claim: a session URL does not open as another session or user, a share or nothing', () => {
    const s = new ContentUrlSigner({ secret, ttlSeconds: 3600 });
    const u = parse(s.sign(id, 'original', own));
    expect(s.verify(u.path, u.exp, u.sig, own)).toBe(true);
    expect(s.verify(u.path, u.exp, u.sig, { ...own, sid: '6b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e' })).toBe(false);
    expect(s.verify(u.path, u.exp, u.sig, { ...own, uid: '6b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e' })).toBe(false);
    expect(s.verify(u.path, u.exp, u.sig, { share: own.sid })).toBe(false);
  });

  it('answers the same signature from memory, and still verifies once the remembered ones have been forgotten', () => {
    const s = new ContentUrlSigner({ secret, ttlSeconds: 3600 });
    const first = s.sign(id, 'thumbnail', own);
    expect(s.sign(id, 'thumbnail', own)).toBe(first);
    // More signatures than are kept: the first one is forgotten, made again and still the same.
    for (let i = 0; i < 50_001; i++) s.signPath(`/v1/explore/faces/${i}/thumbnail`, own);
    const u = parse(first);
    expect(s.verify(u.path, u.exp, u.sig, own)).toBe(true);
    expect(s.sign(id, 'thumbnail', own)).toBe(first);
    expect(s.verify(u.path, u.exp, u.sig, { ...own, uid: id })).toBe(false);
  });

  it('refuses a short secret', () => {
    expect(() => new ContentUrlSigner({ secret: 'short', ttlSeconds: 60 })).toThrow(/at least 32/);
  });
});
