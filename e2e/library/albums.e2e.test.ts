/**
 * Albums and shared albums end to end: a real nats-server, the compiled auth, media, worker,
 * library services and gateway as their own processes, real uploads processed by the worker, every
 * answer validated against openapi.yaml by the gateway (TROVE_VALIDATE_RESPONSES).
 */
import { randomUUID } from 'node:crypto';
import type { components, operations } from '@trove/openapi';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { jpegAt, noisePng } from '@trove/kit/testing/media';
import { adminApi, answer, createApi, newUser, offContract, ok, status, uploadReady } from '../support/api';
import type { Album, Api, MediaItem, TestUser } from '../support/api';
import { send } from '../support/raw';

const ALBUM_NOT_FOUND = { message: 'album not found' };
const MEDIA_NOT_FOUND = { message: 'mediaitem not found' };
const LINK_NOT_FOUND = { message: 'shared link not found' };
const UNAUTHORIZED = { message: 'Unauthorized' };

type AlbumRequest = components['schemas']['AlbumRequest'];
type SharedAlbum = components['schemas']['SharedAlbum'];
type SharedMediaItem = components['schemas']['SharedMediaItem'];
type AlbumUpdateRequest = components['schemas']['AlbumUpdateRequest'];
type AlbumsQuery = NonNullable<operations['listAlbums']['parameters']['query']>;

