/**
 * The gateway as the API's front door, end to end: a real nats-server and the compiled gateway
 * process (no other service is needed for what is checked here), answers validated against
 * openapi.yaml by the gateway itself (TROVE_VALIDATE_RESPONSES). Walks every call declared in the
 * contract, so a call added to openapi.yaml is covered by the authentication checks at once.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { listOperations, loadOpenApi } from '@trove/openapi';
import type { OpenApiOperation } from '@trove/openapi';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { adminApi, answer, authorization, createApi, newUser, offContract } from '../support/api';
import type { Api, Credentials } from '../support/api';
import { send } from '../support/raw';
import type { RawRequest } from '../support/raw';
import { signAccessToken } from './tokens';

const UNAUTHORIZED = { message: 'Unauthorized' };

/** What this test reads of an operation in openapi.yaml. */
interface OperationObject {
  requestBody?: { $ref?: string; content?: Record<string, unknown> };
  responses?: Record<string, unknown>;
}

/** A concrete URL for a path template: a valid value for every parameter, or `id` as given. */
function concrete(op: OpenApiOperation, id: string = randomUUID()): string {
  return op.path.replace('{id}', id).replace('{monthDate}', '0624');
}

describe('gateway (e2e)', () => {
  let stack: Stack;
  /** Anonymous, as a bearer token holder, as the administrator. */
  let api: Api;
  let user: Api;
  let admin: Api;
  let token: string;
  /** A request chosen at run time (walking openapi.yaml) or outside the contract. */
  const call = (method: string, path: string, req: RawRequest & { as?: Credentials } = {}) =>
    send(stack.gatewayUrl + path, {
      ...req,
      method,
      headers: { ...(req.as ? authorization(req.as) : {}), ...req.headers },
    });

  beforeAll(async () => {
    stack = await startStack({
      services: ['gateway'],
      env: {
        TROVE_JSON_BODY_LIMIT: '2kb',
        TROVE_FEATURE_HIDDEN: 'false',
        TROVE_CORS_ORIGINS: 'https://photos.example',
      },
    });
    api = createApi(stack.gatewayUrl);
    // Signed with the stack's secret: a valid access token without the auth service.
    token = signAccessToken(stack.jwtSecret, { sub: randomUUID(), sid: randomUUID() });
    user = createApi(stack.gatewayUrl, { bearer: token });
    admin = adminApi(stack);
  });
  afterAll(async () => {
    // NATS was stopped by the last test: a drain could not finish, so no graceful stop.
    await stack?.processes.gateway?.kill();
    await stack?.stop();
  });

  describe('calls without login', () => {
    it('GET /version answers the API version and the git SHA', async () => {
      const res = await answer(api.GET('/version'));
      expect(res.status).toBe(200);
      // The gateway package's version, and the commit `make build` recorded.
      const gatewayPackage = JSON.parse(readFileSync(require.resolve('@trove/gateway/package.json'), 'utf8')) as {
        version: string;
      };
      expect(res.body).toEqual({
        version: gatewayPackage.version,
        gitSha: expect.stringMatching(/^([0-9a-f]{7,40}|unknown)$/),
      });
    });

    it('GET /disk answers the blob store usage', async () => {
      const res = await answer(api.GET('/disk'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ total: expect.any(Number), free: expect.any(Number), used: expect.any(Number) });
    });

    it('liveness and readiness answer ok while NATS is connected', async () => {
      expect(await answer(api.GET('/health/live'))).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await answer(api.GET('/health/ready'))).toMatchObject({ status: 200, body: { status: 'ok' } });
    });
  });

  describe('every answer', () => {
    it('carries a request id, the caller’s own when it is sane', async () => {
      for (const path of ['/version', '/v1/features', '/nope']) {
        const res = await call('get', path);
        expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
      const mine = await answer(api.GET('/version', { headers: { 'X-Request-Id': 'client-abc.123' } }));
      expect(mine.headers.get('x-request-id')).toBe('client-abc.123');
      const insane = await answer(api.GET('/version', { headers: { 'X-Request-Id': 'a b<script>' } }));
      expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('in JSON says UTF-8, has the length and an ETag, and a matching If-None-Match gets a bodiless 304', async () => {
      const res = await call('get', '/version');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(res.headers.get('content-length'))).toBe(res.bytes.length);
      expect(res.body).toEqual(JSON.parse(res.bytes.toString('utf8')));
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^W\/"[0-9a-f]+-/);
      // node:http: fetch adds Cache-Control: no-cache to a request that names an ETag itself.
      const again = await new Promise<{ status?: number; length: number }>((resolve, reject) =>
        get(`${stack.gatewayUrl}/version`, { headers: { 'If-None-Match': etag! } }, (r) => {
          let length = 0;
          r.on('data', (chunk: Buffer) => (length += chunk.length));
          r.on('end', () => resolve({ status: r.statusCode, length }));
        }).on('error', reject),
      );
      expect(again).toEqual({ status: 304, length: 0 });
      // The error answers too (the error handler's res.json).
      const missing = await call('get', '/nope');
      expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(missing.body).toEqual({ message: expect.any(String) });
    });

    it('carries the security headers (helmet) and no X-Powered-By', async () => {
      const res = await answer(api.GET('/version'));
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('strict-transport-security')).toContain('max-age=');
      expect(res.headers.get('x-powered-by')).toBeNull();
    });

    it('allows cross-origin calls only from the configured origins', async () => {
      const preflight = {
        Origin: 'https://photos.example',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      };
      const ok = await call('options', '/v1/features', { headers: preflight });
      expect(ok.status).toBe(204);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://photos.example');
      const other = await answer(api.GET('/version', { headers: { Origin: 'https://evil.example' } }));
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('authentication, walking every call of openapi.yaml', () => {
    const operations = listOperations();
    const bearer = operations.filter((o) => o.security === 'bearer' || o.security === 'bearerOrSigned');
    const basic = operations.filter((o) => o.security === 'basic');

    it('the contract has bearer and basic calls to walk', () => {
      expect(bearer.length).toBeGreaterThan(40);
      expect(basic.length).toBe(5);
    });

    it('every bearer call answers 401 Unauthorized without a token, with an expired one, a forged one or a malformed header', async () => {
      const expired = signAccessToken(
        stack.jwtSecret,
        { sub: randomUUID(), sid: randomUUID() },
        { expiresInSeconds: -10 },
      );
      const forged = signAccessToken('another-key-another-key-another-key-!!', {
        sub: randomUUID(),
        sid: randomUUID(),
      });
      const adminCredentials = { basic: { username: stack.adminUsername, password: stack.adminPassword } };
      const failures: string[] = [];
      for (const op of bearer) {
        const url = concrete(op);
        const attempts: Array<[string, Parameters<typeof call>[2]]> = [
          ['no token', {}],
          ['expired token', { as: { bearer: expired } }],
          ['token signed by another key', { as: { bearer: forged } }],
          ['malformed header', { headers: { Authorization: 'Bearer' } }],
          ['admin basic auth', { as: adminCredentials }],
        ];
        for (const [what, opts] of attempts) {
          const res = await call(op.method, url, opts);
          if (res.status !== 401 || JSON.stringify(res.body) !== JSON.stringify(UNAUTHORIZED))
            failures.push(
              `${op.method.toUpperCase()} ${op.path} with ${what}: ${res.status} ${JSON.stringify(res.body)}`,
            );
        }
      }
      expect(failures).toEqual([]);
    });

    it('a signed-URL call is not opened by exp and sig alone (no signature can be verified yet)', async () => {
      for (const op of operations.filter((o) => o.security === 'bearerOrSigned')) {
        const res = await call(op.method, `${concrete(op)}?exp=9999999999&sig=abc`);
        expect(res).toMatchObject({ status: 401, body: UNAUTHORIZED });
      }
    });

    it('every admin call answers 401 Unauthorized without basic auth, with a wrong password or with a bearer token', async () => {
      const failures: string[] = [];
      for (const op of basic) {
        for (const as of [
          undefined,
          { basic: { username: stack.adminUsername, password: `${stack.adminPassword}x` } },
          { basic: { username: 'root', password: stack.adminPassword } },
          { bearer: token },
        ]) {
          const res = await call(op.method, concrete(op), {
            as,
            json: op.method === 'post' || op.method === 'put' ? {} : undefined,
          });
          if (res.status !== 401 || JSON.stringify(res.body) !== JSON.stringify(UNAUTHORIZED))
            failures.push(`${op.method.toUpperCase()} ${op.path}: ${res.status}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it('401 answers say how to authenticate', async () => {
      expect((await answer(api.GET('/v1/features'))).headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await answer(api.GET('/v1/users'))).headers.get('www-authenticate')).toMatch(/^Basic/);
    });

    it('no spelling of a path slips past authentication', async () => {
      for (const path of ['/V1/FEATURES', '/v1/features/', '/v1/Users', '/v1/users/']) {
        expect(await call('get', path)).toMatchObject({ status: 401, body: UNAUTHORIZED });
      }
    });
  });

  describe('request validation against openapi.yaml', () => {
    it('a non-uuid path id answers 400 naming the parameter, on every call that takes one', async () => {
      const adminCredentials = { basic: { username: stack.adminUsername, password: stack.adminPassword } };
      const failures: string[] = [];
      for (const op of listOperations().filter((o) => o.path.includes('{id}'))) {
        const as = op.security === 'basic' ? adminCredentials : op.security === 'none' ? undefined : { bearer: token };
        // A JSON body where one may be expected, so the answer is about the id, not a missing body.
        const json = ['post', 'put', 'delete'].includes(op.method) ? {} : undefined;
        const res = await call(op.method, concrete(op, 'not-a-uuid'), { as, json });
        if (res.status !== 400 || !/id must match format "uuid"/.test((res.body as { message: string }).message))
          failures.push(`${op.method.toUpperCase()} ${op.path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      expect(failures).toEqual([]);
    });

    it('a bad query answers 400 saying what is wrong', async () => {
      expect(await answer(admin.GET('/v1/users', { params: { query: { limit: 500 } } }))).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/limit must be <= 100/) },
      });
      expect(await answer(admin.GET('/v1/users', { params: { query: { page: 0 } } }))).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/page must be >= 1/) },
      });
      expect(await answer(admin.GET('/v1/users', { params: { query: offContract({ color: 'red' }) } }))).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/Unknown query parameter 'color'/) },
      });
      expect(await answer(user.GET('/v1/search', { params: { query: offContract({}) } }))).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/q/) },
      });
    });

    it('a bad body answers 400 naming the field', async () => {
      const res = await answer(
        admin.POST('/v1/users', { body: { name: 'Alice', username: 'a b', password: 'long-enough-password-1' } }),
      );
      expect(res).toMatchObject({
        status: 400,
        body: { message: expect.stringMatching(/request\/body\/username must match pattern/) },
      });
      const missing = await answer(api.POST('/v1/auth/login', { body: offContract({ username: 'alice' }) }));
      expect(missing).toMatchObject({ status: 400, body: { message: expect.stringMatching(/password/) } });
    });

    it('malformed JSON answers 400, a body over the limit 413, a wrong content type 415: all JSON', async () => {
      expect(await call('post', '/v1/auth/login', { raw: '{"username": "alice", ' })).toMatchObject({
        status: 400,
        body: { message: 'request body is not valid JSON' },
      });
      const big = JSON.stringify({ username: 'alice', password: 'x'.repeat(4000) });
      expect(await call('post', '/v1/auth/login', { raw: big })).toMatchObject({
        status: 413,
        body: { message: 'request body too large' },
      });
      expect(
        await call('post', '/v1/auth/login', {
          raw: 'username=alice',
          contentType: 'application/x-www-form-urlencoded',
        }),
      ).toMatchObject({
        status: 415,
        body: { message: expect.stringMatching(/unsupported media type/) },
      });
    });

    it('every call taking a JSON body answers 415 to another type and 413 to one over the limit, as openapi.yaml declares', async () => {
      const paths = loadOpenApi().paths as Record<string, Record<string, OperationObject>>;
      const adminCredentials = { basic: { username: stack.adminUsername, password: stack.adminPassword } };
      const jsonBodied = listOperations().filter((op) => {
        const body = paths[op.path]?.[op.method]?.requestBody;
        return body && (body.$ref === '#/components/requestBodies/MediaItems' || body.content?.['application/json']);
      });
      expect(jsonBodied.length).toBeGreaterThan(20);
      const failures: string[] = [];
      for (const op of jsonBodied) {
        const as = op.security === 'basic' ? adminCredentials : op.security === 'none' ? undefined : { bearer: token };
        const name = `${op.method.toUpperCase()} ${op.path}`;
        const declared = Object.keys(paths[op.path]![op.method]!.responses ?? {});
        const wrongType = await call(op.method, concrete(op), { as, raw: '{}', contentType: 'text/plain' });
        if (wrongType.status !== 415 || !declared.includes('415'))
          failures.push(`${name} text/plain: ${wrongType.status}, declared ${declared.join(' ')}`);
        const tooBig = await call(op.method, concrete(op), { as, json: { padding: 'x'.repeat(4000) } });
        if (tooBig.status !== 413 || !declared.includes('413'))
          failures.push(`${name} 4 kB: ${tooBig.status}, declared ${declared.join(' ')}`);
      }
      expect(failures).toEqual([]);
    });

    it('unknown paths answer 404 and undeclared methods 405, in JSON', async () => {
      expect(await call('get', '/v1/nope')).toMatchObject({ status: 404, body: { message: 'not found' } });
      expect(await call('get', '/')).toMatchObject({ status: 404, body: { message: 'not found' } });
      const res = await call('patch', '/version');
      expect(res).toMatchObject({ status: 405, body: { message: expect.stringMatching(/not allowed/) } });
      expect(res.headers.get('allow')).toContain('GET');
    });
  });

  it('GET /v1/features answers the configured features to a logged-in user', async () => {
    // A user's own features live in the auth service: this call needs it, and a real user.
    await stack.startService('auth');
    const someone = await newUser(stack);
    expect(await answer(someone.api.GET('/v1/features'))).toMatchObject({
      status: 200,
      body: { favourites: true, hidden: false },
    });
  });

  // Last: it stops NATS.
  it('readiness turns false while NATS is disconnected; liveness stays ok', async () => {
    await stack.nats.stop();
    await waitFor(async () => (await api.GET('/health/ready')).response.status === 503, {
      timeoutMs: 10_000,
      what: 'readiness to turn 503',
    });
    const res = await answer(api.GET('/health/ready'));
    expect(res.body).toEqual({ status: 'unavailable', message: expect.any(String) });
    expect(await answer(api.GET('/health/live'))).toMatchObject({ status: 200, body: { status: 'ok' } });
  });
});
