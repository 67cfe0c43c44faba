/**
 * API keys (issue 31): made with a bearer token, shown once, listed without the secret, usable as
 * `X-Api-Key` wherever a bearer token is (as their user, never on the administrator's calls),
 * refused at once when revoked or when their user is deleted, never visible to another user, and
 * failed keys rate-limited per client address. And `POST /v1/mediaItems/exist`, what an uploader
 * asks before sending bytes: only the caller's items, trashed ones included, bad digests 400.
 */
import { createHash, randomBytes } from 'node:crypto';
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { adminApi, answer, createApi, newUser, offContract, ok, upload } from '../support/api';
import type { Api, TestUser } from '../support/api';

const FAILURE_LIMIT = 3;

const jpeg = (size = 2000) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size - 4)]);
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('API keys and the exist check (security e2e)', () => {
  let stack: Stack;
  let alice: TestUser;
  let bob: TestUser;
  const keyApi = (key: string): Api => createApi(stack.gatewayUrl, { apiKey: key });
  const makeKey = (user: TestUser, name: string) => ok(user.api.POST('/v1/apiKeys', { body: { name } }), 201);

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'media', 'gateway'],
      serviceEnv: { gateway: { TROVE_API_KEY_FAILURE_LIMIT: String(FAILURE_LIMIT) } },
    });
    [alice, bob] = await Promise.all([newUser(stack), newUser(stack)]);
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('makes a key shown once, lists it without the secret, and lets it act as its user', async () => {
    const created = await makeKey(alice, 'laptop');
    expect(created).toEqual({
      id: expect.any(String),
      name: 'laptop',
      key: expect.stringMatching(/^trove_[A-Za-z0-9_-]{43}$/),
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    const viaKey = keyApi(created.key);
    expect((await ok(viaKey.GET('/v1/account'), 200)).id).toBe(alice.id);
    // The key's own calls too, and an upload (the CLI's path).
    const data = jpeg();
    const { id } = await ok(upload(viaKey, data, 'by-key.jpg'), 201);
    expect((await ok(alice.api.GET('/v1/mediaItems/{id}', { params: { path: { id } } }), 200)).filename).toBe(
      'by-key.jpg',
    );

    const listed = await answer(viaKey.GET('/v1/apiKeys'));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: created.id, name: 'laptop', createdAt: created.createdAt, lastUsedAt: expect.any(String) },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.key);
    // The secret is in no log line of any service.
    for (const name of ['auth', 'media', 'gateway'] as const)
      expect(stack.processes[name].output()).not.toContain(created.key);
  });

  it('never opens the administrator calls, and another user neither sees nor revokes a key', async () => {
    const created = await makeKey(alice, 'script');
    expect((await answer(keyApi(created.key).GET('/v1/users'))).status).toBe(401);
    expect(await ok(bob.api.GET('/v1/apiKeys'), 200)).toEqual([]);
    const bobDeletes = await answer(bob.api.DELETE('/v1/apiKeys/{id}', { params: { path: { id: created.id } } }));
    expect(bobDeletes).toMatchObject({ status: 404, body: { message: expect.any(String) } });
    expect((await ok(keyApi(created.key).GET('/v1/account'), 200)).id).toBe(alice.id);
    // A key's user is its owner, whatever it asks: bob's items stay bob's.
    const { id: bobsItem } = await ok(upload(bob.api, jpeg(), 'bob.jpg'), 201);
    const peek = await answer(keyApi(created.key).GET('/v1/mediaItems/{id}', { params: { path: { id: bobsItem } } }));
    expect(peek.status).toBe(404);
  });

  it('refuses a revoked key at once, though the gateway has just used it', async () => {
    const created = await makeKey(alice, 'to-revoke');
    const viaKey = keyApi(created.key);
    expect((await answer(viaKey.GET('/v1/features'))).status).toBe(200);
    expect((await answer(alice.api.DELETE('/v1/apiKeys/{id}', { params: { path: { id: created.id } } }))).status).toBe(
      204,
    );
    const after = await answer(viaKey.GET('/v1/features'));
    expect(after).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    expect((await ok(alice.api.GET('/v1/apiKeys'), 200)).map((k) => k.id)).not.toContain(created.id);
    expect((await answer(alice.api.DELETE('/v1/apiKeys/{id}', { params: { path: { id: created.id } } }))).status).toBe(
      404,
    );
  });

  it("refuses a deleted user's keys at once", async () => {
    const carol = await newUser(stack);
    const { key } = await makeKey(carol, 'carol');
    expect((await answer(keyApi(key).GET('/v1/account'))).status).toBe(200);
    await ok(adminApi(stack).DELETE('/v1/users/{id}', { params: { path: { id: carol.id } } }), 204);
    expect((await answer(keyApi(key).GET('/v1/account'))).status).toBe(401);
  });

  it('validates the key request', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(101) }, { name: 42 }])
      expect((await answer(alice.api.POST('/v1/apiKeys', { body: offContract(body) }))).status).toBe(400);
    expect((await answer(createApi(stack.gatewayUrl).POST('/v1/apiKeys', { body: { name: 'x' } }))).status).toBe(401);
  });

  it('rate-limits failed keys per client address, not good keys nor other addresses', async () => {
    const { key } = await makeKey(bob, 'good');
    const from = (address: string, k: string) =>
      answer(keyApi(k).GET('/v1/features', { headers: { 'X-Forwarded-For': address } }));
    const guess = () => `trove_${randomBytes(32).toString('base64url')}`;
    for (let i = 0; i < FAILURE_LIMIT; i++) expect((await from('203.0.113.77', guess())).status).toBe(401);
    const refused = await from('203.0.113.77', guess());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Refused before the key is looked at, right or wrong.
    expect((await from('203.0.113.77', key)).status).toBe(429);
    expect((await from('203.0.113.78', key)).status).toBe(200);
    // Junk of any shape is a failure like any other, never a crash.
    expect((await from('203.0.113.79', 'not-a-key')).status).toBe(401);
  });

  it('answers which digests the caller has: only their own, trashed ones too, bad input 400', async () => {
    const data = jpeg();
    const { id } = await ok(upload(alice.api, data, 'known.jpg'), 201);
    const unknown = sha256(randomBytes(32));
    const exist = (user: TestUser, body: unknown) =>
      answer(user.api.POST('/v1/mediaItems/exist', { body: offContract(body) }));
    expect(await exist(alice, { sha256: [sha256(data), unknown, sha256(data)] })).toMatchObject({
      status: 200,
      body: { existing: [{ sha256: sha256(data), id }] },
    });
    expect(await exist(bob, { sha256: [sha256(data)] })).toMatchObject({ status: 200, body: { existing: [] } });

    await ok(alice.api.DELETE('/v1/mediaItems/{id}', { params: { path: { id } } }), 204);
    expect((await exist(alice, { sha256: [sha256(data)] })).body).toEqual({ existing: [{ sha256: sha256(data), id }] });

    const many = Array.from({ length: 1000 }, () => sha256(randomBytes(8)));
    expect(await exist(alice, { sha256: [...many.slice(0, 999), sha256(data)] })).toMatchObject({
      status: 200,
      body: { existing: [{ id }] },
    });
    for (const bad of [
      {},
      { sha256: [] },
      { sha256: [...many, unknown] },
      { sha256: [sha256(data).toUpperCase()] },
      { sha256: ['abc'] },
      { sha256: sha256(data) },
      { sha256: [42] },
    ]) {
      const res = await exist(alice, bad);
      expect({ bad, status: res.status, message: typeof (res.body as { message?: unknown }).message }).toEqual({
        bad,
        status: 400,
        message: 'string',
      });
    }
  });
});
