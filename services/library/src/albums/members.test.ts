import { randomUUID } from 'node:crypto';
import type { MediaItemV1 } from '@trove/proto-events';
import { AppError } from '@trove/kit';
import { docStorePerTest } from '@trove/kit/testing';
import { FakeMedia } from '../ports/media.fake';
import { AlbumsRepository } from './repository';
import { AlbumsService } from './service';

/** The error code a call fails with (or 'ok'). */
async function outcome(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'ok';
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
}

describe('albums shared with members (viewer, contributor) on the embedded store and a fake media service', () => {
  const db = docStorePerTest('library');
  let repo: AlbumsRepository;
  let media: FakeMedia;
  let albums: AlbumsService;
  const owner = randomUUID();
  const viewer = randomUUID();
  const contributor = randomUUID();
  const stranger = randomUUID();
  let albumId: string;

  beforeEach(async () => {
    repo = await AlbumsRepository.open(db.store);
    media = new FakeMedia();
    albums = new AlbumsService(repo, media);
    albumId = (await albums.create({ userId: owner, name: 'Holiday' })).id;
    await albums.addMember(owner, albumId, viewer, 'viewer');
    await albums.addMember(owner, albumId, contributor, 'contributor');
  });

  const ids = async (userId: string) =>
    (await albums.listItems({ userId, id: albumId, page: 1, limit: 100 })).map((i) => i.id);

  it('lists the album for its members with their role, and not for a stranger', async () => {
    const mine = await albums.create({ userId: viewer, name: 'Mine' });
    const listed = await albums.list({ userId: viewer, sort: 'name', page: 1, limit: 50, hidden: false });
    expect(listed.map((a) => [a.name, a.role, a.userId])).toEqual([
      ['Holiday', 'viewer', owner],
      ['Mine', 'owner', viewer],
    ]);
    expect(mine.role).toBe('owner');
    expect((await albums.get(contributor, albumId)).role).toBe('contributor');
    expect(await albums.list({ userId: stranger, sort: 'name', page: 1, limit: 50, hidden: false })).toEqual([]);
    expect(await outcome(albums.get(stranger, albumId))).toBe('NOT_FOUND');
    expect(await outcome(albums.listItems({ userId: stranger, id: albumId, page: 1, limit: 10 }))).toBe('NOT_FOUND');
  });

  it('lets only the owner manage members: a member is forbidden, a stranger not found, the owner themself a bad request', async () => {
    expect(await outcome(albums.addMember(viewer, albumId, stranger, 'viewer'))).toBe('FORBIDDEN');
    expect(await outcome(albums.addMember(stranger, albumId, viewer, 'viewer'))).toBe('NOT_FOUND');
    expect(await outcome(albums.addMember(owner, albumId, owner, 'viewer'))).toBe('BAD_REQUEST');
    expect(await outcome(albums.removeMember(viewer, albumId, contributor))).toBe('FORBIDDEN');
    // Adding again changes the role (both were added in the same millisecond: compared without their order).
    await albums.addMember(owner, albumId, viewer, 'contributor');
    const roles = (await albums.listMembers(viewer, albumId)).map((m) => [m.userId, m.role]);
    expect(roles.sort()).toEqual(
      [
        [viewer, 'contributor'],
        [contributor, 'contributor'],
      ].sort(),
    );
    expect(await outcome(albums.listMembers(stranger, albumId))).toBe('NOT_FOUND');
  });

  it('keeps renaming, deleting, the link and the cover for the owner', async () => {
    for (const who of [viewer, contributor]) {
      expect(await outcome(albums.update({ userId: who, id: albumId, name: 'Mine now' }))).toBe('FORBIDDEN');
      expect(await outcome(albums.update({ userId: who, id: albumId, shared: true }))).toBe('FORBIDDEN');
      expect(await outcome(albums.update({ userId: who, id: albumId, coverMediaItemId: null }))).toBe('FORBIDDEN');
      expect(await outcome(albums.delete(who, albumId))).toBe('FORBIDDEN');
    }
    expect(await outcome(albums.update({ userId: stranger, id: albumId, name: 'x' }))).toBe('NOT_FOUND');
    expect((await albums.get(owner, albumId)).name).toBe('Holiday');
  });

  it('lets the owner make an item a contributor added the cover, which every member then sees; not one hidden or trashed', async () => {
    const ownersItem = media.add(owner);
    const theirs = media.add(contributor);
    const theirsHidden = media.add(contributor, { hidden: true });
    const theirsTrashed = media.add(contributor);
    const outside = media.add(contributor);
    await albums.addItems(owner, albumId, [ownersItem.id]);
    await albums.addItems(contributor, albumId, [theirs.id, theirsHidden.id, theirsTrashed.id]);
    media.set(theirsTrashed.id, { deleted: true });
    await albums.itemTrashed(contributor, theirsTrashed.id, true, new Date(Date.now() + 60_000));
    for (const cover of [theirsHidden.id, theirsTrashed.id, outside.id, randomUUID()])
      expect(await outcome(albums.update({ userId: owner, id: albumId, coverMediaItemId: cover }))).toBe('NOT_FOUND');
    await albums.update({ userId: owner, id: albumId, coverMediaItemId: theirs.id });
    for (const who of [owner, viewer, contributor]) {
      const album = await albums.get(who, albumId);
      expect({ who, cover: album.coverMediaItemId, item: album.coverMediaItem?.id }).toEqual({
        who,
        cover: theirs.id,
        item: theirs.id,
      });
    }
    // Hidden by its owner afterwards: the cover falls back to the first item for everyone but them.
    media.set(theirs.id, { hidden: true });
    await albums.itemChanged(contributor, theirs.id);
    expect((await albums.get(viewer, albumId)).coverMediaItem?.id).toBe(ownersItem.id);
  });

  it('lets a contributor add and remove their own items, not the owner’s; a viewer adds nothing', async () => {
    const ownersItem = media.add(owner);
    const theirs = media.add(contributor);
    const viewersItem = media.add(viewer);
    await albums.addItems(owner, albumId, [ownersItem.id]);
    expect(await outcome(albums.addItems(viewer, albumId, [viewersItem.id]))).toBe('FORBIDDEN');
    // A contributor adds only their own items.
    expect(await outcome(albums.addItems(contributor, albumId, [ownersItem.id, theirs.id]))).toBe('NOT_FOUND');
    await albums.addItems(contributor, albumId, [theirs.id]);
    for (const who of [owner, viewer, contributor]) expect(await ids(who)).toEqual([ownersItem.id, theirs.id]);
    expect((await albums.get(viewer, albumId)).mediaItemsCount).toBe(2);

    expect(await outcome(albums.removeItems(contributor, albumId, [ownersItem.id]))).toBe('FORBIDDEN');
    expect(await outcome(albums.removeItems(viewer, albumId, [theirs.id]))).toBe('FORBIDDEN');
    await albums.removeItems(contributor, albumId, [theirs.id]);
    expect(await ids(owner)).toEqual([ownersItem.id]);
    // The owner removes a contributor's item too.
    await albums.addItems(contributor, albumId, [theirs.id]);
    await albums.removeItems(owner, albumId, [theirs.id]);
    expect(await ids(contributor)).toEqual([ownersItem.id]);
  });

  it("shows members neither the owner's hidden nor trashed items; each sees their own hidden ones", async () => {
    const shown = media.add(owner);
    const hidden = media.add(owner, { hidden: true });
    const trashed = media.add(owner);
    const contributorsHidden = media.add(contributor, { hidden: true });
    await albums.addItems(owner, albumId, [shown.id, hidden.id, trashed.id]);
    await albums.addItems(contributor, albumId, [contributorsHidden.id]);
    media.set(trashed.id, { deleted: true });
    await albums.itemTrashed(owner, trashed.id, true, new Date(Date.now() + 60_000));
    expect(await ids(owner)).toEqual([shown.id, hidden.id]);
    expect(await ids(viewer)).toEqual([shown.id]);
    expect(await ids(contributor)).toEqual([shown.id, contributorsHidden.id]);
    expect((await albums.get(viewer, albumId)).mediaItemsCount).toBe(1);
    // Content: the same rule, answering the item's owner.
    expect(await albums.memberContent(viewer, albumId, shown.id)).toEqual({
      userId: owner,
      itemUserId: owner,
      shareLocation: false,
      shareAllowDownload: true,
      shareKey: null,
    });
    expect(await outcome(albums.memberContent(viewer, albumId, hidden.id))).toBe('NOT_FOUND');
    expect(await outcome(albums.memberContent(viewer, albumId, trashed.id))).toBe('NOT_FOUND');
    expect(await albums.memberContent(owner, albumId, contributorsHidden.id).catch(() => 'gone')).toBe('gone');
    expect(await outcome(albums.memberContent(stranger, albumId, shown.id))).toBe('NOT_FOUND');
  });

  it('answers which asked items the album holds as each caller sees it (an add picker marks them), to members only', async () => {
    const shown = media.add(owner);
    const hidden = media.add(owner, { hidden: true });
    const trashed = media.add(owner);
    const theirs = media.add(contributor);
    const theirsHidden = media.add(contributor, { hidden: true });
    const outside = media.add(owner);
    await albums.addItems(owner, albumId, [shown.id, hidden.id, trashed.id]);
    await albums.addItems(contributor, albumId, [theirs.id, theirsHidden.id]);
    media.set(trashed.id, { deleted: true });
    await albums.itemTrashed(owner, trashed.id, true, new Date(Date.now() + 60_000));
    const held = async (who: string, asked: string[]) => (await albums.itemsHeld(who, albumId, asked)).sort();
    // The caller's own items outside the album (or trashed in it) are answered as not held.
    expect(await held(owner, [shown.id, hidden.id, trashed.id, theirs.id, outside.id, shown.id])).toEqual(
      [shown.id, hidden.id, theirs.id].sort(),
    );
    expect(await held(contributor, [shown.id, theirs.id, theirsHidden.id])).toEqual(
      [shown.id, theirs.id, theirsHidden.id].sort(),
    );
    expect(await held(viewer, [shown.id, theirs.id])).toEqual([shown.id, theirs.id].sort());
    // An item the caller cannot see (another's hidden or trashed one, one outside the album that is not theirs,
    // one that does not exist) is not found, as in every call naming items.
    for (const [who, id] of [
      [viewer, hidden.id],
      [viewer, trashed.id],
      [owner, theirsHidden.id],
      [contributor, outside.id],
      [owner, randomUUID()],
    ] as const) {
      expect(await outcome(albums.itemsHeld(who, albumId, [shown.id, id]))).toBe('NOT_FOUND');
    }
    // Restored: held again.
    media.set(trashed.id, { deleted: false });
    await albums.itemTrashed(owner, trashed.id, false, new Date(Date.now() + 120_000));
    expect(await held(viewer, [shown.id, trashed.id, theirs.id])).toEqual([shown.id, trashed.id, theirs.id].sort());
    expect(await outcome(albums.itemsHeld(stranger, albumId, [shown.id]))).toBe('NOT_FOUND');
    expect(await outcome(albums.itemsHeld(owner, randomUUID(), [shown.id]))).toBe('NOT_FOUND');
  });

  it('shows a link’s visitors the items contributors added, under the owner’s switches; their hidden ones never', async () => {
    const located = (item: MediaItemV1, latitude: number, longitude: number) =>
      media.set(item.id, { metadata: { ...item.metadata, latitude, longitude } });
    const owners = media.add(owner);
    const theirs = media.add(contributor);
    located(owners, 48.85, 2.35);
    located(theirs, 45.76, 4.83);
    const theirsHidden = media.add(contributor, { hidden: true });
    await albums.addItems(owner, albumId, [owners.id]);
    await albums.addItems(contributor, albumId, [theirs.id, theirsHidden.id]);
    await albums.update({ userId: owner, id: albumId, shared: true });
    const shared = await albums.sharedItems(albumId, 1, 10);
    expect(shared.items.map((i) => [i.id, i.userId])).toEqual([
      [owners.id, owner],
      [theirs.id, contributor],
    ]);
    // Locations follow the owner's switch, for everyone's items.
    expect(shared.items.map((i) => i.metadata.latitude)).toEqual([null, null]);
    expect((await albums.sharedAlbum(albumId)).mediaItemsCount).toBe(2);
    // Content: the album's owner (whose link and switches these are) and the item's own owner.
    expect(await albums.sharedContent(albumId, theirs.id)).toMatchObject({ userId: owner, itemUserId: contributor });
    expect(await outcome(albums.sharedContent(albumId, theirsHidden.id))).toBe('NOT_FOUND');
  });

  it('ends access at once when a member is removed or removes themself', async () => {
    const item = media.add(owner);
    await albums.addItems(owner, albumId, [item.id]);
    await albums.removeMember(owner, albumId, viewer);
    expect(await outcome(albums.get(viewer, albumId))).toBe('NOT_FOUND');
    expect(await outcome(albums.memberContent(viewer, albumId, item.id))).toBe('NOT_FOUND');
    await albums.removeMember(contributor, albumId, contributor);
    expect(await outcome(albums.listItems({ userId: contributor, id: albumId, page: 1, limit: 10 }))).toBe('NOT_FOUND');
    expect(await outcome(albums.removeMember(owner, albumId, contributor))).toBe('NOT_FOUND');
    expect(await albums.listMembers(owner, albumId)).toEqual([]);
  });

  it('takes contributed items and memberships along when the album or a user is deleted; the items stay their adders', async () => {
    const theirs = media.add(contributor);
    await albums.addItems(contributor, albumId, [theirs.id]);
    expect((await albums.albumsOfItem(contributor, theirs.id)).map((a) => [a.id, a.role])).toEqual([
      [albumId, 'contributor'],
    ]);
    await albums.delete(owner, albumId);
    expect(await albums.albumsOfItem(contributor, theirs.id)).toEqual([]);
    expect(await albums.list({ userId: viewer, sort: 'name', page: 1, limit: 50, hidden: false })).toEqual([]);

    const second = (await albums.create({ userId: owner, name: 'Second' })).id;
    await albums.addMember(owner, second, contributor, 'contributor');
    await albums.userDeleted(contributor);
    expect(await albums.listMembers(owner, second)).toEqual([]);
  });
});
