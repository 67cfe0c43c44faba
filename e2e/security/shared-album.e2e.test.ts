/**
 * Security M1, L1–L4: the public shared-album view, attacked as a visitor would. A real stack (auth,
 * media, a worker, library, gateway) processes a geotagged JPEG, a geotagged web-playable MP4 (which
 * would be served as its own preview), a geotagged MOV that needs a transcode and, with the shared
 * phone photos, a Live Photo whose motion part carries a position. Then, as a visitor:
 * - M1: every byte stream a visitor can fetch is read with ExifTool: no GPS tag in any of them;
 * - L1: URLs obtained earlier stop opening at once when the album is unshared, the item hidden,
 *   trashed or removed, or locations hidden again;
 * - L2: a page past the bound is refused;
 * - L3: the answers carry nothing of the owner (id, file names, flags, failure reasons);
 * - L4: the owner's `sharing` feature switched off answers 404 everywhere at once.
 */
import { join } from 'node:path';
import { readFile, writeFile } from 'node:fs/promises';
import { ExifTool } from 'exiftool-vendored';
import type { components } from '@trove/openapi';
import { startStack, tempDir, waitFor } from '@trove/kit/testing';
import type { Stack, TempDir } from '@trove/kit/testing';
import {
  H264_ARGS,
  HEIC_FIXTURE_PAIRING_ID,
  ffmpeg,
  fixturesPresent,
  heicFixture,
  jpegAt,
  testClipArgs,
} from '@trove/kit/testing/media';
import { adminApi, answer, createApi, getItem, newUser, ok, upload, uploadReady } from '../support/api';
import type { Api, MediaItem, TestUser } from '../support/api';

type SharedAlbum = components['schemas']['SharedAlbum'];
type SharedMediaItem = components['schemas']['SharedMediaItem'];

const AMSTERDAM = '+52.3702+004.8952/';

