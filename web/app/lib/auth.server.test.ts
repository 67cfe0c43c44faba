import { ok } from '~/api/client.server';
import { requestWith, session, sessionFrom, startFakeGateway, testContext } from '../../test/fake-gateway';
import type { FakeGateway } from '../../test/fake-gateway';
import type { WebContext } from './context.server';
import { REFRESH_MARGIN_MS, apiFailure, requireSession, returnPath, safeRedirect } from './auth.server';

let gw: FakeGateway;
let ctx: WebContext;

beforeEach(async () => {
  gw = await startFakeGateway();
  ctx = testContext(gw.url);
  gw.on('GET /v1/features', (r) =>
    r.headers.authorization === 'Bearer access-2' || r.headers.authorization === 'Bearer access-1'
      ? { status: 200, body: { favourites: true, hidden: true } }
      : { status: 401, body: { message: 'Unauthorized' } },
  );
});
afterEach(() => gw.close());

async function thrown(p: Promise<unknown>): Promise<Response> {
  try {
    await p;
  } catch (err) {
    if (err instanceof Response) return err;
    throw err;
  }
  throw new Error('expected a thrown Response');
}

describe('requireSession', () => {
  it('sends a visitor without a session to the login page, remembering where they were going', async () => {
    const res = await thrown(requireSession(new Request('http://web/albums?sort=name&_data=routes%2F_app'), ctx));
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/login?redirectTo=%2Falbums%3Fsort%3Dname');
    const root = await thrown(requireSession(new Request('http://web/'), ctx));
    expect(root.headers.get('Location')).toBe('/login');
  });

  it('answers 401 JSON to fetch callers instead of redirecting', async () => {
    const res = await thrown(requireSession(new Request('http://web/api/items?view=library'), ctx, 'api'));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: 'Unauthorized' });
  });

  it('calls the API with the access token and sets no cookie while the token is fresh', async () => {
    const s = await requireSession(await requestWith(ctx, 'http://web/', session()), ctx);
    expect(await ok(s.api.GET('/v1/features'))).toEqual({ favourites: true, hidden: true });
    expect(gw.requests[0].headers.authorization).toBe('Bearer access-1');
    expect((await s.headers()).get('Set-Cookie')).toBeNull();
    expect(s.username).toBe('alice');
  });

  it('refreshes a token about to expire, once for concurrent requests, and stores the new pair', async () => {
    let refreshes = 0;
    gw.on('POST /v1/auth/refresh', async (r) => {
      refreshes++;
      expect(JSON.parse(r.body.toString())).toEqual({ refreshToken: 'refresh-1' });
      await new Promise((res) => setTimeout(res, 50));
      return { status: 200, body: { accessToken: 'access-2', refreshToken: 'refresh-2', expiresIn: 900 } };
    });
    const expiring = session({ expiresAt: Date.now() + REFRESH_MARGIN_MS / 2 });
    // A page load runs several loaders at once with the same cookie.
    const sessions = await Promise.all(
      [1, 2, 3].map(async () => requireSession(await requestWith(ctx, 'http://web/', expiring), ctx)),
    );
    expect(refreshes).toBe(1);
    await ok(sessions[0].api.GET('/v1/features'));
    expect(gw.requests.at(-1)!.headers.authorization).toBe('Bearer access-2');
    const stored = await sessionFrom(ctx, new Response(null, { headers: await sessions[1].headers() }));
    expect(stored).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2', username: 'alice' });
    expect(stored!.expiresAt).toBeGreaterThan(Date.now() + 800_000);
  });

  it('refreshes and retries once when the API answers 401 to a token that looked valid', async () => {
    gw.on('POST /v1/auth/refresh', {
      status: 200,
      body: { accessToken: 'access-2', refreshToken: 'refresh-2', expiresIn: 900 },
    });
    const s = await requireSession(await requestWith(ctx, 'http://web/', session({ accessToken: 'revoked' })), ctx);
    expect(await ok(s.api.GET('/v1/features'))).toEqual({ favourites: true, hidden: true });
    expect(gw.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization ?? ''}`)).toEqual([
      'GET /v1/features Bearer revoked',
      'POST /v1/auth/refresh ',
      'GET /v1/features Bearer access-2',
    ]);
  });

  it('ends at the login page, clearing the cookie, when the session is over', async () => {
    gw.on('POST /v1/auth/refresh', { status: 401, body: { message: 'Unauthorized' } });
    const res = await thrown(
      requireSession(await requestWith(ctx, 'http://web/trash', session({ expiresAt: Date.now() - 1000 })), ctx),
    );
    expect(res.headers.get('Location')).toBe('/login?redirectTo=%2Ftrash');
    expect(res.headers.get('Set-Cookie')).toMatch(/trove_session=;/);
  });

  it('says when the API cannot be reached', async () => {
    const down = testContext('http://127.0.0.1:9');
    const err = await requireSession(await requestWith(down, 'http://web/', session({ expiresAt: 0 })), down).catch(
      (e: unknown) => e,
    );
    const res = apiFailure(err);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: 'The Trove server cannot be reached right now.' });
  });
});

describe('redirect safety', () => {
  it.each([
    '/',
    '/albums?x=1',
    '/albums/7d1e5a3c-0b1f-4d0e-9a35-2f3c1d2b4a5e',
    '/trash?sort=-createdAt&page=2',
    '/search?q=caf%C3%A9%20paris',
    '/x?next=//not-a-host-here',
    '/a#section',
  ])('keeps the local path %j', (to) => {
    expect(safeRedirect(to)).toBe(to);
  });

  it.each([
    ['a protocol-relative URL', '//evil.example'],
    ['three slashes', '///evil.example'],
    ['a backslash for a slash', '/\\evil.example'],
    ['backslashes only', '\\\\evil.example'],
    ['a tab browsers drop', '/\t/evil.example'],
    ['a newline browsers drop', '/\n/evil.example'],
    ['a carriage return', '/\r/evil.example'],
    ['a percent-encoded tab', '/%09/evil.example'],
    ['a percent-encoded slash', '/%2F/evil.example'],
    ['a percent-encoded backslash', '/%5Cevil.example'],
    ['a NUL', '/\u0000/evil.example'],
    ['DEL', '/\u007f/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['an absolute URL', 'https://evil.example'],
    ['an absolute URL without slashes', 'https:evil.example'],
    ['a leading space', ' /x'],
    ['a relative path', 'albums'],
    ['an empty string', ''],
    ['broken percent-encoding', '/%E0%A4%A'],
  ])('refuses %s (%j)', (_what, to) => {
    expect(safeRedirect(to)).toBe('/');
    expect(safeRedirect(to, '/albums')).toBe('/albums');
  });

  it.each([null, undefined, 42, ['/x'], { toString: () => '/x' }])(
    'refuses a value that is not a string (%p)',
    (to) => {
      expect(safeRedirect(to)).toBe('/');
    },
  );

  it('takes Remix’s own parameters out of the return path', () => {
    expect(returnPath(new Request('http://web/a?index&_data=x&b=2'))).toBe('/a?b=2');
  });
});
