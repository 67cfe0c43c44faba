/**
 * Albums shared with other users of the server (members), end to end: a real nats-server, the
 * compiled auth, media, worker, library services and gateway as their own processes, real uploads,
 * every answer validated against openapi.yaml by the gateway. The owner shares one album with a
 * viewer and a contributor; a stranger stays outside.
 */
import { noisePng } from '@trove/kit/testing/media';
import { startStack, waitFor } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { answer, createApi, newUser, ok, status, uploadReady } from '../support/api';
import type { Album, MediaItem, TestUser } from '../support/api';

describe('albums shared with members (e2e)', () => {
  let stack: Stack;
  let owner: TestUser;
  let viewer: TestUser;
  let contributor: TestUser;
  let stranger: TestUser;
  /** The owner's photos: one shown, one to hide, one to trash. */
  let shown: MediaItem;
  let toHide: MediaItem;
  let toTrash: MediaItem;
  let contributed: MediaItem;
  let albumId: string;

  const uploadPhoto = async (user: TestUser, name: string) => uploadReady(user.api, await noisePng(), name);
  const byId = (id: string) => ({ params: { path: { id } } });
  const itemIds = async (user: TestUser) =>
    (await ok(user.api.GET('/v1/albums/{id}/mediaItems', byId(albumId)), 200)).map((i) => i.id);
  const items = (user: TestUser) => ok(user.api.GET('/v1/albums/{id}/mediaItems', byId(albumId)), 200);
  const addMember = (user: TestUser, username: string, role: 'viewer' | 'contributor') =>
    answer(user.api.POST('/v1/albums/{id}/members', { ...byId(albumId), body: { username, role } }));
  const addItems = (user: TestUser, ids: string[]) =>
    status(user.api.POST('/v1/albums/{id}/mediaItems', { ...byId(albumId), body: { mediaItems: ids } }));
  const removeItems = (user: TestUser, ids: string[]) =>
    status(user.api.DELETE('/v1/albums/{id}/mediaItems', { ...byId(albumId), body: { mediaItems: ids } }));
  const fetchStatus = async (url: string) => {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  };
  const listed = async (user: TestUser): Promise<Album[]> => ok(user.api.GET('/v1/albums'), 200);

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'library', 'gateway'] });
    owner = await newUser(stack, { name: 'Olive Owner' });
    [viewer, contributor, stranger] = await Promise.all([
      newUser(stack, { name: 'Vera Viewer' }),
      newUser(stack, { name: 'Carl Contributor' }),
      newUser(stack, { name: 'Sam Stranger' }),
    ]);
    [shown, toHide, toTrash] = await Promise.all(['a', 'b', 'c'].map((n) => uploadPhoto(owner, `owner-${n}.png`)));
    contributed = await uploadPhoto(contributor, 'carl.png');
    const album = await ok(owner.api.POST('/v1/albums', { body: { name: 'Holiday' } }), 201);
    albumId = album.id;
    expect(album).toMatchObject({ role: 'owner', owner: { id: owner.id, name: 'Olive Owner' } });
    expect(await addItems(owner, [shown.id, toHide.id, toTrash.id])).toBe(204);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('adds members by user name in both roles; only the owner manages them', async () => {
    const added = await addMember(owner, viewer.username.toUpperCase(), 'viewer');
    expect(added).toMatchObject({
      status: 201,
      body: { userId: viewer.id, name: 'Vera Viewer', username: viewer.username, role: 'viewer' },
    });
    expect((await addMember(owner, contributor.username, 'viewer')).status).toBe(201);
    // Adding again changes the role.
    expect((await addMember(owner, contributor.username, 'contributor')).body).toMatchObject({ role: 'contributor' });
    expect(await addMember(owner, 'no-such-user-here', 'viewer')).toMatchObject({
      status: 404,
      body: { message: 'user not found' },
    });
    expect((await addMember(owner, owner.username, 'viewer')).status).toBe(400);
    expect((await addMember(viewer, stranger.username, 'viewer')).status).toBe(403);
    expect((await addMember(stranger, stranger.username, 'viewer')).status).toBe(404);
    const members = await ok(owner.api.GET('/v1/albums/{id}/members', byId(albumId)), 200);
    expect(members.map((m) => [m.userId, m.role])).toEqual([
      [viewer.id, 'viewer'],
      [contributor.id, 'contributor'],
    ]);
    expect((await ok(viewer.api.GET('/v1/albums/{id}/members', byId(albumId)), 200)).length).toBe(2);
    expect(await status(stranger.api.GET('/v1/albums/{id}/members', byId(albumId)))).toBe(404);
    const removeOther = { params: { path: { id: albumId, userId: contributor.id } } };
    expect(await status(viewer.api.DELETE('/v1/albums/{id}/members/{userId}', removeOther))).toBe(403);
  });

  it('lists the shared album with the role and the owner; a stranger gets 404 everywhere', async () => {
    const ofViewer = (await listed(viewer)).find((a) => a.id === albumId);
    expect(ofViewer).toMatchObject({ role: 'viewer', owner: { id: owner.id, name: 'Olive Owner' }, name: 'Holiday' });
    expect((await listed(contributor)).find((a) => a.id === albumId)?.role).toBe('contributor');
    expect((await listed(owner)).find((a) => a.id === albumId)?.role).toBe('owner');
    expect((await listed(stranger)).find((a) => a.id === albumId)).toBeUndefined();
    expect(await ok(viewer.api.GET('/v1/albums/{id}', byId(albumId)), 200)).toMatchObject({ role: 'viewer' });
    expect(await status(stranger.api.GET('/v1/albums/{id}', byId(albumId)))).toBe(404);
    expect(await status(stranger.api.GET('/v1/albums/{id}/mediaItems', byId(albumId)))).toBe(404);
    expect(await addItems(stranger, [shown.id])).toBe(404);
  });

  it('keeps renaming, deleting, link sharing and the cover for the owner (403 for members)', async () => {
    for (const member of [viewer, contributor]) {
      const put = (body: { name?: string; shared?: boolean; coverMediaItemId?: string | null }) =>
        status(member.api.PUT('/v1/albums/{id}', { ...byId(albumId), body }));
      expect(await put({ name: 'Mine now' })).toBe(403);
      expect(await put({ shared: true })).toBe(403);
      expect(await put({ coverMediaItemId: shown.id })).toBe(403);
      expect(await status(member.api.DELETE('/v1/albums/{id}', byId(albumId)))).toBe(403);
    }
    expect(await ok(owner.api.GET('/v1/albums/{id}', byId(albumId)), 200)).toMatchObject({
      name: 'Holiday',
      shared: false,
    });
  });

  it('lets a contributor add and remove their own item, not the owner’s; a viewer adds nothing', async () => {
    const viewersPhoto = await uploadPhoto(viewer, 'vera.png');
    expect(await addItems(viewer, [viewersPhoto.id])).toBe(403);
    expect(await addItems(contributor, [shown.id])).toBe(404);
    expect(await addItems(contributor, [contributed.id])).toBe(204);
    for (const user of [owner, viewer, contributor]) expect(await itemIds(user)).toContain(contributed.id);
    // The owner may make it the album's cover; every member sees it so.
    const cover = { ...byId(albumId), body: { coverMediaItemId: contributed.id } };
    expect(await status(owner.api.PUT('/v1/albums/{id}', cover))).toBe(204);
    expect(await ok(viewer.api.GET('/v1/albums/{id}', byId(albumId)), 200)).toMatchObject({
      coverMediaItemId: contributed.id,
      coverMediaItem: { id: contributed.id },
    });
    expect(await removeItems(contributor, [shown.id])).toBe(403);
    expect(await removeItems(viewer, [contributed.id])).toBe(403);
    expect(await removeItems(contributor, [contributed.id])).toBe(204);
    expect(await itemIds(owner)).not.toContain(contributed.id);
    // Added again: it stays the contributor's (their library, their trash).
    expect(await addItems(contributor, [contributed.id])).toBe(204);
    const asOwnerSees = (await items(owner)).find((i) => i.id === contributed.id)!;
    expect(asOwnerSees.userId).toBe(contributor.id);
    expect(await fetchStatus(asOwnerSees.thumbnailUrl)).toBe(200);
  });

  it("hides the owner's hidden and trashed items from members, and a member's favourites are their own", async () => {
    expect(await status(owner.api.POST('/v1/hidden', { body: { mediaItems: [toHide.id] } }))).toBe(204);
    expect(await status(owner.api.POST('/v1/trash', { body: { mediaItems: [toTrash.id] } }))).toBe(204);
    await waitFor(async () => (await ok(viewer.api.GET('/v1/albums/{id}', byId(albumId)), 200)).mediaItemsCount === 2, {
      what: 'the viewer to count the shown item and the contributed one',
    });
    expect(await itemIds(viewer)).toEqual([shown.id, contributed.id]);
    expect(await itemIds(contributor)).toEqual([shown.id, contributed.id]);
    // The owner still sees their hidden item (never the trashed one).
    expect(await itemIds(owner)).toEqual([shown.id, toHide.id, contributed.id]);
    // Which asked items the album holds answers the same rule for each caller (an add picker marks them).
    const ask = (user: TestUser, mediaItems: string[]) =>
      user.api.POST('/v1/albums/{id}/mediaItems/exist', { ...byId(albumId), body: { mediaItems } });
    const held = async (user: TestUser, asked: string[]) => (await ok(ask(user, asked), 200)).mediaItems.sort();
    expect(await held(owner, [shown.id, toHide.id, toTrash.id, contributed.id])).toEqual(
      [shown.id, toHide.id, contributed.id].sort(),
    );
    expect(await held(viewer, [shown.id, contributed.id])).toEqual([shown.id, contributed.id].sort());
    // An item the caller cannot see is not found, exactly as one that does not exist.
    const unknown = '00000000-0000-4000-8000-000000000000';
    const { status: hiddenStatus, body: hiddenBody } = await answer(ask(viewer, [shown.id, toHide.id]));
    expect({ status: hiddenStatus, body: hiddenBody }).toMatchObject({
      status: 404,
      body: { message: expect.any(String) },
    });
    const { status: unknownStatus, body: unknownBody } = await answer(ask(viewer, [shown.id, unknown]));
    expect({ status: unknownStatus, body: unknownBody }).toEqual({ status: hiddenStatus, body: hiddenBody });
    expect(await status(ask(stranger, [shown.id]))).toBe(404);
    expect(await answer(ask(owner, ['not-an-id']))).toMatchObject({
      status: 400,
      body: { message: expect.any(String) },
    });
    // A member cannot make the owner's item a favourite of theirs, nor change the owner's.
    expect(await status(viewer.api.POST('/v1/favourites', { body: { mediaItems: [shown.id] } }))).toBe(404);
    expect((await ok(owner.api.GET('/v1/mediaItems/{id}', byId(shown.id)), 200)).favourite).toBe(false);
  });

  it("shows a link's visitors the items a contributor added, with content URLs that open", async () => {
    expect(await status(owner.api.PUT('/v1/albums/{id}', { ...byId(albumId), body: { shared: true } }))).toBe(204);
    const visitor = createApi(stack.gatewayUrl);
    const seen = await ok(visitor.GET('/v1/sharing/{id}/mediaItems', byId(albumId)), 200);
    expect(seen.map((i) => i.id)).toEqual([shown.id, contributed.id]);
    expect((await ok(visitor.GET('/v1/sharing/{id}', byId(albumId)), 200)).mediaItemsCount).toBe(2);
    const theirs = seen.find((i) => i.id === contributed.id)!;
    expect(await fetchStatus(theirs.thumbnailUrl)).toBe(200);
    expect(await fetchStatus(theirs.previewUrl)).toBe(200);
    // The owner's switches hold for every item: locations are not shared, so no original.
    expect(theirs.sourceUrl).toBeNull();
    expect(await status(owner.api.PUT('/v1/albums/{id}', { ...byId(albumId), body: { shared: false } }))).toBe(204);
    expect(await fetchStatus(theirs.thumbnailUrl)).toBe(404);
  });

  it("serves a member the album's content URLs until they are removed", async () => {
    const item = (await items(viewer)).find((i) => i.id === shown.id)!;
    expect(new URL(item.thumbnailUrl).searchParams.get('album')).toBe(albumId);
    for (const url of [item.thumbnailUrl, item.previewUrl, item.sourceUrl]) expect(await fetchStatus(url)).toBe(200);
    // The same URL with the album claim dropped no longer matches its signature.
    const stripped = new URL(item.thumbnailUrl);
    stripped.searchParams.delete('album');
    expect(await fetchStatus(stripped.toString())).toBe(401);
    const remove = { params: { path: { id: albumId, userId: viewer.id } } };
    expect(await status(owner.api.DELETE('/v1/albums/{id}/members/{userId}', remove))).toBe(204);
    for (const url of [item.thumbnailUrl, item.previewUrl, item.sourceUrl]) expect(await fetchStatus(url)).toBe(404);
    expect(await status(viewer.api.GET('/v1/albums/{id}', byId(albumId)))).toBe(404);
    expect((await listed(viewer)).find((a) => a.id === albumId)).toBeUndefined();
  });

  it('lets a member remove themself; their item stays in the album and in their library', async () => {
    const leave = { params: { path: { id: albumId, userId: contributor.id } } };
    expect(await status(contributor.api.DELETE('/v1/albums/{id}/members/{userId}', leave))).toBe(204);
    expect(await status(contributor.api.GET('/v1/albums/{id}', byId(albumId)))).toBe(404);
    expect(await status(contributor.api.DELETE('/v1/albums/{id}/members/{userId}', leave))).toBe(404);
    expect(await ok(owner.api.GET('/v1/albums/{id}/members', byId(albumId)), 200)).toEqual([]);
    expect(await itemIds(owner)).toContain(contributed.id);
    expect((await ok(contributor.api.GET('/v1/mediaItems/{id}', byId(contributed.id)), 200)).id).toBe(contributed.id);
  });
});
