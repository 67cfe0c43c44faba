/**
 * Media end to end: a real nats-server; auth, gateway, media and two worker processes from their
 * compiled entry points; every answer validated against openapi.yaml by the gateway. Files are
 * made by the test (sharp, ffmpeg) or are the real phone photos beside the worker.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import sharp from 'sharp';
import { freePort, serviceEntry, startStack, tempDir, waitFor } from '@trove/kit/testing';
import type { ServiceProcess, Stack, TempDir } from '@trove/kit/testing';
import {
  HEIC_FIXTURE_FACTS,
  cameraJpeg,
  clip,
  describeWithFixtures,
  heicFixture,
  plainImage,
  rawWithPreview,
  screenshotPng,
} from '@trove/kit/testing/media';
import {
  adminApi,
  answer,
  createApi,
  getItem,
  newUser,
  offContract,
  ok,
  settled,
  status,
  upload,
} from '../support/api';
import type { Api, MediaItem, TestUser } from '../support/api';
import { send } from '../support/raw';
import { blobKeysOf, blobTempFiles, content, streamUpload } from './support';

const execFileAsync = promisify(execFile);
const TRASH_RETENTION_SECONDS = 12;
const SMALL_LIMIT = 1024 * 1024;

describeWithFixtures('media (e2e)', () => {
  let stack: Stack;
  let alice: TestUser;
  let bob: TestUser;
  /** Alice's client. */
  let api: Api;
  let worker2: ServiceProcess;
  /** Alice's client of a second gateway on the same data dir: a 1 MiB upload limit and 1-second content URLs. */
  let api2: Api;
  let gateway2Url: string;
  let tmp: TempDir;
  let nc: NatsConnection;
  const purgedEvents: Array<{ userId: string; mediaItemId: string }> = [];
  const ids: Record<string, string> = {};
  const originals: Record<string, Buffer> = {};
  const byId = (id: string) => ({ params: { path: { id } } });
  const mediaItems = (ids: string[]) => ({ body: { mediaItems: ids } });

  beforeAll(async () => {
    tmp = await tempDir('trove-media-e2e-');
    const env = {
      TROVE_WORKER_CONCURRENCY: '2',
      TROVE_WORKER_MAX_DELIVER: '3',
      TROVE_WORKER_BACKOFF_MS: '200',
      TROVE_WORKER_ACK_WAIT_SECONDS: '20',
      TROVE_TRASH_RETENTION_SECONDS: String(TRASH_RETENTION_SECONDS),
      TROVE_TRASH_SWEEP_INTERVAL_SECONDS: '1',
      TROVE_LOG_LEVEL: 'info',
    };
    stack = await startStack({ services: ['auth', 'gateway', 'media', 'worker'], env });
    const port2 = await freePort();
    gateway2Url = `http://127.0.0.1:${port2}`;
    [worker2] = await Promise.all([
      stack.startExtra('worker-2', serviceEntry('worker')),
      stack.startExtra('gateway-2', serviceEntry('gateway'), {
        TROVE_GATEWAY_PORT: String(port2),
        TROVE_UPLOAD_MAX_BYTES: String(SMALL_LIMIT),
        TROVE_CONTENT_URL_TTL_SECONDS: '1',
      }),
    ]);
    alice = await newUser(stack);
    bob = await newUser(stack);
    api = alice.api;
    api2 = createApi(gateway2Url, { bearer: alice.token });
    nc = await connect({ servers: stack.nats.url, ...stack.natsCredentials('observer') });
    nc.subscribe('events.v1.media.purged', { callback: (_e, m) => purgedEvents.push(m.json()) });
  }, 90_000);

  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
    await tmp?.remove();
  });

  describe('upload and processing of every kind of file', () => {
    it('uploads a JPEG, a PNG screenshot, an HEIC, a raw, an MP4 and a MOV: 201 {id} at once, status PROCESSING', async () => {
      originals.jpeg = await cameraJpeg();
      originals.png = await screenshotPng();
      originals.heic = await heicFixture();
      originals.raw = await rawWithPreview();
      originals.mp4 = await clip('mp4', { creationTime: '2018-06-24T10:00:00.000000Z' });
      originals.mov = await clip('mov', { creationTime: '2017-03-05T08:30:00.000000Z' });
      const names: Record<string, string> = {
        jpeg: 'IMG_20190624_181512.jpg',
        png: 'Screenshot 2024-05-01 at 10.00.00.png',
        heic: 'IMG_0543.HEIC',
        raw: 'IMG_0001.CR3',
        mp4: 'clip.mp4',
        mov: 'clip.mov',
      };
      for (const [kind, data] of Object.entries(originals)) {
        const res = await answer(upload(api, data, names[kind]));
        expect({ kind, status: res.status }).toEqual({ kind, status: 201 });
        expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
        ids[kind] = (res.body as { id: string }).id;
      }
      const first = await answer(api.GET('/v1/mediaItems/{id}', byId(ids.mov)));
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({
        filename: 'clip.mov',
        mimeType: 'video/quicktime',
        mediaItemType: 'video',
        size: originals.mov.length,
        deleted: false,
      });
      // One access log line per upload, naming the item and where its time went (`make bench` reads them).
      await stack.processes.gateway.waitForOutput(ids.mov);
      const line = stack.processes.gateway
        .output()
        .split('\n')
        .find((l) => l.includes(`"mediaItemId":"${ids.mov}"`) && l.includes('"msg":"request"'));
      expect(JSON.parse(line!)).toMatchObject({
        method: 'POST',
        status: 201,
        size: originals.mov.length,
        receiveMs: expect.any(Number),
        commitMs: expect.any(Number),
        registerMs: expect.any(Number),
        durableMs: expect.any(Number),
      });
    });

    it('every item reaches READY with the fields its file says', async () => {
      const items: Record<string, MediaItem> = {};
      for (const kind of Object.keys(ids)) items[kind] = await settled(api, ids[kind], 90_000);
      for (const [kind, item] of Object.entries(items))
        expect({ kind, status: item.status, failureReason: item.failureReason }).toEqual({
          kind,
          status: 'READY',
          failureReason: null,
        });

      expect(items.jpeg).toMatchObject({
        mimeType: 'image/jpeg',
        mediaItemType: 'photo',
        mediaItemCategory: 'default',
        width: 1200,
        height: 800,
        creationTime: '2019-06-24T18:15:12+02:00',
        cameraMake: 'TroveCam',
        cameraModel: 'T1 Mark II',
        apertureFNumber: '2.8',
        exposureTime: '0.004',
        isoEquivalent: '200',
        focalLength: '50',
        fps: null,
        size: originals.jpeg.length,
      });
      expect(items.jpeg.latitude).toBeCloseTo(52.3702, 3);
      expect(items.jpeg.longitude).toBeCloseTo(4.8952, 3);
      expect(items.jpeg.placeholder).toEqual(expect.any(String));

      expect(items.png).toMatchObject({
        mimeType: 'image/png',
        mediaItemCategory: 'screenshot',
        width: 390,
        height: 844,
        cameraMake: null,
        latitude: null,
      });

      expect(items.heic).toMatchObject({
        mimeType: 'image/heic',
        ...HEIC_FIXTURE_FACTS,
        // The still of a Live Photo, but its motion part is not in the library: an ordinary photo (live-photos.e2e.test.ts pairs it).
        mediaItemCategory: 'default',
        motionMediaItemId: null,
        motionUrl: null,
      });
      expect(items.heic.latitude).toBeCloseTo(19.0609, 3);

      expect(items.raw).toMatchObject({
        mimeType: 'image/x-canon-cr3',
        cameraMake: 'Canon',
        cameraModel: 'Canon EOS R5',
        width: 8192,
        height: 5464,
        creationTime: '2020-02-29T23:59:58+01:00',
      });
      expect(items.raw.latitude).toBeCloseTo(48.8582, 3);

      expect(items.mp4).toMatchObject({
        mimeType: 'video/mp4',
        mediaItemType: 'video',
        width: 320,
        height: 240,
        fps: '30',
        mediaItemCategory: 'default',
      });
      expect(items.mp4.creationTime.startsWith('2018-06-24T10:00:00')).toBe(true);
      expect(items.mov).toMatchObject({
        mimeType: 'video/quicktime',
        mediaItemType: 'video',
        width: 320,
        height: 240,
        fps: '30',
      });
      expect(items.mov.creationTime.startsWith('2017-03-05T08:30:00')).toBe(true);
    });

    it('previews and thumbnails decode as images (video previews as H.264 video), with the content headers', async () => {
      for (const kind of ['jpeg', 'png', 'heic', 'raw', 'mp4', 'mov']) {
        const item = await getItem(api, ids[kind]);
        const thumb = await content(api, item.id, 'thumbnail');
        expect({ kind, status: thumb.status, type: thumb.headers.get('content-type') }).toEqual({
          kind,
          status: 200,
          type: 'image/webp',
        });
        expect(thumb.headers.get('etag')).toMatch(/^".+"$/);
        expect(thumb.headers.get('cache-control')).toMatch(/^private, max-age=\d+/);
        expect(thumb.headers.get('accept-ranges')).toBe('bytes');
        const t = await sharp(thumb.bytes).metadata();
        expect(Math.max(t.width, t.height)).toBeLessThanOrEqual(512);

        const preview = await content(api, item.id, 'preview');
        expect(preview.status).toBe(200);
        if (item.mediaItemType === 'photo') {
          expect(preview.headers.get('content-type')).toBe('image/webp');
          const p = await sharp(preview.bytes).metadata();
          // Same aspect ratio as the item, within rounding.
          expect(Math.abs(p.width / p.height - item.width! / item.height!)).toBeLessThan(0.02);
        } else {
          expect(preview.headers.get('content-type')).toBe('video/mp4');
          const file = await tmp.write(`${kind}-preview.mp4`, preview.bytes);
          const { stdout } = await execFileAsync('ffprobe', [
            '-v',
            'error',
            '-select_streams',
            'v:0',
            '-show_entries',
            'stream=codec_name,pix_fmt',
            '-of',
            'json',
            file,
          ]);
          expect(JSON.parse(stdout).streams[0]).toEqual({ codec_name: 'h264', pix_fmt: 'yuv420p' });
        }
      }
      // The MP4 plays in browsers as it is: its preview is the original itself. The MOV's is a transcode.
      expect((await content(api, ids.mp4, 'preview')).bytes.equals(originals.mp4)).toBe(true);
      expect((await content(api, ids.mov, 'preview')).bytes.equals(originals.mov)).toBe(false);
      const original = await content(api, ids.heic, 'original');
      expect(original.status).toBe(200);
      expect(original.headers.get('content-type')).toBe('image/heic');
      expect(original.headers.get('cache-control')).toContain('immutable');
      expect(original.bytes.equals(originals.heic)).toBe(true);
    });

    it('a range request on the video answers 206 with exactly those bytes; 416 past the end; 304 on a matching ETag', async () => {
      const original = (headers: Record<string, string>) => content(api, ids.mov, 'original', headers);
      const size = originals.mov.length;
      const part = await original({ Range: 'bytes=1000-1999' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${size}`);
      expect(part.headers.get('content-length')).toBe('1000');
      expect(part.bytes.equals(originals.mov.subarray(1000, 2000))).toBe(true);

      const tail = await original({ Range: 'bytes=-100' });
      expect(tail.status).toBe(206);
      expect(tail.bytes.equals(originals.mov.subarray(size - 100))).toBe(true);

      const preview = await content(api, ids.mov, 'preview', { Range: 'bytes=0-' });
      expect(preview.status).toBe(206);
      expect(preview.headers.get('content-type')).toBe('video/mp4');

      const beyond = await original({ Range: `bytes=${size}-` });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
      expect(beyond.body).toEqual({ message: 'range not satisfiable' });

      const etag = part.headers.get('etag')!;
      const cached = await original({ 'If-None-Match': etag });
      expect(cached.status).toBe(304);
      expect(cached.bytes.length).toBe(0);
      expect(cached.body).toBe('');
    });

    it('signed URLs work without the token; a tampered or re-targeted one does not', async () => {
      const item = await getItem(api, ids.jpeg);
      // Signed URLs are absolute and carry their own credentials: fetched as they are, anonymously.
      for (const url of [item.sourceUrl, item.previewUrl, item.thumbnailUrl]) {
        expect(url.startsWith(`${stack.gatewayUrl}/v1/mediaItems/${item.id}/`)).toBe(true);
        const res = await send(url);
        expect(res.status).toBe(200);
      }
      expect((await send(item.sourceUrl)).bytes.equals(originals.jpeg)).toBe(true);
      const tampered = item.thumbnailUrl.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
      expect(await send(tampered)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
      // The signature of the thumbnail does not open the original.
      expect((await send(item.thumbnailUrl.replace('/thumbnail?', '/original?'))).status).toBe(401);
      expect((await content(createApi(stack.gatewayUrl), item.id, 'original')).status).toBe(401);
    });

    it('a signed URL stops working once it has expired', async () => {
      // gateway-2 signs for 1 s (valid 1-2 s).
      const item = await getItem(api2, ids.png);
      const exp = Number(new URL(item.thumbnailUrl).searchParams.get('exp'));
      expect(item.thumbnailUrl.startsWith(gateway2Url)).toBe(true);
      expect((await send(item.thumbnailUrl)).status).toBe(200);
      await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 300));
      expect(await send(item.thumbnailUrl)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    });

    it('the same file again answers 409 naming the first id, and keeps nothing of the second upload', async () => {
      const before = await blobKeysOf(stack.dataDir, alice.id);
      const again = await answer(upload(api, originals.jpeg, 'copy-of-it.jpg'));
      expect(again).toMatchObject({ status: 409, body: { message: 'mediaitem already exists', id: ids.jpeg } });
      expect(await blobKeysOf(stack.dataDir, alice.id)).toEqual(before);
      // Another user may have the same file.
      ids.bobJpeg = (await ok(upload(bob.api, originals.jpeg, 'mine-too.jpg'), 201)).id;
    });

    it('a JPEG cut off in its picture data is READY (decoded as far as it goes, a warning logged with its id); one cut off in its headers ends FAILED with a reason, and the workers keep going', async () => {
      const scan = originals.jpeg.indexOf(Buffer.from([0xff, 0xda]));
      const cut = originals.jpeg.subarray(0, scan + Math.floor((originals.jpeg.length - scan) / 2));
      const { id: cutId } = await ok(upload(api, cut, 'cut-short.jpg'), 201);
      expect(await settled(api, cutId)).toMatchObject({ status: 'READY', width: 1200, height: 800 });
      ids.cut = cutId;
      const warned = (p: ServiceProcess) =>
        p
          .output()
          .split('\n')
          .some(
            (line) =>
              line.includes('"msg":"media item decoded with a warning"') &&
              line.includes(cutId) &&
              line.includes('cut-short.jpg: JPEG ends without its end-of-image marker'),
          );
      await waitFor(() => warned(stack.processes.worker) || warned(worker2), {
        what: 'the warning about the cut-off JPEG in a worker log',
      });

      const { id } = await ok(upload(api, originals.jpeg.subarray(0, scan), 'broken.jpg'), 201);
      const failed = await settled(api, id);
      expect(failed).toMatchObject({
        status: 'FAILED',
        failureReason: 'broken.jpg: JPEG is malformed or cut off before its picture data',
      });
      ids.broken = id;
      expect(stack.processes.worker.child.exitCode).toBeNull();
      expect(worker2.child.exitCode).toBeNull();
      const next = await ok(upload(api, await plainImage(64, 64, 'orange').png().toBuffer(), 'after.png'), 201);
      expect((await settled(api, next.id)).status).toBe('READY');
      ids.after = next.id;
    });

    it('both worker processes took part', async () => {
      const processed = (p: ServiceProcess) => (p.output().match(/"msg":"media item processed"/g) ?? []).length;
      // A worker logs an item after publishing its result, so the last line may follow READY by a moment.
      await waitFor(() => processed(stack.processes.worker) + processed(worker2) >= 8, {
        what: "eight processed items in the workers' logs",
      });
      expect(processed(stack.processes.worker)).toBeGreaterThan(0);
      expect(processed(worker2)).toBeGreaterThan(0);
    });
  });

  describe('what is refused at upload, leaving nothing behind', () => {
    it('content that is not a supported photo or video: 400 unsupported file type', async () => {
      const res = await answer(
        upload(api, Buffer.from('%PDF-1.7 this is not a picture at all, whatever its name says'), 'photo.jpg'),
      );
      expect(res).toMatchObject({ status: 400, body: { message: 'unsupported file type' } });
      const empty = await answer(upload(api, Buffer.alloc(0), 'empty.jpg'));
      expect(empty).toMatchObject({ status: 400, body: { message: 'unsupported file type' } });
    });

    it('no file part, or not multipart at all: 400', async () => {
      const noFile = await answer(
        api.POST('/v1/mediaItems', {
          body: offContract({ note: 'no file here' }),
          bodySerializer: () => {
            const form = new FormData();
            form.append('note', 'no file here');
            return form;
          },
        }),
      );
      expect(noFile.status).toBe(400);
      expect(noFile.body).toEqual({ message: expect.stringMatching(/file/) });
      // The default serializer: JSON.
      expect(await status(api.POST('/v1/mediaItems', { body: { file: 'x' } }))).toBe(400);
    });

    it('over the size limit: 413 file too large, whether the length is declared or only streamed', async () => {
      const before = await blobKeysOf(stack.dataDir, alice.id);
      const declared = await answer(
        upload(api2, Buffer.concat([originals.jpeg, Buffer.alloc(3 * SMALL_LIMIT)]), 'big.jpg'),
      );
      expect(declared).toMatchObject({ status: 413, body: { message: 'file too large' } });
      // Chunked: only the streamed byte count can tell.
      const body = Readable.from(
        (function* () {
          yield originals.jpeg;
          for (let i = 0; i < 8; i++) yield Buffer.alloc(128 * 1024, i);
        })(),
      );
      const streamed = await streamUpload(gateway2Url, alice.token, body, 'streamed.jpg');
      expect(streamed).toEqual({ status: 413, body: { message: 'file too large' } });
      expect(await blobKeysOf(stack.dataDir, alice.id)).toEqual(before);
      await waitFor(async () => (await blobTempFiles(stack.dataDir)).length === 0, { what: 'no partial blob left' });
    });

    it('a client that goes away mid-upload leaves no item and no blob', async () => {
      const before = await blobKeysOf(stack.dataDir, alice.id);
      const listed = (await ok(api.GET('/v1/mediaItems', { params: { query: { limit: 100 } } }))).length;
      await new Promise<void>((resolve) => {
        const boundary = 'abortboundary';
        const req = httpRequest(`${stack.gatewayUrl}/v1/mediaItems`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${alice.token}`,
            'Content-Type': `multipart/form-data; boundary=${boundary}`,
            'Content-Length': String(50 * 1024 * 1024),
          },
        });
        req.on('error', () => resolve());
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.jpg"\r\n\r\n`);
        req.write(originals.jpeg);
        req.write(Buffer.alloc(512 * 1024, 7), () =>
          setTimeout(() => {
            req.destroy();
            resolve();
          }, 300),
        );
      });
      await stack.processes.gateway.waitForOutput('upload aborted by the client', 10_000);
      await waitFor(async () => (await blobTempFiles(stack.dataDir)).length === 0, {
        what: 'the partial blob to be removed',
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(await blobKeysOf(stack.dataDir, alice.id)).toEqual(before);
      expect((await ok(api.GET('/v1/mediaItems', { params: { query: { limit: 100 } } }))).length).toBe(listed);
    });
  });

  describe('library views, flags and trash', () => {
    /** The items of a list call, which must answer 200. */
    const list = (call: Promise<{ data?: MediaItem[]; error?: unknown; response: Response }>) => ok(call, 200);
    const library = (
      query: {
        page?: number;
        limit?: number;
        type?: 'photo' | 'video';
        category?: MediaItem['mediaItemCategory'];
        status?: MediaItem['status'];
      } = {},
    ) => list(api.GET('/v1/mediaItems', { params: { query } }));
    const idsOf = (items: MediaItem[]) => items.map((i) => i.id);

    it('lists newest creationTime first, paginated (default page 1, limit 15)', async () => {
      const all = await library();
      expect(all.length).toBe(9); // the six kinds, the cut-off one, the broken one and the one after it (bob's copy is bob's)
      const times = all.map((i) => Date.parse(i.creationTime));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      const page1 = await library({ limit: 4 });
      const page2 = await library({ limit: 4, page: 2 });
      const page3 = await library({ limit: 4, page: 3 });
      expect([...idsOf(page1), ...idsOf(page2), ...idsOf(page3)]).toEqual(idsOf(all));
      expect(await library({ page: 9 })).toEqual([]);
    });

    it('filters by type, category and status', async () => {
      expect(idsOf(await library({ type: 'video' })).sort()).toEqual([ids.mp4, ids.mov].sort());
      expect((await library({ type: 'photo' })).every((i) => i.mediaItemType === 'photo')).toBe(true);
      expect(idsOf(await library({ category: 'screenshot' }))).toEqual([ids.png]);
      expect(idsOf(await library({ category: 'default' }))).toContain(ids.heic);
      expect(idsOf(await library({ category: 'live' }))).toEqual([]);
      expect(idsOf(await library({ status: 'FAILED' }))).toEqual([ids.broken]);
      expect(await status(api.GET('/v1/mediaItems', { params: { query: { type: offContract('audio') } } }))).toBe(400);
    });

    it('favourites: POST sets, DELETE clears, PUT changes one item; unknown ids change nothing', async () => {
      expect(await status(api.POST('/v1/favourites', mediaItems([ids.jpeg, ids.mp4, ids.jpeg])))).toBe(204);
      expect(idsOf(await list(api.GET('/v1/favourites')))).toEqual([ids.jpeg, ids.mp4]);
      expect(await status(api.DELETE('/v1/favourites', mediaItems([ids.mp4])))).toBe(204);
      expect(idsOf(await list(api.GET('/v1/favourites')))).toEqual([ids.jpeg]);
      const partlyUnknown = await answer(api.POST('/v1/favourites', mediaItems([ids.png, randomUUID()])));
      expect(partlyUnknown).toMatchObject({ status: 404, body: { message: 'mediaitem not found' } });
      expect((await getItem(api, ids.png)).favourite).toBe(false);

      expect(
        await status(
          api.PUT('/v1/mediaItems/{id}', { ...byId(ids.png), body: { description: 'my phone', favourite: true } }),
        ),
      ).toBe(204);
      expect(await getItem(api, ids.png)).toMatchObject({ description: 'my phone', favourite: true, hidden: false });
      expect(await status(api.PUT('/v1/mediaItems/{id}', { ...byId(ids.png), body: { description: '' } }))).toBe(204);
      expect(await getItem(api, ids.png)).toMatchObject({ description: null, favourite: true });
      expect(await status(api.PUT('/v1/mediaItems/{id}', { ...byId(ids.png), body: {} }))).toBe(400);
      expect(await status(api.PUT('/v1/mediaItems/{id}', { ...byId(randomUUID()), body: { hidden: true } }))).toBe(404);
    });

    it('hidden: out of the library and favourites, in /v1/hidden; back with DELETE', async () => {
      expect(await status(api.POST('/v1/hidden', mediaItems([ids.jpeg])))).toBe(204);
      expect(idsOf(await library({ limit: 100 }))).not.toContain(ids.jpeg);
      expect(idsOf(await list(api.GET('/v1/favourites')))).not.toContain(ids.jpeg);
      expect(idsOf(await list(api.GET('/v1/hidden')))).toEqual([ids.jpeg]);
      expect((await getItem(api, ids.jpeg)).hidden).toBe(true);
      expect(await status(api.DELETE('/v1/hidden', mediaItems([ids.jpeg])))).toBe(204);
      expect(idsOf(await library({ limit: 100 }))).toContain(ids.jpeg);
      expect(await list(api.GET('/v1/hidden'))).toEqual([]);
    });

    it('trash: DELETE moves to the trash (still readable, deleted:true), POST/DELETE /v1/trash trash and restore', async () => {
      expect(await status(api.DELETE('/v1/mediaItems/{id}', byId(ids.mp4)))).toBe(204);
      expect(await getItem(api, ids.mp4)).toMatchObject({ id: ids.mp4, deleted: true });
      expect(idsOf(await library({ limit: 100 }))).not.toContain(ids.mp4);
      expect(idsOf(await list(api.GET('/v1/trash')))).toEqual([ids.mp4]);
      // Deleting again changes nothing; its content stays reachable while in the trash.
      expect(await status(api.DELETE('/v1/mediaItems/{id}', byId(ids.mp4)))).toBe(204);
      expect((await content(api, ids.mp4, 'thumbnail')).status).toBe(200);

      expect(await status(api.POST('/v1/trash', mediaItems([ids.png])))).toBe(204);
      expect(idsOf(await list(api.GET('/v1/trash'))).sort()).toEqual([ids.mp4, ids.png].sort());
      expect(await status(api.DELETE('/v1/trash', mediaItems([ids.mp4, ids.png])))).toBe(204);
      expect(await list(api.GET('/v1/trash'))).toEqual([]);
      expect(await getItem(api, ids.mp4)).toMatchObject({ deleted: false });
      expect(idsOf(await library({ limit: 100 }))).toEqual(expect.arrayContaining([ids.mp4, ids.png]));
      expect(await status(api.DELETE('/v1/mediaItems/{id}', byId(randomUUID())))).toBe(404);
    });

    it('years ago: items taken on this month and day in earlier years, newest first; an invalid MMDD is 400', async () => {
      const yearsAgo = (monthDate: string) =>
        api.GET('/v1/yearsAgo/{monthDate}/mediaItems', { params: { path: { monthDate } } });
      const june = idsOf(await list(yearsAgo('0624')));
      // The cut-off copy of the camera JPEG has its date (READY like it): compared apart, its order among equals is free.
      expect(june.filter((id) => id !== ids.cut)).toEqual([ids.jpeg, ids.mp4]);
      expect(june).toContain(ids.cut);
      expect(idsOf(await list(yearsAgo('0305')))).toEqual([ids.mov]);
      expect(await list(yearsAgo('1225'))).toEqual([]);
      for (const bad of ['0230', '1301', '0000', '624']) {
        expect({ bad, status: await status(yearsAgo(bad)) }).toEqual({ bad, status: 400 });
      }
    });
  });

  describe('another user', () => {
    it('sees 404 for everything of the first user, content URLs included, and changes nothing', async () => {
      const asBob = bob.api;
      const id = ids.heic;
      const before = await getItem(api, id);
      const attempts: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
        [`GET /v1/mediaItems/${id}`, () => answer(asBob.GET('/v1/mediaItems/{id}', byId(id)))],
        [
          `PUT /v1/mediaItems/${id}`,
          () => answer(asBob.PUT('/v1/mediaItems/{id}', { ...byId(id), body: { favourite: true } })),
        ],
        [`DELETE /v1/mediaItems/${id}`, () => answer(asBob.DELETE('/v1/mediaItems/{id}', byId(id)))],
        [`GET /v1/mediaItems/${id}/original`, () => content(asBob, id, 'original')],
        [`GET /v1/mediaItems/${id}/preview`, () => content(asBob, id, 'preview')],
        [`GET /v1/mediaItems/${id}/thumbnail`, () => content(asBob, id, 'thumbnail')],
        ['POST /v1/favourites', () => answer(asBob.POST('/v1/favourites', mediaItems([id])))],
        ['DELETE /v1/favourites', () => answer(asBob.DELETE('/v1/favourites', mediaItems([id])))],
        ['POST /v1/hidden', () => answer(asBob.POST('/v1/hidden', mediaItems([id])))],
        ['POST /v1/trash', () => answer(asBob.POST('/v1/trash', mediaItems([id])))],
        ['DELETE /v1/trash', () => answer(asBob.DELETE('/v1/trash', mediaItems([id])))],
        // Bob's own item with Alice's: all or nothing.
        [
          "POST /v1/favourites with bob's own item",
          () => answer(asBob.POST('/v1/favourites', mediaItems([ids.bobJpeg, id]))),
        ],
      ];
      for (const [call, attempt] of attempts) {
        const res = await attempt();
        expect({ call, status: res.status, body: res.body }).toEqual({
          call,
          status: 404,
          body: { message: 'mediaitem not found' },
        });
      }
      expect((await ok(asBob.GET('/v1/mediaItems'))).map((i) => i.id)).toEqual([ids.bobJpeg]);
      expect(
        await ok(asBob.GET('/v1/yearsAgo/{monthDate}/mediaItems', { params: { path: { monthDate: '0403' } } })),
      ).toEqual([]);
      expect((await getItem(asBob, ids.bobJpeg)).favourite).toBe(false);
      const after = await getItem(api, id);
      expect({ ...after, sourceUrl: '', previewUrl: '', thumbnailUrl: '' }).toEqual({
        ...before,
        sourceUrl: '',
        previewUrl: '',
        thumbnailUrl: '',
      });
    });
  });

  describe('purge and user deletion', () => {
    it(`trash older than the retention (${TRASH_RETENTION_SECONDS} s here) is purged for good: blobs, item, media.purged`, async () => {
      const { id } = await ok(upload(api, await plainImage(80, 60, 'purple').jpeg().toBuffer(), 'to-purge.jpg'));
      await settled(api, id);
      expect((await blobKeysOf(stack.dataDir, alice.id)).filter((k) => k.startsWith(id))).toEqual([
        `${id}/original`,
        `${id}/preview`,
        `${id}/thumbnail`,
      ]);
      expect(await status(api.DELETE('/v1/mediaItems/{id}', byId(id)))).toBe(204);
      await waitFor(async () => (await status(api.GET('/v1/mediaItems/{id}', byId(id)))) === 404, {
        timeoutMs: (TRASH_RETENTION_SECONDS + 15) * 1000,
        intervalMs: 500,
        what: 'the trashed item to be purged',
      });
      expect((await blobKeysOf(stack.dataDir, alice.id)).filter((k) => k.startsWith(id))).toEqual([]);
      expect((await content(api, id, 'original')).status).toBe(404);
      await waitFor(() => purgedEvents.some((e) => e.mediaItemId === id && e.userId === alice.id), {
        what: 'media.purged',
      });
      // Items that were restored stay.
      expect((await getItem(api, ids.mp4)).deleted).toBe(false);
    }, 60_000);

    it('POST /v1/trash/purge deletes trashed items for good at once; 409 for one not in the trash, 404 for another user’s', async () => {
      const photo = async (colour: string) => {
        const { id } = await ok(upload(api, await plainImage(70, 50, colour).jpeg().toBuffer(), `${colour}.jpg`));
        return (await settled(api, id)).id;
      };
      const [gone, alsoGone, kept] = [await photo('olive'), await photo('navy'), await photo('maroon')];
      const purge = (user: Api, ids: string[]) => answer(user.POST('/v1/trash/purge', mediaItems(ids)));
      await ok(api.POST('/v1/trash', mediaItems([gone, alsoGone])), 204);
      expect(await purge(api, [gone, kept])).toMatchObject({
        status: 409,
        body: { message: 'mediaitem is not in the trash' },
      });
      expect(await purge(bob.api, [gone])).toMatchObject({ status: 404, body: { message: 'mediaitem not found' } });
      expect((await purge(api, [])).status).toBe(400);
      // Nothing changed by the refusals.
      expect((await getItem(api, gone)).deleted).toBe(true);
      expect((await getItem(api, kept)).deleted).toBe(false);

      expect((await purge(api, [gone, alsoGone])).status).toBe(204);
      for (const id of [gone, alsoGone]) {
        expect(await status(api.GET('/v1/mediaItems/{id}', byId(id)))).toBe(404);
        expect((await blobKeysOf(stack.dataDir, alice.id)).filter((k) => k.startsWith(id))).toEqual([]);
      }
      expect((await ok(api.GET('/v1/trash', {}))).map((i) => i.id)).not.toContain(gone);
      await waitFor(() => purgedEvents.some((e) => e.mediaItemId === alsoGone), { what: 'media.purged' });
      expect((await purge(api, [gone])).status).toBe(404);
      expect((await getItem(api, kept)).deleted).toBe(false);
    });

    it('POST /v1/trash/empty empties the trash at once and deletes its items in the background; nobody else’s', async () => {
      const dan = await newUser(stack);
      const photo = async (who: TestUser, colour: string) => {
        const { id } = await ok(upload(who.api, await plainImage(60, 40, colour).jpeg().toBuffer(), `${colour}.jpg`));
        return (await settled(who.api, id)).id;
      };
      const [one, two, kept] = [await photo(dan, 'coral'), await photo(dan, 'khaki'), await photo(dan, 'plum')];
      const bobs = await photo(bob, 'sienna');
      await ok(dan.api.POST('/v1/trash', mediaItems([one, two])), 204);
      await ok(bob.api.POST('/v1/trash', mediaItems([bobs])), 204);
      const emptied = await answer(dan.api.POST('/v1/trash/empty', {}));
      expect(emptied).toMatchObject({ status: 202, body: { count: 2 } });
      // Gone from the trash at once (long before the retention), and not restorable: a restore leaves it, or finds
      // it deleted already.
      expect(await ok(dan.api.GET('/v1/trash', {}))).toEqual([]);
      expect([204, 404]).toContain(await status(dan.api.DELETE('/v1/trash', mediaItems([one]))));
      for (const id of [one, two])
        await waitFor(async () => (await status(dan.api.GET('/v1/mediaItems/{id}', byId(id)))) === 404, {
          timeoutMs: (TRASH_RETENTION_SECONDS - 4) * 1000,
          what: 'the emptied item to be deleted',
        });
      for (const id of [one, two]) {
        expect((await blobKeysOf(stack.dataDir, dan.id)).filter((k) => k.startsWith(id))).toEqual([]);
        await waitFor(() => purgedEvents.some((e) => e.mediaItemId === id), { what: 'media.purged' });
      }
      expect((await getItem(dan.api, kept)).deleted).toBe(false);
      expect((await ok(bob.api.GET('/v1/trash', {}))).map((i) => i.id)).toContain(bobs);
      expect(await answer(dan.api.POST('/v1/trash/empty', {}))).toMatchObject({ status: 202, body: { count: 0 } });
      expect((await answer(createApi(stack.gatewayUrl).POST('/v1/trash/empty', {}))).status).toBe(401);
    });

    it("deleting a user removes all that user's media and blobs", async () => {
      const carol = await newUser(stack);
      const up = await ok(upload(carol.api, await plainImage(50, 50, 'teal').png().toBuffer(), 'carol.png'));
      await settled(carol.api, up.id);
      expect((await blobKeysOf(stack.dataDir, carol.id)).length).toBeGreaterThan(0);
      expect(await status(adminApi(stack).DELETE('/v1/users/{id}', byId(carol.id)))).toBe(204);
      await waitFor(async () => (await blobKeysOf(stack.dataDir, carol.id)).length === 0, {
        timeoutMs: 20_000,
        what: "carol's blobs to be removed",
      });
      await waitFor(() => purgedEvents.some((e) => e.mediaItemId === up.id), { what: 'media.purged for carol' });
      // The media service no longer has the item (asked over NATS: carol's token is revoked).
      const reply = await nc.request(
        'trove.v1.media.get',
        new TextEncoder().encode(JSON.stringify({ userId: carol.id, id: up.id })),
      );
      expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('404');
    });
  });
});
