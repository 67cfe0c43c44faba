/**
 * Editing when and where a photo was taken, end to end: a real nats-server, the compiled auth,
 * media, worker, explore services and gateway as their own processes, every answer validated against
 * openapi.yaml by the gateway. The user's date and position win over the file's, order the library,
 * give the item its place (the worker names it from the user's position), and null restores the file's.
 */
import { randomUUID } from 'node:crypto';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { describeWithFixtures, jpegAt } from '@trove/kit/testing/media';
import { answer, getItem, newUser, offContract, ok, uploadReady } from '../support/api';
import type { Api, MediaItem } from '../support/api';

describeWithFixtures('editable date and place (e2e)', () => {
  let stack: Stack;
  let alice: Api;
  let bob: Api;
  /** Alice's photos, both taken 1 June 2024 12:00 +02:00 by the file: in the Atlantic (no place) and at the Eiffel Tower. */
  let ocean: MediaItem;
  let paris: MediaItem;

  const byId = (id: string) => ({ params: { path: { id } } });
  const put = (client: Api, id: string, body: Record<string, unknown>) =>
    answer(client.PUT('/v1/mediaItems/{id}', { ...byId(id), body: offContract(body) }));
  const library = async () =>
    (await ok(alice.GET('/v1/mediaItems', { params: { query: { limit: 50 } } }), 200)).map((i) => i.id);
  const placeNames = async (item: MediaItem) =>
    (await ok(alice.GET('/v1/mediaItems/{id}/places', byId(item.id)), 200)).map((p) => p.name);

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'explore', 'gateway'] });
    alice = (await newUser(stack)).api;
    bob = (await newUser(stack)).api;
    ocean = await uploadReady(alice, await jpegAt(30, -40), 'atlantic.jpg', 120_000);
    paris = await uploadReady(alice, await jpegAt(48.8584, 2.2945), 'eiffel.jpg', 120_000);
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("PUT creationTime, latitude and longitude: GET shows the user's values, the library reorders", async () => {
    expect(ocean).toMatchObject({ latitude: 30, longitude: -40 });
    expect(await put(alice, ocean.id, { creationTime: '2019-07-14T16:30:00+02:00' })).toMatchObject({ status: 204 });
    expect(await getItem(alice, ocean.id)).toMatchObject({ creationTime: '2019-07-14T16:30:00+02:00' });
    expect(await library()).toEqual([paris.id, ocean.id]);

    expect(
      await put(alice, ocean.id, { creationTime: '2030-01-02T03:04:05Z', latitude: 48.8584, longitude: 2.2945 }),
    ).toMatchObject({ status: 204 });
    expect(await getItem(alice, ocean.id)).toMatchObject({
      creationTime: '2030-01-02T03:04:05Z',
      latitude: 48.8584,
      longitude: 2.2945,
      // The rest is still the file's.
      width: paris.width,
    });
    expect(await library()).toEqual([ocean.id, paris.id]);
  });

  it("the item's place follows the user's position (the worker names it), and the file's again after null", async () => {
    await waitFor(async () => ((await placeNames(ocean)).includes('Paris') ? true : undefined), {
      timeoutMs: 60_000,
      what: 'the edited photo to be filed under Paris',
    });
    expect(await put(alice, ocean.id, { creationTime: null, latitude: null, longitude: null })).toMatchObject({
      status: 204,
    });
    const restored = await getItem(alice, ocean.id);
    expect(restored).toMatchObject({ creationTime: ocean.creationTime, latitude: 30, longitude: -40 });
    await waitFor(async () => ((await placeNames(ocean)).length === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'the photo to leave Paris once its position is the file’s again',
    });
  });

  it('bad values answer 400 with a message and change nothing', async () => {
    const before = await getItem(alice, paris.id);
    const bad: Array<Record<string, unknown>> = [
      { latitude: 10 },
      { longitude: 10 },
      { latitude: 10, longitude: null },
      { latitude: 91, longitude: 0 },
      { latitude: 0, longitude: -180.5 },
      { latitude: '10', longitude: '20' },
      { creationTime: '2019-07-14T16:30:00' }, // no offset
      { creationTime: '2019-07-14' },
      { creationTime: '2019-02-30T10:00:00Z' },
      { creationTime: 'yesterday' },
    ];
    for (const body of bad) {
      const res = await put(alice, paris.id, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(typeof (res.body as { message?: unknown }).message).toBe('string');
    }
    expect(await put(alice, paris.id, { latitude: 10 })).toMatchObject({
      body: { message: 'latitude and longitude go together: both numbers, or both null' },
    });
    expect(await getItem(alice, paris.id)).toEqual({ ...before, ...pickUrls(await getItem(alice, paris.id)) });
  });

  it("another user's item, or an unknown id, answers 404 and is not changed", async () => {
    for (const id of [paris.id, randomUUID()])
      expect(await put(bob, id, { creationTime: '2001-01-01T00:00:00Z', latitude: 1, longitude: 2 })).toMatchObject({
        status: 404,
        body: { message: 'mediaitem not found' },
      });
    expect(await getItem(alice, paris.id)).toMatchObject({
      creationTime: paris.creationTime,
      latitude: paris.latitude,
    });
  });
});

/** The signed URLs of an answer (they are signed anew at every read). */
function pickUrls(item: MediaItem): Partial<MediaItem> {
  return Object.fromEntries(Object.entries(item).filter(([k]) => k.endsWith('Url'))) as Partial<MediaItem>;
}
