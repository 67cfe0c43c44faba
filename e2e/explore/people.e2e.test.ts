/**
 * People end to end: a real nats-server, the compiled auth, media, worker, explore services and
 * gateway as their own processes; the seed group photo and a cropped, scaled copy of it processed
 * by the worker (faces found, embedded, thumbnails cut), grouped by explore, every answer
 * validated against openapi.yaml by the gateway (TROVE_VALIDATE_RESPONSES).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { describeWithFixtures, FIXTURES, jpegAt } from '@trove/kit/testing/media';
import type { components } from '@trove/openapi';
import { answer, newUser, ok, status, uploadReady } from '../support/api';
import type { Api, MediaItem } from '../support/api';

type Person = components['schemas']['Person'];

const PERSON_NOT_FOUND = { message: 'person not found' };
/** Processing a group photo finds, embeds and cuts a dozen faces: slow on a shared machine. */
const PROCESSING_MS = 240_000;

describeWithFixtures('people (e2e)', () => {
  let stack: Stack;
  let alice: Api;
  let bob: Api;
  let original: MediaItem;
  let copy: MediaItem;
  /** The people of the original, once explore has them all (before the copy came). */
  let people: Person[];

  const byId = (id: string) => ({ params: { path: { id } } });
  const peopleOf = (item: MediaItem) => ok(alice.GET('/v1/mediaItems/{id}/people', byId(item.id)), 200);
  const personById = (id: string): Promise<Person> => ok(alice.GET('/v1/explore/people/{id}', byId(id)), 200);
  const peopleList = (query: { hidden?: boolean; limit?: number } = {}): Promise<Person[]> =>
    ok(alice.GET('/v1/explore/people', { params: { query: { limit: 100, ...query } } }), 200);
  const until = <T>(probe: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 30_000) =>
    waitFor(
      async () => {
        const value = await probe();
        return check(value) ? { value } : undefined;
      },
      { timeoutMs, what },
    ).then((v) => v.value);

  beforeAll(
    async () => {
      stack = await startStack({
        services: ['auth', 'media', 'worker', 'explore', 'gateway'],
        env: { TROVE_TRASH_RETENTION_SECONDS: '3', TROVE_TRASH_SWEEP_INTERVAL_SECONDS: '1' },
      });
      alice = (await newUser(stack)).api;
      bob = (await newUser(stack)).api;
      const group = await readFile(join(FIXTURES, 'faces.jpg'));
      original = await uploadReady(alice, group, 'faces.jpg', PROCESSING_MS);
      // Before the copy: every cover face is then in the original.
      people = await until(
        () => peopleOf(original),
        (found) => found.length >= 8 && found.every((p) => p.mediaItemsCount === 1),
        'the people of the group photo, counted',
        60_000,
      );
      // The same faces in other bytes: 10 % cut off each side, scaled to 70 %.
      const { width, height } = await sharp(group).metadata();
      const [left, top] = [Math.round(width! * 0.1), Math.round(height! * 0.1)];
      const cropped = await sharp(group)
        .extract({ left, top, width: width! - 2 * left, height: height! - 2 * top })
        .resize({ width: Math.round((width! - 2 * left) * 0.7) })
        .jpeg({ quality: 85 })
        .toBuffer();
      copy = await uploadReady(alice, cropped, 'faces-copy.jpg', PROCESSING_MS);
    },
    2 * PROCESSING_MS + 120_000,
  );
  afterAll(async () => {
    await stack?.stop();
  });

  it('the group photo: at least 8 people, each with a cover face whose signed thumbnail is an image (Range too)', async () => {
    for (const person of people) {
      expect(person).toMatchObject({ name: '', hidden: false, coverMediaItemFaceId: expect.any(String) });
      expect(person.coverMediaItemFace).toMatchObject({
        id: person.coverMediaItemFaceId,
        boundingBox: expect.any(Object),
      });
      expect(person.coverMediaItemFace!.thumbnailUrl).toBe(person.coverMediaItemFace!.thumbnail);
      const url = person.coverMediaItemFace!.thumbnail;
      expect(new URL(url).searchParams.get('sig')).toBeTruthy();
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: expect.any(Number) });
      expect(meta.width).toBeGreaterThanOrEqual(32);
    }
    const ranged = await fetch(people[0]!.coverMediaItemFace!.thumbnail, { headers: { Range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(10);
    const listed = await peopleList();
    expect(listed.map((p) => p.id).sort()).toEqual(expect.arrayContaining(people.map((p) => p.id)));
  });

  it('the cropped, scaled copy: at least 80 % of its faces join the people of the original (who then have 2 photos)', async () => {
    const before = new Set(people.map((p) => p.id));
    // Counted: the people of both photos twice, the others once.
    const ofCopy = await until(
      () => peopleOf(copy),
      (found) => found.length > 0 && found.every((p) => p.mediaItemsCount === (before.has(p.id) ? 2 : 1)),
      'the people of the copy, counted',
    );
    const shared = ofCopy.filter((p) => before.has(p.id));
    expect(shared.length / ofCopy.length).toBeGreaterThanOrEqual(0.8);
    // The same face: its box in the copy, mapped back through the crop, lies where it was in the original.
    for (const person of shared) {
      expect(
        await status(alice.PUT('/v1/explore/people/{id}', { ...byId(person.id), body: { coverMediaItemId: copy.id } })),
      ).toBe(204);
      const inCopy = (await personById(person.id)).coverMediaItemFace!;
      const inOriginal = people.find((p) => p.id === person.id)!.coverMediaItemFace!;
      expect(inCopy.mediaItemId).toBe(copy.id);
      const centre = (b: { x: number; width: number; y: number; height: number }) => [
        b.x + b.width / 2,
        b.y + b.height / 2,
      ];
      const [cx, cy] = centre(inCopy.boundingBox);
      const [ox, oy] = centre(inOriginal.boundingBox);
      expect(Math.hypot(0.1 + cx! * 0.8 - ox!, 0.1 + cy! * 0.8 - oy!)).toBeLessThan(0.03);
    }
    const items = await ok(alice.GET('/v1/explore/people/{id}/mediaItems', byId(shared[0]!.id)), 200);
    expect(items.map((i) => i.id).sort()).toEqual([original.id, copy.id].sort());
  });

  it('naming shows; hiding leaves the list (hidden=true lists it); a cover that is not a photo of theirs answers 400', async () => {
    const [named, hidden] = people;
    expect(await status(alice.PUT('/v1/explore/people/{id}', { ...byId(named!.id), body: { name: 'Pepper' } }))).toBe(
      204,
    );
    expect(await personById(named!.id)).toMatchObject({ name: 'Pepper' });
    expect((await peopleOf(original)).find((p) => p.id === named!.id)).toMatchObject({ name: 'Pepper' });

    expect(await status(alice.PUT('/v1/explore/people/{id}', { ...byId(hidden!.id), body: { hidden: true } }))).toBe(
      204,
    );
    expect((await peopleList()).map((p) => p.id)).not.toContain(hidden!.id);
    expect((await peopleList({ hidden: true })).map((p) => p.id)).toEqual([hidden!.id]);
    expect(await personById(hidden!.id)).toMatchObject({ hidden: true });
    expect(await status(alice.PUT('/v1/explore/people/{id}', { ...byId(hidden!.id), body: { hidden: false } }))).toBe(
      204,
    );

    const landscape = await uploadReady(alice, await jpegAt(48.8584, 2.2945), 'eiffel.jpg', PROCESSING_MS);
    const refused = await answer(
      alice.PUT('/v1/explore/people/{id}', { ...byId(named!.id), body: { coverMediaItemId: landscape.id } }),
    );
    expect(refused).toMatchObject({ status: 400, body: { message: 'the cover must be a photo of this person' } });
    expect(
      await status(
        alice.PUT('/v1/explore/people/{id}', { ...byId(named!.id), body: { coverMediaItemId: original.id } }),
      ),
    ).toBe(204);
  });

  it("another user's person answers 404 person not found, for every call", async () => {
    const id = people[0]!.id;
    const answers = await Promise.all([
      answer(bob.GET('/v1/explore/people/{id}', byId(id))),
      answer(bob.GET('/v1/explore/people/{id}/mediaItems', byId(id))),
      answer(bob.PUT('/v1/explore/people/{id}', { ...byId(id), body: { name: 'Mallory' } })),
      answer(bob.POST('/v1/explore/people/{id}/merge', { ...byId(id), body: { people: [people[1]!.id] } })),
    ]);
    for (const res of answers) expect(res).toMatchObject({ status: 404, body: PERSON_NOT_FOUND });
    expect(await ok(bob.GET('/v1/explore/people'), 200)).toEqual([]);
  });

  it("merging keeps the named one's name; the merged person answers 404", async () => {
    const [, , a, b] = people;
    expect(await status(alice.PUT('/v1/explore/people/{id}', { ...byId(b!.id), body: { name: 'Happy' } }))).toBe(204);
    expect(
      await status(alice.POST('/v1/explore/people/{id}/merge', { ...byId(a!.id), body: { people: [b!.id] } })),
    ).toBe(204);
    expect(await personById(a!.id)).toMatchObject({ name: 'Happy' });
    expect(await answer(alice.GET('/v1/explore/people/{id}', byId(b!.id)))).toMatchObject({
      status: 404,
      body: PERSON_NOT_FOUND,
    });
  });

  it('both photos trashed, then purged: the person answers by id without cover and leaves the list', async () => {
    const id = people[0]!.id;
    expect(await status(alice.POST('/v1/trash', { body: { mediaItems: [original.id, copy.id] } }))).toBe(204);
    const emptied = await until(
      () => personById(id),
      (p) => p.mediaItemsCount === 0,
      'the trashed photos to leave the person',
    );
    expect(emptied).toMatchObject({ coverMediaItemId: null, coverMediaItemFaceId: null, coverMediaItemFace: null });
    expect(emptied).not.toHaveProperty('coverMediaItem');
    expect((await peopleList()).map((p) => p.id)).not.toContain(id);
    await until(
      () => status(alice.GET('/v1/mediaItems/{id}', byId(original.id))),
      (s) => s === 404,
      'the trash to be purged',
    );
    await until(
      () => status(alice.GET('/v1/mediaItems/{id}', byId(copy.id))),
      (s) => s === 404,
      'the trash to be purged',
    );
    expect(await personById(id)).toMatchObject({
      mediaItemsCount: 0,
      coverMediaItemId: null,
      coverMediaItemFace: null,
    });
  });
});
