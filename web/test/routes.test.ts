/**
 * Loaders and actions against a fake gateway: what they send to the API and what they answer
 * the browser.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { makeAlbum, makeItem, uuid } from './fixtures';
import { form, requestWith, session, sessionFrom, settle, startFakeGateway, testContext } from './fake-gateway';
import type { FakeGateway } from './fake-gateway';
import { requestContext } from '../app/lib/context.server';
import type { WebContext } from '../app/lib/context.server';
import * as login from '../app/routes/login';
import * as logout from '../app/routes/logout';
import * as items from '../app/routes/api.items';
import * as timeline from '../app/routes/api.timeline';
import * as upload from '../app/routes/api.upload';
import * as albumsApi from '../app/routes/api.albums';
import * as albumHeld from '../app/routes/api.albums.$albumId.held';
import * as albumAdd from '../app/routes/_app.albums.$albumId_.add';
import * as trash from '../app/routes/_app.trash';

let gw: FakeGateway;
let ctx: WebContext;

beforeEach(async () => {
  gw = await startFakeGateway();
  ctx = testContext(gw.url);
});
afterEach(() => gw.close());

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, context: ctx, params }) as unknown as LoaderFunctionArgs & ActionFunctionArgs;

describe('login', () => {
  it('logs in, stores the tokens in the sealed cookie and goes where the user was heading', async () => {
    gw.on('POST /v1/auth/login', (r) => {
      expect(JSON.parse(r.body.toString())).toEqual({ username: 'alice', password: 'pw-1234567' });
      return { status: 200, body: { accessToken: 'acc', refreshToken: 'ref', expiresIn: 900 } };
    });
    const res = await settle(
      login.action(
        args(
          new Request('http://web/login', form({ username: ' alice ', password: 'pw-1234567', redirectTo: '/albums' })),
        ),
      ),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/albums');
    expect(await sessionFrom(ctx, res)).toMatchObject({ accessToken: 'acc', refreshToken: 'ref', username: 'alice' });
  });

  it('names the browser’s address to the gateway, with the proxy secret that makes it believed', async () => {
    gw.on('POST /v1/auth/login', { status: 401, body: { message: 'Unauthorized' } });
    const browser = requestContext(ctx, '203.0.113.5');
    await settle(
      login.action({
        ...args(new Request('http://web/login', form({ username: 'alice', password: 'nope' }))),
        context: browser,
      }),
    );
    expect(gw.requests[0].headers).toMatchObject({
      'x-trove-client-address': '203.0.113.5',
      'x-trove-proxy-secret': ctx.config.proxySecret,
    });
  });

  it.each(['//evil.example/x', '/\t/evil.example', '/\\evil.example'])(
    'never redirects off-site after login (%j)',
    async (redirectTo) => {
      gw.on('POST /v1/auth/login', { status: 200, body: { accessToken: 'acc', refreshToken: 'ref', expiresIn: 900 } });
      const res = await settle(
        login.action(args(new Request('http://web/login', form({ username: 'a', password: 'b', redirectTo })))),
      );
      expect(res.headers.get('Location')).toBe('/');
    },
  );

  it.each([
    ['401', { status: 401, body: { message: 'Unauthorized' } }, 401, 'Wrong username or password.'],
    [
      '429',
      { status: 429, body: { message: 'too many login attempts' }, headers: { 'Retry-After': '42' } },
      429,
      'Too many attempts. Try again in 42 seconds.',
    ],
    [
      '503',
      { status: 503, body: { message: 'service unavailable' } },
      503,
      'The Trove server cannot be reached. Check that it is running, then try again.',
    ],
    [
      '500',
      { status: 500, body: { message: 'boom' } },
      503,
      'The Trove server had a problem (500). Try again in a moment.',
    ],
  ])('says clearly what went wrong when the API answers %s', async (_name, answer, status, message) => {
    gw.on('POST /v1/auth/login', answer);
    const res = await settle(
      login.action(args(new Request('http://web/login', form({ username: 'alice', password: 'nope' })))),
    );
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: message, username: 'alice' });
    expect(res.headers.get('Set-Cookie')).toBeNull();
  });

  it('says the server is unreachable when nothing answers', async () => {
    const down = testContext('http://127.0.0.1:9');
    const res = await settle(
      login.action({
        ...args(new Request('http://web/login', form({ username: 'alice', password: 'x' }))),
        context: down,
      }),
    );
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatch(/cannot be reached/);
  });

  it('asks for the missing field without calling the API', async () => {
    const res = await settle(
      login.action(args(new Request('http://web/login', form({ username: '', password: 'x' })))),
    );
    expect(await res.json()).toEqual({ error: 'Enter your username.', field: 'username', username: '' });
    expect(gw.requests).toHaveLength(0);
  });

  it('skips the form for someone already logged in', async () => {
    const res = await settle(
      login.loader(args(await requestWith(ctx, 'http://web/login?redirectTo=%2Ftrash', session()))),
    );
    expect(res.headers.get('Location')).toBe('/trash');
  });
});

describe('logout', () => {
  it('ends the API session with the access token and clears the cookie', async () => {
    gw.on('POST /v1/auth/logout', { status: 204 });
    const res = await settle(
      logout.action(args(await requestWith(ctx, 'http://web/logout', session(), { method: 'POST' }))),
    );
    expect(gw.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
      'POST /v1/auth/logout Bearer access-1',
    ]);
    expect(res.headers.get('Location')).toBe('/login');
    expect(res.headers.get('Set-Cookie')).toMatch(/trove_session=;.*Max-Age=0/);
  });
});

describe('/api/items', () => {
  it('lists a page of a view with content URLs on the web app’s own origin', async () => {
    const item = makeItem();
    item.thumbnailUrl = `${gw.url}/v1/mediaItems/${item.id}/thumbnail?exp=9&sig=abc`;
    gw.on('GET /v1/favourites', { status: 200, body: [item] });
    const res = await settle(
      items.loader(args(await requestWith(ctx, 'http://web/api/items?view=favourites&page=2', session()))),
    );
    expect(gw.requests[0].path).toBe('/v1/favourites?page=2&limit=100');
    const body = (await res.json()) as { items: { thumbnailUrl: string }[] };
    expect(body.items[0].thumbnailUrl).toBe(`/v1/mediaItems/${item.id}/thumbnail?exp=9&sig=abc`);
  });

  it("leaves a shared album's pages to its own route (where the link's cookie goes): without a session, 401", async () => {
    const album = uuid();
    gw.on(`GET /v1/sharing/${album}/mediaItems`, { status: 200, body: [] });
    const res = await settle(items.loader(args(new Request(`http://web/api/items?view=shared&album=${album}&page=1`))));
    expect(res.status).toBe(401);
    expect(gw.requests).toHaveLength(0);
  });

  it('answers fresh copies of items by id, leaving out unknown ones', async () => {
    const a = makeItem({ status: 'PROCESSING' });
    const gone = uuid();
    gw.on(`GET /v1/mediaItems/${a.id}`, { status: 200, body: { ...a, status: 'READY' } });
    gw.on(`GET /v1/mediaItems/${gone}`, { status: 404, body: { message: 'mediaitem not found' } });
    const res = await settle(
      items.loader(args(await requestWith(ctx, `http://web/api/items?ids=${a.id},${gone},not-a-uuid`, session()))),
    );
    const body = (await res.json()) as { items: { id: string; status: string }[] };
    expect(body.items.map((i) => [i.id, i.status])).toEqual([[a.id, 'READY']]);
  });

  it('answers 401 (not a redirect) to the browser’s fetch without a session', async () => {
    const res = await settle(items.loader(args(new Request('http://web/api/items?view=library'))));
    expect(res.status).toBe(401);
  });

  it('pages a month of the timeline in chunks (`at`, `page`, `limit`), and refuses a limit the API would not take', async () => {
    gw.on('GET /v1/mediaItems', { status: 200, body: [] });
    const res = await settle(
      items.loader(
        args(await requestWith(ctx, 'http://web/api/items?view=library&at=2019-06&page=3&limit=50', session())),
      ),
    );
    expect(res.status).toBe(200);
    const sent = new URL(gw.requests[0].path, 'http://gw');
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      page: '3',
      limit: '50',
      takenBefore: '2019-06-30T23:59:59.999Z',
    });
    for (const bad of ['0', '101', 'x', '2.5']) {
      const refused = await settle(
        items.loader(args(await requestWith(ctx, `http://web/api/items?view=library&limit=${bad}`, session()))),
      );
      expect(refused.status).toBe(400);
    }
    expect(gw.requests).toHaveLength(1);
  });
});

describe('/api/timeline', () => {
  it('answers the library’s months from the API, and 401 without a session', async () => {
    gw.on('GET /v1/timeline/buckets', { status: 200, body: { buckets: [{ month: '2024-06', count: 3 }] } });
    const res = await settle(timeline.loader(args(await requestWith(ctx, 'http://web/api/timeline', session()))));
    expect(await res.json()).toEqual({ buckets: [{ month: '2024-06', count: 3 }] });
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const anonymous = await settle(timeline.loader(args(new Request('http://web/api/timeline'))));
    expect(anonymous.status).toBe(401);
  });

  it.each([
    ['favourite', 'POST /v1/favourites'],
    ['unfavourite', 'DELETE /v1/favourites'],
    ['hide', 'POST /v1/hidden'],
    ['unhide', 'DELETE /v1/hidden'],
    ['trash', 'POST /v1/trash'],
    ['restore', 'DELETE /v1/trash'],
  ])('sends "%s" of selected items as %s (duplicates once)', async (intent, call) => {
    const id = uuid();
    gw.on(call, { status: 204 });
    const payload = { intent, ids: [id, id] };
    const res = await settle(
      items.action(
        args(
          await requestWith(ctx, 'http://web/api/items', session(), {
            method: 'POST',
            body: JSON.stringify(payload),
            headers: { 'Content-Type': 'application/json' },
          }),
        ),
      ),
    );
    expect(res.status).toBe(200);
    expect(`${gw.requests[0].method} ${gw.requests[0].path}`).toBe(call);
    expect(JSON.parse(gw.requests[0].body.toString())).toEqual({ mediaItems: [id] });
  });

  it('edits a description, adds to and removes from albums, and sets a cover', async () => {
    const id = uuid();
    const albumId = uuid();
    gw.on(`PUT /v1/mediaItems/${id}`, { status: 204 });
    gw.on(`POST /v1/albums/${albumId}/mediaItems`, { status: 204 });
    gw.on(`DELETE /v1/albums/${albumId}/mediaItems`, { status: 204 });
    gw.on(`PUT /v1/albums/${albumId}`, { status: 204 });
    for (const body of [
      { intent: 'describe', id, description: '  ' },
      { intent: 'addToAlbum', albumId, ids: [id] },
      { intent: 'removeFromAlbum', albumId, ids: [id] },
      { intent: 'setCover', albumId, id },
    ]) {
      const res = await settle(
        items.action(
          args(
            await requestWith(ctx, 'http://web/api/items', session(), { method: 'POST', body: JSON.stringify(body) }),
          ),
        ),
      );
      expect(res.status).toBe(200);
    }
    expect(gw.requests.map((r) => [`${r.method} ${r.path}`, JSON.parse(r.body.toString())])).toEqual([
      [`PUT /v1/mediaItems/${id}`, { description: null }],
      [`POST /v1/albums/${albumId}/mediaItems`, { mediaItems: [id] }],
      [`DELETE /v1/albums/${albumId}/mediaItems`, { mediaItems: [id] }],
      [`PUT /v1/albums/${albumId}`, { coverMediaItemId: id }],
    ]);
  });

  it('edits the date and place, answering the item as the API now has it, and passes the API’s message on', async () => {
    const item = makeItem({ creationTime: '2019-07-14T16:30:00+02:00', latitude: 48.8584, longitude: 2.2945 });
    const post = async (body: unknown) =>
      settle(
        items.action(
          args(
            await requestWith(ctx, 'http://web/api/items', session(), { method: 'POST', body: JSON.stringify(body) }),
          ),
        ),
      );
    gw.on(`PUT /v1/mediaItems/${item.id}`, { status: 204 });
    gw.on(`GET /v1/mediaItems/${item.id}`, { status: 200, body: item });
    const change = { creationTime: '2019-07-14T16:30:00+02:00', latitude: 48.8584, longitude: 2.2945 };
    const res = await post({ intent: 'edit', id: item.id, ...change, description: 'not this way' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { item: { id: string; creationTime: string; latitude: number } };
    expect(body.item).toMatchObject({ id: item.id, creationTime: change.creationTime, latitude: 48.8584 });
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /v1/mediaItems/${item.id}`,
      `GET /v1/mediaItems/${item.id}`,
    ]);
    expect(JSON.parse(gw.requests[0].body.toString())).toEqual(change);

    const other = uuid();
    gw.on(`PUT /v1/mediaItems/${other}`, { status: 400, body: { message: 'latitude must be at most 90' } });
    const refused = await post({ intent: 'edit', id: other, latitude: 95, longitude: 0 });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: 'latitude must be at most 90' });
  });

  it('refuses invalid actions without calling the API, and passes the API’s 404 on', async () => {
    for (const body of [
      { intent: 'explode', ids: [uuid()] },
      { intent: 'trash', ids: [] },
      { intent: 'trash', ids: ['x'] },
      'nope',
    ]) {
      const res = await settle(
        items.action(
          args(
            await requestWith(ctx, 'http://web/api/items', session(), { method: 'POST', body: JSON.stringify(body) }),
          ),
        ),
      );
      expect(res.status).toBe(400);
    }
    expect(gw.requests).toHaveLength(0);
    gw.on('POST /v1/trash', { status: 404, body: { message: 'mediaitem not found' } });
    const res = await settle(
      items.action(
        args(
          await requestWith(ctx, 'http://web/api/items', session(), {
            method: 'POST',
            body: JSON.stringify({ intent: 'trash', ids: [uuid()] }),
          }),
        ),
      ),
    );
    expect(res.status).toBe(404);
  });
});

describe('/api/upload', () => {
  it('streams the multipart body to the API with the token and relays its answer, duplicates included', async () => {
    const existing = uuid();
    gw.on('POST /v1/mediaItems', (r) => {
      expect(r.headers.authorization).toBe('Bearer access-1');
      expect(r.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(r.body.toString('latin1')).toContain('filename="cat.jpg"');
      return { status: 409, body: { message: 'mediaitem already exists', id: existing } };
    });
    const body = new FormData();
    body.append(
      'file',
      new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])], { type: 'image/jpeg' }),
      'cat.jpg',
    );
    const res = await settle(
      upload.action(args(await requestWith(ctx, 'http://web/api/upload', session(), { method: 'POST', body }))),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'mediaitem already exists', id: existing });
  });

  it('refuses a body that is not multipart', async () => {
    const res = await settle(
      upload.action(
        args(
          await requestWith(ctx, 'http://web/api/upload', session(), {
            method: 'POST',
            body: 'x',
            headers: { 'Content-Type': 'text/plain' },
          }),
        ),
      ),
    );
    expect(res.status).toBe(400);
  });
});

describe('/api/albums', () => {
  it('creates an album holding the selected items', async () => {
    const id = uuid();
    const album = {
      id: uuid(),
      userId: uuid(),
      name: 'Trip',
      description: null,
      shared: false,
      hidden: false,
      coverMediaItemId: null,
      coverMediaItem: null,
      mediaItemsCount: 0,
      createdAt: 'x',
      updatedAt: 'x',
    };
    gw.on('POST /v1/albums', { status: 201, body: album });
    gw.on(`POST /v1/albums/${album.id}/mediaItems`, { status: 204 });
    const res = await settle(
      albumsApi.action(
        args(
          await requestWith(ctx, 'http://web/api/albums', session(), {
            method: 'POST',
            body: JSON.stringify({ name: ' Trip ', ids: [id] }),
          }),
        ),
      ),
    );
    expect(res.status).toBe(201);
    expect(JSON.parse(gw.requests[0].body.toString())).toEqual({ name: 'Trip', description: null });
    expect(JSON.parse(gw.requests[1].body.toString())).toEqual({ mediaItems: [id] });
  });
});

describe('/api/albums/<id>/held', () => {
  it('asks the API which of the ids the album holds, each id once, and answers them', async () => {
    const albumId = uuid();
    const [a, b] = [uuid(), uuid()];
    gw.on(`POST /v1/albums/${albumId}/mediaItems/exist`, { status: 200, body: { mediaItems: [b] } });
    const url = `http://web/api/albums/${albumId}/held?ids=${a},${b},${a},not-a-uuid`;
    const res = await settle(albumHeld.loader(args(await requestWith(ctx, url, session()), { albumId })));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ held: [b] });
    expect(JSON.parse(gw.requests[0].body.toString())).toEqual({ mediaItems: [a, b] });
  });

  it('refuses no ids or too many without calling the API, passes its 404 on, and answers 401 without a session', async () => {
    const albumId = uuid();
    const ask = async (ids: string[], withSession = true) => {
      const url = `http://web/api/albums/${albumId}/held?ids=${ids.join(',')}`;
      const request = withSession ? await requestWith(ctx, url, session()) : new Request(url);
      return settle(albumHeld.loader(args(request, { albumId })));
    };
    expect((await ask([])).status).toBe(400);
    expect((await ask(Array.from({ length: 201 }, uuid))).status).toBe(400);
    expect(gw.requests).toHaveLength(0);
    gw.on(`POST /v1/albums/${albumId}/mediaItems/exist`, { status: 404, body: { message: 'album not found' } });
    expect((await ask([uuid()])).status).toBe(404);
    expect((await ask([uuid()], false)).status).toBe(401);
  });
});

describe('an album’s Add photos page', () => {
  it('still opens when an item of its first page is gone before the album is asked about it (404): nothing is marked, the picker asks again', async () => {
    const albumId = uuid();
    const item = makeItem();
    gw.on(`GET /v1/albums/${albumId}`, { status: 200, body: makeAlbum({ id: albumId }) });
    gw.on('GET /v1/mediaItems', { status: 200, body: [item] });
    gw.on(`POST /v1/albums/${albumId}/mediaItems/exist`, { status: 404, body: { message: 'mediaitem not found' } });
    const request = await requestWith(ctx, `http://web/albums/${albumId}/add`, session());
    const res = await settle(albumAdd.loader(args(request, { albumId })));
    expect(res.status).toBe(200);
    const data = (await res.json()) as { album: { id: string }; held: unknown; items: { id: string }[] };
    expect(data.album.id).toBe(albumId);
    expect(data.held).toEqual({ asked: [], held: [] });
    expect(gw.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toContain(
      `POST /v1/albums/${albumId}/mediaItems/exist`,
    );
  });

  it('marks what the album holds on its first page, and passes on a 404 for the album itself', async () => {
    const albumId = uuid();
    const [a, b] = [makeItem(), makeItem()];
    gw.on(`GET /v1/albums/${albumId}`, { status: 200, body: makeAlbum({ id: albumId }) });
    gw.on('GET /v1/mediaItems', { status: 200, body: [a, b] });
    gw.on(`POST /v1/albums/${albumId}/mediaItems/exist`, { status: 200, body: { mediaItems: [b.id] } });
    const open = async (id: string) =>
      settle(albumAdd.loader(args(await requestWith(ctx, `http://web/albums/${id}/add`, session()), { albumId: id })));
    const res = await open(albumId);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { held: unknown }).held).toEqual({ asked: [a.id, b.id], held: [b.id] });
    expect((await open(uuid())).status).toBe(404);
  });
});

describe('trash page', () => {
  it('explains the retention period from the configuration', async () => {
    gw.on('GET /v1/trash', { status: 200, body: [] });
    const res = await settle(trash.loader(args(await requestWith(ctx, 'http://web/trash', session()))));
    expect(await res.json()).toEqual({ items: [], focus: null, retention: '30 days' });
  });

  const empty = async (fields: Record<string, string>, who: ReturnType<typeof session> | null = session()) =>
    settle(trash.action(args(await requestWith(ctx, 'http://web/trash', who, form(fields)))));

  it('Empty trash asks the API to empty it and answers how many items go', async () => {
    gw.on('POST /v1/trash/empty', { status: 202, body: { count: 1234 } });
    const res = await empty({ intent: 'empty' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ emptied: 1234, error: null });
    expect(gw.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/trash/empty']);
    expect(gw.requests[0].headers.authorization).toBe(`Bearer ${session().accessToken}`);
  });

  it('passes a refusal on as its message (the trash switched off), and asks nothing for another intent', async () => {
    gw.on('POST /v1/trash/empty', { status: 403, body: { message: 'feature disabled' } });
    const refused = await empty({ intent: 'empty' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ emptied: null, error: 'feature disabled' });
    const unknown = await empty({ intent: 'purge-everything' });
    expect(unknown.status).toBe(400);
    expect(gw.requests).toHaveLength(1);
  });

  it('sends someone without a session to the login, emptying nothing', async () => {
    const res = await empty({ intent: 'empty' }, null);
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toMatch(/^\/login/);
    expect(gw.requests).toHaveLength(0);
  });
});