describe('the public shared-album view (security e2e)', () => {
  let stack: Stack;
  let tmp: TempDir;
  let owner: TestUser;
  let visitor: Api;
  let exiftool: ExifTool;
  let items: MediaItem[];
  let albumId: string;

  /** A clip made here with ffmpeg carrying a GPS position in its container metadata. */
  async function clip(name: string, codec: string[], extra: string[] = []): Promise<Buffer> {
    const file = join(tmp.path, name);
    await ffmpeg([
      ...testClipArgs({ seconds: 1, size: '160x120', audio: false }),
      ...codec,
      '-metadata',
      `location=${AMSTERDAM}`,
      ...extra,
      file,
    ]);
    return readFile(file);
  }

  /** The GPS tags ExifTool finds in a byte stream (none is what a visitor must get). */
  async function gpsTags(bytes: Buffer, name: string): Promise<string[]> {
    const file = join(tmp.path, `fetched-${Date.now()}-${name}`);
    await writeFile(file, bytes);
    const tags = (await exiftool.read(file, ['-G1', '-a'])) as unknown as Record<string, unknown>;
    return Object.keys(tags).filter(
      (k) => /gps|location|ISO6709/i.test(k) && !/^(SourceFile|errors|warnings)$/.test(k),
    );
  }

  const sharedAlbum = () => answer(visitor.GET('/v1/sharing/{id}', { params: { path: { id: albumId } } }));
  const sharedItems = (query: { page?: number; limit?: number } = {}) =>
    answer(
      visitor.GET('/v1/sharing/{id}/mediaItems', {
        params: { path: { id: albumId }, query: { limit: 100, ...query } },
      }),
    );
  const setAlbum = (body: { shared?: boolean; shareLocation?: boolean }) =>
    ok(owner.api.PUT('/v1/albums/{id}', { params: { path: { id: albumId } }, body }), 204);
  /** Every content URL a visitor is handed, from both calls. */
  async function visitorUrls(): Promise<string[]> {
    const album = (await sharedAlbum()).body as SharedAlbum;
    const listed = (await sharedItems()).body as SharedMediaItem[];
    return [album.coverMediaItem!, ...listed]
      .flatMap((i) => [i.sourceUrl, i.previewUrl, i.thumbnailUrl, i.motionUrl])
      .filter((u): u is string => u !== null);
  }
  const fetchStatus = async (url: string) => {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  };

  beforeAll(async () => {
    tmp = await tempDir('trove-shared-e2e-');
    exiftool = new ExifTool({ maxProcs: 1 });
    stack = await startStack({
      services: ['auth', 'media', 'worker', 'library', 'gateway'],
      serviceEnv: { gateway: { TROVE_SHARING_RATE_LIMIT: '100000' } },
    });
    owner = await newUser(stack);
    visitor = createApi(stack.gatewayUrl);
    const photo = await uploadReady(owner.api, await jpegAt(52.3702, 4.8952), 'IMG_amsterdam.jpg');
    const playable = await uploadReady(
      owner.api,
      await clip('playable.mp4', [...H264_ARGS, '-movflags', '+faststart']),
      'VID_playable.mp4',
    );
    const transcoded = await uploadReady(owner.api, await clip('old.mov', ['-c:v', 'mpeg4']), 'VID_old.mov');
    items = [photo, playable, transcoded];
    for (const item of items) expect(item.latitude).toBeCloseTo(52.37, 2);
    if (fixturesPresent()) {
      // A Live Photo: the iPhone HEIC and a motion part with the same pairing id and a position.
      const still = await uploadReady(owner.api, await heicFixture(), 'IMG_0543.HEIC', 90_000);
      const mov = await clip(
        'IMG_0543.MOV',
        [...H264_ARGS, '-f', 'mov', '-movflags', 'use_metadata_tags'],
        ['-metadata', `com.apple.quicktime.content.identifier=${HEIC_FIXTURE_PAIRING_ID}`],
      );
      await ok(upload(owner.api, mov, 'IMG_0543.MOV'), 201);
      const live = await waitFor(
        async () => ((await getItem(owner.api, still.id)).motionMediaItemId ? getItem(owner.api, still.id) : undefined),
        { timeoutMs: 60_000, intervalMs: 200, what: 'the Live Photo to pair' },
      );
      items.push(live);
    } else {
      process.stderr.write('shared-album security e2e: the Live Photo case is skipped (no shared phone photos)\n');
    }
    const album = await ok(owner.api.POST('/v1/albums', { body: { name: 'Amsterdam', shared: true } }), 201);
    albumId = album.id;
    await ok(
      owner.api.POST('/v1/albums/{id}/mediaItems', {
        params: { path: { id: albumId } },
        body: { mediaItems: items.map((i) => i.id) },
      }),
      204,
    );
  }, 240_000);

  afterAll(async () => {
    await exiftool?.end();
    await stack?.stop();
    await tmp?.remove();
  });

  it('M1: with locations hidden, no byte stream a visitor can fetch carries a GPS position', async () => {
    const listed = (await sharedItems()).body as SharedMediaItem[];
    expect(listed.map((i) => i.id)).toEqual(items.map((i) => i.id));
    for (const item of listed) expect(item).toMatchObject({ sourceUrl: null, latitude: null, longitude: null });
    const urls = await visitorUrls();
    // Previews and thumbnails of each item, the motion part's video of the Live Photo.
    expect(urls.length).toBe((1 + listed.length) * 2 + listed.filter((i) => i.motionUrl).length);
    for (const url of urls) {
      const res = await fetch(url);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      const bytes = Buffer.from(await res.arrayBuffer());
      expect({ url, gps: await gpsTags(bytes, new URL(url).pathname.split('/').slice(-2).join('-')) }).toEqual({
        url,
        gps: [],
      });
      // Not even the position's digits in a tag ExifTool does not know.
      expect({ url, raw: bytes.includes(Buffer.from('+52.3702')) }).toEqual({ url, raw: false });
    }
    // The attack on the original: its path with a preview's signature opens nothing.
    const preview = new URL(listed[0]!.previewUrl);
    preview.pathname = preview.pathname.replace(/preview$/, 'original');
    expect(await fetchStatus(preview.toString())).toBe(401);
    // The owner's own original still carries its position (the test can tell).
    const original = await fetch((await getItem(owner.api, items[0]!.id)).sourceUrl);
    expect((await gpsTags(Buffer.from(await original.arrayBuffer()), 'owner.jpg')).length).toBeGreaterThan(0);
  });

  it('M1/L1: an original a visitor got while locations were shared stops opening once they are hidden again', async () => {
    await setAlbum({ shareLocation: true });
    const [first] = (await sharedItems()).body as SharedMediaItem[];
    expect(first!.sourceUrl).toMatch(new RegExp(`share=${albumId}`));
    expect(await fetchStatus(first!.sourceUrl!)).toBe(200);
    await setAlbum({ shareLocation: false });
    expect(await fetchStatus(first!.sourceUrl!)).toBe(404);
  });

  it('L1: URLs obtained earlier are refused at once after unsharing, hiding, trashing or removing the item', async () => {
    const listed = (await sharedItems()).body as SharedMediaItem[];
    const [photo, video] = listed;
    const urlsOf = (i: SharedMediaItem) => [i.previewUrl, i.thumbnailUrl, ...(i.motionUrl ? [i.motionUrl] : [])];
    const all = listed.flatMap(urlsOf);
    for (const url of all) expect(await fetchStatus(url)).toBe(200);
    const res = await fetch(photo!.previewUrl);
    await res.arrayBuffer();
    expect(res.headers.get('cache-control')).toBe('private, no-cache');

    await setAlbum({ shared: false });
    for (const url of all) expect({ url, status: await fetchStatus(url) }).toEqual({ url, status: 404 });
    await setAlbum({ shared: true });
    for (const url of all) expect(await fetchStatus(url)).toBe(200);

    await ok(owner.api.POST('/v1/hidden', { body: { mediaItems: [photo!.id] } }), 204);
    for (const url of urlsOf(photo!)) expect(await fetchStatus(url)).toBe(404);
    await ok(owner.api.DELETE('/v1/hidden', { body: { mediaItems: [photo!.id] } }), 204);
    await waitFor(async () => (await fetchStatus(photo!.previewUrl)) === 200, {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'the shown item to reach the album',
    });

    await ok(owner.api.POST('/v1/trash', { body: { mediaItems: [video!.id] } }), 204);
    for (const url of urlsOf(video!)) expect(await fetchStatus(url)).toBe(404);
    await ok(owner.api.DELETE('/v1/trash', { body: { mediaItems: [video!.id] } }), 204);
    await waitFor(async () => (await fetchStatus(video!.previewUrl)) === 200, {
      timeoutMs: 10_000,
      intervalMs: 100,
      what: 'the restored item to reach the album',
    });

    await ok(
      owner.api.DELETE('/v1/albums/{id}/mediaItems', {
        params: { path: { id: albumId } },
        body: { mediaItems: [video!.id] },
      }),
      204,
    );
    for (const url of urlsOf(video!)) expect(await fetchStatus(url)).toBe(404);
    await ok(
      owner.api.POST('/v1/albums/{id}/mediaItems', {
        params: { path: { id: albumId } },
        body: { mediaItems: [video!.id] },
      }),
      204,
    );
    expect(await fetchStatus(video!.previewUrl)).toBe(200);
    // A URL of this album names only this album's items: moved onto another item, the signature fails.
    expect(await fetchStatus(photo!.previewUrl.replace(photo!.id, video!.id))).toBe(401);
  });

  it('L2: every request is bounded: page past 1000 or limit past 100 refused', async () => {
    expect((await sharedItems({ page: 1001 })).status).toBe(400);
    expect((await sharedItems({ limit: 101 })).status).toBe(400);
    expect((await sharedItems({ page: 1000 })).status).toBe(200);
  });

  it('L3: the answers carry nothing of the owner: no user id, file names, flags or failure reasons', async () => {
    const album = await sharedAlbum();
    const listed = await sharedItems();
    for (const body of [album.body, listed.body]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain(owner.id);
      for (const item of items) expect(text).not.toContain(item.filename);
      for (const field of [
        'userId',
        'filename',
        'favourite',
        'hidden',
        'deleted',
        'failureReason',
        'motionMediaItemId',
        'createdAt',
        'updatedAt',
        'shared"',
        'shareLocation',
      ]) {
        expect({ field, present: text.includes(`"${field.replace(/"$/, '')}"`) }).toEqual({ field, present: false });
      }
    }
    // Nor does an original's download name, while locations are shared.
    await setAlbum({ shareLocation: true });
    const [first] = (await sharedItems()).body as SharedMediaItem[];
    const res = await fetch(first!.sourceUrl!);
    await res.arrayBuffer();
    expect(res.headers.get('content-disposition')).toBeNull();
    await setAlbum({ shareLocation: false });
  });

  it("L4: switching the owner's sharing feature off closes every link and URL at once; on again, they answer", async () => {
    const urls = await visitorUrls();
    const admin = adminApi(stack);
    await ok(
      admin.PUT('/v1/users/{id}', { params: { path: { id: owner.id } }, body: { features: { sharing: false } } }),
      204,
    );
    expect((await sharedAlbum()).status).toBe(404);
    expect((await sharedItems()).status).toBe(404);
    for (const url of urls) expect({ url, status: await fetchStatus(url) }).toEqual({ url, status: 404 });
    await ok(
      admin.PUT('/v1/users/{id}', { params: { path: { id: owner.id } }, body: { features: { sharing: true } } }),
      204,
    );
    expect((await sharedAlbum()).status).toBe(200);
    for (const url of urls) expect(await fetchStatus(url)).toBe(200);
  });
});
