/**
 * The first run's pages against a fake gateway: the login page's offer, and /setup making the
 * first account as the administrator (basic auth) and then logging it in.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { form, sessionFrom, settle, startFakeGateway, testContext } from './fake-gateway';
import type { FakeGateway } from './fake-gateway';
import type { WebContext } from '../app/lib/context.server';
import * as login from '../app/routes/login';
import * as setup from '../app/routes/setup';

let gw: FakeGateway;
let ctx: WebContext;

beforeEach(async () => {
  gw = await startFakeGateway();
  ctx = testContext(gw.url);
});
afterEach(() => gw.close());

const args = (request: Request) =>
  ({ request, context: ctx, params: {} }) as unknown as LoaderFunctionArgs & ActionFunctionArgs;
const FIELDS = {
  adminUsername: 'admin',
  adminPassword: 'the-admin-password',
  name: 'Alice',
  username: 'alice',
  password: 'a long enough password',
};
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('the first run', () => {
  it('the login page knows whether an account exists (GET /v1/setup); unknown answers the plain page', async () => {
    gw.on('GET /v1/setup', () => ({ status: 200, body: { needsSetup: true } }));
    expect(await (await settle(login.loader(args(new Request('http://web/login'))))).json()).toEqual({
      needsSetup: true,
    });
    gw.on('GET /v1/setup', () => ({ status: 200, body: { needsSetup: false } }));
    expect(await (await settle(login.loader(args(new Request('http://web/login'))))).json()).toEqual({
      needsSetup: false,
    });
    gw.on('GET /v1/setup', () => ({ status: 503, body: { message: 'auth is unavailable' } }));
    expect(await (await settle(login.loader(args(new Request('http://web/login'))))).json()).toEqual({
      needsSetup: false,
    });
  });

  it('/setup sends to the login page once an account exists', async () => {
    gw.on('GET /v1/setup', () => ({ status: 200, body: { needsSetup: false } }));
    const res = await settle(setup.loader(args(new Request('http://web/setup'))));
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/login');
  });

  it('creates the account as the administrator, then logs it in', async () => {
    gw.on('GET /v1/setup', () => ({ status: 200, body: { needsSetup: true } }));
    gw.on('POST /v1/users', () => ({
      status: 201,
      body: {
        id: '00000000-0000-4000-8000-000000000001',
        name: 'Alice',
        username: 'alice',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    }));
    gw.on('POST /v1/auth/login', () => ({
      status: 200,
      body: { accessToken: 'acc', refreshToken: 'ref', expiresIn: 900 },
    }));
    const res = await settle(setup.action(args(new Request('http://web/setup', form(FIELDS)))));
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/');
    expect(await sessionFrom(ctx, res)).toMatchObject({ accessToken: 'acc', username: 'alice' });
    const created = gw.requests.find((r) => r.method === 'POST' && r.path === '/v1/users')!;
    expect(created.headers.authorization).toBe(basic('admin', 'the-admin-password'));
    expect(JSON.parse(created.body.toString())).toEqual({
      name: 'Alice',
      username: 'alice',
      password: 'a long enough password',
    });
    expect(JSON.parse(gw.requests.find((r) => r.path === '/v1/auth/login')!.body.toString())).toMatchObject({
      username: 'alice',
      password: 'a long enough password',
    });
  });

  it('a wrong admin password is the form’s error (401), and no login is tried', async () => {
    gw.on('GET /v1/setup', () => ({ status: 200, body: { needsSetup: true } }));
    gw.on('POST /v1/users', () => ({ status: 401, body: { message: 'Unauthorized' } }));
    const res = await settle(setup.action(args(new Request('http://web/setup', form(FIELDS)))));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: expect.stringMatching(/^Wrong administrator user name or password/),
      field: 'admin',
      name: 'Alice',
      username: 'alice',
    });
    expect(res.headers.get('Set-Cookie')).toBeNull();
    expect(gw.requests.some((r) => r.path === '/v1/auth/login')).toBe(false);
  });

  it('refuses without calling the users API once an account exists, or with fields missing', async () => {
    gw.on('GET /v1/setup', () => ({ status: 200, body: { needsSetup: false } }));
    const done = await settle(setup.action(args(new Request('http://web/setup', form(FIELDS)))));
    expect(done.status).toBe(409);
    expect(await done.json()).toMatchObject({ error: expect.stringMatching(/already set up/) });
    gw.on('GET /v1/setup', () => ({ status: 200, body: { needsSetup: true } }));
    const noAdmin = await settle(
      setup.action(args(new Request('http://web/setup', form({ ...FIELDS, adminPassword: '' })))),
    );
    expect(noAdmin.status).toBe(400);
    expect(await noAdmin.json()).toMatchObject({ error: 'Enter the administrator password.', field: 'admin' });
    const shortPassword = await settle(
      setup.action(args(new Request('http://web/setup', form({ ...FIELDS, password: 'short' })))),
    );
    expect(shortPassword.status).toBe(400);
    expect(gw.requests.some((r) => r.path === '/v1/users')).toBe(false);
  });
});
