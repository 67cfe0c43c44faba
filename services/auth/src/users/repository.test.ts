import { AppError } from '@trove/kit';
import { docStorePerTest } from '@trove/kit/testing';
import { toUserV1 } from './document';
import { UsersRepository } from './repository';

describe('users repository', () => {
  const db = docStorePerTest('auth');
  let users: UsersRepository;

  beforeEach(async () => {
    users = await UsersRepository.open(db.store);
  });

  const create = (username: string) =>
    users.create({ name: username.toUpperCase(), username, passwordHash: 'scrypt$hash' });

  it('creates users with uuids and finds them by id and username, case-insensitively', async () => {
    const alice = await create('Alice');
    expect(alice._id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await users.findById(alice._id))?.username).toBe('Alice');
    expect((await users.findByUsername('alice'))?._id).toBe(alice._id);
    expect(await users.findByUsername('bob')).toBeNull();
  });

  it('keeps usernames unique whatever their case: 409 username already exists', async () => {
    await create('alice');
    const err = await create('ALICE').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'CONFLICT', message: 'username already exists' });
    const bob = await create('bob');
    await expect(users.update(bob._id, { username: 'Alice' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('lists pages ordered by username', async () => {
    for (const u of ['dave', 'Alice', 'carol', 'bob']) await create(u);
    expect((await users.list(1, 3)).map((u) => u.username)).toEqual(['Alice', 'bob', 'carol']);
    expect((await users.list(2, 3)).map((u) => u.username)).toEqual(['dave']);
  });

  it('updates fields and the updatedAt time', async () => {
    const alice = await create('alice');
    const updated = await users.update(alice._id, { name: 'Alice Jansen', username: 'ajansen' });
    expect(updated).toMatchObject({ name: 'Alice Jansen', username: 'ajansen', usernameKey: 'ajansen' });
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(alice.updatedAt.getTime());
    expect(await users.update('00000000-0000-4000-8000-000000000000', { name: 'x' })).toBeNull();
  });

  it('hides a user being deleted from every read, and keeps the first deletion mark', async () => {
    const alice = await create('alice');
    const marked = await users.markDeleting(alice._id);
    expect(marked?.deletingAt).toBeInstanceOf(Date);
    expect(await users.findById(alice._id)).toBeNull();
    expect(await users.findByUsername('alice')).toBeNull();
    expect(await users.list(1, 10)).toEqual([]);
    expect((await users.markDeleting(alice._id))?.deletingAt).toEqual(marked?.deletingAt);
    expect((await users.listDeleting()).map((u) => u._id)).toEqual([alice._id]);
    await users.remove(alice._id);
    expect(await users.markDeleting(alice._id)).toBeNull();
  });

  it('upgrades a password hash only while it is still the old one', async () => {
    const alice = await create('alice');
    await users.upgradePasswordHash(alice._id, 'scrypt$hash', 'scrypt$stronger');
    expect(await users.findById(alice._id)).toMatchObject({
      passwordHash: 'scrypt$stronger',
      updatedAt: alice.updatedAt,
    });
    await users.upgradePasswordHash(alice._id, 'scrypt$hash', 'scrypt$stale');
    expect((await users.findById(alice._id))?.passwordHash).toBe('scrypt$stronger');
  });

  it('never exposes the password hash', async () => {
    const alice = await create('alice');
    expect(Object.keys(toUserV1(alice)).sort()).toEqual([
      'createdAt',
      'features',
      'id',
      'name',
      'quotaBytes',
      'updatedAt',
      'username',
    ]);
  });
});
