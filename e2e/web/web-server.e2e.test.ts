/**
 * The web server's own defences, end to end and without a browser: the built server.mjs in front of
 * a real gateway and auth service (nats-server and the compiled services, all started here). Like
 * a reverse proxy would, the tests name each browser's address with X-Forwarded-For from loopback,
 * which the test configuration (TROVE_TRUSTED_PROXIES=loopback) lists as a trusted proxy.
 */
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { PASSWORD, adminApi, ok, uniqueName } from '../support/api';
import { startWebServer } from './web-server';

let stack: Stack;
let origin: string;

beforeAll(async () => {
  stack = await startStack({ services: ['auth', 'gateway'] });
  ({ origin } = await startWebServer(stack));
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

let seq = 0;
/** A browser address no other test uses. */
const browserAddress = () => `203.0.113.${++seq}`;

/** A new user's name (made by the administrator through the API; it logs in here only through the web server). */
async function createUser(): Promise<string> {
  const username = uniqueName('user');
  await ok(adminApi(stack).POST('/v1/users', { body: { name: 'Web User', username, password: PASSWORD } }), 201);
  return username;
}

/** The login form posted from the browser at `from`, with the Origin its pages send unless told otherwise. */
async function logIn(
  username: string,
  password: string,
  from: string,
  headers: Record<string, string> = { Origin: origin },
): Promise<Response> {
  const res = await fetch(`${origin}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': from, ...headers },
    body: new URLSearchParams({ username, password, redirectTo: '/' }),
  });
  await res.body?.cancel();
  return res;
}

const loggedIn = (res: Response) =>
  res.status === 302 && (res.headers.get('set-cookie') ?? '').includes('trove_session=');

describe('the web server (e2e)', () => {
  describe('login limits count each browser, not the web server', () => {
    it('failed logins from a dozen browsers do not lock out another user', async () => {
      const owner = await createUser();
      for (let i = 0; i < 12; i++)
        expect((await logIn(`nobody${i}`, 'wrong-password', browserAddress())).status).toBe(401);
      expect(loggedIn(await logIn(owner, PASSWORD, browserAddress()))).toBe(true);
    });

    it('one browser is still limited on its own, and the others are not', async () => {
      const owner = await createUser();
      const attacker = browserAddress();
      for (let i = 0; i < 10; i++) expect((await logIn(`nobody${i}`, 'wrong-password', attacker)).status).toBe(401);
      expect((await logIn('nobody', 'wrong-password', attacker)).status).toBe(429);
      expect(loggedIn(await logIn(owner, PASSWORD, browserAddress()))).toBe(true);
    });
  });

  describe('state-changing requests must come from the app’s own pages', () => {
    it.each([
      ['without Origin', (): Record<string, string> => ({})],
      ['with Origin null', () => ({ Origin: 'null' })],
      ['from another site', () => ({ Origin: 'https://evil.example' })],
      [
        'from another port of the same host',
        () => ({ Origin: origin.replace(/:(\d+)$/, (_m, port: string) => `:${Number(port) + 1}`) }),
      ],
    ])('refuses a login form posted %s, with the right password', async (_what, headers) => {
      const owner = await createUser();
      const res = await logIn(owner, PASSWORD, browserAddress(), headers());
      expect(res.status).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
    });

    it.each(['/logout', '/theme', '/api/items', '/api/upload'])('refuses POST %s without Origin', async (path) => {
      const res = await fetch(`${origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'x=1',
      });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 403,
        body: { message: 'cross-site request refused' },
      });
    });

    it('takes the same form from the app’s own origin, and any GET without Origin', async () => {
      const owner = await createUser();
      expect(loggedIn(await logIn(owner, PASSWORD, browserAddress()))).toBe(true);
      const page = await fetch(`${origin}/login`);
      expect(page.status).toBe(200);
      await page.body?.cancel();
    });
  });
});
