/**
 * Issue 32, part 3: a shared link's expiry, download switch and password, on a real stack (auth,
 * media, a worker, library, gateway), as a visitor with no account:
 * - an expiry in the past, or one reached while the visitor watches, answers 404 everywhere,
 *   content URLs handed out before included; clearing it opens the link again;
 * - downloads off: no original URL, an original URL handed out before answers 404 (previews still open);
 * - a password: 401 `password required` until unlocked; a wrong password 401; the token works as
 *   `X-Share-Token` and the content URLs it gets open as plain <img src>; a new password ends the
 *   token and those URLs; wrong passwords per visitor and album are limited (429 with Retry-After).
 * And part 4: the album as a ZIP, unpacked with yauzl — every original byte for byte, stored, under
 * unique names (the owner's file names; numbered for visitors), 403 for visitors with downloads off.
 */
import type { components } from '@trove/openapi';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { jpegAt } from '@trove/kit/testing/media';
import { answer, createApi, newUser, ok, randomTestAddress, uploadReady } from '../support/api';
import type { Api, MediaItem, TestUser } from '../support/api';
import { unzip } from '../support/zip';

type SharedAlbum = components['schemas']['SharedAlbum'];
type SharedMediaItem = components['schemas']['SharedMediaItem'];
type AlbumUpdateRequest = components['schemas']['AlbumUpdateRequest'];

