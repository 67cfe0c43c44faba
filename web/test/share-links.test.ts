/**
 * Shared links with a password, an expiry and downloads, through the web server: the share page's
 * prompt and its unlock cookie, the token sent on every visitor call, the owner's link settings,
 * and the album ZIP (and a selection's) passed through as the gateway streams it.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { makeAlbum, uuid } from './fixtures';
import { form, requestWith, session, settle, startFakeGateway, testContext } from './fake-gateway';
import type { FakeGateway } from './fake-gateway';
import type { WebContext } from '../app/lib/context.server';
import * as share from '../app/routes/share.$albumId';
import * as shareItems from '../app/routes/share.$albumId_.items';
import * as shareDownload from '../app/routes/share.$albumId_.download';
import * as albumDownload from '../app/routes/api.albums.$albumId.download';
import * as selectionDownload from '../app/routes/api.download';
import * as albumPage from '../app/routes/_app.albums.$albumId';
import { shareExpiryFrom } from '../app/lib/albums.server';
import { shareTokenCookie, tokenLifetime } from '../app/lib/share-token.server';
import { pageUrl } from '../app/lib/media-views';

let gw: FakeGateway;
let ctx: WebContext;

beforeEach(async () => {
  gw = await startFakeGateway();
  ctx = testContext(gw.url);
});
afterEach(() => gw.close());

const args = (request: Request, params: Record<string, string> = {}) =>
  ({ request, context: ctx, params }) as unknown as LoaderFunctionArgs & ActionFunctionArgs;

const sharedAlbum = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  name: 'Holiday',
  description: null,
  coverMediaItem: null,
  mediaItemsCount: 0,
  shareLocation: true,
  expiresAt: null,
  allowDownload: true,
  ...over,
});

/** A token as the gateway makes them: its expiry (unix seconds), a dot, a signature. */
const tokenFor = (secondsLeft: number) => `${Math.floor(Date.now() / 1000) + secondsLeft}.c2lnbmF0dXJl`;

describe('share page with a password', () => {
  it('shows the prompt while the API asks for the password', async () => {
    const id = uuid();
    gw.on(`GET /v1/sharing/${id}`, { status: 401, body: { message: 'password required' } });
    gw.on(`GET /v1/sharing/${id}/mediaItems`, { status: 401, body: { message: 'password required' } });
    const res = await settle(share.loader(args(new Request(`http://web/share/${id}`), { albumId: id })));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ locked: true });
    expect(res.headers.get('Set-Cookie')).toBeNull();
  });

  it('unlocks: keeps the token in an HttpOnly, SameSite=Lax cookie for this album’s pages only, as long as it lasts', async () => {
    const id = uuid();
    const token = tokenFor(12 * 3600);
    gw.on(`POST /v1/sharing/${id}/unlock`, (r) => {
      expect(JSON.parse(r.body.toString())).toEqual({ password: 'grandma-2030' });
      return { status: 200, body: { token } };
    });
    const res = await settle(
      share.action(args(new Request(`http://web/share/${id}`, form({ password: 'grandma-2030' })), { albumId: id })),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(`/share/${id}`);
    const cookie = res.headers.get('Set-Cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^trove_share_${id}=`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toContain(`Path=/share/${id}`);
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)?.[1]);
    expect(maxAge).toBeGreaterThan(12 * 3600 - 5);
    expect(maxAge).toBeLessThanOrEqual(12 * 3600);

    // The page, its paging and its download send the token as X-Share-Token.
    const withCookie = (url: string) => new Request(url, { headers: { Cookie: cookie.split(';')[0] } });
    gw.on(`GET /v1/sharing/${id}`, { status: 200, body: sharedAlbum(id, { expiresAt: '2030-07-01T00:00:00Z' }) });
    gw.on(`GET /v1/sharing/${id}/mediaItems`, { status: 200, body: [] });
    gw.on(`GET /v1/sharing/${id}/download`, {
      status: 200,
      body: Buffer.from('PK'),
      headers: { 'Content-Type': 'application/zip' },
    });
    const page = await settle(share.loader(args(withCookie(`http://web/share/${id}`), { albumId: id })));
    expect(await page.json()).toMatchObject({ locked: false, album: { expiresAt: '2030-07-01T00:00:00Z' } });
    await settle(shareItems.loader(args(withCookie(`http://web/share/${id}/items?page=2`), { albumId: id })));
    await settle(shareDownload.loader(args(withCookie(`http://web/share/${id}/download`), { albumId: id })));
    const sharing = gw.requests.filter((r) => r.method === 'GET');
    expect(sharing.map((r) => r.path.split('?')[0])).toEqual([
      `/v1/sharing/${id}`,
      `/v1/sharing/${id}/mediaItems`,
      `/v1/sharing/${id}/mediaItems`,
      `/v1/sharing/${id}/download`,
    ]);
    for (const r of sharing) expect(r.headers['x-share-token']).toBe(token);
  });

  it('answers the API’s message for a wrong password, and the wait when rate-limited', async () => {
    const id = uuid();
    gw.on(`POST /v1/sharing/${id}/unlock`, { status: 401, body: { message: 'wrong password' } });
    const wrong = await settle(
      share.action(args(new Request(`http://web/share/${id}`, form({ password: 'nope' })), { albumId: id })),
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: 'wrong password' });
    expect(wrong.headers.get('Set-Cookie')).toBeNull();

    gw.on(`POST /v1/sharing/${id}/unlock`, {
      status: 429,
      body: { message: 'too many requests' },
      headers: { 'Retry-After': '42' },
    });
    const limited = await settle(
      share.action(args(new Request(`http://web/share/${id}`, form({ password: 'nope' })), { albumId: id })),
    );
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: 'Too many attempts, try again in 42 seconds.' });
  });

  it('forgets a token the gateway no longer takes (the owner changed the password)', async () => {
    const id = uuid();
    gw.on(`GET /v1/sharing/${id}`, { status: 401, body: { message: 'password required' } });
    gw.on(`GET /v1/sharing/${id}/mediaItems`, { status: 401, body: { message: 'password required' } });
    const url = `http://web/share/${id}`;
    const cookie = (await shareTokenCookie(new Request(url), id, tokenFor(600))).split(';')[0];
    const res = await settle(share.loader(args(new Request(url, { headers: { Cookie: cookie } }), { albumId: id })));
    expect(await res.json()).toEqual({ locked: true });
    expect(gw.requests[0].headers['x-share-token']).toBeDefined();
    expect(res.headers.get('Set-Cookie')).toMatch(new RegExp(`^trove_share_${id}=;.*Max-Age=0`));
  });

  it('shows an expired link as not found', async () => {
    const id = uuid();
    gw.on(`GET /v1/sharing/${id}`, { status: 404, body: { message: 'shared link not found' } });
    gw.on(`GET /v1/sharing/${id}/mediaItems`, { status: 404, body: { message: 'shared link not found' } });
    const res = await settle(share.loader(args(new Request(`http://web/share/${id}`), { albumId: id })));
    expect(res.status).toBe(404);
  });
});

