import { randomUUID } from 'node:crypto';
import { encodeEmbedding } from '@trove/proto-events';
import type { MediaItemProcessedV1 } from '@trove/proto-events';
import { processedResult } from '../places-things/processed.fake';
import { newTestServices } from '../test-services.fake';
import { PeopleRepository } from './repository';
import { faceOf, randomPerson, seeded } from './synthetic.fake';

describe('people (grouping, naming, hiding, merging, covers, visibility) on the embedded store and a fake media service', () => {
  const t = newTestServices();
  const alice = randomUUID();
  const bob = randomUUID();
  const random = seeded(11);
  const [ann, ben, cid] = [randomPerson(random), randomPerson(random), randomPerson(random)];

  const result = (userId: string, id: string, day: number, who: Float32Array[]): MediaItemProcessedV1 => ({
    ...processedResult(userId, id, `2024-06-${String(day).padStart(2, '0')}T12:00:00Z`),
    faces: who.map((person, i) => ({
      box: { x: i / 10, y: 0.1, width: 0.1, height: 0.1 },
      score: 0.9 - i / 100,
      embedding: encodeEmbedding(faceOf(person, random)),
      thumbnailKey: `media/${userId}/${id}/faces/${i}.webp`,
    })),
  });
  /** As explore's consumer runs it: places and things first, then people. */
  const process = async (r: MediaItemProcessedV1) => {
    await t.placesThings.itemProcessed(r);
    await t.people.itemProcessed(r);
  };
  /** A photo of the user's, taken on day `day` of June 2024, showing `who`. */
  const photo = async (day: number, who: Float32Array[], userId = alice, id = randomUUID()) => {
    t.media.add(userId, id);
    await process(result(userId, id, day, who));
    return id;
  };
  const change = async (id: string, state: { hidden?: boolean; trashed?: boolean }) => {
    t.media.set(id, state);
    await t.placesThings.itemChanged(alice, id);
    await t.people.itemChanged(alice, id);
  };
  /** The (first) person in the photo. */
  const personIn = async (id: string) => (await t.people.ofItem(alice, id))[0]!;
  const counts = async (hidden = false) =>
    (await t.people.list(alice, 1, 100, hidden)).map((p) => [p.name, p.mediaItemsCount]);

  it('faces of the same person across photos make one person; its count, cover (newest, with its face) and items follow', async () => {
    const first = await photo(1, [ann, ben]);
    const second = await photo(5, [ann]);
    const third = await photo(3, [cid, ann]);
    const list = await t.people.list(alice, 1, 100);
    expect(list.map((p) => p.mediaItemsCount)).toEqual([3, 1, 1]);
    const [a] = list;
    expect(a).toMatchObject({
      userId: alice,
      name: '',
      hidden: false,
      coverMediaItemId: second,
      coverFace: { mediaItemId: second, box: { x: 0, y: 0.1, width: 0.1, height: 0.1 } },
    });
    expect(await t.people.itemIds(alice, a!.id, 1, 10)).toEqual([second, third, first]);
    expect((await t.people.ofItem(alice, third)).map((p) => p.id)).toContain(a!.id);
    expect(await t.people.get(alice, a!.id)).toEqual(a);
    const location = await t.people.locateFace(alice, a!.coverFace!.id);
    expect(location).toEqual({
      key: `media/${alice}/${second}/faces/0.webp`,
      contentType: 'image/webp',
      filename: expect.any(String),
      userId: alice,
    });
    expect(await t.people.locateFace(undefined, a!.coverFace!.id)).toEqual(location);
    await expect(t.people.locateFace(bob, a!.coverFace!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("the same result again, or re-processing with new faces, replaces the item's faces in the same people", async () => {
    const id = randomUUID();
    t.media.add(alice, id);
    const once = result(alice, id, 1, [ann, ben]);
    await process(once);
    const before = await t.people.list(alice, 1, 100);
    await process(once);
    expect(await t.people.list(alice, 1, 100)).toEqual(before.map((p) => ({ ...p, updatedAt: expect.any(String) })));
    await process(result(alice, id, 1, [ben]));
    expect((await t.people.ofItem(alice, id)).map((p) => p.id)).toEqual([
      before.find((p) => p.coverFace!.box.x === 0.1)!.id,
    ]);
    expect(await counts()).toEqual([['', 1]]);
    // A result without faces (a worker without the component) keeps them.
    await process(processedResult(alice, id, '2024-06-01T12:00:00Z'));
    expect(await counts()).toEqual([['', 1]]);
  });

  it('naming, hiding (left out of the list unless hidden=true; new photos still join the hidden person), a cover of theirs', async () => {
    const first = await photo(1, [ann]);
    const other = await photo(2, [ben]);
    const a = await personIn(first);
    await t.people.update(alice, a.id, { name: 'Ann', hidden: true });
    expect(await counts()).toEqual([['', 1]]);
    expect(await counts(true)).toEqual([['Ann', 1]]);
    const later = await photo(9, [ann]);
    expect((await personIn(later)).id).toBe(a.id);
    expect(await t.people.get(alice, a.id)).toMatchObject({
      name: 'Ann',
      hidden: true,
      mediaItemsCount: 2,
      coverMediaItemId: later,
    });
    await t.people.update(alice, a.id, { coverMediaItemId: first, hidden: false });
    expect(await t.people.get(alice, a.id)).toMatchObject({ hidden: false, coverMediaItemId: first });
    await expect(t.people.update(alice, a.id, { coverMediaItemId: other })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'the cover must be a photo of this person',
    });
    const bobs = await photo(3, [ann], bob);
    for (const notHers of [bobs, randomUUID()])
      await expect(t.people.update(alice, a.id, { coverMediaItemId: notHers })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'mediaitem not found',
      });
    await expect(t.people.update(bob, a.id, { name: 'Eve' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'person not found',
    });
    await expect(t.people.get(bob, a.id)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'person not found' });
    await expect(t.people.ofItem(bob, first)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'mediaitem not found',
    });
  });

  it("merging moves the faces, keeps the named one's name, removes the others; later faces of either join the result", async () => {
    const x = await personIn(await photo(1, [ann]));
    const y = await personIn(await photo(2, [ben]));
    const z = await personIn(await photo(3, [cid]));
    await t.people.update(alice, y.id, { name: 'Ben' });
    await t.people.merge(alice, x.id, [y.id, z.id]);
    expect(await t.people.get(alice, x.id)).toMatchObject({ name: 'Ben', mediaItemsCount: 3 });
    await expect(t.people.get(alice, y.id)).rejects.toMatchObject({ message: 'person not found' });
    expect((await personIn(await photo(4, [cid]))).id).toBe(x.id);
    await expect(t.people.merge(alice, x.id, [randomUUID()])).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'person not found',
    });
  });

  it('trash, hide and purge take photos out of the count and the cover; with none left the person answers by id without cover and leaves the list', async () => {
    const older = await photo(1, [ann]);
    const newer = await photo(2, [ann]);
    const a = await personIn(older);
    await change(newer, { trashed: true });
    expect(await t.people.get(alice, a.id)).toMatchObject({ mediaItemsCount: 1, coverMediaItemId: older });
    await change(older, { hidden: true });
    expect(await t.people.get(alice, a.id)).toMatchObject({
      mediaItemsCount: 0,
      coverMediaItemId: null,
      coverFace: null,
    });
    expect(await counts()).toEqual([]);
    await change(older, { hidden: false });
    expect(await t.people.get(alice, a.id)).toMatchObject({ mediaItemsCount: 1, coverMediaItemId: older });
    for (const id of [older, newer]) {
      t.media.purge(id);
      await t.placesThings.itemPurged(alice, id);
      await t.people.itemPurged(alice, id);
    }
    expect(await t.people.get(alice, a.id)).toMatchObject({
      mediaItemsCount: 0,
      coverMediaItemId: null,
      coverFace: null,
    });
    // A late result of a purged item files nothing.
    await process(result(alice, older, 1, [ben]));
    expect(await t.people.list(alice, 1, 100)).toEqual([]);
  });

  it("regrouping from scratch keeps names; users never share people; a user's deletion removes theirs", async () => {
    const a = await personIn(await photo(1, [ann, ben]));
    await t.people.update(alice, a.id, { name: 'Ann' });
    await photo(2, [ann], bob);
    expect(await t.people.regroup(alice)).toEqual({ faces: 2, people: 2, moved: 0 });
    expect(await counts()).toEqual([
      ['', 1],
      ['Ann', 1],
    ]);
    expect(await t.people.list(bob, 1, 100)).toHaveLength(1);
    await t.people.userDeleted(bob);
    expect(await t.people.list(bob, 1, 100)).toEqual([]);
    expect(await t.people.list(alice, 1, 100)).toHaveLength(2);
  });

  // ---- the user's corrections and regrouping after a faces job -----------------------------------

  /** The ids of a person's faces, as the person page lists them. */
  const faceIds = async (personId: string) => (await t.people.faces(alice, personId, 1, 100)).map((f) => f.id);

  it("lists a person's faces; assigning a face moves it for good; not-this-person leaves it unassigned and never back", async () => {
    const both = await photo(1, [ann, ben]);
    const annOnly = await photo(2, [ann]);
    const a = (await t.people.ofItem(alice, annOnly))[0]!;
    const b = (await t.people.ofItem(alice, both)).find((p) => p.id !== a.id)!;
    const [annInBoth] = (await t.people.faces(alice, a.id, 1, 100)).filter((f) => f.mediaItemId === both);
    expect(await t.people.faces(alice, a.id, 1, 100)).toEqual([
      { id: expect.any(String), mediaItemId: annOnly, box: expect.any(Object), score: expect.any(Number) },
      annInBoth,
    ]);
    expect(await t.people.faces(alice, a.id, 2, 1)).toEqual([annInBoth]);

    // The user says Ann's face in the first photo is Ben's: it moves, and processing the photo again keeps it there.
    await t.people.assignFace(alice, b.id, annInBoth!.id);
    expect((await faceIds(b.id)).sort()).toHaveLength(2);
    expect(await faceIds(a.id)).not.toContain(annInBoth!.id);
    expect(await t.people.get(alice, b.id)).toMatchObject({ mediaItemsCount: 1 });
    await process(result(alice, both, 1, [ann, ben]));
    expect(await faceIds(b.id)).toContain(annInBoth!.id);
    await t.people.regroup(alice);
    expect(await faceIds(b.id)).toContain(annInBoth!.id);

    // Not Ben after all: the face waits unassigned; neither processing again nor regrouping gives it back to Ben.
    await t.people.removeFace(alice, b.id, annInBoth!.id);
    expect(await faceIds(b.id)).not.toContain(annInBoth!.id);
    await process(result(alice, both, 1, [ann, ben]));
    await t.people.regroup(alice);
    expect(await faceIds(b.id)).not.toContain(annInBoth!.id);
    // Regrouping gives it to the person its look-alikes are (Ann), whom the user never refused.
    expect(await faceIds(a.id)).toContain(annInBoth!.id);

    // Another user's person or face, or a face the person does not have: not found.
    const bobs = await photo(3, [ann], bob);
    const bobsPerson = (await t.people.ofItem(bob, bobs))[0]!;
    const [bobsFace] = await t.people.faces(bob, bobsPerson.id, 1, 10);
    for (const call of [
      () => t.people.faces(bob, a.id, 1, 10),
      () => t.people.assignFace(bob, a.id, bobsFace!.id),
      () => t.people.removeFace(bob, a.id, annInBoth!.id),
    ])
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'person not found' });
    await expect(t.people.assignFace(alice, a.id, bobsFace!.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'face not found',
    });
    await expect(t.people.removeFace(alice, b.id, annInBoth!.id)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'face not found',
    });
    expect(await t.people.faces(bob, bobsPerson.id, 1, 10)).toEqual([bobsFace]);
  });

  it('a faces job after a new embedding model: each photo keeps its people, then regrouping merges what split and keeps every name', async () => {
    // The library as the old model (1024 values) grouped it: Ann named, in three photos.
    const ids = [await photo(1, [ann, ben]), await photo(2, [ann]), await photo(3, [ann, cid])];
    const annId = (await personIn(ids[1]!)).id;
    await t.people.update(alice, annId, { name: 'Ann' });
    // The new model (512 values) re-processes every photo, as a faces job does; its faces look nothing like the old ones.
    const next = seeded(99);
    const [ann2, ben2, cid2] = [randomPerson(next, 512), randomPerson(next, 512), randomPerson(next, 512)];
    const again = (day: number, id: string, who: Float32Array[]) =>
      process({
        ...result(alice, id, day, []),
        faces: who.map((person, i) => ({
          box: { x: i / 10, y: 0.1, width: 0.1, height: 0.1 },
          score: 0.9,
          quality: 0.9,
          embedding: encodeEmbedding(faceOf(person, next)),
          thumbnailKey: `media/${alice}/${id}/faces/${i}.webp`,
        })),
      });
    await again(1, ids[0]!, [ann2, ben2]);
    await again(2, ids[1]!, [ann2]);
    await again(3, ids[2]!, [ann2, cid2]);
    expect(await t.people.get(alice, annId)).toMatchObject({ name: 'Ann', mediaItemsCount: 3 });
    // Split as an earlier grouping could have: Ann's newest face in an unnamed person of its own.
    const [newest] = await t.people.faces(alice, annId, 1, 1);
    const repo = await PeopleRepository.open(t.store);
    const split = await repo.createPerson(alice);
    await repo.setPersonOfFace(alice, newest!.id, split);
    await repo.refreshSummary(alice, split);
    await repo.refreshSummary(alice, annId);
    expect(await t.people.get(alice, annId)).toMatchObject({ mediaItemsCount: 2 });
    expect(await t.people.regroup(alice)).toEqual({ faces: 5, people: 3, moved: 1 });
    expect(await t.people.get(alice, annId)).toMatchObject({ name: 'Ann', mediaItemsCount: 3 });
    expect(await faceIds(annId)).toContain(newest!.id);
    await expect(t.people.get(alice, split)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await counts()).toEqual([
      ['Ann', 3],
      ['', 1],
      ['', 1],
    ]);
  });

  it('a face the user moved stays through regrouping; a face below the minimum quality founds nobody', async () => {
    const first = await photo(1, [ann]);
    const second = await photo(2, [ann]);
    const a = await personIn(first);
    expect((await personIn(second)).id).toBe(a.id);
    const other = await personIn(await photo(3, [ben]));
    await t.people.assignFace(alice, other.id, (await t.people.faces(alice, a.id, 1, 1))[0]!.id);
    await t.people.regroup(alice);
    expect((await t.people.faces(alice, other.id, 1, 10)).map((f) => f.mediaItemId)).toContain(second);
    expect(await t.people.itemIds(alice, a.id, 1, 10)).toEqual([first]);
    // A blurry face of someone new founds nobody; it waits unassigned.
    const id = randomUUID();
    t.media.add(alice, id);
    await process({
      ...result(alice, id, 4, []),
      faces: [
        {
          box: { x: 0.1, y: 0.1, width: 0.02, height: 0.02 },
          score: 0.6,
          quality: 0.1,
          embedding: encodeEmbedding(faceOf(randomPerson(random), random)),
          thumbnailKey: `media/${alice}/${id}/faces/0.webp`,
        },
      ],
    });
    expect(await t.people.ofItem(alice, id)).toEqual([]);
  });
});

