import { ContentUrls } from './content-urls';
import { ContentUrlSigner } from './url-signer';

const ID = '3f1e7c2a-9b4d-4e8f-a1c2-5d6e7f8a9b0c';

describe('content URLs', () => {
  const signer = new ContentUrlSigner({ secret: 'x'.repeat(40), ttlSeconds: 60 });
  const request = (url: string) => {
    const u = new URL(url, 'http://localhost');
    return { path: u.pathname, query: Object.fromEntries(u.searchParams) };
  };
  const from = (host: string | undefined) => ({ protocol: 'http', get: () => host });

  it('accepts the URL the signer made, for that path only', () => {
    const urls = new ContentUrls(signer);
    const url = signer.sign(ID, 'thumbnail');
    expect(urls.verify(request(url))).toEqual({});
    expect(urls.verify(request(url.replace('/thumbnail', '/original')))).toBe(false);
    expect(urls.verify(request(url.replace(/exp=\d+/, 'exp=9999999999')))).toBe(false);
    expect(urls.verify(request(`/v1/mediaItems/${ID}/thumbnail`))).toBe(false);
  });

  it("carries a shared album's claim: verified with it, refused without it, with another album or a malformed one", () => {
    const urls = new ContentUrls(signer);
    const album = '8c2d4e6f-1a3b-4c5d-9e7f-0a1b2c3d4e5f';
    const url = signer.sign(ID, 'preview', album);
    expect(urls.verify(request(url))).toEqual({ share: album });
    expect(urls.verify(request(url.replace(/&share=[^&]+/, '')))).toBe(false);
    expect(urls.verify(request(url.replace(album, '9c2d4e6f-1a3b-4c5d-9e7f-0a1b2c3d4e5f')))).toBe(false);
    expect(urls.verify(request(url.replace(album, 'not-a-uuid')))).toBe(false);
    // A plain URL of the same item does not become a shared one by adding a claim.
    expect(urls.verify(request(`${signer.sign(ID, 'preview')}&share=${album}`))).toBe(false);
  });

  it("makes absolute signed URLs under the public origin, else the request's own", () => {
    const signed = signer.sign(ID, 'preview');
    expect(new ContentUrls(signer).forRequest(from('photos.lan:5001'))(ID, 'preview')).toBe(
      `http://photos.lan:5001${signed}`,
    );
    expect(new ContentUrls(signer).forRequest(from(undefined))(ID, 'preview')).toBe(`http://localhost${signed}`);
    expect(new ContentUrls(signer, 'https://photos.example.org').forRequest(from('10.0.0.2'))(ID, 'preview')).toBe(
      `https://photos.example.org${signed}`,
    );
  });
});
