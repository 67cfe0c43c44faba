/**
 * Albums and shared albums end to end: a real nats-server, the compiled auth, media, worker,
 * library services and gateway as their own processes, real uploads processed by the worker, every
 * answer validated against openapi.yaml by the gateway (TROVE_VALIDATE_RESPONSES).
 */
import { randomUUID } from 'node:crypto';
import { startStack } from '../../../kit/src/testing/stack';
import type { Stack } from '../../../kit/src/testing/stack';
import { waitFor } from '../../../kit/src/testing/wait';
import { Api, newUser, uploadPhoto } from './helpers';
import type { Album, ApiResponse, MediaItem, TestUser } from './helpers';

const ALBUM_NOT_FOUND = { message: 'album not found' };
const MEDIA_NOT_FOUND = { message: 'mediaitem not found' };
const LINK_NOT_FOUND = { message: 'shared link not found' };
const UNAUTHORIZED = { message: 'Unauthorized' };

describe('albums and sharing (e2e)', () => {
  let stack: Stack;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  /** Four processed photos of alice's and one of bob's, uploaded once for the whole suite. */
  let photos: MediaItem[];
  let bobsPhoto: MediaItem;

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'library', 'gateway'] });
    api = new Api(stack.gatewayUrl);
    [alice, bob] = await Promise.all([newUser(stack, api), newUser(stack, api)]);
    photos = await Promise.all([0, 1, 2, 3].map((i) => uploadPhoto(api, alice.token, `alice-${i}.png`)));
    bobsPhoto = await uploadPhoto(api, bob.token, 'bob.png');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const as = (user: TestUser) => ({
    call: <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => api.call<T>(method, path, { bearer: user.token, body }),
  });
  const anonymous = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => api.call<T>(method, path, { body });
  const createAlbum = async (user: TestUser, body: Record<string, unknown>): Promise<Album> => {
    const res = await as(user).call<Album>('post', '/v1/albums', body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const getAlbum = async (user: TestUser, id: string): Promise<Album> => {
    const res = await as(user).call<Album>('get', `/v1/albums/${id}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const albumItemIds = async (user: TestUser, id: string, query = ''): Promise<string[]> => {
    const res = await as(user).call<MediaItem[]>('get', `/v1/albums/${id}/mediaItems${query}`);
    expect(res.status).toBe(200);
    return res.body.map((i) => i.id);
  };
  const sharedItemIds = async (id: string): Promise<string[]> => {
    const res = await anonymous<MediaItem[]>('get', `/v1/sharing/${id}/mediaItems`);
    expect(res.status).toBe(200);
    return res.body.map((i) => i.id);
  };
  const items = (user: TestUser, id: string, method: 'post' | 'delete', mediaItems: string[]) => as(user).call(method, `/v1/albums/${id}/mediaItems`, { mediaItems });
  const summary = (a: Album) => ({ count: a.mediaItemsCount, cover: a.coverMediaItemId, coverItem: a.coverMediaItem?.id ?? null });
  const expectError = (res: ApiResponse, status: number, body: unknown) => expect({ status: res.status, body: res.body }).toEqual({ status, body });

  describe('album calls', () => {
    it('answer 401 without a token', async () => {
      const id = randomUUID();
      for (const [method, path] of [
        ['get', '/v1/albums'],
        ['post', '/v1/albums'],
        ['get', `/v1/albums/${id}`],
        ['put', `/v1/albums/${id}`],
        ['delete', `/v1/albums/${id}`],
        ['get', `/v1/albums/${id}/mediaItems`],
        ['post', `/v1/albums/${id}/mediaItems`],
        ['delete', `/v1/albums/${id}/mediaItems`],
        ['get', `/v1/mediaItems/${id}/albums`],
      ] as const) {
        expectError(await anonymous(method, path, method === 'get' || method === 'delete' ? undefined : { name: 'x', mediaItems: [id] }), 401, UNAUTHORIZED);
      }
    });

    it('create, get, update and delete an album; deleting it keeps its items', async () => {
      const created = await createAlbum(alice, { name: 'Summer 2024', description: 'Two weeks on the coast' });
      expect(created).toEqual({
        id: expect.any(String),
        userId: alice.id,
        name: 'Summer 2024',
        description: 'Two weeks on the coast',
        shared: false,
        hidden: false,
        coverMediaItemId: null,
        coverMediaItem: null,
        mediaItemsCount: 0,
        createdAt: expect.any(String),
        updatedAt: created.createdAt,
      });
      expect(await getAlbum(alice, created.id)).toEqual(created);

      const put = await as(alice).call('put', `/v1/albums/${created.id}`, { name: 'Summer', description: null, hidden: true, unknown: 'ignored' });
      expect(put.status).toBe(204);
      const updated = await getAlbum(alice, created.id);
      expect(updated).toMatchObject({ name: 'Summer', description: null, hidden: true, shared: false, createdAt: created.createdAt });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      expectError(await as(alice).call('put', `/v1/albums/${created.id}`, { unknown: 1 }), 400, { message: expect.stringContaining('at least one') });

      expect((await items(alice, created.id, 'post', [photos[0]!.id])).status).toBe(204);
      expect((await as(alice).call('delete', `/v1/albums/${created.id}`)).status).toBe(204);
      expectError(await as(alice).call('get', `/v1/albums/${created.id}`), 404, ALBUM_NOT_FOUND);
      expectError(await as(alice).call('delete', `/v1/albums/${created.id}`), 404, ALBUM_NOT_FOUND);
      // The item is still there, in no album.
      expect((await as(alice).call('get', `/v1/mediaItems/${photos[0]!.id}`)).status).toBe(200);
      expect((await as(alice).call('get', `/v1/mediaItems/${photos[0]!.id}/albums`)).body).toEqual([]);
    });

    it("another user's album is 404 album not found, for every call", async () => {
      const album = await createAlbum(alice, { name: 'Private' });
      const id = album.id;
      expectError(await as(bob).call('get', `/v1/albums/${id}`), 404, ALBUM_NOT_FOUND);
      expectError(await as(bob).call('put', `/v1/albums/${id}`, { name: 'mine now' }), 404, ALBUM_NOT_FOUND);
      expectError(await as(bob).call('delete', `/v1/albums/${id}`), 404, ALBUM_NOT_FOUND);
      expectError(await as(bob).call('get', `/v1/albums/${id}/mediaItems`), 404, ALBUM_NOT_FOUND);
      expectError(await items(bob, id, 'post', [bobsPhoto.id]), 404, ALBUM_NOT_FOUND);
      expectError(await items(bob, id, 'delete', [bobsPhoto.id]), 404, ALBUM_NOT_FOUND);
      expectError(await as(alice).call('get', `/v1/albums/${randomUUID()}`), 404, ALBUM_NOT_FOUND);
      expect((await as(alice).call('get', '/v1/albums/not-a-uuid')).status).toBe(400);
      expect((await getAlbum(alice, id)).name).toBe('Private');
      expect((await as(bob).call<Album[]>('get', '/v1/albums?limit=100')).body.map((a) => a.id)).not.toContain(id);
    });

    it('lists with each sort, pagination, the shared filter and hidden albums left out unless asked', async () => {
      const carol = await newUser(stack, api);
      const made: Album[] = [];
      for (const [name, more] of [
        ['banana', { shared: true }],
        ['Apple', {}],
        ['cherry', { shared: true }],
        ['date', { hidden: true }],
      ] as const) {
        made.push(await createAlbum(carol, { name, ...more }));
        await new Promise((r) => setTimeout(r, 5));
      }
      // Touch banana last: updatedAt order differs from creation order.
      expect((await as(carol).call('put', `/v1/albums/${made[0]!.id}`, { description: 'touched' })).status).toBe(204);
      const names = async (query: string) => {
        const res = await as(carol).call<Album[]>('get', `/v1/albums${query}`);
        expect(res.status).toBe(200);
        return res.body.map((a) => a.name);
      };
      expect(await names('')).toEqual(['Apple', 'banana', 'cherry']);
      expect(await names('?sort=name')).toEqual(['Apple', 'banana', 'cherry']);
      expect(await names('?sort=-name')).toEqual(['cherry', 'banana', 'Apple']);
      expect(await names('?sort=createdAt')).toEqual(['banana', 'Apple', 'cherry']);
      expect(await names('?sort=-createdAt')).toEqual(['cherry', 'Apple', 'banana']);
      expect(await names('?sort=updatedAt')).toEqual(['Apple', 'cherry', 'banana']);
      expect(await names('?sort=-updatedAt')).toEqual(['banana', 'cherry', 'Apple']);
      expect(await names('?limit=2')).toEqual(['Apple', 'banana']);
      expect(await names('?limit=2&page=2')).toEqual(['cherry']);
      expect(await names('?limit=2&page=3')).toEqual([]);
      expect(await names('?shared=true')).toEqual(['banana', 'cherry']);
      expect(await names('?shared=false')).toEqual(['Apple']);
      expect(await names('?hidden=true')).toEqual(['date']);
      expect((await as(carol).call('get', '/v1/albums?sort=size')).status).toBe(400);
      expect((await as(carol).call('get', '/v1/albums?limit=101')).status).toBe(400);
    });
  });

  describe('album items and cover', () => {
    it('two items: count 2, cover the first added; removing the cover moves it; removing both leaves count 0 and no cover', async () => {
      const [first, second] = photos;
      const album = await createAlbum(alice, { name: 'Cover rules' });
      expect((await items(alice, album.id, 'post', [first!.id, second!.id])).status).toBe(204);
      // Adding again is idempotent: one entry, in its first place.
      expect((await items(alice, album.id, 'post', [second!.id, first!.id])).status).toBe(204);
      const two = await getAlbum(alice, album.id);
      expect(summary(two)).toEqual({ count: 2, cover: first!.id, coverItem: first!.id });
      expect(two.coverMediaItem).toMatchObject({ id: first!.id, filename: first!.filename, status: 'READY' });
      expect(await albumItemIds(alice, album.id)).toEqual([first!.id, second!.id]);
      expect(await albumItemIds(alice, album.id, '?limit=1&page=2')).toEqual([second!.id]);

      expect((await items(alice, album.id, 'delete', [first!.id])).status).toBe(204);
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 1, cover: second!.id, coverItem: second!.id });
      expect((await items(alice, album.id, 'delete', [second!.id, first!.id])).status).toBe(204);
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 0, cover: null, coverItem: null });
      expect(await albumItemIds(alice, album.id)).toEqual([]);
    });

    it("only the caller's items: another user's id is 404 mediaitem not found and nothing changes", async () => {
      const album = await createAlbum(alice, { name: 'Mine only' });
      expectError(await items(alice, album.id, 'post', [photos[0]!.id, bobsPhoto.id]), 404, MEDIA_NOT_FOUND);
      expectError(await items(alice, album.id, 'post', [randomUUID()]), 404, MEDIA_NOT_FOUND);
      expect((await getAlbum(alice, album.id)).mediaItemsCount).toBe(0);
      expect((await items(alice, album.id, 'post', [photos[0]!.id])).status).toBe(204);
      expectError(await items(alice, album.id, 'delete', [photos[0]!.id, bobsPhoto.id]), 404, MEDIA_NOT_FOUND);
      expect(await albumItemIds(alice, album.id)).toEqual([photos[0]!.id]);
      expectError(await as(alice).call('post', '/v1/albums', { name: 'x', coverMediaItemId: bobsPhoto.id }), 404, MEDIA_NOT_FOUND);
    });

    it('a chosen cover must be in the album; creating with a cover makes it the first item', async () => {
      const [a, b, c] = photos;
      const album = await createAlbum(alice, { name: 'Chosen', coverMediaItemId: b!.id });
      expect(summary(album)).toEqual({ count: 1, cover: b!.id, coverItem: b!.id });
      expect((await items(alice, album.id, 'post', [a!.id])).status).toBe(204);
      expectError(await as(alice).call('put', `/v1/albums/${album.id}`, { coverMediaItemId: c!.id }), 404, MEDIA_NOT_FOUND);
      expect((await as(alice).call('put', `/v1/albums/${album.id}`, { coverMediaItemId: a!.id })).status).toBe(204);
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 2, cover: a!.id, coverItem: a!.id });
      expect((await as(alice).call('put', `/v1/albums/${album.id}`, { coverMediaItemId: null })).status).toBe(204);
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 2, cover: b!.id, coverItem: b!.id });
    });

    it('GET /v1/mediaItems/{id}/albums lists exactly the albums holding the item', async () => {
      const item = photos[3]!;
      const zed = await createAlbum(alice, { name: 'zed' });
      const alpha = await createAlbum(alice, { name: 'Alpha', hidden: true });
      await createAlbum(alice, { name: 'without it' });
      const holding = async () => {
        const res = await as(alice).call<Album[]>('get', `/v1/mediaItems/${item.id}/albums`);
        expect(res.status).toBe(200);
        return res.body.map((a) => a.id);
      };
      expect(await holding()).toEqual([]);
      await items(alice, zed.id, 'post', [item.id]);
      await items(alice, alpha.id, 'post', [item.id]);
      expect(await holding()).toEqual([alpha.id, zed.id]);
      await items(alice, zed.id, 'delete', [item.id]);
      expect(await holding()).toEqual([alpha.id]);
      expectError(await as(bob).call('get', `/v1/mediaItems/${item.id}/albums`), 404, MEDIA_NOT_FOUND);
      await as(alice).call('delete', `/v1/albums/${alpha.id}`);
      expect(await holding()).toEqual([]);
    });
  });

  describe('trash and sharing', () => {
    it('a trashed item leaves the album items, the shared view and the count; restored, it is back', async () => {
      const [a, b] = photos;
      const album = await createAlbum(alice, { name: 'Trash', shared: true });
      await items(alice, album.id, 'post', [a!.id, b!.id]);
      expect((await as(alice).call('post', '/v1/trash', { mediaItems: [a!.id] })).status).toBe(204);
      await waitFor(async () => (await getAlbum(alice, album.id)).mediaItemsCount === 1, { what: 'the trash to reach the album' });
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 1, cover: b!.id, coverItem: b!.id });
      expect(await albumItemIds(alice, album.id)).toEqual([b!.id]);
      expect(await sharedItemIds(album.id)).toEqual([b!.id]);
      expect(summary((await anonymous<Album>('get', `/v1/sharing/${album.id}`)).body)).toEqual({ count: 1, cover: b!.id, coverItem: b!.id });
      // The album still holds it (it will be back): it is listed for the item.
      expect((await as(alice).call<Album[]>('get', `/v1/mediaItems/${a!.id}/albums`)).body.map((x) => x.id)).toContain(album.id);

      expect((await as(alice).call('delete', '/v1/trash', { mediaItems: [a!.id] })).status).toBe(204);
      await waitFor(async () => (await getAlbum(alice, album.id)).mediaItemsCount === 2, { what: 'the restore to reach the album' });
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 2, cover: a!.id, coverItem: a!.id });
      expect(await albumItemIds(alice, album.id)).toEqual([a!.id, b!.id]);
      expect(await sharedItemIds(album.id)).toEqual([a!.id, b!.id]);
    });

    it('a shared album and its items are readable without a token, their content URLs load without one; unsharing stops the link', async () => {
      const [a, b, c] = photos;
      const album = await createAlbum(alice, { name: 'Holiday', description: 'for the family', shared: true });
      await items(alice, album.id, 'post', [a!.id, b!.id, c!.id]);
      // A hidden item stays in the owner's album but not in the shared view.
      expect((await as(alice).call('post', '/v1/hidden', { mediaItems: [c!.id] })).status).toBe(204);

      const shared = await anonymous<Album>('get', `/v1/sharing/${album.id}`);
      expect(shared.status).toBe(200);
      expect(shared.headers.get('cache-control')).toBe('no-store');
      expect(shared.body).toMatchObject({ id: album.id, name: 'Holiday', description: 'for the family', shared: true, mediaItemsCount: 2, coverMediaItemId: a!.id });
      const listed = await anonymous<MediaItem[]>('get', `/v1/sharing/${album.id}/mediaItems`);
      expect(listed.status).toBe(200);
      expect(listed.body.map((i) => i.id)).toEqual([a!.id, b!.id]);
      expect(await albumItemIds(alice, album.id)).toEqual([a!.id, b!.id, c!.id]);
      expect((await anonymous<MediaItem[]>('get', `/v1/sharing/${album.id}/mediaItems?limit=1&page=2`)).body.map((i) => i.id)).toEqual([b!.id]);

      const urls = [shared.body.coverMediaItem!, ...listed.body].flatMap((i) => [i.sourceUrl, i.previewUrl, i.thumbnailUrl]);
      for (const url of urls) {
        expect(url).toMatch(/^http:\/\/.+\?exp=\d+&sig=/);
        const res = await fetch(url);
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        expect(res.headers.get('content-type')).toMatch(/^image\//);
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      // The same path without its signature needs a token.
      expect((await fetch(urls[0]!.split('?')[0]!)).status).toBe(401);

      expect((await as(alice).call('put', `/v1/albums/${album.id}`, { shared: false })).status).toBe(204);
      expectError(await anonymous('get', `/v1/sharing/${album.id}`), 404, LINK_NOT_FOUND);
      expectError(await anonymous('get', `/v1/sharing/${album.id}/mediaItems`), 404, LINK_NOT_FOUND);
      // The owner still has it.
      expect((await getAlbum(alice, album.id)).shared).toBe(false);

      expect((await as(alice).call('put', `/v1/albums/${album.id}`, { shared: true })).status).toBe(204);
      expect((await anonymous('get', `/v1/sharing/${album.id}`)).status).toBe(200);
      expect((await as(alice).call('delete', `/v1/albums/${album.id}`)).status).toBe(204);
      expectError(await anonymous('get', `/v1/sharing/${album.id}`), 404, LINK_NOT_FOUND);
      expectError(await anonymous('get', `/v1/sharing/${randomUUID()}/mediaItems`), 404, LINK_NOT_FOUND);
      expect((await anonymous('get', '/v1/sharing/not-a-uuid')).status).toBe(400);
      await as(alice).call('delete', '/v1/hidden', { mediaItems: [c!.id] });
    });

    it("a deleted user's shared albums stop answering", async () => {
      const dave = await newUser(stack, api);
      const photo = await uploadPhoto(api, dave.token, 'dave.png');
      const album = await createAlbum(dave, { name: 'Dave', shared: true, coverMediaItemId: photo.id });
      expect((await anonymous('get', `/v1/sharing/${album.id}`)).status).toBe(200);
      const basic = { username: stack.adminUsername, password: stack.adminPassword };
      expect((await api.call('delete', `/v1/users/${dave.id}`, { basic })).status).toBe(204);
      await waitFor(async () => (await anonymous('get', `/v1/sharing/${album.id}`)).status === 404, { what: 'the user deletion to reach the library' });
      expectError(await anonymous('get', `/v1/sharing/${album.id}/mediaItems`), 404, LINK_NOT_FOUND);
    });
  });
});
