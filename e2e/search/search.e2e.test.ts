/**
 * Search end to end: a real nats-server, the compiled auth, media, worker and explore services and
 * the gateway as their own processes; real uploads processed by the worker (metadata, place,
 * things, text recognition), indexed by explore from the events, asked through GET /v1/search with
 * every answer validated against openapi.yaml (TROVE_VALIDATE_RESPONSES).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { describeWithFixtures, FIXTURES, heicFixture, jpegAt, textCardJpeg } from '@trove/kit/testing/media';
import { answer, createApi, getItem, newUser, ok, status, uploadReady } from '../support/api';
import { send } from '../support/raw';
import type { Api, MediaItem } from '../support/api';

describeWithFixtures('search (e2e)', () => {
  let stack: Stack;
  let alice: Api;
  let bob: Api;
  let aliceToken: string;
  /** Alice's: the seed HEIC (pizza, Mumbai, iPhone 12 mini, 3 April 2022), jobs.jpeg (iPhone 15 Pro, June 2024), Paris and Madrid photos, a birthday card. */
  let heic: MediaItem;
  let paris: MediaItem;
  let madrid: MediaItem;
  /** Bob's copy of the seed HEIC. */
  let bobsHeic: MediaItem;

  const search = (client: Api, q: string, query: { page?: number; limit?: number } = {}) =>
    ok(client.GET('/v1/search', { params: { query: { q, ...query } } }), 200);
  const found = async (q: string, client = alice) => (await search(client, q)).map((i) => i.filename);
  /** Waits until `q` finds exactly these files (the index follows events on its own). */
  const until = (q: string, filenames: string[], timeoutMs = 30_000, client = alice) =>
    waitFor(async () => JSON.stringify(await found(q, client)) === JSON.stringify(filenames), {
      timeoutMs,
      intervalMs: 100,
      what: `"${q}" to find ${JSON.stringify(filenames)}`,
    });

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'explore', 'gateway'] });
    ({ api: alice, token: aliceToken } = await newUser(stack));
    bob = (await newUser(stack)).api;
    heic = await uploadReady(alice, await heicFixture(), 'IMG_0543.HEIC', 120_000);
    await uploadReady(alice, await readFile(join(FIXTURES, 'jobs.jpeg')), 'jobs.jpeg', 120_000);
    paris = await uploadReady(alice, await jpegAt(48.8584, 2.2945), 'eiffel.jpg', 120_000);
    madrid = await uploadReady(alice, await jpegAt(40.4168, -3.7038), 'plaza.jpg', 120_000);
    await uploadReady(alice, await textCardJpeg(), 'card.jpg', 120_000);
    bobsHeic = await uploadReady(bob, await heicFixture(), 'IMG_0543.HEIC', 120_000);
    // Indexing follows the processed results: wait until the last of each user's items is found.
    await until('birthday', ['card.jpg']);
    await until('pizza', ['IMG_0543.HEIC'], 30_000, bob);
  }, 360_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('the peer expectation: "pizza" answers exactly the seed HEIC, as the full media item', async () => {
    const items = await search(alice, 'pizza');
    expect(items.map((i) => i.id)).toEqual([heic.id]);
    expect(items[0]).toEqual(await getItem(alice, heic.id));
    expect(new URL(items[0]!.thumbnailUrl!).searchParams.get('sig')).toBeTruthy();
  });

  it('finds by place, word beginning, camera, date and the words written in the picture', async () => {
    const cases: Array<[string, string[]]> = [
      ['Mumbai', ['IMG_0543.HEIC']],
      ['mumb', ['IMG_0543.HEIC']],
      ['paris', ['eiffel.jpg']],
      ['iphone 15', ['jobs.jpeg']],
      ['2022', ['IMG_0543.HEIC']],
      ['april 2022', ['IMG_0543.HEIC']],
      ['birthday', ['card.jpg']],
      ['grandma birthday', ['card.jpg']],
      ['GRANDMA', ['card.jpg']],
      ['île-de-france', ['eiffel.jpg']],
      ['img_0543', ['IMG_0543.HEIC']],
    ];
    for (const [q, files] of cases) expect([q, await found(q)]).toEqual([q, files]);
  });

  it('a raw query string: `+` and `%20` are both a space; what is really invalid answers 400 with a message', async () => {
    const raw = (query: string) =>
      send(`${stack.gatewayUrl}/v1/search?${query}`, { headers: { Authorization: `Bearer ${aliceToken}` } });
    const names = (body: unknown) => (body as MediaItem[]).map((i) => i.filename);
    const plus = await raw('q=iphone+15');
    const escaped = await raw('q=iphone%2015');
    expect([plus.status, escaped.status]).toEqual([200, 200]);
    expect(names(plus.body)).toEqual(['jobs.jpeg']);
    expect(plus.body).toEqual(escaped.body);
    expect(names((await raw('q=april+2022&limit=5&page=1')).body)).toEqual(['IMG_0543.HEIC']);
    // A literal plus is %2B: "iphone+15" as one string is still the words iphone and 15.
    expect(names((await raw('q=iphone%2B15')).body)).toEqual(['jobs.jpeg']);
    // What RFC 3986 allows in a query may come unescaped: "pizza;mumbai" is the words pizza and mumbai.
    expect(names((await raw('q=pizza;mumbai')).body)).toEqual(['IMG_0543.HEIC']);
    for (const query of ['q=pizza%ZZ', 'q=%E0%A4%A', 'q=pizza%FF', 'q=a[b]']) {
      const bad = await raw(query);
      expect([query, bad.status]).toEqual([query, 400]);
      expect(bad.body).toEqual({ message: expect.stringMatching(/^Parameter 'q' must be url encoded/) });
    }
  });

  it('every word must match: "pizza paris" finds nothing', async () => {
    expect(await found('pizza paris')).toEqual([]);
    expect(await found('mu')).toEqual([]);
  });

  it('ranks equal matches newest first, in pages', async () => {
    // Both were taken in India (Mumbai; near Coimbatore): jobs.jpeg in 2024, the HEIC in 2022.
    expect(await found('india')).toEqual(['jobs.jpeg', 'IMG_0543.HEIC']);
    expect((await search(alice, 'india', { limit: 1, page: 2 })).map((i) => i.id)).toEqual([heic.id]);
    expect(await search(alice, 'india', { limit: 1, page: 3 })).toEqual([]);
  });

  it('a word of an edited description is found within seconds; the old one no longer', async () => {
    expect(
      await status(
        alice.PUT('/v1/mediaItems/{id}', {
          params: { path: { id: paris.id } },
          body: { description: 'Picnic by the Seine' },
        }),
      ),
    ).toBe(204);
    await until('picnic', ['eiffel.jpg'], 5_000);
    expect(
      await status(
        alice.PUT('/v1/mediaItems/{id}', { params: { path: { id: paris.id } }, body: { description: 'Boat trip' } }),
      ),
    ).toBe(204);
    await until('boat', ['eiffel.jpg'], 5_000);
    expect(await found('picnic')).toEqual([]);
  });

  it("a person's new name is found within seconds; the old one no longer", async () => {
    const carol = (await newUser(stack)).api;
    await uploadReady(carol, await readFile(join(FIXTURES, 'faces.jpg')), 'faces.jpg', 240_000);
    await waitFor(async () => (await ok(carol.GET('/v1/explore/people'), 200)).length > 0, {
      timeoutMs: 30_000,
      intervalMs: 100,
      what: 'the group photo to yield people',
    });
    const [person] = await ok(carol.GET('/v1/explore/people'), 200);
    const rename = (name: string) =>
      status(carol.PUT('/v1/explore/people/{id}', { params: { path: { id: person!.id } }, body: { name } }));
    expect(await rename('Zelda Fitzgerald')).toBe(204);
    await until('zelda', ['faces.jpg'], 5_000, carol);
    await until('fitzgerald zelda', ['faces.jpg'], 5_000, carol);
    expect(await rename('Grandma Ruth')).toBe(204);
    await until('ruth', ['faces.jpg'], 5_000, carol);
    expect(await found('zelda', carol)).toEqual([]);
    // Alice has nobody of that name.
    expect(await found('ruth')).toEqual([]);
  });

  it('trashed and hidden items are not found; restored ones are again', async () => {
    await until('madrid', ['plaza.jpg']);
    expect(await status(alice.DELETE('/v1/mediaItems/{id}', { params: { path: { id: madrid.id } } }))).toBe(204);
    await until('madrid', []);
    expect(await status(alice.DELETE('/v1/trash', { body: { mediaItems: [madrid.id] } }))).toBe(204);
    await until('madrid', ['plaza.jpg']);
    expect(
      await status(alice.PUT('/v1/mediaItems/{id}', { params: { path: { id: madrid.id } }, body: { hidden: true } })),
    ).toBe(204);
    await until('madrid', []);
  });

  it('another user finds only their own copy', async () => {
    expect((await search(bob, 'pizza')).map((i) => i.id)).toEqual([bobsHeic.id]);
    expect((await search(alice, 'pizza')).map((i) => i.id)).toEqual([heic.id]);
    expect(await found('birthday', bob)).toEqual([]);
  });

  it('refuses an empty or blank query (400) and a call without a token (401)', async () => {
    for (const q of ['', '   ', '?!']) {
      const { status: code, body } = await answer(alice.GET('/v1/search', { params: { query: { q } } }));
      expect([q, code]).toEqual([q, 400]);
      expect(body).toMatchObject({ message: expect.any(String) });
    }
    expect(await status(alice.GET('/v1/search', { params: { query: {} as { q: string } } }))).toBe(400);
    expect(await status(createApi(stack.gatewayUrl).GET('/v1/search', { params: { query: { q: 'pizza' } } }))).toBe(
      401,
    );
  });
});
