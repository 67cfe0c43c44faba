/**
 * Explore as it runs in its process, minus the process: `wire` (wire.ts) on a real nats-server
 * (JetStream) and the embedded store — its RPC handlers and event consumers, places, things, people
 * and search — with a stand-in media service answering `trove.v1.media.getMany` on the bus.
 */
import { randomUUID } from 'node:crypto';
import * as contracts from '@trove/proto-events';
import type { MediaItemProcessedV1, MediaItemV1 } from '@trove/proto-events';
import { mediaItemV1, startBusRig, waitFor } from '@trove/kit/testing';
import type { BusRig } from '@trove/kit/testing';
import { wire } from './wire';
import { DEFAULT_GROUPING } from './people/grouping';
import { DEFAULT_SETTLE } from './people/settle';
import { faceOf, randomPerson, seeded } from './people/synthetic.fake';
import { processedResult, workerPlace } from './places-things/processed.fake';

describe('explore over NATS: RPCs and media/user events', () => {
  let rig: BusRig;
  /** What the stand-in media service answers: the fields explore reads. */
  const media = new Map<string, Pick<MediaItemV1, 'id' | 'userId' | 'hidden' | 'deleted' | 'updatedAt'>>();
  const alice = randomUUID();
  const bob = randomUUID();
  let msg = 0;

  beforeAll(async () => {
    rig = await startBusRig({
      service: 'explore',
      // Only the fields explore reads are real; the rest satisfies the schema.
      mediaItems: async (userId, ids) =>
        ids.flatMap((id) => {
          const item = media.get(id);
          return item && item.userId === userId
            ? [
                mediaItemV1(userId, {
                  ...item,
                  deletedAt: item.deleted ? item.updatedAt : null,
                  createdAt: item.updatedAt,
                }),
              ]
            : [];
        }),
    });
    // No regroup by itself (settle.test.ts tests it): people here change only by the calls the tests make.
    const settle = { ...DEFAULT_SETTLE, delayMs: 0 };
    await rig.serveWiring(
      await wire({ bus: rig.bus, store: rig.store, log: rig.log, grouping: DEFAULT_GROUPING, settle }),
    );
  });
  afterAll(() => rig?.close());

  let clock = Date.parse('2024-01-01T00:00:00Z');
  const setMedia = (userId: string, id: string, flags: { hidden?: boolean; deleted?: boolean } = {}) =>
    media.set(id, {
      id,
      userId,
      hidden: false,
      deleted: false,
      ...media.get(id),
      ...flags,
      updatedAt: new Date((clock += 1000)).toISOString(),
    });
  const changed = (contract: typeof contracts.mediaUpdatedEvent, userId: string, mediaItemId: string) =>
    rig.client.publish(contract, { userId, mediaItemId, at: new Date().toISOString() }, { msgId: `test-${++msg}` });
  const placesOf = async (userId: string, mediaItemId: string) =>
    (await rig.client.request(contracts.listMediaItemPlacesRpc, { userId, mediaItemId })).places;
  const countOf = async (id: string) =>
    (await rig.client.request(contracts.getPlaceRpc, { userId: alice, id })).mediaItemsCount;

  /** A new item of the user's, its worker result (taken at `creationTime`, with what was found) published. */
  const processed = async (userId: string, creationTime: string, found: Parameters<typeof processedResult>[3]) => {
    const id = randomUUID();
    setMedia(userId, id);
    await rig.client.publish(contracts.mediaProcessedEvent, processedResult(userId, id, creationTime, found), {
      msgId: `processed-${id}`,
    });
    return id;
  };

  it('files a processed item and answers every call with the schema-checked shapes and the right errors', async () => {
    const id = await processed(alice, '2024-06-01T12:00:00+02:00', {
      place: workerPlace('Paris', 'Île-de-France', 'France'),
      things: ['Pizza'],
    });
    const [place] = await waitFor(
      async () => {
        const places = await placesOf(alice, id);
        return places[0]?.mediaItemsCount === 1 ? places : undefined;
      },
      { what: 'the item to be filed under its place' },
    );
    expect(place).toMatchObject({
      name: 'Paris',
      state: 'Île-de-France',
      country: 'France',
      coverMediaItemId: id,
      mediaItemsCount: 1,
    });
    expect((await rig.client.request(contracts.listPlacesRpc, { userId: alice, page: 1, limit: 15 })).places).toEqual([
      place,
    ]);
    expect(
      await rig.client.request(contracts.listPlaceMediaItemsRpc, { userId: alice, id: place!.id, page: 1, limit: 15 }),
    ).toEqual({ mediaItemIds: [id] });
    const { things } = await rig.client.request(contracts.listMediaItemThingsRpc, { userId: alice, mediaItemId: id });
    expect(things.map((t) => [t.name, t.mediaItemsCount, t.coverMediaItemId])).toEqual([['Pizza', 1, id]]);
    expect(await rig.client.request(contracts.getThingRpc, { userId: alice, id: things[0]!.id })).toEqual(things[0]);
    expect((await rig.client.request(contracts.listThingsRpc, { userId: alice, page: 1, limit: 15 })).things).toEqual(
      things,
    );
    expect(
      await rig.client.request(contracts.listThingMediaItemsRpc, {
        userId: alice,
        id: things[0]!.id,
        page: 2,
        limit: 15,
      }),
    ).toEqual({ mediaItemIds: [] });

    await expect(rig.client.request(contracts.getPlaceRpc, { userId: bob, id: place!.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'place not found',
    });
    await expect(rig.client.request(contracts.getThingRpc, { userId: bob, id: things[0]!.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'thing not found',
    });
    await expect(placesOf(bob, id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'mediaitem not found' });
    await expect(
      rig.client.request(contracts.listPlacesRpc, { userId: alice, page: 0, limit: 15 }),
    ).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('follows hide (updated), trash and purge events by asking the media service; a purged item leaves its place', async () => {
    const id = await processed(alice, '2024-06-02T12:00:00Z', {
      place: workerPlace('Lyon', 'Auvergne-Rhône-Alpes', 'France'),
    });
    const placeId = await waitFor(async () => (await placesOf(alice, id))[0]?.id, { what: 'the item to be filed' });
    await waitFor(async () => (await countOf(placeId)) === 1, { what: 'the place to count the item' });

    setMedia(alice, id, { hidden: true });
    await changed(contracts.mediaUpdatedEvent, alice, id);
    await waitFor(async () => (await countOf(placeId)) === 0, { what: 'the hidden item to leave the count' });
    setMedia(alice, id, { hidden: false });
    await changed(contracts.mediaUpdatedEvent, alice, id);
    await waitFor(async () => (await countOf(placeId)) === 1, { what: 'the unhidden item to come back' });
    setMedia(alice, id, { deleted: true });
    await changed(contracts.mediaTrashedEvent, alice, id);
    await waitFor(async () => (await countOf(placeId)) === 0, { what: 'the trashed item to leave the count' });

    media.delete(id);
    await changed(contracts.mediaPurgedEvent, alice, id);
    await waitFor(async () => (await placesOf(alice, id).catch((err: { code?: string }) => err.code)) === 'NOT_FOUND', {
      what: 'the purged item to be forgotten',
    });
    expect(await rig.client.request(contracts.getPlaceRpc, { userId: alice, id: placeId })).toMatchObject({
      name: 'Lyon',
      mediaItemsCount: 0,
      coverMediaItemId: null,
    });
  });

  it("a user's deletion removes their places and things", async () => {
    const id = await processed(bob, '2024-06-03T12:00:00Z', { place: workerPlace('Nice', null, 'France') });
    const placeId = await waitFor(async () => (await placesOf(bob, id))[0]?.id, { what: "bob's item to be filed" });
    await rig.client.publish(
      contracts.userDeletedEvent,
      { userId: bob, deletedAt: new Date().toISOString() },
      { msgId: `deleted-${bob}` },
    );
    await waitFor(
      async () =>
        (await rig.client
          .request(contracts.getPlaceRpc, { userId: bob, id: placeId })
          .catch((err: { code?: string }) => err.code)) === 'NOT_FOUND',
      {
        what: "bob's place to be removed",
      },
    );
  });

  it("indexes processed items for search, answers the search RPC per user, follows a hide and a job's rebuild", async () => {
    const id = await processed(alice, '2024-06-04T12:00:00Z', {
      place: workerPlace('Grenoble', null, 'France'),
      things: ['Bicycle'],
    });
    const find = async (q: string, userId = alice) =>
      (await rig.client.request(contracts.searchMediaItemsRpc, { userId, q, page: 1, limit: 15 })).mediaItemIds;
    await waitFor(async () => (await find('grenoble bicycle')).includes(id), { what: 'the item to be found' });
    expect(await find('grenob bicy')).toEqual([id]);
    expect(await find('grenoble', bob)).toEqual([]);
    await expect(find('!!')).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'q has no word to search for' });

    setMedia(alice, id, { hidden: true });
    await changed(contracts.mediaUpdatedEvent, alice, id);
    await waitFor(async () => (await find('grenoble')).length === 0, { what: 'the hidden item to leave search' });
    // The media service changed behind explore's back (no event): a job's rebuild reads it again.
    setMedia(alice, id, { hidden: false });
    await rig.client.publish(
      contracts.searchRebuildRequestedEvent,
      { userId: alice, jobId: randomUUID(), requestedAt: new Date().toISOString() },
      { msgId: `rebuild-${id}` },
    );
    await waitFor(async () => (await find('grenoble')).includes(id), { what: 'the rebuild to find the item again' });
  });

  // ---- people ----------------------------------------------------------------------------------
  const carol = randomUUID();
  const dave = randomUUID();
  const random = seeded(21);
  const [ann, ben] = [randomPerson(random), randomPerson(random)];

  /** The worker's result for a new photo of the user's showing `who`, published; answers its id once explore has its people. */
  const photo = async (userId: string, day: number, who: Float32Array[]) => {
    const id = randomUUID();
    setMedia(userId, id);
    const result: MediaItemProcessedV1 = {
      ...processedResult(userId, id, `2024-07-${String(day).padStart(2, '0')}T12:00:00Z`),
      faces: who.map((person, i) => ({
        box: { x: 0.1 * i, y: 0.2, width: 0.1, height: 0.15 },
        score: 0.9,
        embedding: contracts.encodeEmbedding(faceOf(person, random)),
        thumbnailKey: `media/${userId}/${id}/faces/${i}.webp`,
      })),
    };
    await rig.client.publish(contracts.mediaProcessedEvent, result, { msgId: `processed-${id}` });
    await waitFor(
      async () =>
        (await rig.client.request(contracts.listMediaItemPeopleRpc, { userId, mediaItemId: id })).people.length ===
        who.length,
      { what: "the photo's people" },
    );
    return id;
  };
  const listed = async (hidden?: boolean) =>
    (
      await rig.client.request(contracts.listPeopleRpc, {
        userId: alice,
        page: 1,
        limit: 15,
        ...(hidden === undefined ? {} : { hidden }),
      })
    ).people;

  it('groups the faces of processed photos into people and answers, names, hides, merges and regroups them with schema-checked shapes', async () => {
    const first = await photo(alice, 1, [ann, ben]);
    const second = await photo(alice, 2, [ann]);
    const [a, b] = await waitFor(
      async () => {
        const people = await listed();
        return people[0]?.mediaItemsCount === 2 ? people : undefined;
      },
      { what: 'ann to count two photos' },
    );
    expect(a).toMatchObject({
      userId: alice,
      name: '',
      hidden: false,
      coverMediaItemId: second,
      coverFace: { mediaItemId: second },
    });
    expect(b).toMatchObject({ mediaItemsCount: 1, coverMediaItemId: first });
    expect(await rig.client.request(contracts.getPersonRpc, { userId: alice, id: a!.id })).toEqual(a);
    expect(
      await rig.client.request(contracts.listPersonMediaItemsRpc, { userId: alice, id: a!.id, page: 1, limit: 15 }),
    ).toEqual({ mediaItemIds: [second, first] });
    expect(await rig.client.request(contracts.locateFaceRpc, { id: a!.coverFace!.id })).toEqual({
      key: `media/${alice}/${second}/faces/0.webp`,
      contentType: 'image/webp',
      filename: expect.any(String),
      userId: alice,
    });

    expect(
      await rig.client.request(contracts.updatePersonRpc, {
        userId: alice,
        id: a!.id,
        name: 'Ann',
        hidden: true,
        coverMediaItemId: first,
      }),
    ).toEqual({});
    expect((await listed()).map((p) => p.id)).toEqual([b!.id]);
    expect(await listed(true)).toEqual([
      expect.objectContaining({ id: a!.id, name: 'Ann', hidden: true, coverMediaItemId: first }),
    ]);
    await expect(
      rig.client.request(contracts.updatePersonRpc, { userId: alice, id: b!.id, coverMediaItemId: second }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'the cover must be a photo of this person' });

    await rig.client.request(contracts.mergePeopleRpc, { userId: alice, id: b!.id, people: [a!.id] });
    expect(await rig.client.request(contracts.getPersonRpc, { userId: alice, id: b!.id })).toMatchObject({
      name: 'Ann',
      mediaItemsCount: 2,
    });
    await expect(rig.client.request(contracts.getPersonRpc, { userId: alice, id: a!.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'person not found',
    });
    // The user's merge holds through regrouping: a named person is regrouped as one.
    expect(await rig.client.request(contracts.regroupPeopleRpc, { userId: alice })).toEqual({
      faces: 3,
      people: 1,
      moved: 0,
    });
    expect((await listed()).map((p) => [p.name, p.mediaItemsCount])).toEqual([['Ann', 2]]);

    await expect(rig.client.request(contracts.getPersonRpc, { userId: dave, id: b!.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'person not found',
    });
    await expect(
      rig.client.request(contracts.mergePeopleRpc, { userId: dave, id: b!.id, people: [a!.id] }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'person not found' });
    await expect(
      rig.client.request(contracts.locateFaceRpc, { userId: dave, id: b!.coverFace!.id }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      rig.client.request(contracts.listMediaItemPeopleRpc, { userId: dave, mediaItemId: first }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'mediaitem not found' });
  });

  it("trash and purge take photos out of a person, who keeps answering by id without cover; a user's deletion removes their people", async () => {
    const id = await photo(carol, 3, [ben]);
    const [person] = (await rig.client.request(contracts.listMediaItemPeopleRpc, { userId: carol, mediaItemId: id }))
      .people;
    const personOf = () => rig.client.request(contracts.getPersonRpc, { userId: carol, id: person!.id });
    await waitFor(async () => (await personOf()).mediaItemsCount === 1, { what: 'the person to count the photo' });
    setMedia(carol, id, { deleted: true });
    await rig.client.publish(
      contracts.mediaTrashedEvent,
      { userId: carol, mediaItemId: id, at: new Date().toISOString() },
      { msgId: `trashed-${id}` },
    );
    await waitFor(async () => (await personOf()).mediaItemsCount === 0, {
      what: 'the trashed photo to leave the person',
    });
    expect(await personOf()).toMatchObject({ coverMediaItemId: null, coverFace: null });
    media.delete(id);
    await rig.client.publish(
      contracts.mediaPurgedEvent,
      { userId: carol, mediaItemId: id, at: new Date().toISOString() },
      { msgId: `purged-${id}` },
    );
    await waitFor(
      async () =>
        (await rig.client
          .request(contracts.locateFaceRpc, { id: person!.coverFace!.id })
          .catch((err: { code?: string }) => err.code)) === 'NOT_FOUND',
      { what: "the purged photo's faces to go" },
    );
    expect(await personOf()).toMatchObject({ mediaItemsCount: 0, coverMediaItemId: null });
    await rig.client.publish(
      contracts.userDeletedEvent,
      { userId: carol, deletedAt: new Date().toISOString() },
      { msgId: `deleted-${carol}` },
    );
    await waitFor(async () => (await personOf().catch((err: { code?: string }) => err.code)) === 'NOT_FOUND', {
      what: "carol's people to be removed",
    });
  });

  it("lists a person's faces, assigns and removes a face, regroups on a faces job's request; another user's ids answer not found", async () => {
    const erin = randomUUID();
    const first = await photo(erin, 4, [ann, ben]);
    const second = await photo(erin, 5, [ann]);
    const peopleIn = async (mediaItemId: string) =>
      (await rig.client.request(contracts.listMediaItemPeopleRpc, { userId: erin, mediaItemId })).people;
    const annP = (await peopleIn(second))[0]!;
    const benP = (await peopleIn(first)).find((p) => p.id !== annP.id)!;
    const facesOf = async (id: string, userId = erin) =>
      (await rig.client.request(contracts.listPersonFacesRpc, { userId, id, page: 1, limit: 15 })).faces;
    const annFaces = await facesOf(annP.id);
    expect(annFaces.map((f) => f.mediaItemId)).toEqual([second, first]);
    const moved = annFaces[1]!;

    expect(await rig.client.request(contracts.assignFaceRpc, { userId: erin, id: benP.id, faceId: moved.id })).toEqual(
      {},
    );
    expect((await facesOf(benP.id)).map((f) => f.id)).toContain(moved.id);
    expect(
      await rig.client.request(contracts.removePersonFaceRpc, { userId: erin, id: benP.id, faceId: moved.id }),
    ).toEqual({});
    expect((await facesOf(benP.id)).map((f) => f.id)).not.toContain(moved.id);
    await rig.client.request(contracts.updatePersonRpc, { userId: erin, id: annP.id, name: 'Ann' });

    // A faces job is done: explore regroups; the unassigned face goes back to Ann (never Ben), Ann keeps her name.
    await rig.client.publish(
      contracts.peopleRegroupRequestedEvent,
      { userId: erin, jobId: randomUUID(), requestedAt: new Date().toISOString() },
      { msgId: `regroup-${erin}` },
    );
    await waitFor(async () => (await facesOf(annP.id)).some((f) => f.id === moved.id), {
      what: 'the regrouping to give the face back to Ann',
    });
    expect(await rig.client.request(contracts.getPersonRpc, { userId: erin, id: annP.id })).toMatchObject({
      name: 'Ann',
      mediaItemsCount: 2,
    });

    for (const call of [
      () => facesOf(annP.id, dave),
      () => rig.client.request(contracts.assignFaceRpc, { userId: dave, id: annP.id, faceId: moved.id }),
      () => rig.client.request(contracts.removePersonFaceRpc, { userId: dave, id: annP.id, faceId: moved.id }),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'person not found' });
    // Dave's own person with Erin's face: the face is not his.
    const davesPerson = (
      await rig.client.request(contracts.listMediaItemPeopleRpc, {
        userId: dave,
        mediaItemId: await photo(dave, 6, [ben]),
      })
    ).people[0]!;
    await expect(
      rig.client.request(contracts.assignFaceRpc, { userId: dave, id: davesPerson.id, faceId: moved.id }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'face not found' });
  });
});