describe('shared links: expiry, downloads, password (security e2e)', () => {
  let stack: Stack;
  let owner: TestUser;
  let visitor: Api;
  let items: MediaItem[];
  let originals: Buffer[];
  let albumId: string;

  const token = (t?: string) => (t ? { 'X-Share-Token': t } : {});
  const sharedAlbum = (t?: string) =>
    answer(visitor.GET('/v1/sharing/{id}', { params: { path: { id: albumId }, header: token(t) } }));
  const sharedItems = (t?: string) =>
    answer(
      visitor.GET('/v1/sharing/{id}/mediaItems', {
        params: { path: { id: albumId }, query: { limit: 100 }, header: token(t) },
      }),
    );
  const unlock = (password: string, address = randomTestAddress()) =>
    answer(
      visitor.POST('/v1/sharing/{id}/unlock', {
        params: { path: { id: albumId } },
        body: { password },
        headers: { 'X-Forwarded-For': address },
      }),
    );
  const setAlbum = (body: AlbumUpdateRequest) =>
    ok(owner.api.PUT('/v1/albums/{id}', { params: { path: { id: albumId } }, body }), 204);
  const fetchStatus = async (url: string) => {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  };

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'media', 'worker', 'library', 'gateway'],
      serviceEnv: { gateway: { TROVE_SHARING_RATE_LIMIT: '100000' } },
    });
    owner = await newUser(stack);
    visitor = createApi(stack.gatewayUrl);
    // Two files named alike (different bytes): the ZIP must keep both.
    originals = [await jpegAt(48.85, 2.35), await jpegAt(45.76, 4.83), await jpegAt(43.3, 5.37)];
    items = [];
    for (const [i, name] of ['IMG_1.jpg', 'IMG_2.jpg', 'IMG_1.jpg'].entries())
      items.push(await uploadReady(owner.api, originals[i]!, name));
    const album = await ok(
      owner.api.POST('/v1/albums', { body: { name: 'Grandparents', shared: true, shareLocation: true } }),
      201,
    );
    expect(album).toMatchObject({ shareExpiresAt: null, shareAllowDownload: true, sharePasswordSet: false });
    expect(album).not.toHaveProperty('shareKey');
    albumId = album.id;
    await ok(
      owner.api.POST('/v1/albums/{id}/mediaItems', {
        params: { path: { id: albumId } },
        body: { mediaItems: items.map((i) => i.id) },
      }),
      204,
    );
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('an expiry stops the link and its content URLs; cleared, the link answers again', async () => {
    const [first] = (await sharedItems()).body as SharedMediaItem[];
    expect(await fetchStatus(first!.previewUrl)).toBe(200);
    await setAlbum({ shareExpiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(await sharedAlbum()).toMatchObject({ status: 404, body: { message: 'shared link not found' } });
    expect((await sharedItems()).status).toBe(404);
    expect(await fetchStatus(first!.previewUrl)).toBe(404);
    expect(await fetchStatus(first!.sourceUrl!)).toBe(404);

    // An expiry a moment ahead: the link answers until it passes, then stops by itself.
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    await setAlbum({ shareExpiresAt: expiresAt });
    const open = await sharedAlbum();
    expect(open.status).toBe(200);
    expect((open.body as SharedAlbum).expiresAt).toBe(expiresAt);
    await waitFor(async () => (await sharedAlbum()).status === 404, {
      timeoutMs: 15_000,
      intervalMs: 100,
      what: 'the link to expire',
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    expect(await fetchStatus(first!.thumbnailUrl)).toBe(404);

    await setAlbum({ shareExpiresAt: null });
    expect((await sharedAlbum()).status).toBe(200);
    expect(await fetchStatus(first!.previewUrl)).toBe(200);
  });

  it('downloads off: no original URL, none handed out before opens, previews still do', async () => {
    const before = (await sharedItems()).body as SharedMediaItem[];
    expect((await sharedAlbum()).body).toMatchObject({ allowDownload: true });
    expect(await fetchStatus(before[0]!.sourceUrl!)).toBe(200);
    await setAlbum({ shareAllowDownload: false });
    expect((await owner.api.GET('/v1/albums/{id}', { params: { path: { id: albumId } } })).data).toMatchObject({
      shareAllowDownload: false,
    });
    const album = (await sharedAlbum()).body as SharedAlbum;
    expect(album.allowDownload).toBe(false);
    expect(album.coverMediaItem?.sourceUrl).toBeNull();
    const after = (await sharedItems()).body as SharedMediaItem[];
    for (const item of after) expect(item.sourceUrl).toBeNull();
    for (const item of before) expect(await fetchStatus(item.sourceUrl!)).toBe(404);
    for (const item of after) {
      expect(await fetchStatus(item.previewUrl)).toBe(200);
      expect(await fetchStatus(item.thumbnailUrl)).toBe(200);
    }
    await setAlbum({ shareAllowDownload: true });
    for (const item of before) expect(await fetchStatus(item.sourceUrl!)).toBe(200);
  });

  it('a password: 401 until unlocked, the token and its URLs work, a new password ends both', async () => {
    const open = (await sharedItems()).body as SharedMediaItem[];
    await setAlbum({ sharePassword: 'grandma-2030' });
    const owned = await ok(owner.api.GET('/v1/albums/{id}', { params: { path: { id: albumId } } }));
    expect(owned.sharePasswordSet).toBe(true);
    expect(JSON.stringify(owned)).not.toContain('grandma-2030');

    expect(await sharedAlbum()).toMatchObject({ status: 401, body: { message: 'password required' } });
    expect(await sharedItems()).toMatchObject({ status: 401, body: { message: 'password required' } });
    expect(await sharedAlbum('1999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).toMatchObject({ status: 401 });
    // URLs handed out before the password stop opening.
    expect(await fetchStatus(open[0]!.previewUrl)).toBe(404);

    expect(await unlock('grandma-2031')).toMatchObject({ status: 401, body: { message: 'wrong password' } });
    const unlocked = await unlock('grandma-2030');
    expect(unlocked.status).toBe(200);
    const t = (unlocked.body as { token: string }).token;
    expect((await sharedAlbum(t)).status).toBe(200);
    const listed = (await sharedItems(t)).body as SharedMediaItem[];
    expect(listed.map((i) => i.id)).toEqual(items.map((i) => i.id));
    // Plain fetches, as an <img src> makes them: no header needed.
    for (const item of listed) {
      expect(await fetchStatus(item.previewUrl)).toBe(200);
      expect(await fetchStatus(item.sourceUrl!)).toBe(200);
    }
    // The key is covered by the signature: taken off, the URL opens nothing.
    const stripped = new URL(listed[0]!.previewUrl);
    stripped.searchParams.delete('sk');
    expect(await fetchStatus(stripped.toString())).toBe(401);

    // The same password set again is a new password: the token and its URLs end.
    await setAlbum({ sharePassword: 'grandma-2030' });
    expect(await sharedAlbum(t)).toMatchObject({ status: 401, body: { message: 'password required' } });
    expect(await fetchStatus(listed[0]!.previewUrl)).toBe(404);
    const again = (await unlock('grandma-2030')).body as { token: string };
    expect((await sharedAlbum(again.token)).status).toBe(200);

    // Cleared: the link answers without a token again.
    await setAlbum({ sharePassword: null });
    expect((await sharedAlbum()).status).toBe(200);
    expect((await unlock('grandma-2030')).status).toBe(400);
  });

  it('wrong passwords are limited per visitor and album: 429 with Retry-After, even for the right one', async () => {
    await setAlbum({ sharePassword: 'grandma-2030' });
    const address = randomTestAddress();
    for (let i = 0; i < 5; i++) expect((await unlock(`guess-${i}`, address)).status).toBe(401);
    const refused = await unlock('guess-5', address);
    expect(refused).toMatchObject({ status: 429 });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await unlock('grandma-2030', address)).status).toBe(429);
    // Another visitor is not held back.
    expect((await unlock('grandma-2030')).status).toBe(200);
    await setAlbum({ sharePassword: null });
  });

  /** The raw answer of a download, read whole (the test's albums are small). */
  async function download(path: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${stack.gatewayUrl}${path}`, { headers });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  it("the owner's ZIP: every original byte for byte, stored, under unique file names; the album's name as its file name", async () => {
    await setAlbum({ name: 'Été à Lyon' });
    const res = await download(`/v1/albums/${albumId}/download`, { Authorization: `Bearer ${owner.token}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Lyon.zip`);
    const entries = await unzip(res.body);
    expect(entries.map((e) => e.name)).toEqual(['IMG_1.jpg', 'IMG_2.jpg', 'IMG_1 (2).jpg']);
    for (const [i, entry] of entries.entries()) {
      expect(entry.method).toBe(0);
      expect(entry.bytes.equals(originals[i]!)).toBe(true);
    }
    // Another user's, or nobody's: 404 and 401, nothing streamed.
    const stranger = await newUser(stack);
    expect(
      (await download(`/v1/albums/${albumId}/download`, { Authorization: `Bearer ${stranger.token}` })).status,
    ).toBe(404);
    expect((await download(`/v1/albums/${albumId}/download`)).status).toBe(401);
  });

  it("a visitor's ZIP: numbered names, hidden items left out, only while downloads are allowed and with the link's token", async () => {
    const path = `/v1/sharing/${albumId}/download`;
    await ok(owner.api.POST('/v1/hidden', { body: { mediaItems: [items[1]!.id] } }), 204);
    const res = await download(path);
    expect(res.status).toBe(200);
    const entries = await unzip(res.body);
    expect(entries.map((e) => e.name)).toEqual(['0001.jpg', '0002.jpg']);
    expect(entries[0]!.bytes.equals(originals[0]!)).toBe(true);
    expect(entries[1]!.bytes.equals(originals[2]!)).toBe(true);
    await ok(owner.api.DELETE('/v1/hidden', { body: { mediaItems: [items[1]!.id] } }), 204);

    await setAlbum({ shareAllowDownload: false });
    const off = await download(path);
    expect({ status: off.status, body: JSON.parse(off.body.toString()) }).toEqual({
      status: 403,
      body: { message: 'downloads are off for this link' },
    });
    await setAlbum({ shareAllowDownload: true, shareLocation: false });
    expect((await download(path)).status).toBe(403);
    await setAlbum({ shareLocation: true, sharePassword: 'grandma-2030' });
    expect((await download(path)).status).toBe(401);
    const { token: t } = (await unlock('grandma-2030')).body as { token: string };
    const unlocked = await download(path, { 'X-Share-Token': t });
    expect(unlocked.status).toBe(200);
    expect((await unzip(unlocked.body)).length).toBe(3);
    await setAlbum({ sharePassword: null, shareExpiresAt: new Date(Date.now() - 1000).toISOString() });
    expect((await download(path)).status).toBe(404);
    await setAlbum({ shareExpiresAt: null });
  });
});
