/**
 * User administration over the real repositories (SQLite) and password hashing, with recording
 * fakes of the revocation bucket and the event bus.
 */
import { createLogger } from '@trove/kit';
import { completeFeatures, getUserRpc, listUsersRpc, setupStatusRpc, validate } from '@trove/proto-events';
import type { MessageContract } from '@trove/proto-events';
import { docStorePerTest } from '@trove/kit/testing';
import { FakeRevocations } from '../ports/revocations.fake';
import { SessionsRepository } from '../sessions/repository';
import { verifyPassword } from './passwords';
import { UsersRepository } from './repository';
import { featuresAtCreation, UsersService } from './service';

const PASSWORD = 'Correct-Horse-42';

const db = docStorePerTest('auth');
let repo: UsersRepository;
let sessions: SessionsRepository;
let revocations: FakeRevocations;
let published: Array<{ subject: string; payload: unknown; msgId: string }>;
let publishFails: boolean;
let users: UsersService;

beforeEach(async () => {
  repo = await UsersRepository.open(db.store);
  sessions = await SessionsRepository.open(db.store, { ttlMs: 60_000 });
  revocations = new FakeRevocations();
  published = [];
  publishFails = false;
  const events = {
    async publish<P>(contract: MessageContract<P>, payload: P, opts: { msgId: string }) {
      if (publishFails) throw new Error('nats is down');
      published.push({ subject: contract.subject, payload, msgId: opts.msgId });
    },
  };
  users = new UsersService({
    users: repo,
    sessions,
    revocations,
    events,
    log: createLogger({ service: 'test', level: 'silent' }),
  });
});

