import { createHmac } from 'node:crypto';
import { ContentUrls } from './content-urls';
import { ContentUrlSigner } from './url-signer';

const ID = '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c';

describe('content URLs', () => {
  const signer = new ContentUrlSigner({ secret: 'x'.repeat(40), ttlSeconds: 60 });
  const request = (url: string) => {
    const u = new URL(url, 'http://localhost');
    return { path: u.pathname, query: Object.fromEntries(u.searchParams) };
  };
  const SID = '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';
  const UID = '7a6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';
  const own = { sid: SID, uid: UID };
  const from = (host: string | undefined) => ({
    protocol: 'http',
    get: () => host,
    res: { locals: { auth: { kind: 'user', userId: UID, sessionId: SID } } },
  });

  it('accepts the URL the signer made, for that path only', () => {
    const urls = new ContentUrls(signer);
    const url = signer.sign(ID, 'thumbnail', own);
    expect(urls.verify(request(url))).toEqual(own);
    expect(urls.verify(request(url.replace('/thumbnail', '/original')))).toBe(false);
    expect(urls.verify(request(url.replace(/exp=\d+/, 'exp=9999999999')))).toBe(false);
    expect(urls.verify(request(`/v1/mediaItems/${ID}/thumbnail`))).toBe(false);
  });

  it("carries a shared album's claim: verified with it, refused without it, with another album or a malformed one", () => {
    const urls = new ContentUrls(signer);
    const album = '8c2d4e6f-1a3b-4c5d-9e7f-0a1b2c3d4e5f';
    const url = signer.sign(ID, 'preview', { share: album });
    expect(urls.verify(request(url))).toEqual({ share: album });
    expect(urls.verify(request(url.replace(/&share=[^&]+/, '')))).toBe(false);
    expect(urls.verify(request(url.replace(album, '9c2d4e6f-1a3b-4c5d-9e7f-0a1b2c3d4e5f')))).toBe(false);
    expect(urls.verify(request(url.replace(album, 'not-a-uuid')))).toBe(false);
    // An owner's URL of the same item does not become a shared one by adding or swapping a claim.
    const ownUrl = signer.sign(ID, 'preview', own);
    expect(urls.verify(request(`${ownUrl}&share=${album}`))).toBe(false);
    expect(urls.verify(request(ownUrl.replace(`sid=${SID}&uid=${UID}`, `share=${album}`)))).toBe(false);
  });

  it("binds an owner's URL to its session and user: refused without them, with others, and as made before", () => {
    const urls = new ContentUrls(signer);
    const url = signer.sign(ID, 'original', own);
    expect(new URL(url, 'http://h').searchParams.get('sid')).toBe(SID);
    expect(new URL(url, 'http://h').searchParams.get('uid')).toBe(UID);
    expect(urls.verify(request(url))).toEqual(own);
    expect(urls.verify(request(url.replace(/&sid=[^&]+/, '')))).toBe(false);
    expect(urls.verify(request(url.replace(/&uid=[^&]+/, '')))).toBe(false);
    expect(urls.verify(request(url.replace(SID, '6b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e')))).toBe(false);
    expect(urls.verify(request(url.replace(UID, '6b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e')))).toBe(false);
    // The format before: `?exp=…&sig=…` over the path and expiry alone.
    const exp = new URL(url, 'http://h').searchParams.get('exp')!;
    const legacy = createHmac('sha256', 'x'.repeat(40))
      .update(`/v1/mediaItems/${ID}/original\n${exp}`)
      .digest('base64url');
    expect(urls.verify(request(`/v1/mediaItems/${ID}/original?exp=${exp}&sig=${legacy}`))).toBe(false);
    // Made without a session (never for a user call): signed for none, so refused.
    const noSession = new ContentUrls(signer).forRequest({ protocol: 'http', get: () => 'h' })(ID, 'original');
    expect(urls.verify(request(noSession))).toBe(false);
  });

  it("makes absolute signed URLs under the public origin, else the request's own", () => {
    const signed = signer.sign(ID, 'preview', own);
    expect(new ContentUrls(signer).forRequest(from('photos.lan:5001'))(ID, 'preview')).toBe(
      `http://photos.lan:5001${signed}`,
    );
    expect(new ContentUrls(signer).forRequest(from(undefined))(ID, 'preview')).toBe(`http://localhost${signed}`);
    expect(new ContentUrls(signer, 'https://photos.example.org').forRequest(from('10.0.0.2'))(ID, 'preview')).toBe(
      `https://photos.example.org${signed}`,
    );
  });
});
