/**
 * Security L7, the per-user storage quota, end to end: a real nats-server and the compiled auth, media
 * and gateway processes. A user with a small quota uploads until 507 and nothing of the refused
 * uploads is kept (no item, no blob, no temporary file); concurrent uploads cannot pass the quota
 * together; trash still counts, and once the trash is purged (a short retention here) the room is
 * back; other users are not affected; the user cannot change their own quota, the administrator
 * can; TROVE_DEFAULT_QUOTA_BYTES applies to new users that name none.
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { adminApi, answer, newUser, ok, upload } from '../support/api';
import type { TestUser } from '../support/api';
import { blobKeysOf, streamUpload } from '../media/support';
import { Readable } from 'node:stream';

const DEFAULT_QUOTA = 5_000_000;
const QUOTA = 100_000;
const FILE = 30_000;
const QUOTA_EXCEEDED = { message: 'storage quota exceeded' };

/** A JPEG as far as the gateway can tell (its magic bytes), different every time, of exactly `size` bytes. */
function jpeg(size: number): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(size - 4)]);
}

const account = (user: TestUser) => ok(user.api.GET('/v1/account'), 200);
const itemsOf = async (user: TestUser) => [
  ...(await ok(user.api.GET('/v1/mediaItems', { params: { query: { limit: 100 } } }), 200)),
  ...(await ok(user.api.GET('/v1/trash', { params: { query: { limit: 100 } } }), 200)),
];
/** Originals stored for the user: one per item, never one of a refused upload. */
const originalsOf = async (stack: Stack, user: TestUser) =>
  (await blobKeysOf(stack.dataDir, user.id)).filter((k) => k.endsWith('/original'));
/** Half-written blobs of the filesystem store (an upload in flight or cut off and not cleaned up). */
const tempBlobs = async (stack: Stack) => readdir(join(stack.dataDir, 'blobs', '.tmp')).catch(() => []);

