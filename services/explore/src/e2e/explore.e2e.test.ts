/**
 * Places and things end to end: a real nats-server, the compiled auth, media, worker, explore
 * services and gateway as their own processes, real uploads processed by the worker (which names
 * places from GPS positions and recognises things), every answer validated against openapi.yaml by
 * the gateway (TROVE_VALIDATE_RESPONSES).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { FIXTURES } from '../../../worker/src/components/testing/media';
import { Client, newUser } from '../../../media/src/e2e/helpers';
import type { ApiResponse, MediaItem } from '../../../media/src/e2e/helpers';

/** The API's Place and Thing (the fields the suite looks at). */
interface Group {
  id: string;
  name: string;
  coverMediaItemId: string | null;
  coverMediaItem?: MediaItem;
  thumbnailUrl: string | null;
  mediaItemsCount: number;
}
interface Place extends Group {
  town: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  countryCode: string | null;
}

/** A JPEG of random pixels (new content every time) whose EXIF puts it at `latitude`, `longitude`. */
async function jpegAt(latitude: number, longitude: number): Promise<Buffer> {
  const dms = (deg: number) => {
    const abs = Math.abs(deg);
    const d = Math.floor(abs);
    const m = Math.floor((abs - d) * 60);
    const s = Math.round(((abs - d) * 60 - m) * 60 * 100);
    return `${d}/1 ${m}/1 ${s}/100`;
  };
  const [width, height] = [320, 240];
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'TroveCam', Model: 'T1' },
      IFD2: { DateTimeOriginal: '2024:06:01 12:00:00', OffsetTimeOriginal: '+02:00' },
      IFD3: { GPSLatitudeRef: latitude >= 0 ? 'N' : 'S', GPSLatitude: dms(latitude), GPSLongitudeRef: longitude >= 0 ? 'E' : 'W', GPSLongitude: dms(longitude) },
    })
    .toBuffer();
}

const PLACE_NOT_FOUND = { message: 'place not found' };
const THING_NOT_FOUND = { message: 'thing not found' };
const MEDIA_NOT_FOUND = { message: 'mediaitem not found' };