describe('albums and sharing (e2e)', () => {
  let stack: Stack;
  /** Without a token: what anyone with a shared link can call. */
  let anonymous: Api;
  let alice: TestUser;
  let bob: TestUser;
  /** Four processed photos of alice's and one of bob's, uploaded once for the whole suite. */
  let photos: MediaItem[];
  let bobsPhoto: MediaItem;

  /** A small PNG, different every time (no duplicate-upload 409), processed by the worker. */
  const uploadPhoto = async (user: TestUser, name: string) => uploadReady(user.api, await noisePng(), name);

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'library', 'gateway'] });
    anonymous = createApi(stack.gatewayUrl);
    [alice, bob] = await Promise.all([newUser(stack), newUser(stack)]);
    photos = await Promise.all([0, 1, 2, 3].map((i) => uploadPhoto(alice, `alice-${i}.png`)));
    bobsPhoto = await uploadPhoto(bob, 'bob.png');
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  const byId = (id: string) => ({ params: { path: { id } } });
  const createAlbum = (user: TestUser, body: AlbumRequest): Promise<Album> =>
    ok(user.api.POST('/v1/albums', { body }), 201);
  const getAlbum = (user: TestUser, id: string): Promise<Album> => ok(user.api.GET('/v1/albums/{id}', byId(id)), 200);
  const updateAlbum = (user: TestUser, id: string, body: AlbumUpdateRequest) =>
    answer(user.api.PUT('/v1/albums/{id}', { ...byId(id), body }));
  const albumItemIds = async (
    user: TestUser,
    id: string,
    query: { page?: number; limit?: number } = {},
  ): Promise<string[]> =>
    (await ok(user.api.GET('/v1/albums/{id}/mediaItems', { params: { path: { id }, query } }), 200)).map((i) => i.id);
  const sharedItemIds = async (id: string): Promise<string[]> =>
    (await ok(anonymous.GET('/v1/sharing/{id}/mediaItems', byId(id)), 200)).map((i) => i.id);
  const sharedAlbum = (id: string) => answer(anonymous.GET('/v1/sharing/{id}', byId(id)));
  const sharedItems = (id: string) => answer(anonymous.GET('/v1/sharing/{id}/mediaItems', byId(id)));
  const albumsOf = async (user: TestUser, itemId: string): Promise<string[]> =>
    (await ok(user.api.GET('/v1/mediaItems/{id}/albums', byId(itemId)), 200)).map((a) => a.id);
  const items = (user: TestUser, id: string, method: 'post' | 'delete', mediaItems: string[]) =>
    answer(
      method === 'post'
        ? user.api.POST('/v1/albums/{id}/mediaItems', { ...byId(id), body: { mediaItems } })
        : user.api.DELETE('/v1/albums/{id}/mediaItems', { ...byId(id), body: { mediaItems } }),
    );
  const summary = (
    a: Pick<Album, 'mediaItemsCount' | 'coverMediaItemId'> & { coverMediaItem: { id: string } | null },
  ) => ({ count: a.mediaItemsCount, cover: a.coverMediaItemId, coverItem: a.coverMediaItem?.id ?? null });
  const expectError = (res: { status: number; body: unknown }, status: number, body: unknown) =>
    expect({ status: res.status, body: res.body }).toEqual({ status, body });

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
        expectError(
          await send(stack.gatewayUrl + path, {
            method,
            json: method === 'get' || method === 'delete' ? undefined : { name: 'x', mediaItems: [id] },
          }),
          401,
          UNAUTHORIZED,
        );
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
        shareLocation: false,
        shareExpiresAt: null,
        shareAllowDownload: true,
        sharePasswordSet: false,
        hidden: false,
        coverMediaItemId: null,
        coverMediaItem: null,
        mediaItemsCount: 0,
        createdAt: expect.any(String),
        updatedAt: created.createdAt,
        role: 'owner',
        owner: { id: alice.id, name: 'Test User' },
      });
      expect(await getAlbum(alice, created.id)).toEqual(created);

      const put = await updateAlbum(
        alice,
        created.id,
        offContract({ name: 'Summer', description: null, hidden: true, unknown: 'ignored' }),
      );
      expect(put.status).toBe(204);
      const updated = await getAlbum(alice, created.id);
      expect(updated).toMatchObject({
        name: 'Summer',
        description: null,
        hidden: true,
        shared: false,
        createdAt: created.createdAt,
      });
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
      expectError(await updateAlbum(alice, created.id, offContract({ unknown: 1 })), 400, {
        message: expect.stringContaining('at least one'),
      });

      expect((await items(alice, created.id, 'post', [photos[0]!.id])).status).toBe(204);
      expect(await status(alice.api.DELETE('/v1/albums/{id}', byId(created.id)))).toBe(204);
      expectError(await answer(alice.api.GET('/v1/albums/{id}', byId(created.id))), 404, ALBUM_NOT_FOUND);
      expectError(await answer(alice.api.DELETE('/v1/albums/{id}', byId(created.id))), 404, ALBUM_NOT_FOUND);
      // The item is still there, in no album.
      expect(await status(alice.api.GET('/v1/mediaItems/{id}', byId(photos[0]!.id)))).toBe(200);
      expect((await answer(alice.api.GET('/v1/mediaItems/{id}/albums', byId(photos[0]!.id)))).body).toEqual([]);
    });

    it("another user's album is 404 album not found, for every call", async () => {
      const album = await createAlbum(alice, { name: 'Private' });
      const id = album.id;
      expectError(await answer(bob.api.GET('/v1/albums/{id}', byId(id))), 404, ALBUM_NOT_FOUND);
      expectError(await updateAlbum(bob, id, { name: 'mine now' }), 404, ALBUM_NOT_FOUND);
      expectError(await answer(bob.api.DELETE('/v1/albums/{id}', byId(id))), 404, ALBUM_NOT_FOUND);
      expectError(await answer(bob.api.GET('/v1/albums/{id}/mediaItems', byId(id))), 404, ALBUM_NOT_FOUND);
      expectError(await items(bob, id, 'post', [bobsPhoto.id]), 404, ALBUM_NOT_FOUND);
      expectError(await items(bob, id, 'delete', [bobsPhoto.id]), 404, ALBUM_NOT_FOUND);
      expectError(await answer(alice.api.GET('/v1/albums/{id}', byId(randomUUID()))), 404, ALBUM_NOT_FOUND);
      expect(await status(alice.api.GET('/v1/albums/{id}', byId('not-a-uuid')))).toBe(400);
      expect((await getAlbum(alice, id)).name).toBe('Private');
      expect(
        (await ok(bob.api.GET('/v1/albums', { params: { query: { limit: 100 } } }))).map((a) => a.id),
      ).not.toContain(id);
    });

    it('lists with each sort, pagination, the shared filter and hidden albums left out unless asked', async () => {
      const carol = await newUser(stack);
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
      expect((await updateAlbum(carol, made[0]!.id, { description: 'touched' })).status).toBe(204);
      const names = async (query: AlbumsQuery = {}) =>
        (await ok(carol.api.GET('/v1/albums', { params: { query } }), 200)).map((a) => a.name);
      expect(await names()).toEqual(['Apple', 'banana', 'cherry']);
      expect(await names({ sort: 'name' })).toEqual(['Apple', 'banana', 'cherry']);
      expect(await names({ sort: '-name' })).toEqual(['cherry', 'banana', 'Apple']);
      expect(await names({ sort: 'createdAt' })).toEqual(['banana', 'Apple', 'cherry']);
      expect(await names({ sort: '-createdAt' })).toEqual(['cherry', 'Apple', 'banana']);
      expect(await names({ sort: 'updatedAt' })).toEqual(['Apple', 'cherry', 'banana']);
      expect(await names({ sort: '-updatedAt' })).toEqual(['banana', 'cherry', 'Apple']);
      expect(await names({ limit: 2 })).toEqual(['Apple', 'banana']);
      expect(await names({ limit: 2, page: 2 })).toEqual(['cherry']);
      expect(await names({ limit: 2, page: 3 })).toEqual([]);
      expect(await names({ shared: true })).toEqual(['banana', 'cherry']);
      expect(await names({ shared: false })).toEqual(['Apple']);
      expect(await names({ hidden: true })).toEqual(['date']);
      expect(await status(carol.api.GET('/v1/albums', { params: { query: { sort: offContract('size') } } }))).toBe(400);
      expect(await status(carol.api.GET('/v1/albums', { params: { query: { limit: 101 } } }))).toBe(400);
    });

    it('a raw query string: a `+` sort sent as %2B is ascending; a raw `+` is a space, so `+name` is not a sort key (400 naming it)', async () => {
      const carol = await newUser(stack);
      for (const name of ['banana', 'Apple']) await createAlbum(carol, { name });
      const raw = (query: string) =>
        send(`${stack.gatewayUrl}/v1/albums?${query}`, { headers: { Authorization: `Bearer ${carol.token}` } });
      const names = async (query: string) => {
        const res = await raw(query);
        expect([query, res.status]).toEqual([query, 200]);
        return (res.body as Album[]).map((a) => a.name);
      };
      expect(await names('sort=%2Bname')).toEqual(['Apple', 'banana']);
      expect(await names('sort=%2BupdatedAt')).toEqual(await names('sort=updatedAt'));
      expect(await names('sort=%2BcreatedAt&limit=1&page=2')).toEqual((await names('sort=createdAt')).slice(1));
      expect(await names('sort=-name&shared=false&hidden=false')).toEqual(['banana', 'Apple']);
      const spaced = await raw('sort=+name');
      expect(spaced.status).toBe(400);
      expect(spaced.body).toEqual({ message: expect.stringContaining('sort') });
      const reserved = await raw('sort=name,createdAt');
      expect(reserved.status).toBe(400);
      expect(reserved.body).toEqual({
        message: expect.stringMatching(/^request\/query\/sort must be equal to one of/),
      });
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
      expect(await albumItemIds(alice, album.id, { limit: 1, page: 2 })).toEqual([second!.id]);

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
      expectError(
        await answer(alice.api.POST('/v1/albums', { body: { name: 'x', coverMediaItemId: bobsPhoto.id } })),
        404,
        MEDIA_NOT_FOUND,
      );
    });

    it('a chosen cover must be in the album; creating with a cover makes it the first item', async () => {
      const [a, b, c] = photos;
      const album = await createAlbum(alice, { name: 'Chosen', coverMediaItemId: b!.id });
      expect(summary(album)).toEqual({ count: 1, cover: b!.id, coverItem: b!.id });
      expect((await items(alice, album.id, 'post', [a!.id])).status).toBe(204);
      expectError(await updateAlbum(alice, album.id, { coverMediaItemId: c!.id }), 404, MEDIA_NOT_FOUND);
      expect((await updateAlbum(alice, album.id, { coverMediaItemId: a!.id })).status).toBe(204);
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 2, cover: a!.id, coverItem: a!.id });
      expect((await updateAlbum(alice, album.id, { coverMediaItemId: null })).status).toBe(204);
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 2, cover: b!.id, coverItem: b!.id });
    });

    it('GET /v1/mediaItems/{id}/albums lists exactly the albums holding the item', async () => {
      const item = photos[3]!;
      const zed = await createAlbum(alice, { name: 'zed' });
      const alpha = await createAlbum(alice, { name: 'Alpha', hidden: true });
      await createAlbum(alice, { name: 'without it' });
      const holding = () => albumsOf(alice, item.id);
      expect(await holding()).toEqual([]);
      await items(alice, zed.id, 'post', [item.id]);
      await items(alice, alpha.id, 'post', [item.id]);
      expect(await holding()).toEqual([alpha.id, zed.id]);
      await items(alice, zed.id, 'delete', [item.id]);
      expect(await holding()).toEqual([alpha.id]);
      expectError(await answer(bob.api.GET('/v1/mediaItems/{id}/albums', byId(item.id))), 404, MEDIA_NOT_FOUND);
      await alice.api.DELETE('/v1/albums/{id}', byId(alpha.id));
      expect(await holding()).toEqual([]);
    });
  });

  describe('trash and sharing', () => {
    it('a trashed item leaves the album items, the shared view and the count; restored, it is back', async () => {
      const [a, b] = photos;
      const album = await createAlbum(alice, { name: 'Trash', shared: true });
      await items(alice, album.id, 'post', [a!.id, b!.id]);
      expect(await status(alice.api.POST('/v1/trash', { body: { mediaItems: [a!.id] } }))).toBe(204);
      await waitFor(async () => (await getAlbum(alice, album.id)).mediaItemsCount === 1, {
        what: 'the trash to reach the album',
      });
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 1, cover: b!.id, coverItem: b!.id });
      expect(await albumItemIds(alice, album.id)).toEqual([b!.id]);
      expect(await sharedItemIds(album.id)).toEqual([b!.id]);
      expect(summary(await ok(anonymous.GET('/v1/sharing/{id}', byId(album.id))))).toEqual({
        count: 1,
        cover: b!.id,
        coverItem: b!.id,
      });
      // The album still holds it (it will be back): it is listed for the item.
      expect(await albumsOf(alice, a!.id)).toContain(album.id);

      expect(await status(alice.api.DELETE('/v1/trash', { body: { mediaItems: [a!.id] } }))).toBe(204);
      await waitFor(async () => (await getAlbum(alice, album.id)).mediaItemsCount === 2, {
        what: 'the restore to reach the album',
      });
      expect(summary(await getAlbum(alice, album.id))).toEqual({ count: 2, cover: a!.id, coverItem: a!.id });
      expect(await albumItemIds(alice, album.id)).toEqual([a!.id, b!.id]);
      expect(await sharedItemIds(album.id)).toEqual([a!.id, b!.id]);
    });

    it('a shared album and its items are readable without a token, their content URLs load without one; unsharing stops the link', async () => {
      const [a, b, c] = photos;
      const album = await createAlbum(alice, { name: 'Holiday', description: 'for the family', shared: true });
      await items(alice, album.id, 'post', [a!.id, b!.id, c!.id]);
      // A hidden item stays in the owner's album but not in the shared view. The shared count follows the media
      // service's events (the items listed are checked against media at once): wait for the hide to reach it.
      expect(await status(alice.api.POST('/v1/hidden', { body: { mediaItems: [c!.id] } }))).toBe(204);
      await waitFor(async () => ((await sharedAlbum(album.id)).body as SharedAlbum).mediaItemsCount === 2, {
        what: 'the hide to reach the shared count',
      });

      const shared = await sharedAlbum(album.id);
      expect(shared.status).toBe(200);
      expect(shared.headers.get('cache-control')).toBe('no-store');
      const sharedBody = shared.body as SharedAlbum;
      expect(sharedBody).toMatchObject({
        id: album.id,
        name: 'Holiday',
        description: 'for the family',
        mediaItemsCount: 2,
        coverMediaItemId: a!.id,
      });
      const listed = await sharedItems(album.id);
      expect(listed.status).toBe(200);
      const listedItems = listed.body as SharedMediaItem[];
      expect(listedItems.map((i) => i.id)).toEqual([a!.id, b!.id]);
      expect(await albumItemIds(alice, album.id)).toEqual([a!.id, b!.id, c!.id]);
      expect(
        (
          await ok(
            anonymous.GET('/v1/sharing/{id}/mediaItems', {
              params: { path: { id: album.id }, query: { limit: 1, page: 2 } },
            }),
          )
        ).map((i) => i.id),
      ).toEqual([b!.id]);

      // Locations are not shared: no original for visitors; the pictures are signed for the album.
      expect([sharedBody.coverMediaItem!, ...listedItems].map((i) => i.sourceUrl)).toEqual([null, null, null]);
      const urls = [sharedBody.coverMediaItem!, ...listedItems].flatMap((i) => [i.previewUrl, i.thumbnailUrl]);
      for (const url of urls) {
        expect(url).toMatch(new RegExp(`^http://.+\\?exp=\\d+&share=${album.id}&sig=`));
        const res = await fetch(url);
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        expect(res.headers.get('content-type')).toMatch(/^image\//);
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      // The same path without its signature needs a token.
      expect((await fetch(urls[0]!.split('?')[0]!)).status).toBe(401);

      expect((await updateAlbum(alice, album.id, { shared: false })).status).toBe(204);
      expectError(await sharedAlbum(album.id), 404, LINK_NOT_FOUND);
      expectError(await sharedItems(album.id), 404, LINK_NOT_FOUND);
      // The owner still has it.
      expect((await getAlbum(alice, album.id)).shared).toBe(false);

      expect((await updateAlbum(alice, album.id, { shared: true })).status).toBe(204);
      expect((await sharedAlbum(album.id)).status).toBe(200);
      expect(await status(alice.api.DELETE('/v1/albums/{id}', byId(album.id)))).toBe(204);
      expectError(await sharedAlbum(album.id), 404, LINK_NOT_FOUND);
      expectError(await sharedItems(randomUUID()), 404, LINK_NOT_FOUND);
      expect((await sharedAlbum('not-a-uuid')).status).toBe(400);
      await alice.api.DELETE('/v1/hidden', { body: { mediaItems: [c!.id] } });
    });

    it("visitors see no GPS position unless the owner shares the album's locations", async () => {
      /** Its position to 4 decimals (about 10 m), as the EXIF degrees-minutes-seconds give it back. */
      const at = (i: Pick<MediaItem, 'latitude' | 'longitude'>) =>
        [i.latitude, i.longitude].map((v) => (v === null ? null : Math.round(v * 1e4) / 1e4));
      const placed = await uploadReady(alice.api, await jpegAt(48.8584, 2.2945), 'eiffel.jpg');
      expect(at(placed)).toEqual([48.8584, 2.2945]);
      const album = await createAlbum(alice, { name: 'Paris', shared: true, coverMediaItemId: placed.id });
      expect(album.shareLocation).toBe(false);
      const visitorSees = async () => {
        const [item] = await ok(anonymous.GET('/v1/sharing/{id}/mediaItems', byId(album.id)), 200);
        const cover = (await ok(anonymous.GET('/v1/sharing/{id}', byId(album.id)), 200)).coverMediaItem!;
        return [item!, cover].map(at);
      };
      expect(await visitorSees()).toEqual([
        [null, null],
        [null, null],
      ]);
      // The owner always sees where it was taken.
      expect(at((await ok(alice.api.GET('/v1/albums/{id}/mediaItems', byId(album.id)), 200))[0]!)).toEqual([
        48.8584, 2.2945,
      ]);
      expect((await updateAlbum(alice, album.id, { shareLocation: true })).status).toBe(204);
      expect((await getAlbum(alice, album.id)).shareLocation).toBe(true);
      expect(await visitorSees()).toEqual([
        [48.8584, 2.2945],
        [48.8584, 2.2945],
      ]);
      expect((await updateAlbum(alice, album.id, { shareLocation: false })).status).toBe(204);
      expect(await visitorSees()).toEqual([
        [null, null],
        [null, null],
      ]);
    });

    it("a deleted user's shared albums stop answering", async () => {
      const dave = await newUser(stack);
      const photo = await uploadPhoto(dave, 'dave.png');
      const album = await createAlbum(dave, { name: 'Dave', shared: true, coverMediaItemId: photo.id });
      expect((await sharedAlbum(album.id)).status).toBe(200);
      expect(await status(adminApi(stack).DELETE('/v1/users/{id}', byId(dave.id)))).toBe(204);
      await waitFor(async () => (await sharedAlbum(album.id)).status === 404, {
        what: 'the user deletion to reach the library',
      });
      expectError(await sharedItems(album.id), 404, LINK_NOT_FOUND);
    });
  });
});
