/**
 * The Web II routes against a fake gateway: explore pages, the viewer's entries, search, settings,
 * jobs, people naming and the administrator's users page (basic auth passed through).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { makeItem, uuid } from './fixtures';
import { form, requestWith, session, settle, startFakeGateway, testContext } from './fake-gateway';
import type { FakeGateway } from './fake-gateway';
import type { WebContext } from '../app/lib/context.server';
import * as explore from '../app/routes/_app.explore._index';
import * as place from '../app/routes/_app.explore.places.$id';
import * as person from '../app/routes/_app.explore.people.$id';
import * as people from '../app/routes/_app.explore.people._index';
import * as entries from '../app/routes/api.item-entries';
import * as items from '../app/routes/api.items';
import * as suggestions from '../app/routes/api.suggestions';
import * as search from '../app/routes/_app.search';
import * as settings from '../app/routes/_app.settings';
import * as jobs from '../app/routes/_app.jobs';
import * as admin from '../app/routes/admin.users';

let gw: FakeGateway;
let ctx: WebContext;

beforeEach(async () => {
  gw = await startFakeGateway();
  ctx = testContext(gw.url);
});
afterEach(() => gw.close());

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, context: ctx, params }) as unknown as LoaderFunctionArgs & ActionFunctionArgs;
const calls = () => gw.requests.map((r) => `${r.method} ${r.path}`);

function makePlace(over: Record<string, unknown> = {}) {
  const cover = makeItem();
  return {
    id: uuid(),
    name: 'Amsterdam',
    town: null,
    city: 'Amsterdam',
    state: 'North Holland',
    country: 'Netherlands',
    postcode: null,
    countryCode: 'NL',
    latitude: 52.37,
    longitude: 4.89,
    coverMediaItemId: cover.id,
    coverMediaItem: cover,
    thumbnailUrl: cover.thumbnailUrl,
    mediaItemsCount: 3,
    ...over,
  };
}

describe('/explore', () => {
  it('shows rows of places, things and people with local thumbnail URLs', async () => {
    const p = makePlace();
    p.thumbnailUrl = `${gw.url}/v1/mediaItems/${p.coverMediaItemId}/thumbnail?exp=1&sig=s`;
    const thing = { id: uuid(), name: 'Pizza', coverMediaItemId: null, thumbnailUrl: null, mediaItemsCount: 1 };
    const face = {
      mediaItemId: uuid(),
      thumbnail: `${gw.url}/v1/mediaItems/x/thumbnail?exp=1&sig=s`,
      thumbnailUrl: `${gw.url}/v1/mediaItems/x/thumbnail?exp=1&sig=s`,
      boundingBox: { x: 0.1, y: 0.1, width: 0.2, height: 0.2 },
    };
    gw.on('GET /v1/explore/places', { status: 200, body: [p] });
    gw.on('GET /v1/explore/things', { status: 200, body: [thing] });
    gw.on('GET /v1/explore/people', {
      status: 200,
      body: [{ id: uuid(), name: null, coverMediaItemFace: face, mediaItemsCount: 2 }],
    });
    const res = await settle(explore.loader(args(await requestWith(ctx, 'http://web/explore', session()))));
    const body = await res.json();
    expect(body.places[0].thumbnailUrl).toBe(`/v1/mediaItems/${p.coverMediaItemId}/thumbnail?exp=1&sig=s`);
    expect(body.things.map((t: { name: string }) => t.name)).toEqual(['Pizza']);
    expect(body.people[0].coverMediaItemFace.thumbnail).toBe('/v1/mediaItems/x/thumbnail?exp=1&sig=s');
    expect(body.people[0].coverMediaItemFace.thumbnailUrl).toBe('/v1/mediaItems/x/thumbnail?exp=1&sig=s');
    expect(calls()).toEqual(
      expect.arrayContaining(['GET /v1/explore/places?page=1&limit=20', 'GET /v1/explore/things?page=1&limit=20']),
    );
  });

  it('still shows places and things when people cannot be listed', async () => {
    gw.on('GET /v1/explore/places', { status: 200, body: [] });
    gw.on('GET /v1/explore/things', { status: 200, body: [] });
    const res = await settle(explore.loader(args(await requestWith(ctx, 'http://web/explore', session()))));
    expect(await res.json()).toEqual({ places: [], things: [], people: null });
  });
});

describe('a place page', () => {
  it('loads the place and its first page of items, with the map template only when configured', async () => {
    const p = makePlace();
    gw.on(`GET /v1/explore/places/${p.id}`, { status: 200, body: p });
    gw.on(`GET /v1/explore/places/${p.id}/mediaItems`, { status: 200, body: [makeItem()] });
    const res = await settle(
      place.loader(args(await requestWith(ctx, `http://web/explore/places/${p.id}`, session()), { id: p.id })),
    );
    const body = await res.json();
    expect(body.entry.name).toBe('Amsterdam');
    expect(body.items).toHaveLength(1);
    expect(body.mapTileUrl).toBeNull();
    expect(calls()).toContain(`GET /v1/explore/places/${p.id}/mediaItems?page=1&limit=100`);
  });

  it('answers 404 for an id that is not one, without calling the API', async () => {
    const res = await settle(
      place.loader(args(await requestWith(ctx, 'http://web/explore/places/nope', session()), { id: 'nope' })),
    );
    expect(res.status).toBe(404);
    expect(gw.requests).toHaveLength(0);
  });
});

describe('explore and search lists for the grid', () => {
  it('pages a thing’s items and a search through /api/items', async () => {
    const id = uuid();
    gw.on(`GET /v1/explore/things/${id}/mediaItems`, { status: 200, body: [] });
    gw.on('GET /v1/search', { status: 200, body: [] });
    expect(
      (
        await settle(
          items.loader(args(await requestWith(ctx, `http://web/api/items?view=thing&id=${id}&page=2`, session()))),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await settle(
          items.loader(
            args(await requestWith(ctx, 'http://web/api/items?view=search&q=pizza%20oven&page=1', session())),
          ),
        )
      ).status,
    ).toBe(200);
    expect(calls()).toEqual([
      `GET /v1/explore/things/${id}/mediaItems?page=2&limit=100`,
      'GET /v1/search?page=1&limit=100&q=pizza%20oven',
    ]);
  });

  it('shows the search page without calling the API when nothing was typed', async () => {
    const res = await settle(search.loader(args(await requestWith(ctx, 'http://web/search?q=%20%20', session()))));
    expect(await res.json()).toEqual({ q: null, items: [], focus: null });
    expect(gw.requests).toHaveLength(0);
  });

  it('suggests names that start with the words typed', async () => {
    gw.on('GET /v1/explore/places', {
      status: 200,
      body: [makePlace({ name: 'Amsterdam' }), makePlace({ name: 'Rome' })],
    });
    gw.on('GET /v1/explore/things', {
      status: 200,
      body: [{ id: uuid(), name: 'Dining Table', coverMediaItemId: null, thumbnailUrl: null, mediaItemsCount: 1 }],
    });
    gw.on('GET /v1/explore/people', {
      status: 200,
      body: [{ id: uuid(), name: 'Amy', coverMediaItemFace: null, mediaItemsCount: 1 }],
    });
    const res = await settle(
      suggestions.loader(args(await requestWith(ctx, 'http://web/api/suggestions?q=am', session()))),
    );
    expect((await res.json()).suggestions.map((s: { name: string; kind: string }) => `${s.kind}:${s.name}`)).toEqual([
      'person:Amy',
      'place:Amsterdam',
    ]);
    const table = await settle(
      suggestions.loader(args(await requestWith(ctx, 'http://web/api/suggestions?q=tab', session()))),
    );
    expect((await table.json()).suggestions.map((s: { name: string }) => s.name)).toEqual(['Dining Table']);
  });
});

describe('/api/item-entries', () => {
  it('gives the item’s place, things and people, and an empty people list when the API has none to give', async () => {
    const id = uuid();
    const p = makePlace();
    gw.on(`GET /v1/mediaItems/${id}/places`, { status: 200, body: [p] });
    gw.on(`GET /v1/mediaItems/${id}/things`, {
      status: 200,
      body: [{ id: uuid(), name: 'Pizza', coverMediaItemId: null, thumbnailUrl: null, mediaItemsCount: 1 }],
    });
    const res = await settle(
      entries.loader(args(await requestWith(ctx, `http://web/api/item-entries?id=${id}`, session()))),
    );
    expect(await res.json()).toEqual({
      places: [{ id: p.id, name: 'Amsterdam', country: 'Netherlands' }],
      things: [{ id: expect.any(String), name: 'Pizza' }],
      people: [],
      albums: [],
    });
  });

  it('gives the albums holding the item, by name', async () => {
    const id = uuid();
    const album = { id: uuid(), name: 'Summer' };
    gw.on(`GET /v1/mediaItems/${id}/places`, { status: 200, body: [] });
    gw.on(`GET /v1/mediaItems/${id}/things`, { status: 200, body: [] });
    gw.on(`GET /v1/mediaItems/${id}/albums`, { status: 200, body: [{ ...album, userId: uuid(), mediaItemsCount: 3 }] });
    const res = await settle(
      entries.loader(args(await requestWith(ctx, `http://web/api/item-entries?id=${id}`, session()))),
    );
    expect(await res.json()).toEqual({ places: [], things: [], people: [], albums: [album] });
  });

  it('gives the albums while explore is down, and sends an ended session to the login', async () => {
    const id = uuid();
    const album = { id: uuid(), name: 'Summer' };
    const down = { status: 503, body: { message: 'explore service is unavailable' } };
    gw.on(`GET /v1/mediaItems/${id}/places`, down);
    gw.on(`GET /v1/mediaItems/${id}/things`, down);
    gw.on(`GET /v1/mediaItems/${id}/albums`, { status: 200, body: [{ ...album, userId: uuid(), mediaItemsCount: 3 }] });
    const ask = async () =>
      settle(entries.loader(args(await requestWith(ctx, `http://web/api/item-entries?id=${id}`, session()))));
    expect(await (await ask()).json()).toEqual({ places: [], things: [], people: [], albums: [album] });
    gw.on(`GET /v1/mediaItems/${id}/albums`, { status: 401, body: { message: 'Unauthorized' } });
    gw.on('POST /v1/auth/refresh', { status: 401, body: { message: 'Unauthorized' } });
    expect((await ask()).status).toBe(401);
  });
});

describe('a person page', () => {
  it('names a person, hides them (no name needed), and chooses their cover or the newest photo again', async () => {
    const id = uuid();
    const cover = uuid();
    const bodies: unknown[] = [];
    gw.on(`PUT /v1/explore/people/${id}`, (r) => {
      bodies.push(JSON.parse(r.body.toString()));
      return { status: 204 };
    });
    for (const fields of [
      { intent: 'name', name: '  Alice ' },
      { intent: 'hide', hidden: 'true' },
      { intent: 'cover', cover },
      { intent: 'cover', cover: '' },
    ] as Record<string, string>[]) {
      const res = await settle(
        person.action(args(await requestWith(ctx, `http://web/explore/people/${id}`, session(), form(fields)), { id })),
      );
      expect(res.status).toBe(200);
    }
    expect(bodies).toEqual([
      { name: 'Alice' },
      { hidden: true },
      { coverMediaItemId: cover },
      { coverMediaItemId: null },
    ]);
  });

  it('refuses an empty name or a cover that is not an id without calling the API', async () => {
    const id = uuid();
    for (const fields of [
      { intent: 'name', name: ' ' },
      { intent: 'cover', cover: 'nope' },
      { intent: 'cover' },
    ] as Record<string, string>[]) {
      const res = await settle(
        person.action(args(await requestWith(ctx, `http://web/explore/people/${id}`, session(), form(fields)), { id })),
      );
      expect(res.status).toBe(400);
    }
    expect(gw.requests).toHaveLength(0);
  });
});

describe('the people list', () => {
  const somebody = (name = '') => ({ id: uuid(), name, hidden: false, coverMediaItemFace: null, mediaItemsCount: 1 });

  it('lists the people seen, or with ?hidden=true only the hidden ones', async () => {
    const [seen, hidden] = [somebody('Amy'), { ...somebody('Bo'), hidden: true }];
    gw.on('GET /v1/explore/people', (r) => ({ status: 200, body: r.path.includes('hidden=true') ? [hidden] : [seen] }));
    const all = await (
      await settle(people.loader(args(await requestWith(ctx, 'http://web/explore/people', session()))))
    ).json();
    const only = await (
      await settle(people.loader(args(await requestWith(ctx, 'http://web/explore/people?hidden=true', session()))))
    ).json();
    expect([all.people.map((p: { name: string }) => p.name), all.showHidden]).toEqual([['Amy'], false]);
    expect([only.people.map((p: { name: string }) => p.name), only.showHidden]).toEqual([['Bo'], true]);
    expect(calls()).toEqual([
      'GET /v1/explore/people?page=1&limit=100',
      'GET /v1/explore/people?page=1&limit=100&hidden=true',
    ]);
  });

  it('asks before merging the people picked, only people of the list and two or more', async () => {
    const [a, b, c] = [somebody(), somebody('Cy'), somebody()];
    gw.on('GET /v1/explore/people', { status: 200, body: [a, b, c] });
    const load = async (query: string) =>
      (
        await settle(people.loader(args(await requestWith(ctx, `http://web/explore/people?${query}`, session()))))
      ).json();
    const asking = await load(`merge=${a.id}&merge=${b.id}&merge=${uuid()}`);
    expect([asking.merging.map((p: { id: string }) => p.id), asking.tooFew, asking.selecting]).toEqual([
      [a.id, b.id],
      false,
      true,
    ]);
    const one = await load(`merge=${c.id}`);
    expect([one.merging, one.tooFew]).toEqual([null, true]);
  });

  it('merges the others into the one kept, then shows the list saying so; refuses a merge it cannot make', async () => {
    const [keep, other] = [uuid(), uuid()];
    const sent: unknown[] = [];
    gw.on(`POST /v1/explore/people/${keep}/merge`, (r) => {
      sent.push(JSON.parse(r.body.toString()));
      return { status: 204 };
    });
    const merge = (fields: [string, string][]) =>
      requestWith(ctx, 'http://web/explore/people', session(), form([['intent', 'merge'], ...fields]));
    const res = await settle(
      people.action(
        args(
          await merge([
            ['person', other],
            ['person', keep],
            ['into', keep],
            ['hidden', 'true'],
          ]),
        ),
      ),
    );
    expect([res.status, res.headers.get('Location')]).toEqual([302, `/explore/people?hidden=true&merged=${keep}`]);
    expect(sent).toEqual([{ people: [other] }]);
    for (const bad of [
      [
        ['person', keep],
        ['into', keep],
      ],
      [
        ['person', other],
        ['into', keep],
      ],
      [
        ['person', keep],
        ['person', 'nope'],
        ['into', keep],
      ],
    ] as [string, string][][]) {
      expect((await settle(people.action(args(await merge(bad))))).status).toBe(400);
    }
    expect(sent).toHaveLength(1);
  });
});

describe('/settings', () => {
  it('shows the user’s features, disk use and version, and copes without disk figures', async () => {
    gw.on('GET /v1/features', { status: 200, body: { favourites: true, hidden: false } });
    gw.on('GET /v1/account', {
      status: 200,
      body: { id: uuid(), name: 'A', username: 'a', quotaBytes: 1000, usageBytes: 250 },
    });
    gw.on('GET /disk', { status: 503, body: { message: 'unavailable' } });
    gw.on('GET /version', { status: 200, body: { version: '24.06.24', gitSha: 'abc123' } });
    const key = { id: uuid(), name: 'laptop', createdAt: '2024-06-01T10:00:00Z', lastUsedAt: null };
    gw.on('GET /v1/apiKeys', { status: 200, body: [key] });
    const res = await settle(settings.loader(args(await requestWith(ctx, 'http://web/settings', session()))));
    expect(await res.json()).toMatchObject({
      features: { favourites: true, hidden: false },
      storage: { usageBytes: 250, quotaBytes: 1000 },
      disk: null,
      version: { version: '24.06.24', gitSha: 'abc123' },
      apiKeys: [key],
    });
    expect(gw.requests.find((r) => r.path === '/v1/account')?.headers.authorization).toMatch(/^Bearer /);
    expect(gw.requests.find((r) => r.path === '/v1/apiKeys')?.headers.authorization).toMatch(/^Bearer /);
    expect(gw.requests.find((r) => r.path === '/version')?.headers.authorization).toBeUndefined();
  });

  const post = async (fields: Record<string, string>) =>
    settle(settings.action(args(await requestWith(ctx, 'http://web/settings', session(), form(fields)))));

  it('makes an API key with the trimmed name and answers its secret once, never to be cached', async () => {
    const id = uuid();
    gw.on('POST /v1/apiKeys', (r) => ({
      status: 201,
      body: {
        id,
        name: JSON.parse(r.body.toString()).name,
        key: 'trove_secret',
        createdAt: '2024-06-01T10:00:00Z',
        lastUsedAt: null,
      },
    }));
    const res = await post({ intent: 'create-key', name: '  laptop ' });
    expect(res.status).toBe(201);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(await res.json()).toEqual({
      intent: 'create-key',
      error: null,
      created: { id, name: 'laptop', key: 'trove_secret' },
      revoked: null,
    });
    expect(JSON.parse(gw.requests[0].body.toString())).toEqual({ name: 'laptop' });
    expect(gw.requests[0].headers.authorization).toMatch(/^Bearer /);
  });

  it('refuses a blank or too long name without calling the API, and shows the API’s refusal (too many keys)', async () => {
    for (const name of ['   ', 'x'.repeat(101)]) {
      const res = await post({ intent: 'create-key', name });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/Give the key a name of 1 to 100 characters/);
    }
    expect(gw.requests).toHaveLength(0);
    gw.on('POST /v1/apiKeys', { status: 409, body: { message: 'too many API keys: revoke one first' } });
    const full = await post({ intent: 'create-key', name: 'one more' });
    expect(full.status).toBe(400);
    expect(await full.json()).toMatchObject({ intent: 'create-key', error: 'too many API keys: revoke one first' });
  });

  it('revokes a key by id (one already gone counts as revoked), and refuses an id that is not one', async () => {
    const [gone, live] = [uuid(), uuid()];
    gw.on(`DELETE /v1/apiKeys/${live}`, { status: 204 });
    gw.on(`DELETE /v1/apiKeys/${gone}`, { status: 404, body: { message: 'API key not found' } });
    for (const id of [live, gone]) {
      const res = await post({ intent: 'revoke-key', id });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ intent: 'revoke-key', error: null, revoked: id });
    }
    expect(calls()).toEqual([`DELETE /v1/apiKeys/${live}`, `DELETE /v1/apiKeys/${gone}`]);
    const bad = await post({ intent: 'revoke-key', id: '../users' });
    expect(bad.status).toBe(400);
    expect(calls()).toHaveLength(2);
  });

  it('answers an unknown intent 400, and a server failure through the error page', async () => {
    expect((await post({ intent: 'nope' })).status).toBe(400);
    gw.on('POST /v1/apiKeys', { status: 503, body: { message: 'auth is unavailable' } });
    expect((await post({ intent: 'create-key', name: 'laptop' })).status).toBe(503);
  });
});

describe('/jobs', () => {
  it('starts a job with the ticked components in their order, and says so when one is already running', async () => {
    let answer = 201;
    gw.on('POST /v1/jobs', (r) => ({
      status: answer,
      body:
        answer === 201
          ? { id: uuid(), components: JSON.parse(r.body.toString()).components }
          : { message: 'job already running' },
    }));
    const fields: [string, string][] = [
      ['intent', 'start'],
      ['component', 'things'],
      ['component', 'metadata'],
      ['component', 'bogus'],
    ];
    const res = await settle(jobs.action(args(await requestWith(ctx, 'http://web/jobs', session(), form(fields)))));
    expect(res.status).toBe(200);
    expect(JSON.parse(gw.requests[0].body.toString())).toEqual({ components: 'metadata,things' });
    answer = 409;
    const again = await settle(jobs.action(args(await requestWith(ctx, 'http://web/jobs', session(), form(fields)))));
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatch(/already scheduled or running/);
  });

  it('pauses a job, and refuses a status the API does not take', async () => {
    const id = uuid();
    gw.on(`PUT /v1/jobs/${id}`, { status: 204 });
    await settle(
      jobs.action(
        args(await requestWith(ctx, 'http://web/jobs', session(), form({ intent: 'status', id, status: 'PAUSED' }))),
      ),
    );
    const bad = await settle(
      jobs.action(
        args(await requestWith(ctx, 'http://web/jobs', session(), form({ intent: 'status', id, status: 'COMPLETED' }))),
      ),
    );
    expect(bad.status).toBe(400);
    expect(gw.requests.map((r) => JSON.parse(r.body.toString()))).toEqual([{ status: 'PAUSED' }]);
  });
});

describe('/admin/users', () => {
  const basic = `Basic ${Buffer.from('admin:s3cret-admin').toString('base64')}`;
  const adminRequest = (url: string, init: RequestInit = {}) =>
    new Request(url, { ...init, headers: { ...(init.headers as Record<string, string>), Authorization: basic } });

  it('asks for the credentials with the browser’s basic-auth dialog, without calling the API', async () => {
    const res = await settle(admin.loader(args(new Request('http://web/admin/users'))));
    expect(res.status).toBe(401);
    expect(res.headers.get('WWW-Authenticate')).toMatch(/^Basic realm="Trove administration"/);
    expect(gw.requests).toHaveLength(0);
    // Remix sends the thrown answer's headers only through the route's headers function.
    expect(new Headers(admin.headers({ errorHeaders: res.headers } as never)).get('WWW-Authenticate')).toMatch(
      /^Basic/,
    );
  });

  it('passes the credentials to the users API, and asks again when the API refuses them', async () => {
    const user = {
      id: uuid(),
      name: 'Alice',
      username: 'alice',
      createdAt: '2024-06-01T10:00:00Z',
      updatedAt: '2024-06-01T10:00:00Z',
    };
    gw.on('GET /v1/users', (r) =>
      r.headers.authorization === basic
        ? { status: 200, body: [user] }
        : { status: 401, body: { message: 'Unauthorized' } },
    );
    const res = await settle(admin.loader(args(adminRequest('http://web/admin/users'))));
    expect((await res.json()).users).toEqual([user]);
    expect(gw.requests[0].headers.authorization).toBe(basic);
    const wrong = await settle(
      admin.loader(
        args(
          new Request('http://web/admin/users', {
            headers: { Authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` },
          }),
        ),
      ),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('WWW-Authenticate')).toMatch(/^Basic/);
  });

  it('creates, edits (a blank password keeps it) and deletes users', async () => {
    const id = uuid();
    const sent: [string, unknown][] = [];
    const record = (status: number) => (r: { method: string; body: Buffer }) => {
      sent.push([r.method, r.body.length ? JSON.parse(r.body.toString()) : null]);
      return {
        status,
        body: status === 201 ? { id, name: 'Bob', username: 'bob', createdAt: 'x', updatedAt: 'x' } : undefined,
      };
    };
    gw.on('POST /v1/users', record(201));
    gw.on(`PUT /v1/users/${id}`, record(204));
    gw.on(`DELETE /v1/users/${id}`, record(204));
    for (const fields of [
      { intent: 'create', name: ' Bob ', username: 'bob', password: 'long-enough-password' },
      { intent: 'update', id, name: 'Bob B', username: 'bobb', password: '' },
      { intent: 'delete', id },
    ] as Record<string, string>[]) {
      const res = await settle(admin.action(args(adminRequest('http://web/admin/users', form(fields)))));
      expect(res.status).toBe(302);
    }
    expect(sent).toEqual([
      // No quota given: the server's default applies (the field is left out).
      ['POST', { name: 'Bob', username: 'bob', password: 'long-enough-password' }],
      // The edit form always sends the quota it shows: empty is unlimited.
      ['PUT', { name: 'Bob B', username: 'bobb', quotaBytes: null }],
      ['DELETE', null],
    ]);
  });

  it('sets the storage quota in GiB (decimals too; empty: unlimited) and refuses what is not a size', async () => {
    const id = uuid();
    const sent: unknown[] = [];
    const record = (status: number) => (r: { body: Buffer }) => {
      sent.push(JSON.parse(r.body.toString()));
      return { status, body: status === 201 ? { id, name: 'Bob', username: 'bob' } : undefined };
    };
    gw.on('POST /v1/users', record(201));
    gw.on(`PUT /v1/users/${id}`, record(204));
    const send = (fields: Record<string, string>) =>
      settle(admin.action(args(adminRequest('http://web/admin/users', form(fields)))));
    const base = { name: 'Bob', username: 'bob' };
    for (const fields of [
      { intent: 'create', ...base, password: 'long-enough-password', quotaGib: '50' },
      { intent: 'update', id, ...base, password: '', quotaGib: '0.5' },
      { intent: 'update', id, ...base, password: '', quotaGib: '1,25' },
      { intent: 'update', id, ...base, password: '', quotaGib: '0' },
      { intent: 'update', id, ...base, password: '', quotaGib: '  ' },
    ])
      expect((await send(fields)).status).toBe(302);
    expect(sent).toEqual([
      { ...base, password: 'long-enough-password', quotaBytes: 50 * 1024 ** 3 },
      { ...base, quotaBytes: 512 * 1024 ** 2 },
      { ...base, quotaBytes: 1.25 * 1024 ** 3 },
      { ...base, quotaBytes: 0 },
      { ...base, quotaBytes: null },
    ]);
    for (const quotaGib of ['-1', 'ten', '1e3', '99999999999']) {
      const res = await send({ intent: 'update', id, ...base, password: '', quotaGib });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/^Give the storage quota in GiB \(0 to \d+\), or leave it empty/);
    }
    expect(sent).toHaveLength(5);
  });

  it('says what is wrong with a new user, and never sends the password back to the page', async () => {
    gw.on('POST /v1/users', { status: 409, body: { message: 'username already taken' } });
    const short = await settle(
      admin.action(
        args(
          adminRequest(
            'http://web/admin/users',
            form({ intent: 'create', name: 'Bob', username: 'bob', password: 'short' }),
          ),
        ),
      ),
    );
    expect(await short.json()).toEqual({ error: 'A password is 10 to 128 characters.', intent: 'create', id: null });
    const taken = await settle(
      admin.action(
        args(
          adminRequest(
            'http://web/admin/users',
            form({ intent: 'create', name: 'Bob', username: 'bob', password: 'long-enough-password' }),
          ),
        ),
      ),
    );
    const body = await taken.text();
    expect(body).toContain('username already taken');
    expect(body).not.toContain('long-enough-password');
  });
});
