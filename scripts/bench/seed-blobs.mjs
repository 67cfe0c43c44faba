// The bench seeder's blobs: tiny real pictures (a 64 × 48 JPEG, WebP previews and thumbnails, a
// one-second MP4 for videos), made once, then stored for every item of a plan through the blob-store
// port of @trove/kit, under the keys the gateway and the worker use (`mediaBlobKey`), from a process
// of their own: the documents seeded meanwhile keep the bench's main thread busy, and each put
// holds an I/O thread per fsync, of which this process gets 32 instead of Node's 4 (as the gateway).
import { execFile, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { log, require, root } from '../bench-common.mjs';

const { openBlobStore } = require(join(root, 'services/kit/dist/index.js'));
const { mediaBlobKey } = require(join(root, 'proto-events/dist/index.js'));

/** A one-second 64 × 48 H.264 video, made by ffmpeg (which `make up`'s worker needs anyway). */
async function tinyVideo() {
  const dir = await mkdtemp(join(tmpdir(), 'trove-bench-video-'));
  try {
    const out = join(dir, 'tiny.mp4');
    await promisify(execFile)('ffmpeg', [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x48:rate=10:duration=1',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-y',
      out,
    ]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** An MP4 `free` box: a top-level box players skip. */
function freeBox(text) {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write('free', 4, 'latin1');
  return Buffer.concat([header, payload]);
}

/** The pictures, made once: `jpeg`, `video` (MP4), `preview`, `thumbnail` (WebP) and `face` (a face's square WebP). */
export async function tinyPictures() {
  const sharp = require('sharp');
  const width = 64;
  const height = 48;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels.set([x * 4, y * 5, 128], (y * width + x) * 3);
  const picture = sharp(pixels, { raw: { width, height, channels: 3 } });
  const jpeg = await picture.clone().jpeg({ quality: 70 }).toBuffer();
  const preview = await picture.clone().resize(48).webp({ quality: 70 }).toBuffer();
  const thumbnail = await picture.clone().resize(24).webp({ quality: 60 }).toBuffer();
  const face = await picture.clone().resize(16, 16).webp({ quality: 60 }).toBuffer();
  return { jpeg, video: await tinyVideo(), preview, thumbnail, face };
}

/**
 * The blobs of `tinyPictures()`, with `original(item)`: the tiny JPEG (or MP4) with the item's id
 * after its end (after the JPEG's end-of-image marker, in an MP4 `free` box: both still decode), so
 * every original has a sha256 of its own, as uploads do.
 */
export function blobBytes(pictures) {
  const [jpeg, video, preview, thumbnail, face] = ['jpeg', 'video', 'preview', 'thumbnail', 'face'].map((k) =>
    Buffer.from(pictures[k]),
  );
  return {
    preview,
    thumbnail,
    face,
    original: (item) =>
      item.video ? Buffer.concat([video, freeBox(item.id)]) : Buffer.concat([jpeg, Buffer.from(item.id)]),
  };
}

export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** Runs `put(i)` for i in [0, count), `concurrency` at a time, logging every tenth. */
async function inPool(count, concurrency, what, put) {
  let next = 0;
  let done = 0;
  const step = Math.max(1, Math.ceil(count / 10));
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        await put(next++);
        if (++done % step === 0 && count >= 10_000) log(`  ${what}: ${done}/${count}`);
      }
    }),
  );
}

const CHILD_FLAG = '--seed-blobs';

/**
 * Stores the original, preview and thumbnail of each of the user's `items` (`concurrency` puts at a
 * time: the filesystem store's puts wait on fsyncs) and a face thumbnail under each of `faceKeys`,
 * in a child process. Answers how many blobs and bytes, and the seconds it took by its own clock.
 * `pictures`: `tinyPictures()`.
 */
export function seedBlobs({ dataDir, userId, items = [], pictures, faceKeys = [], concurrency = 32 }) {
  const task = {
    dataDir,
    userId,
    items: items.map(({ id, video, mimeType }) => ({ id, video, mimeType })),
    pictures,
    faceKeys,
    concurrency,
  };
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], {
    env: { ...process.env, UV_THREADPOOL_SIZE: String(concurrency) },
    serialization: 'advanced',
  });
  return new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the blob seeding process exited (${code})`)));
    child.send(task);
  });
}

async function storeBlobs({ dataDir, userId, items, pictures, faceKeys, concurrency }) {
  const started = performance.now();
  const bytes = blobBytes(pictures);
  const store = await openBlobStore({ dataDir });
  let stored = 0;
  const put = async (key, body, contentType) => {
    await store.put(key, Readable.from([body]), { contentType });
    stored += body.length;
  };
  try {
    await inPool(items.length * 3, concurrency, 'blobs', async (i) => {
      const item = items[Math.floor(i / 3)];
      const variant = ['original', 'preview', 'thumbnail'][i % 3];
      if (variant === 'original')
        await put(mediaBlobKey(userId, item.id, 'original'), bytes.original(item), item.mimeType);
      else await put(mediaBlobKey(userId, item.id, variant), bytes[variant], 'image/webp');
    });
    await inPool(faceKeys.length, concurrency, 'face thumbnails', (i) => put(faceKeys[i], bytes.face, 'image/webp'));
    return { blobs: items.length * 3 + faceKeys.length, bytes: stored, seconds: (performance.now() - started) / 1000 };
  } finally {
    await store.close();
  }
}

if (process.argv[2] === CHILD_FLAG) {
  process.once('message', async (task) => {
    process.send(await storeBlobs(task), () => process.disconnect());
  });
}
