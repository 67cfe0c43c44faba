/**
 * The timeline end to end (real nats-server, compiled services, the gateway validating every answer
 * against openapi.yaml): the library counted per month by the date it sorts by (the user's when set),
 * hidden, trashed and other users' items left out; the library list starting at an instant; keyset
 * pages (cursor, X-Next-Cursor, Link).
 */
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { describeWithFixtures, jpegAt } from '@trove/kit/testing/media';
import { answer, createApi, newUser, offContract, ok, status, uploadReady } from '../support/api';
import type { Api, MediaItem } from '../support/api';
import { send } from '../support/raw';

describeWithFixtures('timeline buckets, takenBefore and cursors (e2e)', () => {
  let stack: Stack;
  let alice: Api;
  let aliceToken: string;
  let bob: Api;
  /** Alice's photos by the date she gives them. */
  const taken: Record<string, MediaItem> = {};
  const DATES = {
    newYear: '2024-01-01T10:00:00+01:00',
    lateDec: '2023-12-31T18:00:00Z',
    midDec: '2023-12-15T12:00:00Z',
    old: '2009-05-20T08:00:00Z',
    hidden: '2023-12-20T12:00:00Z',
    trashed: '2024-01-05T12:00:00Z',
  } as const;

  const setDate = async (api: Api, id: string, creationTime: string) =>
    expect(
      await answer(api.PUT('/v1/mediaItems/{id}', { params: { path: { id } }, body: offContract({ creationTime }) })),
    ).toMatchObject({ status: 204 });
  const buckets = async (api: Api, query: Record<string, unknown> = {}) =>
    (await ok(api.GET('/v1/timeline/buckets', { params: { query } }), 200)).buckets;
  const before = async (takenBefore: string, page = 1, limit = 50) =>
    (await ok(alice.GET('/v1/mediaItems', { params: { query: { takenBefore, page, limit } } }), 200)).map((i) => i.id);

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'gateway'] });
    ({ api: alice, token: aliceToken } = await newUser(stack));
    bob = (await newUser(stack)).api;
    let n = 0;
    for (const [name, date] of Object.entries(DATES)) {
      taken[name] = await uploadReady(alice, await jpegAt(10 + n, 20 + n++), `${name}.jpg`, 120_000);
      await setDate(alice, taken[name].id, date);
    }
    const bobs = await uploadReady(bob, await jpegAt(1, 2), 'bob.jpg', 120_000);
    await setDate(bob, bobs.id, '2023-12-01T12:00:00Z');
    await ok(alice.POST('/v1/hidden', { body: { mediaItems: [taken.hidden.id] } }), 204);
    await ok(alice.POST('/v1/trash', { body: { mediaItems: [taken.trashed.id] } }), 204);
    await ok(alice.POST('/v1/favourites', { body: { mediaItems: [taken.old.id] } }), 204);
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('counts the library per month (UTC) by the user-set date, newest first; hidden, trashed and others’ items left out', async () => {
    expect(await buckets(alice)).toEqual([
      { month: '2024-01', count: 1 },
      // 1 January 10:00 +01:00 is still 2024; 31 December 18:00Z is December.
      { month: '2023-12', count: 2 },
      { month: '2009-05', count: 1 },
    ]);
    expect(await buckets(alice, { favourites: true })).toEqual([{ month: '2009-05', count: 1 }]);
    expect(await buckets(alice, { type: 'video' })).toEqual([]);
    expect(await buckets(bob)).toEqual([{ month: '2023-12', count: 1 }]);
  });

  it('lists the library from an instant on, in the same order, with page and limit counted from there', async () => {
    expect(await before('2023-12-31T23:59:59.999Z')).toEqual([taken.lateDec.id, taken.midDec.id, taken.old.id]);
    expect(await before('2023-12-31T23:59:59.999Z', 2, 1)).toEqual([taken.midDec.id]);
    expect(await before('2023-12-31T18:00:00Z')).toEqual([taken.lateDec.id, taken.midDec.id, taken.old.id]);
    expect(await before('2000-01-01T00:00:00Z')).toEqual([]);
    expect(await before('2030-01-01T00:00:00+02:00')).toEqual([
      taken.newYear.id,
      taken.lateDec.id,
      taken.midDec.id,
      taken.old.id,
    ]);
  });

  it('pages by cursor: X-Next-Cursor and Link name the next page, the filters hold, and the walk ends', async () => {
    const all = (await ok(alice.GET('/v1/mediaItems', { params: { query: { limit: 100 } } }), 200)).map((i) => i.id);
    expect(all).toHaveLength(4);
    const walked: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const { data, response } = await alice.GET('/v1/mediaItems', { params: { query: { limit: 1, cursor } } });
      expect(response.status).toBe(200);
      walked.push(...(data ?? []).map((i) => i.id));
      const next = response.headers.get('X-Next-Cursor');
      if (!next) break;
      expect(response.headers.get('Link')).toBe(`</v1/mediaItems?limit=1&cursor=${next}>; rel="next"`);
      cursor = next;
    }
    // Four full pages of one: the fourth still names a next page, which is empty and names none.
    expect(walked).toEqual(all);
    // A cursor with a jump older than it lists from the jump; favourites take the cursor too.
    const first = await alice.GET('/v1/mediaItems', { params: { query: { limit: 1 } } });
    const afterFirst = first.response.headers.get('X-Next-Cursor') ?? '';
    expect(
      (
        await ok(
          alice.GET('/v1/mediaItems', {
            params: { query: { cursor: afterFirst, takenBefore: '2023-12-20T00:00:00Z' } },
          }),
          200,
        )
      ).map((i) => i.id),
    ).toEqual([taken.midDec.id, taken.old.id]);
    expect(
      (await ok(alice.GET('/v1/favourites', { params: { query: { cursor: afterFirst } } }), 200)).map((i) => i.id),
    ).toEqual([taken.old.id]);
    // Bob's walk from Alice's cursor shows Bob's items only.
    expect(
      (await ok(bob.GET('/v1/mediaItems', { params: { query: { cursor: afterFirst } } }), 200)).map((i) => i.id),
    ).not.toEqual(expect.arrayContaining([taken.old.id]));
    // A made-up cursor, or a cursor with a page number, is refused with a message.
    expect(await answer(alice.GET('/v1/mediaItems', { params: { query: { cursor: 'not-a-cursor' } } }))).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/cursor/) },
    });
    expect(
      await answer(alice.GET('/v1/mediaItems', { params: { query: { cursor: afterFirst, page: 2 } } })),
    ).toMatchObject({ status: 400, body: { message: expect.stringMatching(/cursor and page/) } });
  });

  it('reads an instant typed into the URL as it is (":" unescaped) like the escaped one', async () => {
    const raw = async (query: string) => {
      const res = await send(`${stack.gatewayUrl}/v1/mediaItems?${query}`, {
        headers: { Authorization: `Bearer ${aliceToken}` },
      });
      expect([query, res.status]).toEqual([query, 200]);
      return (res.body as MediaItem[]).map((i) => i.id);
    };
    const expected = await before('2023-12-31T00:00:00+01:00');
    expect(expected.length).toBeGreaterThan(0);
    expect(await raw('takenBefore=2023-12-30T23:00:00Z')).toEqual(expected);
    expect(await raw('takenBefore=2023-12-31T00:00:00%2B01:00&limit=50')).toEqual(expected);
    expect(await raw('takenBefore=2023-12-31T00%3A00%3A00%2B01%3A00')).toEqual(expected);
  });

  it('refuses a bad instant or filter with a message, and a caller without a token', async () => {
    const bad = await answer(alice.GET('/v1/mediaItems', { params: { query: { takenBefore: offContract('June') } } }));
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringMatching(/takenBefore/) } });
    expect(
      await answer(alice.GET('/v1/timeline/buckets', { params: { query: { type: offContract('sketch') } } })),
    ).toMatchObject({ status: 400, body: { message: expect.any(String) } });
    expect(await status(createApi(stack.gatewayUrl).GET('/v1/timeline/buckets'))).toBe(401);
  });
});