describe('album ZIP downloads', () => {
  it('streams the owner’s ZIP through with its name, as the signed-in user', async () => {
    const id = uuid();
    const zip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(64 * 1024, 7)]);
    gw.on(`GET /v1/albums/${id}/download`, {
      status: 200,
      body: zip,
      headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="Holiday.zip"' },
    });
    const res = await settle(
      albumDownload.loader(
        args(await requestWith(ctx, `http://web/api/albums/${id}/download`, session()), { albumId: id }),
      ),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('application/zip');
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="Holiday.zip"');
    expect(Buffer.from(await res.arrayBuffer()).equals(zip)).toBe(true);
    expect(gw.requests[0].headers.authorization).toBe(`Bearer ${session().accessToken}`);
  });

  it('passes a refusal on with the API’s message (downloads off for the link)', async () => {
    const id = uuid();
    gw.on(`GET /v1/sharing/${id}/download`, { status: 403, body: { message: 'downloads are off for this link' } });
    const res = await settle(
      shareDownload.loader(args(new Request(`http://web/share/${id}/download`), { albumId: id })),
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ message: 'downloads are off for this link' });
  });

  it('sends a visitor without a session to the login, not the ZIP', async () => {
    const id = uuid();
    const res = await settle(
      albumDownload.loader(args(new Request(`http://web/api/albums/${id}/download`), { albumId: id })),
    );
    expect(res.status).toBe(401);
    expect(gw.requests).toHaveLength(0);
  });
});

