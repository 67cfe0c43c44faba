/**
 * The library as it runs in its process, minus the process: its RPC handlers and event consumers, wired
 * by the `wire()` main.ts runs, on a real nats-server (JetStream), its repository on the embedded store
 * (SQLite), and a stand-in media service answering `trove.v1.media.getMany` on the bus.
 */
import { randomUUID } from 'node:crypto';
import * as contracts from '@trove/proto-events';
import type { AlbumV1 } from '@trove/proto-events';
import { startBusRig, waitFor } from '@trove/kit/testing';
import type { BusRig } from '@trove/kit/testing';
import type { AlbumsRepository } from './albums/repository';
import { LIBRARY_CONSUMERS } from './events';
import { FakeMedia } from './ports/media.fake';
import { wire } from './wire';

describe('library over NATS: RPCs and media/user events', () => {
  let rig: BusRig;
  let repo: AlbumsRepository;
  const media = new FakeMedia();
  const alice = randomUUID();
  const bob = randomUUID();
  let msg = 0;

  beforeAll(async () => {
    rig = await startBusRig({ service: 'library', mediaItems: (userId, ids) => media.getMany(userId, ids) });
    const library = await wire({ bus: rig.bus, store: rig.store, log: rig.log });
    repo = library.repository;
    await rig.serveWiring(library);
  });
  afterAll(() => rig?.close());

  const publish = async (contract: typeof contracts.mediaTrashedEvent, userId: string, mediaItemId: string, at: Date) =>
    rig.client.publish(contract, { userId, mediaItemId, at: at.toISOString() }, { msgId: `test-${++msg}` });
  const album = (id: string) => rig.client.request(contracts.getAlbumRpc, { userId: alice, id });
  const items = async (id: string) =>
    (await rig.client.request(contracts.listAlbumMediaItemsRpc, { userId: alice, id, page: 1, limit: 100 })).items.map(
      (i) => i.id,
    );
  const summary = (a: AlbumV1) => ({ count: a.mediaItemsCount, cover: a.coverMediaItem?.id ?? null });

  it('answers album calls with the schema-checked shapes and the right errors', async () => {
    const x = media.add(alice);
    const created = await rig.client.request(contracts.createAlbumRpc, { userId: alice, name: 'Trip', shared: true });
    await rig.client.request(contracts.addAlbumMediaItemsRpc, {
      userId: alice,
      id: created.id,
      mediaItemIds: [x.id, x.id],
    });
    expect(summary(await album(created.id))).toEqual({ count: 1, cover: x.id });
    expect(
      (
        await rig.client.request(contracts.listAlbumsRpc, {
          userId: alice,
          sort: '-createdAt',
          page: 1,
          limit: 15,
          hidden: false,
        })
      ).albums.map((a) => a.id),
    ).toContain(created.id);
    expect(
      (await rig.client.request(contracts.listMediaItemAlbumsRpc, { userId: alice, mediaItemId: x.id })).albums.map(
        (a) => a.id,
      ),
    ).toEqual([created.id]);
    expect((await rig.client.request(contracts.getSharedAlbumRpc, { id: created.id })).coverMediaItem?.id).toBe(x.id);
    expect(
      (
        await rig.client.request(contracts.listSharedAlbumMediaItemsRpc, { id: created.id, page: 1, limit: 10 })
      ).items.map((i) => i.id),
    ).toEqual([x.id]);

    await expect(rig.client.request(contracts.getAlbumRpc, { userId: bob, id: created.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'album not found',
    });
    await expect(
      rig.client.request(contracts.addAlbumMediaItemsRpc, {
        userId: alice,
        id: created.id,
        mediaItemIds: [randomUUID()],
      }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'mediaitem not found',
    });
    await rig.client.request(contracts.updateAlbumRpc, { userId: alice, id: created.id, shared: false });
    await expect(rig.client.request(contracts.getSharedAlbumRpc, { id: created.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'shared link not found',
    });
    await rig.client.request(contracts.removeAlbumMediaItemsRpc, {
      userId: alice,
      id: created.id,
      mediaItemIds: [x.id],
    });
    expect(summary(await album(created.id))).toEqual({ count: 0, cover: null });
  });

  it('answers 503-style UNAVAILABLE when the media service does not answer', async () => {
    const created = await rig.client.request(contracts.createAlbumRpc, { userId: alice, name: 'No media' });
    await rig.stopMedia();
    try {
      await expect(
        rig.client.request(contracts.addAlbumMediaItemsRpc, {
          userId: alice,
          id: created.id,
          mediaItemIds: [randomUUID()],
        }),
      ).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    } finally {
      await rig.startMedia();
    }
  });

  it('follows trash, restore and purge in every album holding the item; replays and stale events change nothing', async () => {
    const [x, y] = [media.add(alice), media.add(alice)];
    const one = await rig.client.request(contracts.createAlbumRpc, { userId: alice, name: 'one' });
    const two = await rig.client.request(contracts.createAlbumRpc, { userId: alice, name: 'two' });
    await rig.client.request(contracts.addAlbumMediaItemsRpc, {
      userId: alice,
      id: one.id,
      mediaItemIds: [x.id, y.id],
    });
    await rig.client.request(contracts.addAlbumMediaItemsRpc, { userId: alice, id: two.id, mediaItemIds: [x.id] });
    const t0 = Date.now() + 1000;

    media.set(x.id, { deleted: true });
    await publish(contracts.mediaTrashedEvent, alice, x.id, new Date(t0));
    await waitFor(async () => (await album(two.id)).mediaItemsCount === 0, { what: 'trash applied' });
    expect(summary(await album(one.id))).toEqual({ count: 1, cover: y.id });
    expect(await items(one.id)).toEqual([y.id]);

    media.set(x.id, { deleted: false });
    await publish(contracts.mediaRestoredEvent, alice, x.id, new Date(t0 + 10));
    await waitFor(async () => (await album(two.id)).mediaItemsCount === 1, { what: 'restore applied' });
    expect(summary(await album(one.id))).toEqual({ count: 2, cover: x.id });

    // The same trash delivered again (a new message, as after a publisher retry past the
    // de-duplication window), then another user's event for the same id: nothing changes.
    await publish(contracts.mediaTrashedEvent, alice, x.id, new Date(t0));
    await publish(contracts.mediaTrashedEvent, bob, x.id, new Date(t0 + 20));
    // A marker event processed after them tells us they were handled.
    const marker = media.add(alice);
    await rig.client.request(contracts.addAlbumMediaItemsRpc, { userId: alice, id: two.id, mediaItemIds: [marker.id] });
    media.set(marker.id, { deleted: true });
    await publish(contracts.mediaTrashedEvent, alice, marker.id, new Date(t0 + 30));
    await waitFor(async () => (await items(two.id)).length === 1 && (await album(two.id)).mediaItemsCount === 1, {
      what: 'marker applied',
    });
    expect(await items(two.id)).toEqual([x.id]);
    expect(summary(await album(one.id))).toEqual({ count: 2, cover: x.id });

    media.purge(x.id);
    await publish(contracts.mediaPurgedEvent, alice, x.id, new Date(t0 + 40));
    await publish(contracts.mediaPurgedEvent, alice, x.id, new Date(t0 + 40));
    await waitFor(async () => (await album(one.id)).mediaItemsCount === 1, { what: 'purge applied' });
    expect(summary(await album(one.id))).toEqual({ count: 1, cover: y.id });
    expect(summary(await album(two.id))).toEqual({ count: 0, cover: null });
  });

  it("removes a deleted user's albums, and only theirs", async () => {
    const bobsItem = media.add(bob);
    const bobs = await rig.client.request(contracts.createAlbumRpc, {
      userId: bob,
      name: 'bob',
      coverMediaItemId: bobsItem.id,
    });
    const mine = await rig.client.request(contracts.createAlbumRpc, { userId: alice, name: 'mine' });
    await rig.client.publish(
      contracts.userDeletedEvent,
      { userId: bob, deletedAt: new Date().toISOString() },
      { msgId: `user-deleted-${bob}` },
    );
    await waitFor(
      async () =>
        (await rig.client.request(contracts.getAlbumRpc, { userId: bob, id: bobs.id }).catch(() => null)) === null,
      { what: 'user deletion applied' },
    );
    expect((await album(mine.id)).name).toBe('mine');
    expect(await repo.albumIdsHolding(bob, bobsItem.id)).toEqual([]);
  });

  it('never gives up on a user deletion: its consumer retries without a delivery limit', async () => {
    // A deletion dead-lettered after a few failed deliveries (stores down for minutes) would leave
    // the user's albums behind for good; the consumer must keep retrying instead.
    const jsm = await rig.client.nc.jetstreamManager();
    const info = await jsm.consumers.info(contracts.userDeletedEvent.stream, LIBRARY_CONSUMERS.userDeleted);
    expect(info.config.max_deliver).toBe(-1);
    const trashed = await jsm.consumers.info(contracts.mediaTrashedEvent.stream, LIBRARY_CONSUMERS.trashed);
    expect(trashed.config.max_deliver).toBeGreaterThan(0);
  });
});
