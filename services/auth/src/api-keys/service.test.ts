/**
 * API keys over the real repositories (SQLite), with a recording fake of the revocation bucket.
 */
import { createHash } from 'node:crypto';
import { REVOCATIONS } from '@trove/proto-events';
import { AppError, createLogger } from '@trove/kit';
import { docStorePerTest } from '@trove/kit/testing';
import { FakeRevocations } from '../ports/revocations.fake';
import { SessionsRepository } from '../sessions/repository';
import { UsersRepository } from '../users/repository';
import { UsersService } from '../users/service';
import { hashApiKey } from './document';
import { ApiKeysRepository } from './repository';
import { ApiKeysService, LAST_USED_RESOLUTION_MS } from './service';

const db = docStorePerTest('auth');
const log = createLogger({ service: 'test', level: 'silent' });
let now: number;
let users: UsersRepository;
let repo: ApiKeysRepository;
let revocations: FakeRevocations;
let keys: ApiKeysService;
let alice: string;
let bob: string;

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err: unknown) => (err instanceof AppError ? err.code : String(err)),
  );

beforeEach(async () => {
  now = Date.UTC(2024, 5, 24, 12);
  users = await UsersRepository.open(db.store);
  repo = await ApiKeysRepository.open(db.store, { now: () => new Date(now) });
  revocations = new FakeRevocations();
  keys = new ApiKeysService({ keys: repo, users, revocations, log, maxPerUser: 3 });
  alice = (await users.create({ name: 'Alice', username: 'alice', passwordHash: 'x' }))._id;
  bob = (await users.create({ name: 'Bob', username: 'bob', passwordHash: 'x' }))._id;
});

describe('API keys', () => {
  it('shows the key once and stores only its SHA-256', async () => {
    const created = await keys.create(alice, '  laptop ');
    expect(created).toEqual({
      id: expect.any(String),
      name: 'laptop',
      key: expect.stringMatching(/^trove_[A-Za-z0-9_-]{43}$/),
      createdAt: new Date(now).toISOString(),
      lastUsedAt: null,
    });
    const stored = await db.store.collection('api_keys').findOne({ _id: created.id });
    expect(JSON.stringify(stored)).not.toContain(created.key!.slice(6));
    expect(stored).toMatchObject({ userId: alice, keyHash: createHash('sha256').update(created.key!).digest('hex') });
    const { key: _secret, ...withoutKey } = created;
    expect(await keys.list(alice)).toEqual([withoutKey]);
    expect((await keys.create(alice, 'other')).key).not.toBe(created.key);
  });

  it('lists newest first, per user, never the secret', async () => {
    await keys.create(alice, 'one');
    now += 1000;
    await keys.create(alice, 'two');
    await keys.create(bob, 'bobs');
    const listed = await keys.list(alice);
    expect(listed.map((k) => k.name)).toEqual(['two', 'one']);
    expect(listed.every((k) => !('key' in k))).toBe(true);
  });

  it('refuses blank names, names over 100 characters (emoji count one) and more than the most keys per user', async () => {
    expect(await codeOf(keys.create(alice, '   '))).toBe('BAD_REQUEST');
    expect(await codeOf(keys.create(bob, '😀'.repeat(101)))).toBe('BAD_REQUEST');
    expect(await codeOf(keys.create(bob, '😀'.repeat(100)))).toBe('ok');
    for (let i = 0; i < 3; i++) await keys.create(alice, `k${i}`);
    expect(await codeOf(keys.create(alice, 'one too many'))).toBe('CONFLICT');
    expect(await codeOf(keys.create(bob, 'fine'))).toBe('ok');
  });

  it('resolves a key by its digest to its user, and notes its use at most once a minute', async () => {
    const created = await keys.create(alice, 'cli');
    expect(await keys.resolve(hashApiKey(created.key!))).toEqual({ userId: alice, keyId: created.id });
    const lastUsed = async () => (await keys.list(alice))[0].lastUsedAt;
    await waitForValue(lastUsed, new Date(now).toISOString());
    const first = now;
    now += LAST_USED_RESOLUTION_MS / 2;
    await keys.resolve(hashApiKey(created.key!));
    await new Promise((r) => setImmediate(r));
    expect(await lastUsed()).toBe(new Date(first).toISOString());
    now += LAST_USED_RESOLUTION_MS;
    await keys.resolve(hashApiKey(created.key!));
    await waitForValue(lastUsed, new Date(now).toISOString());
    expect(await codeOf(keys.resolve(hashApiKey('trove_unknown')))).toBe('UNAUTHORIZED');
  });

  it("revokes in the bucket before deleting; another user's key is not found and stays", async () => {
    const created = await keys.create(alice, 'cli');
    expect(await codeOf(keys.delete(bob, created.id))).toBe('NOT_FOUND');
    expect(revocations.keys).toEqual([]);
    expect(await codeOf(keys.resolve(hashApiKey(created.key!)))).toBe('ok');
    await keys.delete(alice, created.id);
    expect(revocations.keys).toEqual([REVOCATIONS.sessionKey(created.id)]);
    expect(await codeOf(keys.resolve(hashApiKey(created.key!)))).toBe('UNAUTHORIZED');
    expect(await codeOf(keys.delete(alice, created.id))).toBe('NOT_FOUND');
  });

  it("a user's deletion revokes the user and removes every key", async () => {
    const created = await keys.create(alice, 'cli');
    const kept = await keys.create(bob, 'bob');
    const events = { publish: async () => undefined };
    const sessions = await SessionsRepository.open(db.store, { ttlMs: 60_000 });
    const admin = new UsersService({ users, sessions, revocations, events, log, apiKeys: repo });
    await admin.delete(alice);
    expect(revocations.keys).toContain(REVOCATIONS.userKey(alice));
    expect(await codeOf(keys.resolve(hashApiKey(created.key!)))).toBe('UNAUTHORIZED');
    expect(await keys.list(alice)).toEqual([]);
    expect(await codeOf(keys.resolve(hashApiKey(kept.key!)))).toBe('ok');
  });

  it('refuses the key of a user being deleted', async () => {
    const created = await keys.create(alice, 'cli');
    await users.markDeleting(alice);
    expect(await codeOf(keys.resolve(hashApiKey(created.key!)))).toBe('UNAUTHORIZED');
  });
});

/** The last-used note is written after the answer: wait (bounded) for it to land. */
async function waitForValue<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const until = Date.now() + 5000;
  while (Date.now() < until) {
    if ((await read()) === expected) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(await read()).toBe(expected);
}