describe('the owner’s link settings', () => {
  const post = async (id: string, fields: Record<string, string>) =>
    settle(
      albumPage.action(
        args(await requestWith(ctx, `http://web/albums/${id}`, session(), form(fields)), { albumId: id }),
      ),
    );

  it('sends downloads, expiry, password and its removal as the album’s update', async () => {
    const id = uuid();
    const bodies: unknown[] = [];
    gw.on(`PUT /v1/albums/${id}`, (r) => {
      bodies.push(JSON.parse(r.body.toString()));
      return { status: 200, body: makeAlbum({ id }) };
    });
    expect((await post(id, { intent: 'share-download', shareAllowDownload: 'false' })).status).toBe(200);
    expect((await post(id, { intent: 'share-expiry', expiresAt: '2099-07-01T10:30', tzOffset: '-120' })).status).toBe(
      200,
    );
    expect((await post(id, { intent: 'share-expiry', never: 'true', expiresAt: '' })).status).toBe(200);
    expect((await post(id, { intent: 'share-password', password: 'grandma-2030' })).status).toBe(200);
    expect((await post(id, { intent: 'share-password', remove: 'true', password: '' })).status).toBe(200);
    expect(bodies).toEqual([
      { shareAllowDownload: false },
      { shareExpiresAt: '2099-07-01T08:30:00.000Z' },
      { shareExpiresAt: null },
      { sharePassword: 'grandma-2030' },
      { sharePassword: null },
    ]);
  });

  it('asks again for a past expiry or an empty password, without calling the API', async () => {
    const id = uuid();
    const past = await post(id, { intent: 'share-expiry', expiresAt: '2001-01-01T00:00', tzOffset: '0' });
    expect(past.status).toBe(400);
    expect(await past.json()).toEqual({ error: 'Pick a time in the future.' });
    const empty = await post(id, { intent: 'share-password', password: '' });
    expect(empty.status).toBe(400);
    expect(gw.requests).toHaveLength(0);
  });
});

describe('helpers', () => {
  it('reads a token’s life from its expiry, capped at 12 hours', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(tokenLifetime(`${now / 1000 + 600}.sig`, now)).toBe(600);
    expect(tokenLifetime(`${now / 1000 + 99 * 3600}.sig`, now)).toBe(12 * 3600);
    expect(tokenLifetime(`${now / 1000 - 5}.sig`, now)).toBe(0);
    expect(tokenLifetime('opaque', now)).toBe(3600);
  });

  it('reads an expiry in the browser’s zone, or never, or nothing valid', () => {
    const f = (fields: Record<string, string>) =>
      shareExpiryFrom(new URLSearchParams(fields) as unknown as FormData, 0);
    expect(f({ expiresAt: '2030-07-01T00:00', tzOffset: '60' })).toEqual({ value: '2030-07-01T01:00:00.000Z' });
    expect(f({ never: 'true' })).toEqual({ value: null });
    expect(f({ expiresAt: 'tomorrow' })).toEqual({ error: 'Pick a date and time, or “Never”.' });
  });

  it('pages a shared album through its own route (where its cookie is sent), other views through /api/items', () => {
    const id = uuid();
    expect(pageUrl(`view=shared&album=${id}`, 3)).toBe(`/share/${id}/items?page=3`);
    expect(pageUrl(`view=album&album=${id}`, 2)).toBe(`/api/items?view=album&album=${id}&page=2`);
  });
});

describe('selection ZIP downloads', () => {
  const post = async (fields: [string, string][], query = '') =>
    settle(
      selectionDownload.action(
        args(await requestWith(ctx, `http://web/api/download${query}`, session(), form(fields))),
      ),
    );

  it('sends the form’s ids (and album) to the API as JSON and streams its ZIP through', async () => {
    const [a, b, album] = [uuid(), uuid(), uuid()];
    const zip = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(32 * 1024, 9)]);
    gw.on('POST /v1/mediaItems/download', {
      status: 200,
      body: zip,
      headers: { 'Content-Type': 'application/zip', 'Content-Disposition': 'attachment; filename="trove-2-items.zip"' },
    });
    const res = await post([
      ['id', a],
      ['id', b],
      ['albumId', album],
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Disposition')).toBe('attachment; filename="trove-2-items.zip"');
    expect(Buffer.from(await res.arrayBuffer()).equals(zip)).toBe(true);
    expect(JSON.parse(gw.requests[0].body.toString())).toEqual({ mediaItems: [a, b], albumId: album });
    expect(gw.requests[0].headers.authorization).toBe(`Bearer ${session().accessToken}`);
  });

  it('?check answers 204 without the archive, or the API’s refusal', async () => {
    gw.on('POST /v1/mediaItems/download', {
      status: 200,
      body: Buffer.alloc(1024),
      headers: { 'Content-Type': 'application/zip' },
    });
    const checked = await post([['id', uuid()]], '?check');
    expect(checked.status).toBe(204);
    expect(await checked.text()).toBe('');
    gw.on('POST /v1/mediaItems/download', { status: 404, body: { message: 'mediaitem not found' } });
    const refused = await post([['id', uuid()]], '?check');
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ message: 'Not found' });
  });

  it('refuses a form without ids, with too many or with a bad one before asking the API', async () => {
    const many = Array.from({ length: 1001 }, () => ['id', uuid()] as [string, string]);
    for (const fields of [
      [],
      many,
      [['id', 'nope']],
      [
        ['id', uuid()],
        ['albumId', 'x'],
      ],
    ] as [string, string][][])
      expect((await post(fields)).status).toBe(400);
    expect(gw.requests).toHaveLength(0);
  });
});
