/**
 * Places and things end to end: a real nats-server, the compiled auth, media, worker, explore
 * services and gateway as their own processes, real uploads processed by the worker (which names
 * places from GPS positions and recognises things), every answer validated against openapi.yaml by
 * the gateway (TROVE_VALIDATE_RESPONSES).
 */
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { describeWithFixtures, heicFixture, jpegAt } from '@trove/kit/testing/media';
import { answer, createApi, getItem, newUser, ok, status, uploadReady } from '../support/api';
import type { Api, MediaItem } from '../support/api';
import type { components } from '@trove/openapi';

type Place = components['schemas']['Place'];
type Thing = components['schemas']['Thing'];

const PLACE_NOT_FOUND = { message: 'place not found' };
const THING_NOT_FOUND = { message: 'thing not found' };
const MEDIA_NOT_FOUND = { message: 'mediaitem not found' };

describeWithFixtures('places and things (e2e)', () => {
  let stack: Stack;
  let alice: Api;
  let bob: Api;
  let anonymous: Api;
  /** Alice's photos: at the Eiffel Tower, the seed HEIC (Mumbai, a pizza), in the Atlantic. */
  let paris: MediaItem;
  let heic: MediaItem;
  let ocean: MediaItem;

  const byId = (id: string) => ({ params: { path: { id } } });
  const placesOf = (client: Api, item: MediaItem) => ok(client.GET('/v1/mediaItems/{id}/places', byId(item.id)), 200);
  const thingsOf = (client: Api, item: MediaItem) => ok(client.GET('/v1/mediaItems/{id}/things', byId(item.id)), 200);
  /**
   * Whether explore has filed the item under its places and counts it there: explore follows the worker's result
   * and the media service's events on its own, so a place may show up a moment before the item counts in it.
   */
  const filedAndCounted = (places: Place[]) => places.length > 0 && places.every((p) => p.mediaItemsCount > 0);
  /** The item's places once explore has filed and counted it. */
  const placesOnceFiled = (item: MediaItem) =>
    waitFor(
      async () => {
        const places = await placesOf(alice, item);
        return filedAndCounted(places) ? places : undefined;
      },
      { timeoutMs: 30_000, what: `${item.filename} to be filed under its place` },
    );
  const placeById = (id: string): Promise<Place> => ok(alice.GET('/v1/explore/places/{id}', byId(id)), 200);
  const placeList = (query: { page?: number; limit?: number } = {}): Promise<Place[]> =>
    ok(alice.GET('/v1/explore/places', { params: { query } }), 200);
  const thingList = (client: Api): Promise<Thing[]> => ok(client.GET('/v1/explore/things'), 200);
  const until = <T>(probe: () => Promise<T>, check: (value: T) => boolean, what: string) =>
    waitFor(
      async () => {
        const value = await probe();
        return check(value) ? { value } : undefined;
      },
      { timeoutMs: 30_000, what },
    ).then((v) => v.value);

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'explore', 'gateway'] });
    anonymous = createApi(stack.gatewayUrl);
    alice = (await newUser(stack)).api;
    bob = (await newUser(stack)).api;
    // The ocean photo first: by the time the later ones are filed, explore has long had its result.
    ocean = await uploadReady(alice, await jpegAt(30, -40), 'atlantic.jpg', 120_000);
    paris = await uploadReady(alice, await jpegAt(48.8584, 2.2945), 'eiffel.jpg', 120_000);
    heic = await uploadReady(alice, await heicFixture(), 'IMG_0543.HEIC', 120_000);
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('a photo taken at the Eiffel Tower: place Paris, Île-de-France, France, the photo its cover with signed URLs', async () => {
    const [place, ...more] = await placesOnceFiled(paris);
    expect(more).toEqual([]);
    expect(place).toMatchObject({
      name: 'Paris',
      city: 'Paris',
      state: 'Île-de-France',
      country: 'France',
      countryCode: 'FR',
      coverMediaItemId: paris.id,
      mediaItemsCount: 1,
    });
    expect(place!.coverMediaItem).toMatchObject({
      id: paris.id,
      filename: 'eiffel.jpg',
      latitude: expect.closeTo(48.8584, 3),
    });
    for (const url of [place!.coverMediaItem!.thumbnailUrl, place!.thumbnailUrl!])
      expect(new URL(url).searchParams.get('sig')).toBeTruthy();
    expect(await placeById(place!.id)).toEqual(place);
    const items = await ok(alice.GET('/v1/explore/places/{id}/mediaItems', byId(place!.id)), 200);
    expect(items.map((i) => i.id)).toEqual([paris.id]);
    expect(items[0]).toEqual(await getItem(alice, paris.id));
  });

  it('the seed HEIC: place Mumbai, Maharashtra, India and thing Pizza', async () => {
    const [place] = await placesOnceFiled(heic);
    expect(place).toMatchObject({
      name: 'Mumbai',
      state: 'Maharashtra',
      country: 'India',
      countryCode: 'IN',
      postcode: '400050',
      coverMediaItemId: heic.id,
      mediaItemsCount: 1,
    });
    const things = await thingsOf(alice, heic);
    // The pizza (the model's "dining table" has the pizza's box: one object under two labels, the better kept).
    expect(things.map((t) => t.name)).toEqual(['Pizza']);
    const pizza = things.find((t) => t.name === 'Pizza')!;
    expect(pizza).toMatchObject({ coverMediaItemId: heic.id, mediaItemsCount: 1, coverMediaItem: { id: heic.id } });
    expect(await ok(alice.GET('/v1/explore/things/{id}', byId(pizza.id)), 200)).toEqual(pizza);
    expect(await thingList(alice)).toEqual(expect.arrayContaining([pizza]));
    expect((await ok(alice.GET('/v1/explore/things/{id}/mediaItems', byId(pizza.id)), 200)).map((i) => i.id)).toEqual([
      heic.id,
    ]);
  });

  it("photos taken in Sydney, New York and Tokyo are filed under those places (the issue's other points)", async () => {
    const carol = (await newUser(stack)).api;
    const expected: Array<[number, number, string, Partial<Place>]> = [
      [
        -33.8568,
        151.2153,
        'opera-house.jpg',
        { name: 'Sydney', city: 'Sydney', state: 'New South Wales', country: 'Australia', countryCode: 'AU' },
      ],
      [
        40.758,
        -73.9855,
        'times-square.jpg',
        { name: 'New York', city: 'New York', state: 'New York', country: 'United States', countryCode: 'US' },
      ],
      [35.6586, 139.7454, 'tokyo-tower.jpg', { name: 'Tokyo', city: 'Tokyo', country: 'Japan', countryCode: 'JP' }],
    ];
    for (const [lat, lon, filename, place] of expected) {
      const item = await uploadReady(carol, await jpegAt(lat, lon), filename, 120_000);
      const found = await until(() => placesOf(carol, item), filedAndCounted, `${filename} filed under its place`);
      expect(found).toEqual([expect.objectContaining({ ...place, coverMediaItemId: item.id, mediaItemsCount: 1 })]);
    }
  });

  it('a point in the Atlantic has no place; the list holds the two places, by count then name, page by page', async () => {
    await placesOnceFiled(paris);
    await placesOnceFiled(heic);
    expect(await placesOf(alice, ocean)).toEqual([]);
    expect((await placeList()).map((p) => p.name)).toEqual(['Mumbai', 'Paris']);
    expect((await placeList({ page: 2, limit: 1 })).map((p) => p.name)).toEqual(['Paris']);
    expect((await placeList({ page: 3, limit: 1 })).map((p) => p.name)).toEqual([]);
    expect(await status(alice.GET('/v1/explore/places', { params: { query: { limit: 101 } } }))).toBe(400);
  });

  it('trash: the place keeps answering by id without a cover and leaves the list; restore brings the cover back', async () => {
    const [place] = await placesOnceFiled(paris);
    expect(await status(alice.DELETE('/v1/mediaItems/{id}', byId(paris.id)))).toBe(204);
    const emptied = await until(
      () => placeById(place!.id),
      (p) => p.mediaItemsCount === 0,
      'the trashed photo to leave its place',
    );
    expect(emptied).toMatchObject({ name: 'Paris', coverMediaItemId: null, thumbnailUrl: null, mediaItemsCount: 0 });
    expect(emptied).not.toHaveProperty('coverMediaItem');
    expect((await placeList()).map((p) => p.name)).toEqual(['Mumbai']);
    expect(await ok(alice.GET('/v1/explore/places/{id}/mediaItems', byId(place!.id)), 200)).toEqual([]);
    // The trashed item still answers its place.
    expect((await placesOf(alice, paris)).map((p) => p.id)).toEqual([place!.id]);

    expect(await status(alice.DELETE('/v1/trash', { body: { mediaItems: [paris.id] } }))).toBe(204);
    const back = await until(
      () => placeById(place!.id),
      (p) => p.mediaItemsCount === 1,
      'the restored photo to come back',
    );
    expect(back).toMatchObject({ coverMediaItemId: paris.id, coverMediaItem: { id: paris.id } });
  });

  it('hide: out of the list and the counts; unhide: back', async () => {
    const [place] = await placesOnceFiled(heic);
    expect(await status(alice.POST('/v1/hidden', { body: { mediaItems: [heic.id] } }))).toBe(204);
    await until(
      () => placeById(place!.id),
      (p) => p.mediaItemsCount === 0,
      'the hidden photo to leave its place',
    );
    expect((await placeList()).map((p) => p.name)).not.toContain('Mumbai');
    await until(
      () => thingList(alice),
      (things) => things.length === 0,
      'the hidden photo to leave its thing',
    );
    expect(await status(alice.DELETE('/v1/hidden', { body: { mediaItems: [heic.id] } }))).toBe(204);
    await until(
      () => placeList(),
      (list) => list.some((p) => p.name === 'Mumbai'),
      'the unhidden photo to be listed again',
    );
  });

  it("another user's place, thing or item answers 404 with its message; no token answers 401", async () => {
    const [place] = await placesOnceFiled(heic);
    const [thing] = await thingsOf(alice, heic);
    const expect404 = async (
      path: string,
      call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
      body: unknown,
    ) => {
      const res = await answer(call);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body });
    };
    await expect404('/v1/explore/places/{id}', bob.GET('/v1/explore/places/{id}', byId(place!.id)), PLACE_NOT_FOUND);
    await expect404(
      '/v1/explore/places/{id}/mediaItems',
      bob.GET('/v1/explore/places/{id}/mediaItems', byId(place!.id)),
      PLACE_NOT_FOUND,
    );
    await expect404('/v1/explore/things/{id}', bob.GET('/v1/explore/things/{id}', byId(thing!.id)), THING_NOT_FOUND);
    await expect404(
      '/v1/explore/things/{id}/mediaItems',
      bob.GET('/v1/explore/things/{id}/mediaItems', byId(thing!.id)),
      THING_NOT_FOUND,
    );
    await expect404(
      '/v1/explore/places/{thing id}',
      bob.GET('/v1/explore/places/{id}', byId(thing!.id)),
      PLACE_NOT_FOUND,
    );
    await expect404(
      '/v1/mediaItems/{id}/places',
      bob.GET('/v1/mediaItems/{id}/places', byId(heic.id)),
      MEDIA_NOT_FOUND,
    );
    await expect404(
      '/v1/mediaItems/{id}/things',
      bob.GET('/v1/mediaItems/{id}/things', byId(heic.id)),
      MEDIA_NOT_FOUND,
    );
    expect(await ok(bob.GET('/v1/explore/places'), 200)).toEqual([]);
    expect(await thingList(bob)).toEqual([]);
    for (const [path, call] of [
      ['/v1/explore/places', anonymous.GET('/v1/explore/places')],
      ['/v1/explore/things', anonymous.GET('/v1/explore/things')],
      ['/v1/explore/places/{id}', anonymous.GET('/v1/explore/places/{id}', byId(place!.id))],
      ['/v1/mediaItems/{id}/things', anonymous.GET('/v1/mediaItems/{id}/things', byId(heic.id))],
    ] as const) {
      expect({ path, status: await status(call) }).toEqual({ path, status: 401 });
    }
  });
});
