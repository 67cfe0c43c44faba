import { randomUUID } from 'node:crypto';
import { docStorePerTest } from '@trove/kit/testing';
import { AlbumsRepository } from './repository';
import type { AlbumFields } from './repository';

describe('albums repository (SQLite)', () => {
  const db = docStorePerTest('library');
  let repo: AlbumsRepository;
  let clock: number;
  const alice = randomUUID();
  const bob = randomUUID();
  const t = (ms: number) => new Date(Date.UTC(2024, 5, 1) + ms);

  beforeEach(async () => {
    clock = 0;
    // Every call of the clock is one millisecond later: creation order is visible in the times.
    repo = await AlbumsRepository.open(db.store, { now: () => t(++clock * 1000) });
  });

  const fields = (name: string, more: Partial<AlbumFields> = {}): AlbumFields => ({
    name,
    description: null,
    shared: false,
    shareLocation: false,
    hidden: false,
    ...more,
  });
  const add = (userId: string, albumId: string, ids: string[], trashed = false) =>
    repo.addMembers(
      userId,
      albumId,
      ids.map((mediaItemId) => ({ mediaItemId, trashed, hidden: false })),
      t(0),
    );
  const visible = async (albumId: string) => (await repo.visibleMembers(albumId, 0, 100)).map((m) => m.mediaItemId);

  it('lists by name case-insensitively, by creation or update time, both ways, page by page', async () => {
    const b = await repo.create(alice, fields('banana'));
    const a = await repo.create(alice, fields('Apple'));
    const c = await repo.create(alice, fields('cherry'));
    await repo.create(bob, fields('Avocado'));
    await repo.update(alice, b._id, { description: 'touched last' });
    const names = async (sort: Parameters<AlbumsRepository['list']>[1]['sort'], page = 1, limit = 10) =>
      (await repo.list(alice, { sort, page, limit, hidden: false })).map((x) => x.name);
    expect(await names('name')).toEqual(['Apple', 'banana', 'cherry']);
    expect(await names('-name')).toEqual(['cherry', 'banana', 'Apple']);
    expect(await names('createdAt')).toEqual(['banana', 'Apple', 'cherry']);
    expect(await names('-createdAt')).toEqual(['cherry', 'Apple', 'banana']);
    expect(await names('updatedAt')).toEqual(['Apple', 'cherry', 'banana']);
    expect(await names('-updatedAt')).toEqual(['banana', 'cherry', 'Apple']);
    expect(await names('name', 1, 2)).toEqual(['Apple', 'banana']);
    expect(await names('name', 2, 2)).toEqual(['cherry']);
    expect(await names('name', 3, 2)).toEqual([]);
    expect([a, b, c].every((x) => x.userId === alice)).toBe(true);
  });

  it('filters shared and hidden albums', async () => {
    await repo.create(alice, fields('plain'));
    await repo.create(alice, fields('shared', { shared: true }));
    await repo.create(alice, fields('hidden', { hidden: true }));
    await repo.create(alice, fields('hidden shared', { hidden: true, shared: true }));
    const names = async (q: { shared?: boolean; hidden: boolean }) =>
      (await repo.list(alice, { sort: 'name', page: 1, limit: 10, ...q })).map((x) => x.name);
    expect(await names({ hidden: false })).toEqual(['plain', 'shared']);
    expect(await names({ hidden: false, shared: true })).toEqual(['shared']);
    expect(await names({ hidden: false, shared: false })).toEqual(['plain']);
    expect(await names({ hidden: true })).toEqual(['hidden', 'hidden shared']);
    expect(await names({ hidden: true, shared: true })).toEqual(['hidden shared']);
  });

  it('scopes every album call to its owner', async () => {
    const album = await repo.create(alice, fields('mine'));
    expect(await repo.get(bob, album._id)).toBeNull();
    expect(await repo.update(bob, album._id, { name: 'stolen' })).toBeNull();
    expect(await repo.delete(bob, album._id)).toBe(false);
    expect((await repo.get(alice, album._id))?.name).toBe('mine');
    expect(await repo.getById(album._id)).toMatchObject({ _id: album._id, userId: alice });
  });

  it('appends items in the order given; adding again keeps one entry in its first place', async () => {
    const album = await repo.create(alice, fields('a'));
    const [x, y, z] = [randomUUID(), randomUUID(), randomUUID()];
    expect(await add(alice, album._id, [x, y])).toEqual([x, y]);
    expect(await add(alice, album._id, [z, x])).toEqual([z]);
    expect(await add(alice, album._id, [y])).toEqual([]);
    expect(await visible(album._id)).toEqual([x, y, z]);
    expect(await repo.countVisible(album._id)).toBe(3);
    expect((await repo.visibleMembers(album._id, 1, 1)).map((m) => m.mediaItemId)).toEqual([y]);
    expect((await repo.get(alice, album._id))?.nextSeq).toBe(3);
  });

  it('adding to a missing or foreign album adds nothing', async () => {
    const album = await repo.create(alice, fields('a'));
    expect(await add(bob, album._id, [randomUUID()])).toEqual([]);
    expect(await add(alice, randomUUID(), [randomUUID()])).toEqual([]);
    expect(await repo.countVisible(album._id)).toBe(0);
  });

  it('removing items clears them from the album and clears a removed chosen cover', async () => {
    const album = await repo.create(alice, fields('a'));
    const [x, y] = [randomUUID(), randomUUID()];
    await add(alice, album._id, [x, y]);
    await repo.update(alice, album._id, { coverMediaItemId: y });
    expect(await repo.removeMembers(alice, album._id, [x])).toBe(1);
    expect((await repo.get(alice, album._id))?.coverMediaItemId).toBe(y);
    expect(await repo.removeMembers(alice, album._id, [y, randomUUID()])).toBe(1);
    expect((await repo.get(alice, album._id))?.coverMediaItemId).toBeNull();
    expect(await repo.removeMembers(alice, album._id, [y])).toBe(0);
    expect(await visible(album._id)).toEqual([]);
  });

  it('creates an album with a chosen cover as its first item', async () => {
    const cover = randomUUID();
    const album = await repo.create(alice, fields('with cover'), {
      mediaItemId: cover,
      trashed: false,
      hidden: false,
      stateAt: t(0),
    });
    expect(album.coverMediaItemId).toBe(cover);
    expect(album.createdAt).toEqual(album.updatedAt);
    const next = randomUUID();
    await add(alice, album._id, [next]);
    expect(await visible(album._id)).toEqual([cover, next]);
  });

  it('trash and restore follow the item in every album, ignore replays and older events', async () => {
    const [a1, a2] = [await repo.create(alice, fields('one')), await repo.create(alice, fields('two'))];
    const [x, y] = [randomUUID(), randomUUID()];
    await add(alice, a1._id, [x, y]);
    await add(alice, a2._id, [y, x]);

    expect(await repo.setTrashed(alice, x, true, t(10_000))).toBe(2);
    expect(await visible(a1._id)).toEqual([y]);
    expect(await visible(a2._id)).toEqual([y]);
    expect(await repo.countVisible(a1._id)).toBe(1);
    // Replaying the same event changes nothing.
    expect(await repo.setTrashed(alice, x, true, t(10_000))).toBe(0);
    // Another user's event for the same id touches nothing of alice's.
    expect(await repo.setTrashed(bob, x, false, t(20_000))).toBe(0);

    expect(await repo.setTrashed(alice, x, false, t(20_000))).toBe(2);
    expect(await visible(a1._id)).toEqual([x, y]);
    expect(await visible(a2._id)).toEqual([y, x]);
    // The trash event, delivered again late, is older than the restore: ignored.
    expect(await repo.setTrashed(alice, x, true, t(10_000))).toBe(0);
    expect(await repo.countVisible(a2._id)).toBe(2);
  });

  it('an item added while in the trash stays out of view until restored', async () => {
    const album = await repo.create(alice, fields('a'));
    const x = randomUUID();
    await repo.addMembers(alice, album._id, [{ mediaItemId: x, trashed: true, hidden: false }], t(5_000));
    expect(await visible(album._id)).toEqual([]);
    // An event from before the state we read is stale.
    expect(await repo.setTrashed(alice, x, false, t(1_000))).toBe(0);
    expect(await repo.setTrashed(alice, x, false, t(6_000))).toBe(1);
    expect(await visible(album._id)).toEqual([x]);
  });

  it('purging an item removes it from every album and clears it as chosen cover; it cannot be added back', async () => {
    const [a1, a2] = [await repo.create(alice, fields('one')), await repo.create(alice, fields('two'))];
    const [x, y] = [randomUUID(), randomUUID()];
    await add(alice, a1._id, [x, y]);
    await add(alice, a2._id, [x]);
    await repo.update(alice, a2._id, { coverMediaItemId: x });
    await repo.purgeItem(alice, x, t(1));
    await repo.purgeItem(alice, x, t(1));
    expect(await visible(a1._id)).toEqual([y]);
    expect(await visible(a2._id)).toEqual([]);
    expect((await repo.get(alice, a2._id))?.coverMediaItemId).toBeNull();
    expect(await repo.albumIdsHolding(alice, x)).toEqual([]);
    // An add that read the item just before its purge does not leave it behind.
    expect(await add(alice, a1._id, [x])).toEqual([]);
    expect(await visible(a1._id)).toEqual([y]);
  });

  it('finds the albums holding an item, ordered by name', async () => {
    const b = await repo.create(alice, fields('B'));
    const a = await repo.create(alice, fields('a'));
    await repo.create(alice, fields('c'));
    const x = randomUUID();
    await add(alice, b._id, [x]);
    await add(alice, a._id, [x]);
    const ids = await repo.albumIdsHolding(alice, x);
    expect(ids.sort()).toEqual([a._id, b._id].sort());
    expect((await repo.findByIds(alice, ids)).map((d) => d.name)).toEqual(['a', 'B']);
    expect(await repo.findByIds(bob, ids)).toEqual([]);
  });

  it('deleting an album removes its memberships; deleting a user removes all its albums', async () => {
    const album = await repo.create(alice, fields('a'));
    const other = await repo.create(alice, fields('b'));
    const bobs = await repo.create(bob, fields('bob'));
    const x = randomUUID();
    await add(alice, album._id, [x]);
    await add(alice, other._id, [x]);
    await add(bob, bobs._id, [randomUUID()]);
    expect(await repo.delete(alice, album._id)).toBe(true);
    expect(await repo.delete(alice, album._id)).toBe(false);
    expect(await repo.albumIdsHolding(alice, x)).toEqual([other._id]);

    await repo.deleteUser(alice);
    await repo.deleteUser(alice);
    expect(await repo.list(alice, { sort: 'name', page: 1, limit: 10, hidden: false })).toEqual([]);
    expect(await repo.albumIdsHolding(alice, x)).toEqual([]);
    expect(await repo.countVisible(bobs._id)).toBe(1);
  });
});
