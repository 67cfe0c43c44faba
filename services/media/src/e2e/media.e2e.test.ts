/**
 * Media end to end: a real nats-server; auth, gateway, media and two worker processes from their
 * compiled entry points; every answer validated against openapi.yaml by the gateway. Files are
 * made by the test (sharp, ffmpeg) or are the real phone photos beside the worker.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { connect } from 'nats';
import type { NatsConnection } from 'nats';
import sharp from 'sharp';
import { freePort } from '../../../kit/src/testing/ports';
import { startProcess } from '../../../kit/src/testing/process';
import type { ServiceProcess } from '../../../kit/src/testing/process';
import { serviceEntry, startStack } from '../../../kit/src/testing/stack';
import type { Stack } from '../../../kit/src/testing/stack';
import { waitFor } from '../../../kit/src/testing/wait';
import {
  Client,
  blobKeysOf,
  blobTempFiles,
  cameraJpeg,
  clip,
  deleteUser,
  heicFixture,
  newUser,
  rawWithPreview,
  screenshotPng,
  streamUpload,
} from './helpers';
import type { MediaItem } from './helpers';

const execFileAsync = promisify(execFile);
const TRASH_RETENTION_SECONDS = 12;
const SMALL_LIMIT = 1024 * 1024;

describe('media (e2e)', () => {
  let stack: Stack;
  let api: Client;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let worker2: ServiceProcess;
  /** A second gateway on the same data dir: a 1 MiB upload limit and 1-second content URLs. */
  let gateway2: ServiceProcess;
  let api2: Client;
  let tmp: string;
  let nc: NatsConnection;
  const purgedEvents: Array<{ userId: string; mediaItemId: string }> = [];
  const ids: Record<string, string> = {};
  const originals: Record<string, Buffer> = {};

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'trove-media-e2e-'));
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
    worker2 = startProcess('worker-2', serviceEntry('worker'), stack.env);
    const port2 = await freePort();
    gateway2 = startProcess('gateway-2', serviceEntry('gateway'), { ...stack.env, TROVE_GATEWAY_PORT: String(port2), TROVE_UPLOAD_MAX_BYTES: String(SMALL_LIMIT), TROVE_CONTENT_URL_TTL_SECONDS: '1' });
    await Promise.all([worker2.waitForOutput('service ready', 30_000), gateway2.waitForOutput('service ready', 30_000)]);
    api = new Client(stack.gatewayUrl);
    const a = await newUser(stack, api);
    const b = await newUser(stack, api);
    alice = { id: a.id, token: a.token };
    bob = { id: b.id, token: b.token };
    api = api.as(alice.token);
    api2 = new Client(`http://127.0.0.1:${port2}`, alice.token);
    nc = await connect({ servers: stack.nats.url });
    nc.subscribe('events.v1.media.purged', { callback: (_e, m) => purgedEvents.push(m.json()) });
  }, 90_000);

  afterAll(async () => {
    await nc?.close();
    await Promise.allSettled([worker2?.stop(), gateway2?.stop()]);
    await stack?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  describe('upload and processing of every kind of file', () => {
    it('uploads a JPEG, a PNG screenshot, an HEIC, a raw, an MP4 and a MOV: 201 {id} at once, status PROCESSING', async () => {
      originals.jpeg = await cameraJpeg();
      originals.png = await screenshotPng();
      originals.heic = await heicFixture();
      originals.raw = await rawWithPreview();
      originals.mp4 = await clip(tmp, 'mp4', '2018-06-24T10:00:00.000000Z');
      originals.mov = await clip(tmp, 'mov', '2017-03-05T08:30:00.000000Z');
      const names: Record<string, string> = {
        jpeg: 'IMG_20190624_181512.jpg',
        png: 'Screenshot 2024-05-01 at 10.00.00.png',
        heic: 'IMG_0543.HEIC',
        raw: 'IMG_0001.CR3',
        mp4: 'clip.mp4',
        mov: 'clip.mov',
      };
      for (const [kind, data] of Object.entries(originals)) {
        const res = await api.upload(data, names[kind]);
        expect({ kind, status: res.status }).toEqual({ kind, status: 201 });
        expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
        ids[kind] = res.body.id;
      }
      const first = await api.call<MediaItem>('get', `/v1/mediaItems/${ids.mov}`);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ filename: 'clip.mov', mimeType: 'video/quicktime', mediaItemType: 'video', size: originals.mov.length, deleted: false });
    });

    it('every item reaches READY with the fields its file says', async () => {
      const items: Record<string, MediaItem> = {};
      for (const kind of Object.keys(ids)) items[kind] = await api.settled(ids[kind], 90_000);
      for (const [kind, item] of Object.entries(items)) expect({ kind, status: item.status, failureReason: item.failureReason }).toEqual({ kind, status: 'READY', failureReason: null });

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

      expect(items.png).toMatchObject({ mimeType: 'image/png', mediaItemCategory: 'screenshot', width: 390, height: 844, cameraMake: null, latitude: null });

      expect(items.heic).toMatchObject({
        mimeType: 'image/heic',
        width: 4032,
        height: 3024,
        cameraMake: 'Apple',
        cameraModel: 'iPhone 12 mini',
        focalLength: '4.2',
        apertureFNumber: '1.6',
        isoEquivalent: '640',
        exposureTime: '0.04',
        creationTime: '2022-04-03T12:56:11.991+05:30',
        // The still of a Live Photo.
        mediaItemCategory: 'live',
      });
      expect(items.heic.latitude).toBeCloseTo(19.0609, 3);

      expect(items.raw).toMatchObject({ mimeType: 'image/x-canon-cr3', cameraMake: 'Canon', cameraModel: 'Canon EOS R5', width: 8192, height: 5464, creationTime: '2020-02-29T23:59:58+01:00' });
      expect(items.raw.latitude).toBeCloseTo(48.8582, 3);

      expect(items.mp4).toMatchObject({ mimeType: 'video/mp4', mediaItemType: 'video', width: 320, height: 240, fps: '30', mediaItemCategory: 'default' });
      expect(items.mp4.creationTime.startsWith('2018-06-24T10:00:00')).toBe(true);
      expect(items.mov).toMatchObject({ mimeType: 'video/quicktime', mediaItemType: 'video', width: 320, height: 240, fps: '30' });
      expect(items.mov.creationTime.startsWith('2017-03-05T08:30:00')).toBe(true);
    });

    it('previews and thumbnails decode as images (video previews as H.264 video), with the content headers', async () => {
      for (const kind of ['jpeg', 'png', 'heic', 'raw', 'mp4', 'mov']) {
        const item = await api.item(ids[kind]);
        const thumb = await api.call('get', `/v1/mediaItems/${item.id}/thumbnail`);
        expect({ kind, status: thumb.status, type: thumb.headers.get('content-type') }).toEqual({ kind, status: 200, type: 'image/webp' });
        expect(thumb.headers.get('etag')).toMatch(/^".+"$/);
        expect(thumb.headers.get('cache-control')).toMatch(/^private, max-age=\d+/);
        expect(thumb.headers.get('accept-ranges')).toBe('bytes');
        const t = await sharp(thumb.bytes).metadata();
        expect(Math.max(t.width, t.height)).toBeLessThanOrEqual(512);

        const preview = await api.call('get', `/v1/mediaItems/${item.id}/preview`);
        expect(preview.status).toBe(200);
        if (item.mediaItemType === 'photo') {
          expect(preview.headers.get('content-type')).toBe('image/webp');
          const p = await sharp(preview.bytes).metadata();
          // Same aspect ratio as the item, within rounding.
          expect(Math.abs(p.width / p.height - item.width! / item.height!)).toBeLessThan(0.02);
        } else {
          expect(preview.headers.get('content-type')).toBe('video/mp4');
          const file = join(tmp, `${kind}-preview.mp4`);
          await writeFile(file, preview.bytes);
          const { stdout } = await execFileAsync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,pix_fmt', '-of', 'json', file]);
          expect(JSON.parse(stdout).streams[0]).toEqual({ codec_name: 'h264', pix_fmt: 'yuv420p' });
        }
      }
      // The MP4 plays in browsers as it is: its preview is the original itself. The MOV's is a transcode.
      expect((await api.call('get', `/v1/mediaItems/${ids.mp4}/preview`)).bytes.equals(originals.mp4)).toBe(true);
      expect((await api.call('get', `/v1/mediaItems/${ids.mov}/preview`)).bytes.equals(originals.mov)).toBe(false);
      const original = await api.call('get', `/v1/mediaItems/${ids.heic}/original`);
      expect(original.status).toBe(200);
      expect(original.headers.get('content-type')).toBe('image/heic');
      expect(original.headers.get('cache-control')).toContain('immutable');
      expect(original.bytes.equals(originals.heic)).toBe(true);
    });

    it('a range request on the video answers 206 with exactly those bytes; 416 past the end; 304 on a matching ETag', async () => {
      const url = `/v1/mediaItems/${ids.mov}/original`;
      const size = originals.mov.length;
      const part = await api.call('get', url, { headers: { Range: 'bytes=1000-1999' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${size}`);
      expect(part.headers.get('content-length')).toBe('1000');
      expect(part.bytes.equals(originals.mov.subarray(1000, 2000))).toBe(true);

      const tail = await api.call('get', url, { headers: { Range: 'bytes=-100' } });
      expect(tail.status).toBe(206);
      expect(tail.bytes.equals(originals.mov.subarray(size - 100))).toBe(true);

      const preview = await api.call('get', `/v1/mediaItems/${ids.mov}/preview`, { headers: { Range: 'bytes=0-' } });
      expect(preview.status).toBe(206);
      expect(preview.headers.get('content-type')).toBe('video/mp4');

      const beyond = await api.call('get', url, { headers: { Range: `bytes=${size}-` } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${size}`);
      expect(beyond.body).toEqual({ message: 'range not satisfiable' });

      const etag = part.headers.get('etag')!;
      const cached = await api.call('get', url, { headers: { 'If-None-Match': etag } });
      expect(cached.status).toBe(304);
      expect(cached.bytes.length).toBe(0);
    });

    it('signed URLs work without the token; a tampered or re-targeted one does not', async () => {
      const item = await api.item(ids.jpeg);
      const anonymous = new Client(stack.gatewayUrl);
      for (const url of [item.sourceUrl, item.previewUrl, item.thumbnailUrl]) {
        expect(url.startsWith(`${stack.gatewayUrl}/v1/mediaItems/${item.id}/`)).toBe(true);
        const res = await anonymous.call('get', url);
        expect(res.status).toBe(200);
      }
      expect((await anonymous.call('get', item.sourceUrl)).bytes.equals(originals.jpeg)).toBe(true);
      const tampered = item.thumbnailUrl.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
      expect(await anonymous.call('get', tampered)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
      // The signature of the thumbnail does not open the original.
      expect((await anonymous.call('get', item.thumbnailUrl.replace('/thumbnail?', '/original?'))).status).toBe(401);
      expect((await anonymous.call('get', `/v1/mediaItems/${item.id}/original`)).status).toBe(401);
    });

    it('a signed URL stops working once it has expired', async () => {
      // gateway-2 signs for 1 s (valid 1-2 s).
      const item = await api2.item(ids.png);
      const exp = Number(new URL(item.thumbnailUrl).searchParams.get('exp'));
      const anonymous = new Client(api2.baseUrl);
      expect((await anonymous.call('get', item.thumbnailUrl)).status).toBe(200);
      await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 300));
      expect(await anonymous.call('get', item.thumbnailUrl)).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
    });

    it('the same file again answers 409 naming the first id, and keeps nothing of the second upload', async () => {
      const before = await blobKeysOf(stack.dataDir, alice.id);
      const again = await api.upload(originals.jpeg, 'copy-of-it.jpg');
      expect(again).toMatchObject({ status: 409, body: { message: 'mediaitem already exists', id: ids.jpeg } });
      expect(await blobKeysOf(stack.dataDir, alice.id)).toEqual(before);
      // Another user may have the same file.
      const bobs = await api.as(bob.token).upload(originals.jpeg, 'mine-too.jpg');
      expect(bobs.status).toBe(201);
      ids.bobJpeg = bobs.body.id;
    });

    it('a truncated JPEG ends FAILED with a reason, and the workers keep going', async () => {
      const truncated = originals.jpeg.subarray(0, Math.floor(originals.jpeg.length / 2));
      const res = await api.upload(truncated, 'broken.jpg');
      expect(res.status).toBe(201);
      const failed = await api.settled(res.body.id);
      expect(failed.status).toBe('FAILED');
      expect(failed.failureReason).toEqual(expect.stringMatching(/broken\.jpg/));
      ids.broken = res.body.id;
      expect(stack.processes.worker.child.exitCode).toBeNull();
      expect(worker2.child.exitCode).toBeNull();
      const next = await api.upload(await sharp({ create: { width: 64, height: 64, channels: 3, background: 'orange' } }).png().toBuffer(), 'after.png');
      expect((await api.settled(next.body.id)).status).toBe('READY');
      ids.after = next.body.id;
    });

    it('both worker processes took part', () => {
      const processed = (p: ServiceProcess) => (p.output().match(/"msg":"media item processed"/g) ?? []).length;
      expect(processed(stack.processes.worker) + processed(worker2)).toBeGreaterThanOrEqual(8);
      expect(processed(stack.processes.worker)).toBeGreaterThan(0);
      expect(processed(worker2)).toBeGreaterThan(0);
    });
  });

  describe('what is refused at upload, leaving nothing behind', () => {
    it('content that is not a supported photo or video: 400 unsupported file type', async () => {
      const res = await api.upload(Buffer.from('%PDF-1.7 this is not a picture at all, whatever its name says'), 'photo.jpg');
      expect(res).toMatchObject({ status: 400, body: { message: 'unsupported file type' } });
      const empty = await api.upload(Buffer.alloc(0), 'empty.jpg');
      expect(empty).toMatchObject({ status: 400, body: { message: 'unsupported file type' } });
    });

    it('no file part, or not multipart at all: 400', async () => {
      const form = new FormData();
      form.append('note', 'no file here');
      const noFile = await fetch(`${stack.gatewayUrl}/v1/mediaItems`, { method: 'POST', headers: { Authorization: `Bearer ${alice.token}` }, body: form });
      expect(noFile.status).toBe(400);
      expect(await noFile.json()).toEqual({ message: expect.stringMatching(/file/) });
      const json = await api.call('post', '/v1/mediaItems', { body: { file: 'x' } });
      expect(json.status).toBe(400);
    });

    it('over the size limit: 413 file too large, whether the length is declared or only streamed', async () => {
      const before = await blobKeysOf(stack.dataDir, alice.id);
      const declared = await api2.upload(Buffer.concat([originals.jpeg, Buffer.alloc(3 * SMALL_LIMIT)]), 'big.jpg');
      expect(declared).toMatchObject({ status: 413, body: { message: 'file too large' } });
      // Chunked: only the streamed byte count can tell.
      const body = Readable.from((function* () {
        yield originals.jpeg;
        for (let i = 0; i < 8; i++) yield Buffer.alloc(128 * 1024, i);
      })());
      const streamed = await streamUpload(api2.baseUrl, alice.token, body, 'streamed.jpg');
      expect(streamed).toEqual({ status: 413, body: { message: 'file too large' } });
      expect(await blobKeysOf(stack.dataDir, alice.id)).toEqual(before);
      await waitFor(async () => (await blobTempFiles(stack.dataDir)).length === 0, { what: 'no partial blob left' });
    });

    it('a client that goes away mid-upload leaves no item and no blob', async () => {
      const before = await blobKeysOf(stack.dataDir, alice.id);
      const listed = (await api.call<MediaItem[]>('get', '/v1/mediaItems?limit=100')).body.length;
      await new Promise<void>((resolve) => {
        const boundary = 'abortboundary';
        const req = httpRequest(`${stack.gatewayUrl}/v1/mediaItems`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${alice.token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(50 * 1024 * 1024) },
        });
        req.on('error', () => resolve());
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.jpg"\r\n\r\n`);
        req.write(originals.jpeg);
        req.write(Buffer.alloc(512 * 1024, 7), () => setTimeout(() => {
          req.destroy();
          resolve();
        }, 300));
      });
      await stack.processes.gateway.waitForOutput('upload aborted by the client', 10_000);
      await waitFor(async () => (await blobTempFiles(stack.dataDir)).length === 0, { what: 'the partial blob to be removed' });
      await new Promise((r) => setTimeout(r, 300));
      expect(await blobKeysOf(stack.dataDir, alice.id)).toEqual(before);
      expect((await api.call<MediaItem[]>('get', '/v1/mediaItems?limit=100')).body.length).toBe(listed);
    });
  });

  describe('library views, flags and trash', () => {
    const list = async (path: string) => {
      const res = await api.call<MediaItem[]>('get', path);
      expect(res.status).toBe(200);
      return res.body;
    };
    const idsOf = (items: MediaItem[]) => items.map((i) => i.id);

    it('lists newest creationTime first, paginated (default page 1, limit 15)', async () => {
      const all = await list('/v1/mediaItems');
      expect(all.length).toBe(8); // the six kinds, the broken one and the one after it (bob's copy is bob's)
      const times = all.map((i) => Date.parse(i.creationTime));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      const page1 = await list('/v1/mediaItems?limit=4');
      const page2 = await list('/v1/mediaItems?limit=4&page=2');
      const page3 = await list('/v1/mediaItems?limit=4&page=3');
      expect([...idsOf(page1), ...idsOf(page2), ...idsOf(page3)]).toEqual(idsOf(all));
      expect(await list('/v1/mediaItems?page=9')).toEqual([]);
    });

    it('filters by type, category and status', async () => {
      expect(idsOf(await list('/v1/mediaItems?type=video')).sort()).toEqual([ids.mp4, ids.mov].sort());
      expect((await list('/v1/mediaItems?type=photo')).every((i) => i.mediaItemType === 'photo')).toBe(true);
      expect(idsOf(await list('/v1/mediaItems?category=screenshot'))).toEqual([ids.png]);
      expect(idsOf(await list('/v1/mediaItems?category=live'))).toEqual([ids.heic]);
      expect(idsOf(await list('/v1/mediaItems?status=FAILED'))).toEqual([ids.broken]);
      expect((await api.call('get', '/v1/mediaItems?type=audio')).status).toBe(400);
    });

    it('favourites: POST sets, DELETE clears, PUT changes one item; unknown ids change nothing', async () => {
      expect((await api.call('post', '/v1/favourites', { body: { mediaItems: [ids.jpeg, ids.mp4, ids.jpeg] } })).status).toBe(204);
      expect(idsOf(await list('/v1/favourites'))).toEqual([ids.jpeg, ids.mp4]);
      expect((await api.call('delete', '/v1/favourites', { body: { mediaItems: [ids.mp4] } })).status).toBe(204);
      expect(idsOf(await list('/v1/favourites'))).toEqual([ids.jpeg]);
      const partlyUnknown = await api.call('post', '/v1/favourites', { body: { mediaItems: [ids.png, randomUUID()] } });
      expect(partlyUnknown).toMatchObject({ status: 404, body: { message: 'mediaitem not found' } });
      expect((await api.item(ids.png)).favourite).toBe(false);

      expect((await api.call('put', `/v1/mediaItems/${ids.png}`, { body: { description: 'my phone', favourite: true } })).status).toBe(204);
      expect(await api.item(ids.png)).toMatchObject({ description: 'my phone', favourite: true, hidden: false });
      expect((await api.call('put', `/v1/mediaItems/${ids.png}`, { body: { description: '' } })).status).toBe(204);
      expect(await api.item(ids.png)).toMatchObject({ description: null, favourite: true });
      expect((await api.call('put', `/v1/mediaItems/${ids.png}`, { body: {} })).status).toBe(400);
      expect((await api.call('put', `/v1/mediaItems/${randomUUID()}`, { body: { hidden: true } })).status).toBe(404);
    });

    it('hidden: out of the library and favourites, in /v1/hidden; back with DELETE', async () => {
      expect((await api.call('post', '/v1/hidden', { body: { mediaItems: [ids.jpeg] } })).status).toBe(204);
      expect(idsOf(await list('/v1/mediaItems?limit=100'))).not.toContain(ids.jpeg);
      expect(idsOf(await list('/v1/favourites'))).not.toContain(ids.jpeg);
      expect(idsOf(await list('/v1/hidden'))).toEqual([ids.jpeg]);
      expect((await api.item(ids.jpeg)).hidden).toBe(true);
      expect((await api.call('delete', '/v1/hidden', { body: { mediaItems: [ids.jpeg] } })).status).toBe(204);
      expect(idsOf(await list('/v1/mediaItems?limit=100'))).toContain(ids.jpeg);
      expect(await list('/v1/hidden')).toEqual([]);
    });

    it('trash: DELETE moves to the trash (still readable, deleted:true), POST/DELETE /v1/trash trash and restore', async () => {
      expect((await api.call('delete', `/v1/mediaItems/${ids.mp4}`)).status).toBe(204);
      expect(await api.item(ids.mp4)).toMatchObject({ id: ids.mp4, deleted: true });
      expect(idsOf(await list('/v1/mediaItems?limit=100'))).not.toContain(ids.mp4);
      expect(idsOf(await list('/v1/trash'))).toEqual([ids.mp4]);
      // Deleting again changes nothing; its content stays reachable while in the trash.
      expect((await api.call('delete', `/v1/mediaItems/${ids.mp4}`)).status).toBe(204);
      expect((await api.call('get', `/v1/mediaItems/${ids.mp4}/thumbnail`)).status).toBe(200);

      expect((await api.call('post', '/v1/trash', { body: { mediaItems: [ids.png] } })).status).toBe(204);
      expect(idsOf(await list('/v1/trash')).sort()).toEqual([ids.mp4, ids.png].sort());
      expect((await api.call('delete', '/v1/trash', { body: { mediaItems: [ids.mp4, ids.png] } })).status).toBe(204);
      expect(await list('/v1/trash')).toEqual([]);
      expect(await api.item(ids.mp4)).toMatchObject({ deleted: false });
      expect(idsOf(await list('/v1/mediaItems?limit=100'))).toEqual(expect.arrayContaining([ids.mp4, ids.png]));
      expect((await api.call('delete', `/v1/mediaItems/${randomUUID()}`)).status).toBe(404);
    });

    it('years ago: items taken on this month and day in earlier years, newest first; an invalid MMDD is 400', async () => {
      expect(idsOf(await list('/v1/yearsAgo/0624/mediaItems'))).toEqual([ids.jpeg, ids.mp4]);
      expect(idsOf(await list('/v1/yearsAgo/0305/mediaItems'))).toEqual([ids.mov]);
      expect(await list('/v1/yearsAgo/1225/mediaItems')).toEqual([]);
      for (const bad of ['0230', '1301', '0000', '624']) {
        expect({ bad, status: (await api.call('get', `/v1/yearsAgo/${bad}/mediaItems`)).status }).toEqual({ bad, status: 400 });
      }
    });
  });

  describe('another user', () => {
    it("sees 404 for everything of the first user, content URLs included, and changes nothing", async () => {
      const asBob = api.as(bob.token);
      const id = ids.heic;
      const before = await api.item(id);
      const attempts: Array<[string, string, unknown?]> = [
        ['get', `/v1/mediaItems/${id}`],
        ['put', `/v1/mediaItems/${id}`, { favourite: true }],
        ['delete', `/v1/mediaItems/${id}`],
        ['get', `/v1/mediaItems/${id}/original`],
        ['get', `/v1/mediaItems/${id}/preview`],
        ['get', `/v1/mediaItems/${id}/thumbnail`],
        ['post', '/v1/favourites', { mediaItems: [id] }],
        ['delete', '/v1/favourites', { mediaItems: [id] }],
        ['post', '/v1/hidden', { mediaItems: [id] }],
        ['post', '/v1/trash', { mediaItems: [id] }],
        ['delete', '/v1/trash', { mediaItems: [id] }],
        // Bob's own item with Alice's: all or nothing.
        ['post', '/v1/favourites', { mediaItems: [ids.bobJpeg, id] }],
      ];
      for (const [method, path, body] of attempts) {
        const res = await asBob.call(method, path, { body });
        expect({ method, path, status: res.status, body: res.body }).toEqual({ method, path, status: 404, body: { message: 'mediaitem not found' } });
      }
      expect(idsOf2(await asBob.call<MediaItem[]>('get', '/v1/mediaItems'))).toEqual([ids.bobJpeg]);
      expect((await asBob.call<MediaItem[]>('get', '/v1/yearsAgo/0403/mediaItems')).body).toEqual([]);
      expect((await asBob.item(ids.bobJpeg)).favourite).toBe(false);
      const after = await api.item(id);
      expect({ ...after, sourceUrl: '', previewUrl: '', thumbnailUrl: '' }).toEqual({ ...before, sourceUrl: '', previewUrl: '', thumbnailUrl: '' });
    });
  });

  describe('purge and user deletion', () => {
    it(`trash older than the retention (${TRASH_RETENTION_SECONDS} s here) is purged for good: blobs, item, media.purged`, async () => {
      const res = await api.upload(await sharp({ create: { width: 80, height: 60, channels: 3, background: 'purple' } }).jpeg().toBuffer(), 'to-purge.jpg');
      const id = res.body.id;
      await api.settled(id);
      expect((await blobKeysOf(stack.dataDir, alice.id)).filter((k) => k.startsWith(id))).toEqual([`${id}/original`, `${id}/preview`, `${id}/thumbnail`]);
      expect((await api.call('delete', `/v1/mediaItems/${id}`)).status).toBe(204);
      await waitFor(async () => (await api.call('get', `/v1/mediaItems/${id}`)).status === 404, { timeoutMs: (TRASH_RETENTION_SECONDS + 15) * 1000, intervalMs: 500, what: 'the trashed item to be purged' });
      expect((await blobKeysOf(stack.dataDir, alice.id)).filter((k) => k.startsWith(id))).toEqual([]);
      expect((await api.call('get', `/v1/mediaItems/${id}/original`)).status).toBe(404);
      await waitFor(() => purgedEvents.some((e) => e.mediaItemId === id && e.userId === alice.id), { what: 'media.purged' });
      // Items that were restored stay.
      expect((await api.item(ids.mp4)).deleted).toBe(false);
    }, 60_000);

    it("deleting a user removes all that user's media and blobs", async () => {
      const carol = await newUser(stack, api);
      const asCarol = api.as(carol.token);
      const up = await asCarol.upload(await sharp({ create: { width: 50, height: 50, channels: 3, background: 'teal' } }).png().toBuffer(), 'carol.png');
      await asCarol.settled(up.body.id);
      expect((await blobKeysOf(stack.dataDir, carol.id)).length).toBeGreaterThan(0);
      expect(await deleteUser(stack, carol.id)).toBe(204);
      await waitFor(async () => (await blobKeysOf(stack.dataDir, carol.id)).length === 0, { timeoutMs: 20_000, what: "carol's blobs to be removed" });
      await waitFor(() => purgedEvents.some((e) => e.mediaItemId === up.body.id), { what: 'media.purged for carol' });
      // The media service no longer has the item (asked over NATS: carol's token is revoked).
      const reply = await nc.request('trove.v1.media.get', new TextEncoder().encode(JSON.stringify({ userId: carol.id, id: up.body.id })));
      expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('404');
    });
  });
});

function idsOf2(res: { body: MediaItem[] }): string[] {
  return res.body.map((i) => i.id);
}