describe('a regroup does not hold explore: other work runs between its steps', () => {
  // Slices of no time: the event loop runs after every face's comparisons.
  const t = newTestServices({ people: { sliceMs: 0 } });
  const alice = randomUUID();
  const bob = randomUUID();

  it("answers another user's people while one user's library regroups, and the regroup completes", async () => {
    const random = seeded(3);
    const people = [randomPerson(random), randomPerson(random), randomPerson(random)];
    const photo = async (userId: string, n: number) => {
      const id = randomUUID();
      t.media.add(userId, id);
      const result: MediaItemProcessedV1 = {
        ...processedResult(userId, id, `2024-06-${String((n % 28) + 1).padStart(2, '0')}T12:00:00Z`),
        faces: [
          {
            box: { x: 0.1, y: 0.1, width: 0.1, height: 0.1 },
            score: 0.9,
            embedding: encodeEmbedding(faceOf(people[n % 3]!, random)),
            thumbnailKey: `media/${userId}/${id}/faces/0.webp`,
          },
        ],
      };
      await t.placesThings.itemProcessed(result);
      await t.people.itemProcessed(result);
    };
    for (let n = 0; n < 30; n++) await photo(alice, n);
    await photo(bob, 0);
    // Turns of the event loop while the regroup runs (the embedded store's calls take none); at the fifth, bob asks.
    const done: string[] = [];
    let turns = 0;
    let listing: Promise<unknown> | undefined;
    const turn = () => {
      if (done.includes('regroup')) return;
      if (++turns === 5) listing = t.people.list(bob, 1, 10).then((list) => (done.push('list'), list));
      setImmediate(turn);
    };
    setImmediate(turn);
    const counts = await t.people.regroup(alice);
    done.push('regroup');
    expect(counts).toEqual({ faces: 30, people: 3, moved: 0 });
    expect(turns).toBeGreaterThanOrEqual(30); // a turn at least after each face's comparisons
    expect(await listing).toHaveLength(1);
    expect(done).toEqual(['list', 'regroup']);
  });
});
