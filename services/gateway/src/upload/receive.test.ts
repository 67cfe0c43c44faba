/**
 * receiveUpload behind a real HTTP server, storing into a real filesystem blob store.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { AppError, openBlobStore } from '@trove/kit';
import type { BlobStore } from '@trove/kit';
import { multipartBody, piecesOf, postInPieces, tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { receiveUpload, safeFilename } from './receive';

let dir: TempDir;
let blobs: BlobStore;
let server: Server;
let url: string;
let seq = 0;
const MAX = 256 * 1024;
/** The idle timeout of the requests that ask for one (header `x-idle-ms`). */
const IDLE_HEADER = 'x-idle-ms';
/** The room left under a quota, for the requests that have one (header `x-room-bytes`). */
const ROOM_HEADER = 'x-room-bytes';
const STATUS: Record<string, number> = { PAYLOAD_TOO_LARGE: 413, INSUFFICIENT_STORAGE: 507 };

beforeAll(async () => {
  dir = await tempDir('trove-upload-unit-');
  blobs = await openBlobStore({ dataDir: dir.path });
  server = createServer((req, res) => {
    const key = `uploads/${seq++}`;
    const idleTimeoutMs = req.headers[IDLE_HEADER] ? Number(req.headers[IDLE_HEADER]) : undefined;
    const roomBytes = req.headers[ROOM_HEADER] ? Number(req.headers[ROOM_HEADER]) : undefined;
    receiveUpload(req, { blobs, key, maxBytes: MAX, roomBytes, idleTimeoutMs }).then(
      (stored) => res.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ key, ...stored })),
      (err: unknown) => {
        const status = err instanceof AppError ? (STATUS[err.code] ?? 400) : 500;
        req.resume();
        res
          .writeHead(status, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ message: (err as Error).message, key }));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await dir.remove();
});

