import { randomUUID } from 'node:crypto';
import type { MediaPlaceV1, PlaceV1, ThingV1 } from '@trove/proto-events';
import { newTestServices } from '../test-services.fake';
import { processedResult, workerPlace } from './processed.fake';
import { placeKey } from './service';

describe('places and things (filing, covers, visibility) on the embedded store and a fake media service', () => {
  const t = newTestServices();
  const alice = randomUUID();
  const bob = randomUUID();
  const paris = workerPlace('Paris', 'Île-de-France', 'France');
  const lyon = workerPlace('Lyon', 'Auvergne-Rhône-Alpes', 'France');

  /** An item of the user's, taken on day `day` of June 2024, processed with what the worker found. */
  const processed = async (
    userId: string,
    day: number,
    found: { place?: MediaPlaceV1 | null; things?: string[] },
    id = randomUUID(),
  ) => {
    t.media.add(userId, id);
    await t.placesThings.itemProcessed(
      processedResult(userId, id, `2024-06-${String(day).padStart(2, '0')}T12:00:00+02:00`, found),
    );
    return id;
  };
  const change = async (id: string, state: { hidden?: boolean; trashed?: boolean }, userId = alice) => {
    t.media.set(id, state);
    await t.placesThings.itemChanged(userId, id);
  };
  const summary = (g: PlaceV1 | ThingV1) => ({ name: g.name, count: g.mediaItemsCount, cover: g.coverMediaItemId });
  const placeOf = async (id: string) => (await t.placesThings.ofItem('place', alice, id))[0]!;
  const placeNames = async (userId = alice) => (await t.placesThings.list('place', userId, 1, 100)).map((p) => p.name);
  const thingNames = async (userId = alice) => (await t.placesThings.list('thing', userId, 1, 100)).map((t) => t.name);

  it('files an item under its place with every field the worker named; the place answers by id, in the list and for the item', async () => {
    const id = await processed(alice, 1, {
      place: workerPlace('Mumbai', 'Maharashtra', 'India', { countryCode: 'IN', latitude: 19.07, longitude: 72.88 }),
    });
    const [place] = await t.placesThings.ofItem('place', alice, id);
    expect(place).toEqual({
      id: expect.any(String),
      userId: alice,
      name: 'Mumbai',
      town: null,
      city: 'Mumbai',
      state: 'Maharashtra',
      country: 'India',
      countryCode: 'IN',
      postcode: null,
      latitude: 19.07,
      longitude: 72.88,
      coverMediaItemId: id,
      mediaItemsCount: 1,
    });
    expect(await t.placesThings.get('place', alice, place!.id)).toEqual(place);
    expect(await t.placesThings.list('place', alice, 1, 15)).toEqual([place]);
    expect(await t.placesThings.itemIds('place', alice, place!.id, 1, 15)).toEqual([id]);
  });

  it('one place per (country, state, city, town), whatever the letter case; the cover is the newest item taken, not the last processed', async () => {
    const older = await processed(alice, 3, { place: paris });
    const newest = await processed(alice, 9, { place: workerPlace('PARIS', 'Île-de-France', 'France') });
    const middle = await processed(alice, 5, { place: paris });
    const elsewhere = await processed(alice, 4, {
      place: workerPlace('Paris', 'Île-de-France', 'France', { town: 'Montmartre' }),
    });
    const place = await placeOf(older);
    expect((await placeOf(newest)).id).toBe(place.id);
    expect(summary(place)).toEqual({ name: 'Paris', count: 3, cover: newest });
    expect(await t.placesThings.itemIds('place', alice, place.id, 1, 15)).toEqual([newest, middle, older]);
    expect(await t.placesThings.itemIds('place', alice, place.id, 2, 2)).toEqual([older]);
    expect((await placeOf(elsewhere)).id).not.toBe(place.id);
    expect(await placeNames()).toEqual(['Paris', 'Paris']);
  });

  it('files things once per label; lists go by count, then by name; an item answers its things by name', async () => {
    const a = await processed(alice, 1, { things: ['Pizza', 'Dining Table', 'pizza'] });
    await processed(alice, 2, { things: ['Pizza', 'Cup'] });
    await processed(alice, 3, { things: ['Bottle'] });
    expect(await thingNames()).toEqual(['Pizza', 'Bottle', 'Cup', 'Dining Table']);
    const things = await t.placesThings.ofItem('thing', alice, a);
    expect(things.map((t) => t.name)).toEqual(['Dining Table', 'Pizza']);
    const pizza = things.find((t) => t.name === 'Pizza')!;
    expect(await t.placesThings.get('thing', alice, pizza.id)).toEqual({
      id: pizza.id,
      userId: alice,
      name: 'Pizza',
      coverMediaItemId: expect.any(String),
      mediaItemsCount: 2,
    });
    expect((await t.placesThings.list('thing', alice, 2, 2)).map((t) => t.name)).toEqual(['Cup', 'Dining Table']);
  });

  it('trash: the count and cover leave the item, the place leaves the list but still answers by id; restore brings it back', async () => {
    const only = await processed(alice, 1, { place: paris, things: ['Pizza'] });
    const place = await placeOf(only);
    const [pizza] = await t.placesThings.ofItem('thing', alice, only);

    await change(only, { trashed: true });
    expect(summary(await t.placesThings.get('place', alice, place.id))).toEqual({
      name: 'Paris',
      count: 0,
      cover: null,
    });
    expect(summary(await t.placesThings.get('thing', alice, pizza!.id))).toEqual({
      name: 'Pizza',
      count: 0,
      cover: null,
    });
    expect(await placeNames()).toEqual([]);
    expect(await thingNames()).toEqual([]);
    expect(await t.placesThings.itemIds('place', alice, place.id, 1, 15)).toEqual([]);

    await change(only, { trashed: false });
    expect(summary(await t.placesThings.get('place', alice, place.id))).toEqual({
      name: 'Paris',
      count: 1,
      cover: only,
    });
    expect(await thingNames()).toEqual(['Pizza']);
  });

  it('hiding the newest item moves the cover to the next newest; hiding every item leaves the list', async () => {
    const older = await processed(alice, 1, { place: lyon });
    const newer = await processed(alice, 2, { place: lyon });
    const place = await placeOf(older);
    await change(newer, { hidden: true });
    expect(summary(await t.placesThings.get('place', alice, place.id))).toEqual({
      name: 'Lyon',
      count: 1,
      cover: older,
    });
    expect(await t.placesThings.itemIds('place', alice, place.id, 1, 15)).toEqual([older]);
    await change(older, { hidden: true });
    expect(await placeNames()).toEqual([]);
    await change(newer, { hidden: false });
    expect(summary(await t.placesThings.get('place', alice, place.id))).toEqual({
      name: 'Lyon',
      count: 1,
      cover: newer,
    });
  });

  it('an item hidden or trashed before its result arrives is filed without being shown', async () => {
    const id = randomUUID();
    t.media.add(alice, id, { hidden: true });
    await t.placesThings.itemChanged(alice, id); // explore does not know it yet: nothing to do
    await t.placesThings.itemProcessed(
      processedResult(alice, id, '2024-06-01T12:00:00Z', { place: paris, things: ['Cat'] }),
    );
    expect(summary(await placeOf(id))).toEqual({ name: 'Paris', count: 0, cover: null });
    expect(await placeNames()).toEqual([]);
    await change(id, { hidden: false });
    expect(await placeNames()).toEqual(['Paris']);
  });

  it('the same result or change twice changes nothing', async () => {
    const id = await processed(alice, 1, { place: paris, things: ['Pizza'] });
    const before = {
      places: await t.placesThings.list('place', alice, 1, 15),
      things: await t.placesThings.list('thing', alice, 1, 15),
    };
    await t.placesThings.itemProcessed(
      processedResult(alice, id, '2024-06-01T12:00:00+02:00', { place: paris, things: ['Pizza'] }),
    );
    await t.placesThings.itemChanged(alice, id);
    await t.placesThings.itemChanged(alice, id);
    expect({
      places: await t.placesThings.list('place', alice, 1, 15),
      things: await t.placesThings.list('thing', alice, 1, 15),
    }).toEqual(before);
  });

  it('a new result moves the item: the place it left is recounted; a result without place or things keeps them, null or [] clears them', async () => {
    const id = await processed(alice, 1, { place: paris, things: ['Pizza'] });
    const parisId = (await placeOf(id)).id;
    await t.placesThings.itemProcessed(processedResult(alice, id, '2024-06-01T12:00:00Z', { place: lyon }));
    expect(summary(await t.placesThings.get('place', alice, parisId))).toEqual({
      name: 'Paris',
      count: 0,
      cover: null,
    });
    expect((await placeOf(id)).name).toBe('Lyon');
    expect((await t.placesThings.ofItem('thing', alice, id)).map((t) => t.name)).toEqual(['Pizza']);

    await t.placesThings.itemProcessed(processedResult(alice, id, '2024-06-01T12:00:00Z', { place: null, things: [] }));
    expect(await t.placesThings.ofItem('place', alice, id)).toEqual([]);
    expect(await t.placesThings.ofItem('thing', alice, id)).toEqual([]);
    expect(await placeNames()).toEqual([]);
    expect(await thingNames()).toEqual([]);
  });

  it('a result whose handler died after filing: its redelivery still recounts the place the item left', async () => {
    const id = await processed(alice, 1, { place: paris });
    const parisId = (await placeOf(id)).id;
    // The first delivery filed the item under Lyon and died before refreshing anything.
    const lyonId = await t.placesThingsRepo.placeFor(alice, placeKey(lyon), lyon);
    await t.placesThingsRepo.fileItem(alice, id, new Date('2024-06-01T12:00:00Z'), { placeId: lyonId });
    expect(summary(await t.placesThings.get('place', alice, parisId)).count).toBe(1);

    await t.placesThings.itemProcessed(processedResult(alice, id, '2024-06-01T12:00:00Z', { place: lyon }));
    expect(summary(await t.placesThings.get('place', alice, parisId))).toEqual({
      name: 'Paris',
      count: 0,
      cover: null,
    });
    expect(summary(await t.placesThings.get('place', alice, lyonId))).toEqual({ name: 'Lyon', count: 1, cover: id });
  });

  it('a purged item leaves its place and things, which stay (empty) by id; a late result for it leaves nothing behind', async () => {
    const id = await processed(alice, 1, { place: paris, things: ['Pizza'] });
    const place = await placeOf(id);
    t.media.purge(id);
    await t.placesThings.itemPurged(alice, id);
    await t.placesThings.itemPurged(alice, id);
    expect(summary(await t.placesThings.get('place', alice, place.id))).toEqual({
      name: 'Paris',
      count: 0,
      cover: null,
    });
    await expect(t.placesThings.ofItem('place', alice, id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'mediaitem not found',
    });

    await t.placesThings.itemProcessed(
      processedResult(alice, id, '2024-06-01T12:00:00Z', { place: paris, things: ['Pizza'] }),
    );
    expect(await t.placesThingsRepo.item(alice, id)).toBeNull();
    expect(summary(await t.placesThings.get('place', alice, place.id)).count).toBe(0);
  });

  it('a change event for an item the media service no longer has is a purge', async () => {
    const id = await processed(alice, 1, { place: paris });
    const place = await placeOf(id);
    t.media.purge(id);
    await t.placesThings.itemChanged(alice, id);
    expect(await t.placesThingsRepo.item(alice, id)).toBeNull();
    expect(summary(await t.placesThings.get('place', alice, place.id)).count).toBe(0);
  });

  it("another user's place, thing or item is not found; the user's own unprocessed item has no places or things", async () => {
    const id = await processed(alice, 1, { place: paris, things: ['Pizza'] });
    const place = await placeOf(id);
    const [thing] = await t.placesThings.ofItem('thing', alice, id);
    await expect(t.placesThings.get('place', bob, place.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'place not found',
    });
    await expect(t.placesThings.itemIds('place', bob, place.id, 1, 15)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'place not found',
    });
    await expect(t.placesThings.get('thing', bob, thing!.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'thing not found',
    });
    await expect(t.placesThings.itemIds('thing', bob, thing!.id, 1, 15)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'thing not found',
    });
    await expect(t.placesThings.get('place', alice, thing!.id)).rejects.toMatchObject({ message: 'place not found' });
    await expect(t.placesThings.ofItem('place', bob, id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'mediaitem not found',
    });
    await expect(t.placesThings.ofItem('thing', alice, randomUUID())).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'mediaitem not found',
    });
    expect(await placeNames(bob)).toEqual([]);

    const fresh = randomUUID();
    t.media.add(alice, fresh);
    expect(await t.placesThings.ofItem('place', alice, fresh)).toEqual([]);
    expect(await t.placesThings.ofItem('thing', alice, fresh)).toEqual([]);
  });

  it("a deleted user's places, things and items are removed; a result arriving after the deletion leaves nothing", async () => {
    const id = await processed(alice, 1, { place: paris, things: ['Pizza'] });
    const bobs = await processed(bob, 1, { place: paris });
    const place = await placeOf(id);
    await t.placesThings.userDeleted(alice);
    await t.placesThings.userDeleted(alice);
    await expect(t.placesThings.get('place', alice, place.id)).rejects.toMatchObject({ message: 'place not found' });
    expect(await t.placesThingsRepo.item(alice, id)).toBeNull();

    await t.placesThings.itemProcessed(
      processedResult(alice, randomUUID(), '2024-06-01T12:00:00Z', { place: lyon, things: ['Cat'] }),
    );
    expect(await placeNames()).toEqual([]);
    expect(await thingNames()).toEqual([]);
    expect((await t.placesThings.ofItem('place', bob, bobs))[0]?.mediaItemsCount).toBe(1);
  });
});
