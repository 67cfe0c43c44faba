/**
 * Live Photos end to end: a real nats-server; auth, gateway, media and a worker from
 * their compiled entry points; every answer validated against openapi.yaml by the gateway. The
 * still is the real iPhone HEIC; its motion part is a MOV made here with ffmpeg, carrying the
 * HEIC's pairing id as com.apple.quicktime.content.identifier, as an iPhone writes it.
 */
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { startStack, tempDir, waitFor } from '@trove/kit/testing';
import type { Stack, TempDir } from '@trove/kit/testing';
import {
  describeWithFixtures,
  HEIC_FIXTURE_FACTS,
  HEIC_FIXTURE_PAIRING_ID,
  ffmpeg,
  heicFixture,
  testClipArgs,
} from '@trove/kit/testing/media';
import { getItem, newUser, ok, settled, upload, uploadReady } from '../support/api';
import type { Api, MediaItem } from '../support/api';
import { unzip } from '../support/zip';

describeWithFixtures('Live Photos (e2e)', () => {
  let stack: Stack;
  let tmp: TempDir;
  let heic: Buffer;
  let mov: Buffer;

  beforeAll(async () => {
    tmp = await tempDir('trove-live-e2e-');
    // One media process: the embedded document store is one process's (concurrent replicas are the unit tests').
    stack = await startStack({ services: ['auth', 'gateway', 'media', 'worker'] });
    heic = await heicFixture();
    const file = join(tmp.path, 'IMG_0543.MOV');
    await ffmpeg([
      ...testClipArgs({ seconds: 1, size: '160x120', audio: false }),
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-f', 'mov'],
      ...[
        '-movflags',
        'use_metadata_tags',
        '-metadata',
        `com.apple.quicktime.content.identifier=${HEIC_FIXTURE_PAIRING_ID}`,
      ],
      file,
    ]);
    mov = await readFile(file);
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
    await tmp?.remove();
  });

  const library = async (api: Api) =>
    (await ok(api.GET('/v1/mediaItems', { params: { query: { limit: 100 } } }), 200)).map((i) => i.id);
  /** The still once it is paired (the pairing follows the second result, on either replica). */
  const paired = (api: Api, id: string) =>
    waitFor(
      async () => {
        const item = await getItem(api, id);
        return item.motionMediaItemId ? item : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: `item ${id} to be paired with its motion part` },
    );

  async function expectLivePhoto(api: Api, still: MediaItem, motionId: string) {
    // What a client of the original API expects of the HEIC still holds, now with the category it earned.
    expect(still).toMatchObject({
      ...HEIC_FIXTURE_FACTS,
      status: 'READY',
      mimeType: 'image/heic',
      mediaItemType: 'photo',
      mediaItemCategory: 'live',
      motionMediaItemId: motionId,
    });
    expect(await library(api)).toEqual([still.id]);
    // The motion part plays from the still's signed URL, without a token.
    const motion = await fetch(still.motionUrl!);
    expect(motion.status).toBe(200);
    expect(motion.headers.get('content-type')).toMatch(/^video\//);
    expect((await motion.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // Left out of lists, reachable by id.
    expect(await getItem(api, motionId)).toMatchObject({
      id: motionId,
      mediaItemType: 'video',
      status: 'READY',
      motionMediaItemId: null,
      motionUrl: null,
    });
    expect(await ok(api.GET('/v1/mediaItems', { params: { query: { type: 'video' } } }), 200)).toEqual([]);
  }

  it('the HEIC alone is an ordinary photo; its MOV uploaded next makes it live, linked to the MOV, and the library lists one item', async () => {
    const { api } = await newUser(stack);
    const still = await uploadReady(api, heic, 'IMG_0543.HEIC', 90_000);
    expect(still).toMatchObject({
      ...HEIC_FIXTURE_FACTS,
      status: 'READY',
      mediaItemCategory: 'default',
      motionMediaItemId: null,
      motionUrl: null,
    });
    expect(await library(api)).toEqual([still.id]);

    const { id: motionId } = await ok(upload(api, mov, 'IMG_0543.MOV'), 201);
    await expectLivePhoto(api, await paired(api, still.id), motionId);

    // Downloading the still takes its motion part along, once, even when both are asked for.
    for (const mediaItems of [[still.id], [still.id, motionId]]) {
      const zip = await ok(api.POST('/v1/mediaItems/download', { body: { mediaItems }, parseAs: 'arrayBuffer' }), 200);
      const entries = await unzip(Buffer.from(zip));
      expect(entries.map((e) => e.name)).toEqual(['IMG_0543.HEIC', 'IMG_0543.MOV']);
      expect(entries[0]!.bytes.equals(heic) && entries[1]!.bytes.equals(mov)).toBe(true);
    }

    // Trash and restore of the still take its motion part along; the trash lists the still only.
    await ok(api.DELETE('/v1/mediaItems/{id}', { params: { path: { id: still.id } } }), 204);
    expect(await getItem(api, motionId)).toMatchObject({ deleted: true });
    expect((await ok(api.GET('/v1/trash', {}), 200)).map((i) => i.id)).toEqual([still.id]);
    await ok(api.DELETE('/v1/trash', { body: { mediaItems: [still.id] } }), 204);
    expect(await getItem(api, motionId)).toMatchObject({ deleted: false });
    expect(await library(api)).toEqual([still.id]);
  }, 240_000);

  it('the other order: the MOV alone is listed; the HEIC uploaded next becomes live and the MOV leaves the list', async () => {
    const { api } = await newUser(stack);
    const motion = await uploadReady(api, mov, 'IMG_0543.MOV', 90_000);
    expect(motion).toMatchObject({ mediaItemType: 'video', mediaItemCategory: 'default', motionMediaItemId: null });
    expect(await library(api)).toEqual([motion.id]);

    const { id: stillId } = await ok(upload(api, heic, 'IMG_0543.HEIC'), 201);
    await settled(api, stillId, 90_000);
    await expectLivePhoto(api, await paired(api, stillId), motion.id);
  }, 240_000);
});