describe('per-user storage quota (security e2e)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      services: ['auth', 'media', 'gateway'],
      serviceEnv: {
        auth: { TROVE_DEFAULT_QUOTA_BYTES: String(DEFAULT_QUOTA) },
        // Trash is purged two seconds after it was trashed, looked for every second.
        media: { TROVE_TRASH_RETENTION_SECONDS: '2', TROVE_TRASH_SWEEP_INTERVAL_SECONDS: '1' },
      },
    });
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('uploads until 507; nothing of a refused upload is kept; purged trash frees the room; others are not affected', async () => {
    const alice = await newUser(stack, { quotaBytes: QUOTA });
    const bob = await newUser(stack, { quotaBytes: QUOTA });
    expect(await account(alice)).toMatchObject({
      id: alice.id,
      username: alice.username,
      quotaBytes: QUOTA,
      usageBytes: 0,
    });

    const kept: string[] = [];
    for (let i = 0; i < 3; i++) kept.push((await ok(upload(alice.api, jpeg(FILE), `photo-${i}.jpg`), 201)).id);
    expect((await account(alice)).usageBytes).toBe(3 * FILE);

    // 10 000 bytes of room: a file one byte larger is cut while it streams, one that fills it exactly fits.
    expect(await answer(upload(alice.api, jpeg(10_001), 'one-byte-too-many.jpg'))).toMatchObject({
      status: 507,
      body: QUOTA_EXCEEDED,
    });
    kept.push((await ok(upload(alice.api, jpeg(10_000), 'exactly.jpg'), 201)).id);
    expect((await account(alice)).usageBytes).toBe(QUOTA);
    // Full: refused at once, also a file of a few bytes, and a large one declared up front.
    expect(await answer(upload(alice.api, jpeg(100), 'tiny.jpg'))).toMatchObject({ status: 507, body: QUOTA_EXCEEDED });
    const big = await streamUpload(stack.gatewayUrl, alice.token, Readable.from([jpeg(3 * 1024 * 1024)]), 'big.jpg', {
      contentLength: 3 * 1024 * 1024,
    });
    expect(big).toEqual({ status: 507, body: QUOTA_EXCEEDED });

    // Nothing half-stored: exactly the accepted items, their originals, no temporary file, the usage unchanged.
    expect((await itemsOf(alice)).map((i) => i.id).sort()).toEqual([...kept].sort());
    expect((await originalsOf(stack, alice)).length).toBe(kept.length);
    await waitFor(async () => (await tempBlobs(stack)).length === 0, {
      timeoutMs: 10_000,
      what: 'no temporary blob left',
    });
    expect((await account(alice)).usageBytes).toBe(QUOTA);

    // Another user with the same quota is not affected.
    await ok(upload(bob.api, jpeg(FILE), 'bob.jpg'), 201);
    expect((await account(bob)).usageBytes).toBe(FILE);

    // Trash still holds its storage: still full.
    await ok(alice.api.DELETE('/v1/mediaItems/{id}', { params: { path: { id: kept[0]! } } }), 204);
    expect((await account(alice)).usageBytes).toBe(QUOTA);
    expect((await answer(upload(alice.api, jpeg(FILE), 'while-in-trash.jpg'))).status).toBe(507);
    // Purged (the retention ran out): its bytes are free again, and an upload of that size fits.
    await waitFor(async () => (await account(alice)).usageBytes === QUOTA - FILE, {
      timeoutMs: 30_000,
      intervalMs: 200,
      what: 'the trashed item to be purged and uncounted',
    });
    expect((await answer(alice.api.GET('/v1/mediaItems/{id}', { params: { path: { id: kept[0]! } } }))).status).toBe(
      404,
    );
    await ok(upload(alice.api, jpeg(FILE), 'after-purge.jpg'), 201);
    expect((await account(alice)).usageBytes).toBe(QUOTA);
    expect((await originalsOf(stack, alice)).length).toBe(kept.length);
  }, 90_000);

  it('concurrent uploads cannot pass the quota together: the ones over it are refused and leave nothing', async () => {
    const carol = await newUser(stack, { quotaBytes: QUOTA });
    // Each sees room for itself when it starts: only the atomic count at registration can refuse the extras.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => answer(upload(carol.api, jpeg(FILE), `race-${i}.jpg`))),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 507, 507, 507]);
    for (const a of answers.filter((x) => x.status === 507)) expect(a.body).toEqual(QUOTA_EXCEEDED);
    expect((await account(carol)).usageBytes).toBe(3 * FILE);
    expect((await itemsOf(carol)).length).toBe(3);
    expect((await originalsOf(stack, carol)).length).toBe(3);
  }, 60_000);

  it('a user cannot change their own quota (the admin call refuses a bearer token, the account is read-only); the administrator can', async () => {
    const dave = await newUser(stack, { quotaBytes: 1000 });
    const own = await answer(
      dave.api.PUT('/v1/users/{id}', { params: { path: { id: dave.id } }, body: { quotaBytes: null } }),
    );
    expect(own).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    const raw = await fetch(`${stack.gatewayUrl}/v1/account`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${dave.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ quotaBytes: null }),
    });
    expect(raw.status).toBe(405);
    expect((await account(dave)).quotaBytes).toBe(1000);
    expect((await answer(upload(dave.api, jpeg(FILE), 'too-big.jpg'))).status).toBe(507);

    // The administrator raises it; uploads see it within a few seconds (the gateway keeps it briefly).
    await ok(
      adminApi(stack).PUT('/v1/users/{id}', { params: { path: { id: dave.id } }, body: { quotaBytes: 10 * FILE } }),
      204,
    );
    expect((await account(dave)).quotaBytes).toBe(10 * FILE);
    await waitFor(async () => (await answer(upload(dave.api, jpeg(FILE), 'now-it-fits.jpg'))).status === 201, {
      timeoutMs: 15_000,
      intervalMs: 500,
      what: 'the raised quota to reach uploads',
    });
    expect((await account(dave)).usageBytes).toBe(FILE);
    // A negative quota is refused by the contract.
    expect(
      (
        await answer(
          adminApi(stack).PUT('/v1/users/{id}', { params: { path: { id: dave.id } }, body: { quotaBytes: -1 } }),
        )
      ).status,
    ).toBe(400);
  }, 60_000);

  it('new users get TROVE_DEFAULT_QUOTA_BYTES unless the administrator names a quota (null: unlimited)', async () => {
    const admin = adminApi(stack);
    const byDefault = await newUser(stack);
    expect((await ok(admin.GET('/v1/users/{id}', { params: { path: { id: byDefault.id } } }), 200)).quotaBytes).toBe(
      DEFAULT_QUOTA,
    );
    const unlimited = await newUser(stack, { quotaBytes: null });
    expect(await account(unlimited)).toMatchObject({ quotaBytes: null, usageBytes: 0 });
    await ok(upload(unlimited.api, jpeg(FILE), 'free.jpg'), 201);
    expect((await account(unlimited)).usageBytes).toBe(FILE);
  }, 60_000);
});
