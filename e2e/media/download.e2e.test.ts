/**
 * Downloading a selection as a ZIP (`POST /v1/mediaItems/download`), end to end: a real nats-server,
 * the compiled auth, media, worker, library services and gateway, real uploads, every answer
 * validated against openapi.yaml by the gateway, each archive unpacked with yauzl.
 * - one's own items, in the order asked, hidden and trashed ones too, byte for byte, stored, under
 *   unique names; any id that is not the caller's is a 404 before anything is sent;
 * - with `albumId`, what the album shows a member or its owner: other users' items too, never a
 *   trashed one nor someone else's hidden one; a stranger gets 404.
 */
import { noisePng } from '@trove/kit/testing/media';
import { startStack } from '@trove/kit/testing';
import type { Stack } from '@trove/kit/testing';
import { newUser, ok, status, uploadReady } from '../support/api';
import type { MediaItem, TestUser } from '../support/api';
import { unzip } from '../support/zip';

describe('downloading a selection as a ZIP (e2e)', () => {
  let stack: Stack;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  /** The owner's photos, with their bytes: two share a file name. */
  const mine: Array<{ item: MediaItem; bytes: Buffer }> = [];
  let theirs: { item: MediaItem; bytes: Buffer };
  let strangers: MediaItem;
  let albumId: string;

  const photo = async (user: TestUser, name: string, width: number) => {
    const bytes = await noisePng(width, 64);
    return { item: await uploadReady(user.api, bytes, name), bytes };
  };
  /** The raw answer of a download, read whole (the test's archives are small). */
  async function download(user: TestUser | null, body: unknown) {
    const res = await fetch(`${stack.gatewayUrl}/v1/mediaItems/download`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(user ? { Authorization: `Bearer ${user.token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }
  const refusal = async (user: TestUser | null, body: unknown) => {
    const res = await download(user, body);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return { status: res.status, message: (JSON.parse(res.body.toString()) as { message: string }).message };
  };

  beforeAll(async () => {
    stack = await startStack({ services: ['auth', 'media', 'worker', 'library', 'gateway'] });
    [owner, member, stranger] = await Promise.all([newUser(stack), newUser(stack), newUser(stack)]);
    for (const [name, width] of [
      ['beach.png', 96],
      ['same.png', 80],
      ['SAME.png', 72],
      ['hidden.png', 64],
      ['trashed.png', 56],
    ] as const)
      mine.push(await photo(owner, name, width));
    theirs = await photo(member, 'from-member.png', 88);
    strangers = (await photo(stranger, 'stranger.png', 60)).item;
    await ok(owner.api.POST('/v1/hidden', { body: { mediaItems: [mine[3]!.item.id] } }), 204);
    await ok(
      owner.api.PUT('/v1/mediaItems/{id}', {
        params: { path: { id: mine[0]!.item.id } },
        body: { creationTime: '2019-07-14T16:30:00+02:00' },
      }),
      204,
    );
    await ok(owner.api.POST('/v1/trash', { body: { mediaItems: [mine[4]!.item.id] } }), 204);

    const album = await ok(owner.api.POST('/v1/albums', { body: { name: 'Together' } }), 201);
    albumId = album.id;
    const path = { params: { path: { id: albumId } } };
    await ok(
      owner.api.POST('/v1/albums/{id}/members', { ...path, body: { username: member.username, role: 'contributor' } }),
      201,
    );
    await ok(
      owner.api.POST('/v1/albums/{id}/mediaItems', {
        ...path,
        body: { mediaItems: [mine[0]!.item.id, mine[3]!.item.id] },
      }),
      204,
    );
    await ok(member.api.POST('/v1/albums/{id}/mediaItems', { ...path, body: { mediaItems: [theirs.item.id] } }), 204);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("one's own items in the order asked, hidden and trashed too, byte for byte, under unique names", async () => {
    const [beach, same, SAME, hidden, trashed] = mine as [
      typeof theirs,
      typeof theirs,
      typeof theirs,
      typeof theirs,
      typeof theirs,
    ];
    const ids = [trashed, same, beach, SAME, hidden].map((p) => p.item.id);
    const res = await download(owner, { mediaItems: [...ids, beach.item.id] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="trove-5-items.zip"; filename*=UTF-8''trove-5-items.zip`,
    );
    const entries = await unzip(res.body);
    expect(entries.map((e) => e.name)).toEqual(['trashed.png', 'same.png', 'beach.png', 'SAME (2).png', 'hidden.png']);
    expect(entries.map((e) => e.method)).toEqual([0, 0, 0, 0, 0]);
    [trashed, same, beach, SAME, hidden].forEach((p, i) => expect(entries[i]!.bytes.equals(p.bytes)).toBe(true));
    // Each entry is dated when its item was taken (beach.png's date was set; the others', their upload).
    expect(entries[2]!.modified.getTime()).toBe(Date.parse('2019-07-14T14:30:00Z'));
    expect(Math.abs(entries[1]!.modified.getTime() - Date.parse(same.item.createdAt))).toBeLessThan(3000);
  });

  it('refuses, before sending anything, an id that is not the caller’s and a malformed selection', async () => {
    const own = mine[0]!.item.id;
    for (const other of [strangers.id, theirs.item.id, '00000000-0000-4000-8000-000000000000'])
      expect(await refusal(owner, { mediaItems: [own, other] })).toEqual({
        status: 404,
        message: 'mediaitem not found',
      });
    expect((await refusal(owner, { mediaItems: [] })).status).toBe(400);
    expect((await refusal(owner, { mediaItems: ['not-an-id'] })).status).toBe(400);
    expect((await refusal(owner, { mediaItems: [own], albumId: 'nope' })).status).toBe(400);
    const tooMany = Array.from({ length: 1001 }, () => crypto.randomUUID());
    expect((await refusal(owner, { mediaItems: tooMany })).status).toBe(400);
    expect((await refusal(null, { mediaItems: [own] })).status).toBe(401);
  });

  it("with albumId: what the album shows its owner and members, others' items too; nothing else", async () => {
    const [beach, , , hidden] = mine as [typeof theirs, typeof theirs, typeof theirs, typeof theirs];
    const fromAlbum = await download(member, { mediaItems: [theirs.item.id, beach.item.id], albumId });
    expect(fromAlbum.status).toBe(200);
    const entries = await unzip(fromAlbum.body);
    expect(entries.map((e) => e.name)).toEqual(['from-member.png', 'beach.png']);
    expect(entries[0]!.bytes.equals(theirs.bytes) && entries[1]!.bytes.equals(beach.bytes)).toBe(true);
    // The owner takes a member's item from the album; their own hidden one too.
    const owners = await download(owner, { mediaItems: [theirs.item.id, hidden.item.id], albumId });
    expect((await unzip(owners.body)).map((e) => e.name)).toEqual(['from-member.png', 'hidden.png']);

    const notFound = { status: 404, message: 'mediaitem not found' };
    // The owner's hidden item, one not in the album, and a trashed one are not the member's to take.
    expect(await refusal(member, { mediaItems: [hidden.item.id], albumId })).toEqual(notFound);
    expect(await refusal(member, { mediaItems: [mine[1]!.item.id], albumId })).toEqual(notFound);
    expect(await refusal(member, { mediaItems: [beach.item.id] })).toEqual(notFound);
    expect(await refusal(stranger, { mediaItems: [beach.item.id], albumId })).toEqual(notFound);
    expect(await refusal(member, { mediaItems: [beach.item.id], albumId: crypto.randomUUID() })).toEqual(notFound);
    await ok(owner.api.POST('/v1/trash', { body: { mediaItems: [beach.item.id] } }), 204);
    try {
      expect(await refusal(member, { mediaItems: [beach.item.id], albumId })).toEqual(notFound);
    } finally {
      await ok(owner.api.DELETE('/v1/trash', { body: { mediaItems: [beach.item.id] } }), 204);
    }
    // A member removed from the album takes nothing from it any more.
    expect(
      await status(
        owner.api.DELETE('/v1/albums/{id}/members/{userId}', { params: { path: { id: albumId, userId: member.id } } }),
      ),
    ).toBe(204);
    expect(await refusal(member, { mediaItems: [theirs.item.id, beach.item.id], albumId })).toEqual(notFound);
  });
});
