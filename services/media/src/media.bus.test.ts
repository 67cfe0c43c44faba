/**
 * The media service as it runs in its process, minus the process: its RPC handlers and event consumers, wired by
 * the `wire()` main.ts runs, on a real nats-server (JetStream), its items on the embedded store (SQLite) and its
 * blobs in a temporary directory.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { openBlobStore } from '@trove/kit';
import type { BlobStore } from '@trove/kit';
import { startBusRig, tempDir, waitFor } from '@trove/kit/testing';
import type { BusRig, TempDir } from '@trove/kit/testing';
import {
  createMediaItemRpc,
  getMediaItemRpc,
  mediaBlobKey,
  mediaProcessedEvent,
  setMediaFlagRpc,
  userDeletedEvent,
} from '@trove/proto-events';
import { MEDIA_CONSUMERS } from './events';
import { wire } from './wire';

describe('media over NATS: RPCs and user deletion', () => {
  let rig: BusRig;
  let dir: TempDir;
  let blobs: BlobStore;
  const alice = randomUUID();
  const bob = randomUUID();

  beforeAll(async () => {
    rig = await startBusRig({ service: 'media', mediaItems: async () => [] });
    await rig.stopMedia(); // the media service under test answers on the bus, not the rig's stand-in
    dir = await tempDir('trove-media-bus-');
    blobs = await openBlobStore({ dataDir: dir.path });
    const retention = { trashRetentionMs: 60_000, stuckAfterMs: 60_000 };
    await rig.serveWiring(await wire({ bus: rig.bus, store: rig.store, log: rig.log, blobs, ...retention }));
  });
  afterAll(async () => {
    await rig?.close();
    await dir?.remove();
  });

  const upload = async (userId: string) => {
    const id = randomUUID();
    const originalKey = mediaBlobKey(userId, id, 'original');
    await blobs.put(originalKey, Readable.from(Buffer.from(`original ${id}`)));
    const sha256 = randomUUID().replace(/-/g, '').repeat(2);
    const file = { filename: `${id}.jpg`, mimeType: 'image/jpeg', mediaItemType: 'photo' as const, size: 10 };
    return rig.client.request(createMediaItemRpc, { userId, id, ...file, sha256, originalKey });
  };
  const get = (userId: string, id: string) => rig.client.request(getMediaItemRpc, { userId, id });

  it("answers item calls, and another user's id is not found", async () => {
    const item = await upload(alice);
    await rig.client.request(setMediaFlagRpc, { userId: alice, ids: [item.id], flag: 'favourite', value: true });
    expect((await get(alice, item.id)).favourite).toBe(true);
    await expect(get(bob, item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("removes a deleted user's media, and only theirs", async () => {
    const bobs = await upload(bob);
    const mine = await upload(alice);
    const deletedAt = new Date().toISOString();
    await rig.client.publish(userDeletedEvent, { userId: bob, deletedAt }, { msgId: `user-deleted-${bob}` });
    const gone = () =>
      get(bob, bobs.id).then(
        () => false,
        () => true,
      );
    await waitFor(gone, { what: "bob's media removed" });
    expect((await get(alice, mine.id)).id).toBe(mine.id);
  });

  it('never gives up on a user deletion: its consumer retries without a delivery limit, the others are bounded', async () => {
    const jsm = await rig.client.nc.jetstreamManager();
    const info = (stream: string, durable: string) => jsm.consumers.info(stream, durable);
    expect((await info(userDeletedEvent.stream, MEDIA_CONSUMERS.userDeleted)).config.max_deliver).toBe(-1);
    expect((await info(mediaProcessedEvent.stream, MEDIA_CONSUMERS.processed)).config.max_deliver).toBeGreaterThan(0);
  });
});