const post = async (form: FormData | string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { method: 'POST', body: form, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const formWith = (...parts: Array<[string, Buffer, string?]>) => {
  const form = new FormData();
  for (const [name, data, filename] of parts) form.append(name, new Blob([data]), filename ?? 'f');
  return form;
};
/** A PNG of about 12 KiB, different every time (noise does not compress). */
const noisePng = () =>
  sharp(randomBytes(64 * 64 * 3), { raw: { width: 64, height: 64, channels: 3 } })
    .png()
    .toBuffer();
const tempFiles = () => readdir(join(dir.path, 'blobs', '.tmp'));

/** Uploads in pieces to the test server, with the given idle timeout. */
const uploadInPieces = (file: Buffer, opts: { send?: number; pieces: number; gapMs: number; idleMs: number }) => {
  const { body, contentType } = multipartBody(file);
  const sent = body.subarray(0, opts.send ?? body.length);
  return postInPieces(url, {
    pieces: piecesOf(sent, opts.pieces),
    gapMs: opts.gapMs,
    declaredLength: body.length,
    headers: { 'Content-Type': contentType, [IDLE_HEADER]: opts.idleMs },
  });
};

describe('receiveUpload', () => {
  it('streams the file part into the store: sniffed type, size, sha256, the filename kept', async () => {
    const png = await sharp({ create: { width: 120, height: 90, channels: 3, background: 'red' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('note', 'a field before the file');
    form.append('file', new Blob([png]), 'Screenshot 2024.png');
    const res = await post(form);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      filename: 'Screenshot 2024.png',
      type: { mimeType: 'image/png', mediaItemType: 'photo' },
      size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
    });
    expect((await blobs.head(String(res.body.key)))?.contentType).toBe('image/png');
  });

  it.each([
    ['in one piece, its end with it (the part ends while its head is sniffed)', 1],
    ['in pieces', 3],
  ])('stores every byte of a small file sent %s', async (_how, pieces) => {
    for (const size of [5000, 9000, 60_000]) {
      const png = Buffer.concat([await noisePng(), randomBytes(size)]).subarray(0, size);
      const { body, contentType } = multipartBody(png);
      const answer = await postInPieces(url, {
        pieces: piecesOf(body, pieces),
        gapMs: 0,
        declaredLength: body.length,
        headers: { 'Content-Type': contentType },
      });
      expect(answer).toMatchObject({
        status: 201,
        body: { size, sha256: createHash('sha256').update(png).digest('hex') },
      });
      const { body: stored } = await blobs.get(String(answer.body.key));
      expect(Buffer.concat(await stored.toArray()).equals(png)).toBe(true);
    }
  });

  it('refuses unsupported content before storing anything', async () => {
    const res = await post(
      formWith(['file', Buffer.from('<html>definitely not a photo, whatever the extension</html>'), 'x.jpg']),
    );
    expect(res).toEqual({ status: 400, body: { message: 'unsupported file type', key: expect.any(String) } });
    expect(await blobs.head(String(res.body.key))).toBeNull();
  });

  it('refuses a body without a file part, a file part under another name, two files, or no multipart at all', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'blue' } })
      .jpeg()
      .toBuffer();
    expect((await post(formWith(['photo', jpeg]))).status).toBe(400);
    const note = new FormData();
    note.append('note', 'no file');
    expect((await post(note)).status).toBe(400);
    expect((await post(formWith(['file', jpeg], ['file', jpeg]))).status).toBe(400);
    expect((await post('{"file": 1}', { 'Content-Type': 'application/json' })).status).toBe(400);
  });

  it('stops at maxBytes with 413 and leaves no partial blob', async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'blue' } })
      .jpeg()
      .toBuffer();
    const res = await post(formWith(['file', Buffer.concat([jpeg, Buffer.alloc(MAX)])]));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('file too large');
    expect(await blobs.head(String(res.body.key))).toBeNull();
    expect(await tempFiles()).toEqual([]);
  });

  describe('under a quota (roomBytes)', () => {
    const jpegOf = async (size: number) => {
      const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'green' } })
        .jpeg()
        .toBuffer();
      return Buffer.concat([jpeg, randomBytes(size - jpeg.length)]);
    };

    it('a file that fits the room exactly is stored; one byte more is cut with 507 and leaves nothing', async () => {
      const file = await jpegOf(20_000);
      const fits = await post(formWith(['file', file]), { [ROOM_HEADER]: '20000' });
      expect(fits).toMatchObject({ status: 201, body: { size: 20_000 } });
      // Framing included, the body is within the declared-size margin: the stream itself is cut.
      const over = await post(formWith(['file', file]), { [ROOM_HEADER]: '19999' });
      expect(over).toEqual({ status: 507, body: { message: 'storage quota exceeded', key: expect.any(String) } });
      expect(await blobs.head(String(over.body.key))).toBeNull();
      expect(await tempFiles()).toEqual([]);
    });

    it('no room left: refused at once, before a byte is read or stored', async () => {
      const res = await post(formWith(['file', await jpegOf(5000)]), { [ROOM_HEADER]: '0' });
      expect(res).toEqual({ status: 507, body: { message: 'storage quota exceeded', key: expect.any(String) } });
      expect(await blobs.head(String(res.body.key))).toBeNull();
    });

    it('a declared length beyond the room and any framing is refused before anything is stored', async () => {
      const file = await jpegOf(200_000);
      const { body, contentType } = multipartBody(file);
      // Only the head is sent: the refusal comes from the declared length, not from streamed bytes.
      const answer = await postInPieces(url, {
        pieces: piecesOf(body.subarray(0, 1000), 1),
        gapMs: 0,
        declaredLength: 1024 * 1024 + 2000,
        headers: { 'Content-Type': contentType, [ROOM_HEADER]: '1000' },
      });
      expect(answer).toMatchObject({ status: 507, body: { message: 'storage quota exceeded' } });
      expect(await blobs.head(String(answer.body.key))).toBeNull();
    });

    it('the smaller limit wins, and the answer names it: more room than maxBytes still answers 413 past maxBytes', async () => {
      const res = await post(formWith(['file', await jpegOf(MAX + 10)]), { [ROOM_HEADER]: String(10 * MAX) });
      expect(res.status).toBe(413);
    });
  });

  it('keeps receiving a slow upload for as long as bytes keep coming', async () => {
    const png = await noisePng();
    // Eight pieces 250 ms apart: the whole takes about four idle periods, no gap reaches one.
    const answer = await uploadInPieces(png, { pieces: 8, gapMs: 250, idleMs: 500 });
    expect(answer).toMatchObject({
      status: 201,
      body: { size: png.length, sha256: createHash('sha256').update(png).digest('hex') },
    });
  });

  it.each([
    ['while the store is writing', 8000],
    ['while its head is being sniffed', 1000],
  ])('cuts an upload that stops sending %s, leaving no blob and no partial file', async (_when, sent) => {
    // The headers, then the first bytes of the body, then nothing.
    const answer = await uploadInPieces(await noisePng(), { send: sent, pieces: 1, gapMs: 0, idleMs: 300 });
    expect(answer).toEqual({
      status: 500,
      body: { message: 'upload stalled: no data for 0.3 seconds', key: expect.any(String) },
    });
    expect(await blobs.head(String(answer.body.key))).toBeNull();
    expect(await tempFiles()).toEqual([]);
  });
});

describe('safeFilename', () => {
  it('keeps the last path segment without control characters, else upload.<ext>', () => {
    expect(safeFilename('C:\\Users\\me\\IMG_1.JPG', 'jpg')).toBe('IMG_1.JPG');
    expect(safeFilename('../../etc/passwd', 'jpg')).toBe('passwd');
    expect(safeFilename('a\u0000b\nc.png', 'png')).toBe('abc.png');
    expect(safeFilename(undefined, 'heic')).toBe('upload.heic');
    expect(safeFilename('..', 'heic')).toBe('upload.heic');
    expect(safeFilename('x'.repeat(400), 'jpg')).toHaveLength(255);
  });

  it('drops C1 controls and the bidirectional controls that disguise an extension', () => {
    expect(safeFilename('a\u0085b\u009bc.jpg', 'jpg')).toBe('abc.jpg');
    expect(safeFilename('photo\u202Egpj.exe', 'jpg')).toBe('photogpj.exe');
    expect(safeFilename('\u2066x\u2069\u200E\u200F\u061C.png', 'png')).toBe('x.png');
    expect(safeFilename('\u202E', 'png')).toBe('upload.png');
    expect(safeFilename('Été à la plage.jpg', 'jpg')).toBe('Été à la plage.jpg');
  });
});