describe('places and things (e2e)', () => {
  let stack: Stack;
  let alice: Client;
  let bob: Client;
  let anonymous: Client;
  /** Alice's photos: at the Eiffel Tower, the seed HEIC (Mumbai, a pizza), in the Atlantic. */
  let paris: MediaItem;
  let heic: MediaItem;
  let ocean: MediaItem;

  const get = async <T>(client: Client, path: string, status = 200): Promise<T> => {
    const res = await client.call<T>('get', path);
    if (res.status !== status) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const uploadReady = async (client: Client, data: Buffer, filename: string): Promise<MediaItem> => {
    const res = await client.upload(data, filename);
    if (res.status !== 201) throw new Error(`upload ${filename}: ${res.status} ${JSON.stringify(res.body)}`);
    const item = await client.settled(res.body.id, 120_000);
    if (item.status !== 'READY') throw new Error(`processing ${filename} failed: ${item.failureReason}`);
    return item;
  };
  /** The item's places once explore has filed it (explore follows the worker's result on its own). */
  const placesOnceFiled = (item: MediaItem) =>
    waitFor(async () => {
      const places = await get<Place[]>(alice, `/v1/mediaItems/${item.id}/places`);
      return places.length > 0 ? places : undefined;
    }, { timeoutMs: 30_000, what: `${item.filename} to be filed under its place` });
  const placeById = (id: string) => get<Place>(alice, `/v1/explore/places/${id}`);
  const placeList = (query = '') => get<Place[]>(alice, `/v1/explore/places${query}`);
  const until = <T>(probe: () => Promise<T>, check: (value: T) => boolean, what: string) =>
    waitFor(async () => {
      const value = await probe();
      return check(value) ? { value } : undefined;
    }, { timeoutMs: 30_000, what }).then((v) => v.value);

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'explore', 'gateway'] });
    anonymous = new Client(stack.gatewayUrl);
    alice = anonymous.as((await newUser(stack, anonymous)).token);
    bob = anonymous.as((await newUser(stack, anonymous)).token);
    // The ocean photo first: by the time the later ones are filed, explore has long had its result.
    ocean = await uploadReady(alice, await jpegAt(30, -40), 'atlantic.jpg');
    paris = await uploadReady(alice, await jpegAt(48.8584, 2.2945), 'eiffel.jpg');
    heic = await uploadReady(alice, await readFile(join(FIXTURES, 'IMG_0543.HEIC')), 'IMG_0543.HEIC');
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('a photo taken at the Eiffel Tower: place Paris, Île-de-France, France, the photo its cover with signed URLs', async () => {
    const [place, ...more] = await placesOnceFiled(paris);
    expect(more).toEqual([]);
    expect(place).toMatchObject({ name: 'Paris', city: 'Paris', state: 'Île-de-France', country: 'France', countryCode: 'FR', coverMediaItemId: paris.id, mediaItemsCount: 1 });
    expect(place!.coverMediaItem).toMatchObject({ id: paris.id, filename: 'eiffel.jpg', latitude: expect.closeTo(48.8584, 3) });
    for (const url of [place!.coverMediaItem!.thumbnailUrl, place!.thumbnailUrl!]) expect(new URL(url).searchParams.get('sig')).toBeTruthy();
    expect(await placeById(place!.id)).toEqual(place);
    const items = await get<MediaItem[]>(alice, `/v1/explore/places/${place!.id}/mediaItems`);
    expect(items.map((i) => i.id)).toEqual([paris.id]);
    expect(items[0]).toEqual(await get<MediaItem>(alice, `/v1/mediaItems/${paris.id}`));
  });

  it('the seed HEIC: place Mumbai, Maharashtra, India and thing Pizza', async () => {
    const [place] = await placesOnceFiled(heic);
    expect(place).toMatchObject({ name: 'Mumbai', state: 'Maharashtra', country: 'India', countryCode: 'IN', coverMediaItemId: heic.id, mediaItemsCount: 1 });
    const things = await get<Group[]>(alice, `/v1/mediaItems/${heic.id}/things`);
    expect(things.map((t) => t.name)).toEqual(['Pizza']);
    const pizza = things[0]!;
    expect(pizza).toMatchObject({ coverMediaItemId: heic.id, mediaItemsCount: 1, coverMediaItem: { id: heic.id } });
    expect(await get<Group>(alice, `/v1/explore/things/${pizza.id}`)).toEqual(pizza);
    expect(await get<Group[]>(alice, '/v1/explore/things')).toEqual([pizza]);
    expect((await get<MediaItem[]>(alice, `/v1/explore/things/${pizza.id}/mediaItems`)).map((i) => i.id)).toEqual([heic.id]);
  });

  it('photos taken in Sydney, New York and Tokyo are filed under those places (the issue\'s other points)', async () => {
    const carol = anonymous.as((await newUser(stack, anonymous)).token);
    const expected: Array<[number, number, string, Partial<Place>]> = [
      [-33.8568, 151.2153, 'opera-house.jpg', { name: 'Sydney', city: 'Sydney', state: 'New South Wales', country: 'Australia', countryCode: 'AU' }],
      [40.758, -73.9855, 'times-square.jpg', { name: 'New York', city: 'New York', state: 'New York', country: 'United States', countryCode: 'US' }],
      [35.6586, 139.7454, 'tokyo-tower.jpg', { name: 'Tokyo', city: 'Tokyo', country: 'Japan', countryCode: 'JP' }],
    ];
    for (const [lat, lon, filename, place] of expected) {
      const item = await uploadReady(carol, await jpegAt(lat, lon), filename);
      const found = await until(() => get<Place[]>(carol, `/v1/mediaItems/${item.id}/places`), (p) => p.length > 0, `${filename} filed under its place`);
      expect(found).toEqual([expect.objectContaining({ ...place, coverMediaItemId: item.id, mediaItemsCount: 1 })]);
    }
  });

  it('a point in the Atlantic has no place; the list holds the two places, by count then name, page by page', async () => {
    await placesOnceFiled(paris);
    await placesOnceFiled(heic);
    expect(await get<Place[]>(alice, `/v1/mediaItems/${ocean.id}/places`)).toEqual([]);
    expect((await placeList()).map((p) => p.name)).toEqual(['Mumbai', 'Paris']);
    expect((await placeList('?page=2&limit=1')).map((p) => p.name)).toEqual(['Paris']);
    expect((await placeList('?page=3&limit=1')).map((p) => p.name)).toEqual([]);
    expect((await alice.call('get', '/v1/explore/places?limit=101')).status).toBe(400);
  });

  it('trash: the place keeps answering by id without a cover and leaves the list; restore brings the cover back', async () => {
    const [place] = await placesOnceFiled(paris);
    expect((await alice.call('delete', `/v1/mediaItems/${paris.id}`)).status).toBe(204);
    const emptied = await until(() => placeById(place!.id), (p) => p.mediaItemsCount === 0, 'the trashed photo to leave its place');
    expect(emptied).toMatchObject({ name: 'Paris', coverMediaItemId: null, thumbnailUrl: null, mediaItemsCount: 0 });
    expect(emptied).not.toHaveProperty('coverMediaItem');
    expect((await placeList()).map((p) => p.name)).toEqual(['Mumbai']);
    expect(await get<MediaItem[]>(alice, `/v1/explore/places/${place!.id}/mediaItems`)).toEqual([]);
    // The trashed item still answers its place.
    expect((await get<Place[]>(alice, `/v1/mediaItems/${paris.id}/places`)).map((p) => p.id)).toEqual([place!.id]);

    expect((await alice.call('delete', '/v1/trash', { body: { mediaItems: [paris.id] } })).status).toBe(204);
    const back = await until(() => placeById(place!.id), (p) => p.mediaItemsCount === 1, 'the restored photo to come back');
    expect(back).toMatchObject({ coverMediaItemId: paris.id, coverMediaItem: { id: paris.id } });
  });

  it('hide: out of the list and the counts; unhide: back', async () => {
    const [place] = await placesOnceFiled(heic);
    expect((await alice.call('post', '/v1/hidden', { body: { mediaItems: [heic.id] } })).status).toBe(204);
    await until(() => placeById(place!.id), (p) => p.mediaItemsCount === 0, 'the hidden photo to leave its place');
    expect((await placeList()).map((p) => p.name)).not.toContain('Mumbai');
    await until(() => get<Group[]>(alice, '/v1/explore/things'), (things) => things.length === 0, 'the hidden photo to leave its thing');
    expect((await alice.call('delete', '/v1/hidden', { body: { mediaItems: [heic.id] } })).status).toBe(204);
    await until(() => placeList(), (list) => list.some((p) => p.name === 'Mumbai'), 'the unhidden photo to be listed again');
  });

  it("another user's place, thing or item answers 404 with its message; no token answers 401", async () => {
    const [place] = await placesOnceFiled(heic);
    const [thing] = await get<Group[]>(alice, `/v1/mediaItems/${heic.id}/things`);
    const expect404 = async (path: string, body: unknown) => {
      const res: ApiResponse = await bob.call('get', path);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body });
    };
    await expect404(`/v1/explore/places/${place!.id}`, PLACE_NOT_FOUND);
    await expect404(`/v1/explore/places/${place!.id}/mediaItems`, PLACE_NOT_FOUND);
    await expect404(`/v1/explore/things/${thing!.id}`, THING_NOT_FOUND);
    await expect404(`/v1/explore/things/${thing!.id}/mediaItems`, THING_NOT_FOUND);
    await expect404(`/v1/explore/places/${thing!.id}`, PLACE_NOT_FOUND);
    await expect404(`/v1/mediaItems/${heic.id}/places`, MEDIA_NOT_FOUND);
    await expect404(`/v1/mediaItems/${heic.id}/things`, MEDIA_NOT_FOUND);
    expect(await get(bob, '/v1/explore/places')).toEqual([]);
    expect(await get(bob, '/v1/explore/things')).toEqual([]);
    for (const path of ['/v1/explore/places', '/v1/explore/things', `/v1/explore/places/${place!.id}`, `/v1/mediaItems/${heic.id}/things`]) {
      const res = await anonymous.call('get', path);
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
    }
  });
});
