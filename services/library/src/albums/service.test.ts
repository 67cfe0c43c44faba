import { randomUUID } from 'node:crypto';
import type { AlbumV1 } from '@trove/proto-events';
import { docStorePerTest } from '@trove/kit/testing';
import { FakeMedia } from '../ports/media.fake';
import { AlbumsRepository } from './repository';
import { AlbumsService } from './service';

describe('albums (cover, counts, sharing) on the embedded store and a fake media service', () => {
  const db = docStorePerTest('library');
  let repo: AlbumsRepository;
  let media: FakeMedia;
  let albums: AlbumsService;
  let at: number;
  const alice = randomUUID();
  const bob = randomUUID();
  /** Event times, always later than the state read when items were added. */
  const later = () => new Date(Date.now() + 60_000 + ++at);

  beforeEach(async () => {
    repo = await AlbumsRepository.open(db.store);
    media = new FakeMedia();
    albums = new AlbumsService(repo, media);
    at = 0;
  });

  const create = (name = 'Summer', more: Partial<Parameters<AlbumsService['create']>[0]> = {}) =>
    albums.create({ userId: alice, name, ...more });
  const itemIds = async (id: string, page = 1, limit = 100) =>
    (await albums.listItems({ userId: alice, id, page, limit })).map((i) => i.id);
  const summary = (a: AlbumV1) => ({
    count: a.mediaItemsCount,
    cover: a.coverMediaItemId,
    coverItem: a.coverMediaItem?.id ?? null,
  });
  const trash = async (id: string) => {
    media.set(id, { deleted: true, deletedAt: new Date().toISOString() });
    await albums.itemTrashed(alice, id, true, later());
  };
  const restore = async (id: string) => {
    media.set(id, { deleted: false, deletedAt: null });
    await albums.itemTrashed(alice, id, false, later());
  };

  it('creates an album with defaults and answers every field', async () => {
    const album = await create('Summer 2024', { description: 'coast' });
    expect(album).toEqual({
      id: expect.any(String),
      userId: alice,
      role: 'owner',
      name: 'Summer 2024',
      description: 'coast',
      shared: false,
      shareLocation: false,
      shareExpiresAt: null,
      shareAllowDownload: true,
      sharePasswordSet: false,
      shareKey: null,
      hidden: false,
      coverMediaItemId: null,
      coverMediaItem: null,
      mediaItemsCount: 0,
      createdAt: album.createdAt,
      updatedAt: album.createdAt,
    });
    expect(await albums.get(alice, album.id)).toEqual(album);
  });

  it("another user's album is not found for every call", async () => {
    const album = await create();
    const item = media.add(bob);
    const nf = { code: 'NOT_FOUND', message: 'album not found' };
    await expect(albums.get(bob, album.id)).rejects.toMatchObject(nf);
    await expect(albums.update({ userId: bob, id: album.id, name: 'x' })).rejects.toMatchObject(nf);
    await expect(albums.delete(bob, album.id)).rejects.toMatchObject(nf);
    await expect(albums.listItems({ userId: bob, id: album.id, page: 1, limit: 10 })).rejects.toMatchObject(nf);
    await expect(albums.addItems(bob, album.id, [item.id])).rejects.toMatchObject(nf);
    await expect(albums.removeItems(bob, album.id, [item.id])).rejects.toMatchObject(nf);
    await expect(albums.get(alice, randomUUID())).rejects.toMatchObject(nf);
    expect((await albums.get(alice, album.id)).name).toBe('Summer');
  });

  it('two items: count 2, cover the first added; removing the cover moves it; removing both leaves none', async () => {
    const album = await create();
    const [x, y] = [media.add(alice), media.add(alice)];
    await albums.addItems(alice, album.id, [x.id, y.id]);
    await albums.addItems(alice, album.id, [x.id]);
    const two = await albums.get(alice, album.id);
    expect(summary(two)).toEqual({ count: 2, cover: x.id, coverItem: x.id });
    expect(two.coverMediaItem).toEqual(x);
    expect(await itemIds(album.id)).toEqual([x.id, y.id]);

    await albums.removeItems(alice, album.id, [x.id]);
    expect(summary(await albums.get(alice, album.id))).toEqual({ count: 1, cover: y.id, coverItem: y.id });
    await albums.removeItems(alice, album.id, [y.id, x.id]);
    expect(summary(await albums.get(alice, album.id))).toEqual({ count: 0, cover: null, coverItem: null });
    // The items themselves are untouched.
    expect(media.items.size).toBe(2);
  });

  it("an id that is not one of the caller's items: 404 mediaitem not found and nothing changes", async () => {
    const album = await create();
    const mine = media.add(alice);
    const theirs = media.add(bob);
    const nf = { code: 'NOT_FOUND', message: 'mediaitem not found' };
    await expect(albums.addItems(alice, album.id, [mine.id, theirs.id])).rejects.toMatchObject(nf);
    await expect(albums.addItems(alice, album.id, [randomUUID()])).rejects.toMatchObject(nf);
    expect((await albums.get(alice, album.id)).mediaItemsCount).toBe(0);
    await albums.addItems(alice, album.id, [mine.id]);
    await expect(albums.removeItems(alice, album.id, [mine.id, theirs.id])).rejects.toMatchObject(nf);
    expect(await itemIds(album.id)).toEqual([mine.id]);
    await expect(create('x', { coverMediaItemId: theirs.id })).rejects.toMatchObject(nf);
    await expect(albums.albumsOfItem(alice, theirs.id)).rejects.toMatchObject(nf);
  });

  it('a chosen cover must be in the album and not trashed; it wins over the first added and comes back after the trash', async () => {
    const album = await create();
    const [x, y, outside] = [media.add(alice), media.add(alice), media.add(alice)];
    await albums.addItems(alice, album.id, [x.id, y.id]);
    const nf = { code: 'NOT_FOUND', message: 'mediaitem not found' };
    await expect(albums.update({ userId: alice, id: album.id, coverMediaItemId: outside.id })).rejects.toMatchObject(
      nf,
    );
    await albums.update({ userId: alice, id: album.id, coverMediaItemId: y.id });
    expect(summary(await albums.get(alice, album.id))).toEqual({ count: 2, cover: y.id, coverItem: y.id });

    await trash(y.id);
    expect(summary(await albums.get(alice, album.id))).toEqual({ count: 1, cover: x.id, coverItem: x.id });
    await expect(albums.update({ userId: alice, id: album.id, coverMediaItemId: y.id })).rejects.toMatchObject(nf);
    await restore(y.id);
    expect(summary(await albums.get(alice, album.id))).toEqual({ count: 2, cover: y.id, coverItem: y.id });

    await albums.update({ userId: alice, id: album.id, coverMediaItemId: null });
    expect(summary(await albums.get(alice, album.id))).toEqual({ count: 2, cover: x.id, coverItem: x.id });
  });

  it('creating with a cover puts that item first in the album', async () => {
    const x = media.add(alice);
    const album = await create('with cover', { coverMediaItemId: x.id });
    expect(summary(album)).toEqual({ count: 1, cover: x.id, coverItem: x.id });
    const y = media.add(alice);
    await albums.addItems(alice, album.id, [y.id]);
    expect(await itemIds(album.id)).toEqual([x.id, y.id]);
  });

  it('a trashed item leaves the items, the count and the cover of every album holding it, and comes back when restored', async () => {
    const a1 = await create('one');
    const a2 = await create('two');
    const [x, y] = [media.add(alice), media.add(alice)];
    await albums.addItems(alice, a1.id, [x.id, y.id]);
    await albums.addItems(alice, a2.id, [x.id]);
    await trash(x.id);
    expect(await itemIds(a1.id)).toEqual([y.id]);
    expect(summary(await albums.get(alice, a1.id))).toEqual({ count: 1, cover: y.id, coverItem: y.id });
    expect(summary(await albums.get(alice, a2.id))).toEqual({ count: 0, cover: null, coverItem: null });
    await restore(x.id);
    expect(await itemIds(a1.id)).toEqual([x.id, y.id]);
    expect(summary(await albums.get(alice, a1.id))).toEqual({ count: 2, cover: x.id, coverItem: x.id });
    expect(summary(await albums.get(alice, a2.id))).toEqual({ count: 1, cover: x.id, coverItem: x.id });
  });

  it('an item trashed at the media service before its event arrived is already left out of items and cover', async () => {
    const album = await create();
    const [x, y] = [media.add(alice), media.add(alice)];
    await albums.addItems(alice, album.id, [x.id, y.id]);
    media.set(x.id, { deleted: true });
    expect(await itemIds(album.id)).toEqual([y.id]);
    expect((await albums.get(alice, album.id)).coverMediaItemId).toBe(y.id);
  });

  it('a purged item leaves every album and its chosen cover falls back', async () => {
    const album = await create();
    const [x, y] = [media.add(alice), media.add(alice)];
    await albums.addItems(alice, album.id, [x.id, y.id]);
    await albums.update({ userId: alice, id: album.id, coverMediaItemId: y.id });
    media.purge(y.id);
    await albums.itemPurged(alice, y.id, later());
    expect(summary(await albums.get(alice, album.id))).toEqual({ count: 1, cover: x.id, coverItem: x.id });
  });

  it('hidden items stay in the owner view', async () => {
    const album = await create();
    const x = media.add(alice, { hidden: true });
    await albums.addItems(alice, album.id, [x.id]);
    expect(summary(await albums.get(alice, album.id))).toEqual({ count: 1, cover: x.id, coverItem: x.id });
    expect(await itemIds(album.id)).toEqual([x.id]);
  });

  it('pages the items in the order added', async () => {
    const album = await create();
    const ids = Array.from({ length: 5 }, () => media.add(alice).id);
    await albums.addItems(alice, album.id, ids.slice(0, 3));
    await albums.addItems(alice, album.id, ids.slice(3));
    expect(await itemIds(album.id, 1, 2)).toEqual(ids.slice(0, 2));
    expect(await itemIds(album.id, 2, 2)).toEqual(ids.slice(2, 4));
    expect(await itemIds(album.id, 3, 2)).toEqual(ids.slice(4));
    expect(await itemIds(album.id, 4, 2)).toEqual([]);
  });

  it('lists albums with counts and covers in one media call per page', async () => {
    const [a, b] = [await create('a'), await create('b')];
    const [x, y] = [media.add(alice), media.add(alice)];
    await albums.addItems(alice, a.id, [x.id]);
    await albums.addItems(alice, b.id, [y.id, x.id]);
    media.calls = 0;
    const list = await albums.list({ userId: alice, sort: 'name', page: 1, limit: 15, hidden: false });
    expect(list.map(summary)).toEqual([
      { count: 1, cover: x.id, coverItem: x.id },
      { count: 2, cover: y.id, coverItem: y.id },
    ]);
    expect(media.calls).toBe(1);
  });

  it('finds exactly the albums holding an item, hidden albums included', async () => {
    const [a, b] = [await create('b'), await create('A', { hidden: true })];
    await create('c');
    const x = media.add(alice);
    expect(await albums.albumsOfItem(alice, x.id)).toEqual([]);
    await albums.addItems(alice, a.id, [x.id]);
    await albums.addItems(alice, b.id, [x.id]);
    expect((await albums.albumsOfItem(alice, x.id)).map((al) => al.name)).toEqual(['A', 'b']);
    await albums.removeItems(alice, a.id, [x.id]);
    expect((await albums.albumsOfItem(alice, x.id)).map((al) => al.id)).toEqual([b.id]);
  });

  it('updates the given fields only and bumps updatedAt; unknown album is not found', async () => {
    const album = await create('old', { description: 'd' });
    await new Promise((r) => setTimeout(r, 5));
    await albums.update({ userId: alice, id: album.id, name: 'new', hidden: true });
    const got = await albums.get(alice, album.id);
    expect(got).toMatchObject({
      name: 'new',
      description: 'd',
      hidden: true,
      shared: false,
      createdAt: album.createdAt,
    });
    expect(got.updatedAt > album.updatedAt).toBe(true);
    await albums.update({ userId: alice, id: album.id, description: null });
    expect((await albums.get(alice, album.id)).description).toBeNull();
    await expect(albums.update({ userId: alice, id: randomUUID(), name: 'x' })).rejects.toMatchObject({
      message: 'album not found',
    });
  });

  it('deleting an album keeps its items', async () => {
    const album = await create();
    const x = media.add(alice);
    await albums.addItems(alice, album.id, [x.id]);
    await albums.delete(alice, album.id);
    await expect(albums.get(alice, album.id)).rejects.toMatchObject({ message: 'album not found' });
    await expect(albums.delete(alice, album.id)).rejects.toMatchObject({ message: 'album not found' });
    expect(await albums.albumsOfItem(alice, x.id)).toEqual([]);
    expect(media.items.has(x.id)).toBe(true);
  });

  describe('sharing', () => {
    const sharedNf = { code: 'NOT_FOUND', message: 'shared link not found' };
    const sharedIds = async (id: string, page: number, limit: number) =>
      (await albums.sharedItems(id, page, limit)).items.map((i) => i.id);
    /** The owner hides or shows an item: the media service's flag, then its updated event. */
    const setHidden = async (id: string, hidden: boolean) => {
      media.set(id, { hidden, updatedAt: later().toISOString() });
      await albums.itemChanged(alice, id);
    };

    describe('link settings (expiry, download switch, password)', () => {
      const clock = { now: new Date('2030-01-01T00:00:00Z') };
      beforeEach(() => {
        albums = new AlbumsService(repo, media, () => clock.now);
        clock.now = new Date('2030-01-01T00:00:00Z');
      });

      it('answers until its expiry, then 404 everywhere (album, items, content), and again once cleared', async () => {
        const x = media.add(alice);
        const album = await create('e', { shared: true, shareExpiresAt: '2030-01-01T00:01:00Z' });
        await albums.addItems(alice, album.id, [x.id]);
        expect((await albums.get(alice, album.id)).shareExpiresAt).toBe('2030-01-01T00:01:00.000Z');
        expect((await albums.sharedAlbum(album.id)).id).toBe(album.id);
        clock.now = new Date('2030-01-01T00:01:00Z');
        await expect(albums.sharedAlbum(album.id)).rejects.toMatchObject(sharedNf);
        await expect(albums.sharedItems(album.id, 1, 10)).rejects.toMatchObject(sharedNf);
        await expect(albums.sharedContent(album.id, x.id)).rejects.toMatchObject(sharedNf);
        // The owner still sees the album; clearing the expiry opens the link again.
        expect((await albums.get(alice, album.id)).id).toBe(album.id);
        await albums.update({ userId: alice, id: album.id, shareExpiresAt: null });
        expect((await albums.sharedContent(album.id, x.id)).userId).toBe(alice);
        // A leap second (RFC 3339 allows it, Date does not) is the minute's last millisecond.
        await albums.update({ userId: alice, id: album.id, shareExpiresAt: '2030-01-01T00:01:60Z' });
        expect((await albums.get(alice, album.id)).shareExpiresAt).toBe('2030-01-01T00:01:59.999Z');
      });

      it('answers the download switch to the gateway (on by default)', async () => {
        const x = media.add(alice);
        const album = await create('d', { shared: true });
        await albums.addItems(alice, album.id, [x.id]);
        expect((await albums.sharedContent(album.id, x.id)).shareAllowDownload).toBe(true);
        await albums.update({ userId: alice, id: album.id, shareAllowDownload: false });
        expect((await albums.get(alice, album.id)).shareAllowDownload).toBe(false);
        expect((await albums.sharedItems(album.id, 1, 10)).shareAllowDownload).toBe(false);
        expect((await albums.sharedContent(album.id, x.id)).shareAllowDownload).toBe(false);
      });

      it('keeps only a slow hash of the password, unlocks with it, and a new password changes the key', async () => {
        const album = await create('p', { shared: true, sharePassword: 'grandma-2030' });
        const stored = await repo.getById(album.id);
        expect(stored?.sharePasswordHash).toMatch(/^scrypt\$32768\$8\$3\$/);
        expect(JSON.stringify(stored)).not.toContain('grandma-2030');
        expect(album.sharePasswordSet).toBe(true);
        const { shareKey } = await albums.unlockShared(album.id, 'grandma-2030');
        expect((await albums.sharedItems(album.id, 1, 10)).shareKey).toBe(shareKey);
        await expect(albums.unlockShared(album.id, 'grandma-2031')).rejects.toMatchObject({
          code: 'UNAUTHORIZED',
          message: 'wrong password',
        });
        // The same password set again still makes a new key: tokens made before stop.
        await albums.update({ userId: alice, id: album.id, sharePassword: 'grandma-2030' });
        const again = await albums.unlockShared(album.id, 'grandma-2030');
        expect(again.shareKey).not.toBe(shareKey);
        // Cleared: no key, nothing to unlock.
        await albums.update({ userId: alice, id: album.id, sharePassword: null });
        expect((await albums.get(alice, album.id)).sharePasswordSet).toBe(false);
        expect((await albums.sharedItems(album.id, 1, 10)).shareKey).toBeNull();
        await expect(albums.unlockShared(album.id, 'grandma-2030')).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      });

      it('does not unlock a link that does not answer', async () => {
        const album = await create('u', { shared: false, sharePassword: 'pw' });
        await expect(albums.unlockShared(album.id, 'pw')).rejects.toMatchObject(sharedNf);
      });
    });

    it('answers only while the album is shared, and not once deleted', async () => {
      const album = await create('s', { shared: true });
      expect((await albums.sharedAlbum(album.id)).id).toBe(album.id);
      await albums.update({ userId: alice, id: album.id, shared: false });
      await expect(albums.sharedAlbum(album.id)).rejects.toMatchObject(sharedNf);
      await expect(albums.sharedItems(album.id, 1, 10)).rejects.toMatchObject(sharedNf);
      await albums.update({ userId: alice, id: album.id, shared: true });
      expect(await albums.sharedItems(album.id, 1, 10)).toEqual({
        userId: alice,
        shareLocation: false,
        shareAllowDownload: true,
        shareKey: null,
        items: [],
      });
      await albums.delete(alice, album.id);
      await expect(albums.sharedAlbum(album.id)).rejects.toMatchObject(sharedNf);
      await expect(albums.sharedAlbum(randomUUID())).rejects.toMatchObject(sharedNf);
    });

    it('leaves out trashed and hidden items from the items, the count and the cover', async () => {
      const album = await create('s', { shared: true });
      const [hidden, x, trashed, y] = [
        media.add(alice, { hidden: true }),
        media.add(alice),
        media.add(alice),
        media.add(alice),
      ];
      await albums.addItems(alice, album.id, [hidden.id, x.id, trashed.id, y.id]);
      await trash(trashed.id);
      const shared = await albums.sharedAlbum(album.id);
      expect(summary(shared)).toEqual({ count: 2, cover: x.id, coverItem: x.id });
      expect(await sharedIds(album.id, 1, 10)).toEqual([x.id, y.id]);
      expect(await sharedIds(album.id, 2, 1)).toEqual([y.id]);
      expect(await sharedIds(album.id, 3, 1)).toEqual([]);
      // The owner sees the hidden one (and it is the cover there).
      expect(summary(await albums.get(alice, album.id))).toEqual({ count: 3, cover: hidden.id, coverItem: hidden.id });

      await albums.update({ userId: alice, id: album.id, coverMediaItemId: y.id });
      expect((await albums.sharedAlbum(album.id)).coverMediaItemId).toBe(y.id);
      await albums.update({ userId: alice, id: album.id, coverMediaItemId: hidden.id });
      expect((await albums.sharedAlbum(album.id)).coverMediaItemId).toBe(x.id);

      await restore(trashed.id);
      expect(await sharedIds(album.id, 1, 10)).toEqual([x.id, trashed.id, y.id]);
    });

    it('follows hiding and showing through the updated events, an older answer never overriding a newer one', async () => {
      const album = await create('s', { shared: true });
      const [x, y] = [media.add(alice), media.add(alice)];
      await albums.addItems(alice, album.id, [x.id, y.id]);
      await setHidden(x.id, true);
      expect(summary(await albums.sharedAlbum(album.id))).toEqual({ count: 1, cover: y.id, coverItem: y.id });
      expect(await sharedIds(album.id, 1, 10)).toEqual([y.id]);
      await setHidden(x.id, false);
      expect(await sharedIds(album.id, 1, 10)).toEqual([x.id, y.id]);
      // A replayed, older answer (hidden at an earlier version) changes nothing.
      expect(await repo.setHidden(alice, x.id, true, new Date(0))).toBe(0);
      expect(await sharedIds(album.id, 1, 10)).toEqual([x.id, y.id]);
    });

    it('hidden on the media service but not yet in the memberships (its event on the way): still left out of the page', async () => {
      const album = await create('s', { shared: true });
      const [x, y] = [media.add(alice), media.add(alice)];
      await albums.addItems(alice, album.id, [x.id, y.id]);
      media.set(x.id, { hidden: true });
      expect(await sharedIds(album.id, 1, 10)).toEqual([y.id]);
      expect((await albums.sharedAlbum(album.id)).coverMediaItemId).toBe(y.id);
    });

    it('a page or the album costs one media call whatever the album size (no walk over the album)', async () => {
      const album = await create('big', { shared: true });
      const ids = Array.from({ length: 1500 }, (_, i) => media.add(alice, { hidden: i < 1000 }).id);
      await albums.addItems(alice, album.id, ids.slice(0, 1000));
      await albums.addItems(alice, album.id, ids.slice(1000));
      media.calls = 0;
      expect((await albums.sharedAlbum(album.id)).mediaItemsCount).toBe(500);
      expect(media.calls).toBe(1);
      media.calls = 0;
      expect(await sharedIds(album.id, 5, 100)).toEqual(ids.slice(1400, 1500));
      expect(media.calls).toBe(1);
    });

    it('checks a content URL of the shared view: shared album, item in it, neither trashed nor hidden', async () => {
      const album = await create('s', { shared: true });
      const [x, y, outside] = [media.add(alice), media.add(alice), media.add(alice)];
      await albums.addItems(alice, album.id, [x.id, y.id]);
      expect(await albums.sharedContent(album.id, x.id)).toEqual({
        userId: alice,
        itemUserId: alice,
        shareLocation: false,
        shareAllowDownload: true,
        shareKey: null,
      });
      await expect(albums.sharedContent(album.id, outside.id)).rejects.toMatchObject(sharedNf);
      await setHidden(x.id, true);
      await expect(albums.sharedContent(album.id, x.id)).rejects.toMatchObject(sharedNf);
      await trash(y.id);
      await expect(albums.sharedContent(album.id, y.id)).rejects.toMatchObject(sharedNf);
      await restore(y.id);
      await albums.update({ userId: alice, id: album.id, shareLocation: true });
      expect(await albums.sharedContent(album.id, y.id)).toMatchObject({ userId: alice, shareLocation: true });
      await albums.removeItems(alice, album.id, [y.id]);
      await expect(albums.sharedContent(album.id, y.id)).rejects.toMatchObject(sharedNf);
      await albums.addItems(alice, album.id, [y.id]);
      await albums.update({ userId: alice, id: album.id, shared: false });
      await expect(albums.sharedContent(album.id, y.id)).rejects.toMatchObject(sharedNf);
    });

    it('memberships from before the mirrored flag are left out until the backfill fills it in from the media service', async () => {
      const album = await create('old', { shared: true });
      const [x, hiddenOne, gone] = [media.add(alice), media.add(alice, { hidden: true }), media.add(alice)];
      await albums.addItems(alice, album.id, [x.id, hiddenOne.id, gone.id]);
      // As a library from before the field stored them.
      const raw = db.store.collection<{ _id: string; albumId: string }>('album_items');
      await raw.updateMany({ albumId: album.id }, { $unset: { hidden: true, hiddenVersion: true } });
      media.purge(gone.id);
      expect(await sharedIds(album.id, 1, 10)).toEqual([]);
      expect(await albums.backfillHidden()).toBe(3);
      expect(await sharedIds(album.id, 1, 10)).toEqual([x.id]);
      expect((await albums.sharedAlbum(album.id)).mediaItemsCount).toBe(1);
      expect(await albums.backfillHidden()).toBe(0);
    });

    it("leaves out the items' GPS position unless the owner shares locations; the owner always sees it", async () => {
      const album = await create('trip', { shared: true });
      const placed = media.add(alice);
      media.set(placed.id, { metadata: { ...placed.metadata, latitude: 48.8584, longitude: 2.2945 } });
      await albums.addItems(alice, album.id, [placed.id]);
      const visitorSees = async () => {
        const [item] = (await albums.sharedItems(album.id, 1, 10)).items;
        const cover = (await albums.sharedAlbum(album.id)).coverMediaItem;
        return [item!.metadata, cover!.metadata].map((m) => [m.latitude, m.longitude]);
      };
      expect(await visitorSees()).toEqual([
        [null, null],
        [null, null],
      ]);
      expect((await albums.listItems({ userId: alice, id: album.id, page: 1, limit: 10 }))[0]!.metadata).toMatchObject({
        latitude: 48.8584,
        longitude: 2.2945,
      });
      await albums.update({ userId: alice, id: album.id, shareLocation: true });
      expect((await albums.get(alice, album.id)).shareLocation).toBe(true);
      expect(await visitorSees()).toEqual([
        [48.8584, 2.2945],
        [48.8584, 2.2945],
      ]);
    });

    it('pages through albums larger than one media batch', async () => {
      const album = await create('big', { shared: true });
      const ids = Array.from({ length: 1203 }, (_, i) => media.add(alice, { hidden: i % 100 === 0 }).id);
      await albums.addItems(alice, album.id, ids.slice(0, 1000));
      await albums.addItems(alice, album.id, ids.slice(1000));
      const visible = ids.filter((_, i) => i % 100 !== 0);
      expect((await albums.sharedAlbum(album.id)).mediaItemsCount).toBe(visible.length);
      expect(await sharedIds(album.id, 12, 100)).toEqual(visible.slice(1100, 1200));
      expect((await albums.get(alice, album.id)).mediaItemsCount).toBe(1203);
    });
  });
});