describe('accounts', () => {
  it('quota: unlimited by default, the server default when the request names none, set and cleared by an update', async () => {
    const ann = await users.create({ name: 'Ann', username: 'ann', password: PASSWORD });
    expect(ann.quotaBytes).toBeNull();
    const withDefault = new UsersService({
      users: repo,
      sessions,
      revocations,
      events: { publish: async () => undefined },
      log: createLogger({ service: 'test', level: 'silent' }),
      defaultQuotaBytes: 5_000_000,
    });
    const bob = await withDefault.create({ name: 'Bo', username: 'bob', password: PASSWORD });
    expect(bob.quotaBytes).toBe(5_000_000);
    // Named in the request: that, also null (unlimited) against the server default.
    expect(
      (await withDefault.create({ name: 'Cy', username: 'cyd', password: PASSWORD, quotaBytes: 1024 })).quotaBytes,
    ).toBe(1024);
    expect(
      (await withDefault.create({ name: 'Di', username: 'dia', password: PASSWORD, quotaBytes: null })).quotaBytes,
    ).toBeNull();
    // 10 TiB does not fit 32 bits: it is kept exactly.
    expect((await users.update({ id: ann.id, quotaBytes: 10 * 1024 ** 4 })).quotaBytes).toBe(10 * 1024 ** 4);
    expect((await users.get(ann.id)).quotaBytes).toBe(10 * 1024 ** 4);
    // An update without quotaBytes keeps it; null makes the user unlimited again.
    expect((await users.update({ id: ann.id, name: 'Annie' })).quotaBytes).toBe(10 * 1024 ** 4);
    expect((await users.update({ id: ann.id, quotaBytes: null })).quotaBytes).toBeNull();
    expect(validate(getUserRpc.response, await users.get(bob.id))).toEqual({ valid: true, errors: [] });
  });

  it('quota: a negative or fractional number of bytes is refused (400) and changes nothing', async () => {
    await expect(
      users.create({ name: 'Ann', username: 'ann', password: PASSWORD, quotaBytes: -1 }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^quotaBytes /) });
    const ann = await users.create({ name: 'Ann', username: 'ann', password: PASSWORD, quotaBytes: 100 });
    await expect(users.update({ id: ann.id, quotaBytes: 1.5 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^quotaBytes /),
    });
    expect((await users.get(ann.id)).quotaBytes).toBe(100);
  });

  it('quota: an account stored before quotas existed reads as unlimited', async () => {
    const ann = await users.create({ name: 'Ann', username: 'ann', password: PASSWORD, quotaBytes: 7 });
    await db.store.collection('users').updateOne({ _id: ann.id }, { $unset: { quotaBytes: true } });
    expect((await users.get(ann.id)).quotaBytes).toBeNull();
  });

  it('features: created with an object, the keys it leaves out are off; an update changes only the keys it names', async () => {
    const alice = await users.create({
      name: 'Alice',
      username: 'alice',
      password: PASSWORD,
      features: {
        albums: true,
        favourites: true,
        hidden: true,
        trash: true,
        sharing: true,
        jobs: true,
        explore: false,
      },
    });
    const off = { explore: false, places: false, things: false, people: false };
    expect(alice.features).toEqual({ ...completeFeatures({}), ...off });
    const updated = await users.update({ id: alice.id, features: { places: true, jobs: false } });
    expect(updated.features).toEqual({ ...completeFeatures({}), ...off, places: true, jobs: false });
    expect((await users.get(alice.id)).features).toEqual(updated.features);
    // What the RPCs answer matches their contracts (the auth service checks its answers against them).
    expect(validate(getUserRpc.response, await users.get(alice.id))).toEqual({ valid: true, errors: [] });
    expect(validate(listUsersRpc.response, { users: await users.list(1, 10) })).toEqual({ valid: true, errors: [] });
  });

  it('needs setup while no account exists (or only one being deleted), not once one does', async () => {
    expect(await users.needsSetup()).toBe(true);
    const alice = await users.create({ name: 'Alice', username: 'alice', password: PASSWORD });
    expect(await users.needsSetup()).toBe(false);
    expect(validate(setupStatusRpc.response, { needsSetup: await users.needsSetup() })).toEqual({
      valid: true,
      errors: [],
    });
    await repo.markDeleting(alice.id);
    expect(await users.needsSetup()).toBe(true);
  });

  it('features at creation: none given → every one on; an empty object → every one off', async () => {
    expect((await users.create({ name: 'Ann', username: 'ann', password: PASSWORD })).features).toEqual(
      completeFeatures({}),
    );
    const none = Object.fromEntries(Object.keys(completeFeatures({})).map((f) => [f, false]));
    expect((await users.create({ name: 'Bo', username: 'bob', password: PASSWORD, features: {} })).features).toEqual(
      none,
    );
    expect(featuresAtCreation({ things: true })).toEqual({ ...none, things: true });
    expect(featuresAtCreation(undefined)).toEqual(completeFeatures(undefined));
  });

  it('creates a user, answers it without any password hash, and stores a hash of the password', async () => {
    const alice = await users.create({ name: 'Alice', username: 'alice', password: PASSWORD });
    expect(alice).toEqual({
      id: expect.any(String),
      name: 'Alice',
      username: 'alice',
      features: completeFeatures({}),
      quotaBytes: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await users.get(alice.id)).toEqual(alice);
    expect(await verifyPassword(PASSWORD, (await repo.findById(alice.id))!.passwordHash)).toBe(true);
    expect((await users.list(1, 10)).map((u) => u.username)).toEqual(['alice']);
  });

  it('refuses what the policy refuses (400 naming the field) and a taken username (409), whatever its case', async () => {
    await expect(users.create({ name: ' ', username: 'alice', password: PASSWORD })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'name must not be empty',
    });
    await expect(users.create({ name: 'A', username: 'a', password: PASSWORD })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^username /),
    });
    await expect(users.create({ name: 'A', username: 'alice', password: 'alice-Secret-1' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: 'password must not contain the username',
    });
    await users.create({ name: 'Alice', username: 'alice', password: PASSWORD });
    await expect(users.create({ name: 'Other', username: 'ALICE', password: PASSWORD })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    const bob = await users.create({ name: 'Bob', username: 'bob', password: PASSWORD });
    await expect(users.update({ id: bob.id, username: 'Alice' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('a new password ends every session of the user; other changes keep them', async () => {
    const alice = await users.create({ name: 'Alice', username: 'alice', password: PASSWORD });
    const [one, two] = [await sessions.create(alice.id), await sessions.create(alice.id)];
    expect(await users.update({ id: alice.id, name: 'Alice B.' })).toMatchObject({
      name: 'Alice B.',
      username: 'alice',
    });
    expect(revocations.keys).toEqual([]);

    await users.update({ id: alice.id, password: 'Battery-Staple-7' });
    expect(revocations.keys.sort()).toEqual([`session.${one.session._id}`, `session.${two.session._id}`].sort());
    expect(await sessions.idsOfUser(alice.id)).toEqual([]);
    expect(await verifyPassword('Battery-Staple-7', (await repo.findById(alice.id))!.passwordHash)).toBe(true);
  });

  it('an unknown id is not found for get, update and delete', async () => {
    const id = '0b7e4c1d-2f3a-4b5c-8d9e-a0b1c2d3e4f5';
    for (const p of [users.get(id), users.update({ id, name: 'X' }), users.delete(id)]) {
      await expect(p).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'user not found' });
    }
  });
});

describe('user deletion', () => {
  it('revokes the user, deletes its sessions, publishes user.deleted, then removes it', async () => {
    const user = await repo.create({ name: 'A', username: 'alice', passwordHash: 'h' });
    const { refreshToken } = await sessions.create(user._id);
    await users.delete(user._id);
    expect(revocations.keys).toEqual([`user.${user._id}`]);
    expect(await sessions.rotate(refreshToken)).toEqual({ kind: 'invalid' });
    expect(published).toEqual([
      {
        subject: 'events.v1.user.deleted',
        payload: { userId: user._id, deletedAt: expect.any(String) },
        msgId: `user-deleted-${user._id}`,
      },
    ]);
    expect(await repo.listDeleting()).toEqual([]);
    await expect(users.delete(user._id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('an interrupted deletion leaves the user gone for callers and is finished at the next start', async () => {
    const user = await repo.create({ name: 'A', username: 'alice', passwordHash: 'h' });
    publishFails = true;
    await expect(users.delete(user._id)).rejects.toThrow(/nats is down/);
    expect(await repo.findById(user._id)).toBeNull();
    expect(await repo.findByUsername('alice')).toBeNull();
    await expect(users.get(user._id)).rejects.toMatchObject({ code: 'NOT_FOUND' });

    publishFails = false;
    await users.resumeDeletions();
    expect(published).toHaveLength(1);
    expect(await repo.listDeleting()).toEqual([]);
  });
});
