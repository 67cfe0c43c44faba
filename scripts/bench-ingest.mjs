#!/usr/bin/env node
// Ingest benchmark (`make bench`; build first). Not a test: it prints figures, it asserts nothing.
//
// One run, one set of files (N camera-sized JPEGs with EXIF, made here), four measurements:
//   1. baseline: one plain Node process doing the worker's work (EXIF/metadata, decode, resize to
//      preview + thumbnail + placeholder, the place of the GPS position, the things and the faces in
//      the picture, the words written in it, category) on the files, as many at a time as one worker;
//   2. end to end: the real services (nats-server, auth, gateway, media, worker) — upload every file
//      through the API, until every item is READY;
//   3. upload: the upload phase of (2) alone, in MB/s (multipart → gateway → sha256 → blob store);
//   4. disk: a plain local write (+ fsync, as the blob store does) of the same bytes, in MB/s.
//
// Options: --photos N (default 40), --workers N worker processes (default 1),
//          --concurrency N per worker (default 2, the service default), --upload-parallel N (default 4).
import { randomBytes } from 'node:crypto';
import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { args, log, require, root } from './bench-common.mjs';

const { startStack, startProcess, serviceEntry } = require(join(root, 'services/kit/dist/testing/index.js'));
const components = require(join(root, 'services/worker/dist/components/index.js'));
const sharp = require('sharp');

const PHOTOS = Number(args.photos ?? 40);
const WORKERS = Number(args.workers ?? 1);
const CONCURRENCY = Number(args.concurrency ?? 2);
const UPLOAD_PARALLEL = Number(args['upload-parallel'] ?? 4);
const MB = 1e6;

/** The group photo of the test fixtures (11 faces), scaled to the camera's width. */
const groupPhoto = await sharp(await readFile(join(root, 'services/kit/test-fixtures/faces.jpg'))).resize(4000).toBuffer();

/**
 * A 12-megapixel, photo-like JPEG (smooth random colour fields, some grain) with camera EXIF and
 * GPS; every other one (even i) shows the group photo across its width, so that there are faces to find.
 */
async function cameraPhoto(i) {
  const small = await sharp(randomBytes(40 * 30 * 3), { raw: { width: 40, height: 30, channels: 3 } }).resize(4000, 3000, { kernel: 'cubic' }).raw().toBuffer();
  const grain = randomBytes(small.length);
  for (let j = 0; j < small.length; j++) small[j] = Math.min(255, Math.max(0, small[j] + ((grain[j] & 15) - 8)));
  const day = String((i % 28) + 1).padStart(2, '0');
  const picture = sharp(small, { raw: { width: 4000, height: 3000, channels: 3 } });
  return (i % 2 === 0 ? picture.composite([{ input: groupPhoto, gravity: 'centre' }]) : picture)
    .jpeg({ quality: 88 })
    .withExif({
      IFD0: { Make: 'BenchCam', Model: 'B-12' },
      IFD2: { DateTimeOriginal: `2023:05:${day} 10:${String(i % 60).padStart(2, '0')}:00`, FNumber: '18/10', ExposureTime: '1/125', ISOSpeedRatings: '100', FocalLength: '35/1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2952/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 402/10' },
    })
    .toBuffer();
}

async function pool(items, parallel, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
/** Milliseconds the baseline spent in each explore component, summed over the photos. */
const exploreMs = { places: 0, things: 0, faces: 0, ocr: 0 };
let facesFound = 0;

async function baseline(files) {
  // The gazetteer and the models load once per worker process: the baseline loads them before timing too.
  await components.findPlace(0, 0);
  const faceOptions = { minScore: components.DEFAULT_FACES_MIN_SCORE, minSize: components.DEFAULT_FACES_MIN_SIZE, log: quiet };
  await components.detectFaces({ data: Buffer.alloc(3), width: 1, height: 1, channels: 3 }, faceOptions);
  const started = performance.now();
  await pool(files, CONCURRENCY, async (f) => {
    const meta = await components.extractMetadata(f.path, 'image/jpeg');
    const previews = await components.makeImagePreviews(f.path, 'image/jpeg');
    let t = performance.now();
    if (meta.latitude !== null && meta.longitude !== null) await components.findPlace(meta.latitude, meta.longitude);
    exploreMs.places += performance.now() - t;
    t = performance.now();
    await components.detectThings(previews.bitmap, { minScore: components.DEFAULT_THINGS_MIN_SCORE, log: quiet });
    exploreMs.things += performance.now() - t;
    t = performance.now();
    facesFound += (await components.detectFaces(previews.bitmap, faceOptions)).length;
    exploreMs.faces += performance.now() - t;
    t = performance.now();
    await components.readWords(previews.bitmap, { timeoutMs: components.DEFAULT_OCR_TIMEOUT_SECONDS * 1000 });
    exploreMs.ocr += performance.now() - t;
    components.detectCategory(meta, { filename: f.name, mimeType: 'image/jpeg' });
  });
  const seconds = (performance.now() - started) / 1000;
  await components.closeOcr();
  return seconds;
}

async function diskWrite(files, dir) {
  const started = performance.now();
  for (const f of files) {
    const handle = await open(join(dir, `copy-${f.name}`), 'wx');
    await handle.writeFile(f.data);
    await handle.sync();
    await handle.close();
  }
  return (performance.now() - started) / 1000;
}

async function endToEnd(files) {
  const stack = await startStack({
    services: ['auth', 'gateway', 'media', ...(WORKERS > 0 ? ['worker'] : [])],
    env: { TROVE_LOG_LEVEL: 'info', TROVE_WORKER_CONCURRENCY: String(CONCURRENCY), TROVE_VALIDATE_RESPONSES: 'false' },
  });
  const workers = WORKERS > 0 ? [stack.processes.worker] : [];
  try {
    for (let w = 1; w < WORKERS; w++) workers.push(startProcess(`worker-${w + 1}`, serviceEntry('worker'), stack.env));
    await Promise.all(workers.map((p) => p.waitForOutput('service ready', 30_000)));
    const base = stack.gatewayUrl;
    const login = async (username) => {
      const admin = `Basic ${Buffer.from(`${stack.adminUsername}:${stack.adminPassword}`).toString('base64')}`;
      const password = 'Bench-Marking-Photos-42';
      const user = await fetch(`${base}/v1/users`, { method: 'POST', headers: { Authorization: admin, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Bench', username, password }) });
      if (user.status !== 201) throw new Error(`creating the user: ${user.status} ${await user.text()}`);
      const res = await fetch(`${base}/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username, password }) });
      if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
      return { Authorization: `Bearer ${(await res.json()).accessToken}` };
    };
    const uploadAll = async (auth) => {
      const started = performance.now();
      await pool(files, UPLOAD_PARALLEL, async (f) => {
        const form = new FormData();
        form.append('file', new Blob([f.data]), f.name);
        const res = await fetch(`${base}/v1/mediaItems`, { method: 'POST', headers: auth, body: form });
        if (res.status !== 201) throw new Error(`upload of ${f.name}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      });
      return (performance.now() - started) / 1000;
    };

    // 1. End to end: upload every file while the workers process them, until every item is READY.
    const auth = await login('benchmark');
    const count = async (status) => {
      let n = 0;
      for (let page = 1; ; page++) {
        const items = await (await fetch(`${base}/v1/mediaItems?status=${status}&limit=100&page=${page}`, { headers: auth })).json();
        n += items.length;
        if (status === 'FAILED' && items.length) throw new Error(`an item failed: ${items[0].failureReason}`);
        if (items.length < 100) return n;
      }
    };
    const started = performance.now();
    const uploadSecondsDuringIngest = await uploadAll(auth);
    const deadline = Date.now() + 30 * 60_000;
    while ((await count('FAILED')) === 0 && (await count('READY')) < files.length) {
      if (Date.now() > deadline) throw new Error('timed out waiting for every item to be READY');
      await new Promise((r) => setTimeout(r, 100));
    }
    const ingestSeconds = (performance.now() - started) / 1000;
    const workerMs = workers.flatMap((w) => [...w.output().matchAll(/"ms":(\d+),"msg":"media item processed"/g)].map((m) => Number(m[1])));

    // 2. Upload alone: the same bytes again (another user, so no 409), with the workers stopped.
    await Promise.all(workers.map((w) => w.stop()));
    const uploadSeconds = await uploadAll(await login('uploadonly'));
    return { ingestSeconds, uploadSeconds, uploadSecondsDuringIngest, workerMs };
  } finally {
    await Promise.allSettled(workers.map((p) => p.stop()));
    await stack.stop();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'trove-bench-'));
try {
  log(`making ${PHOTOS} 12 MP JPEGs…`);
  const files = [];
  for (let i = 0; i < PHOTOS; i++) {
    const name = `IMG_${String(i).padStart(4, '0')}.jpg`;
    const data = await cameraPhoto(i);
    await writeFile(join(dir, name), data);
    files.push({ name, path: join(dir, name), data });
  }
  const bytes = files.reduce((n, f) => n + f.data.length, 0);
  log(`${(bytes / MB).toFixed(1)} MB in total; baseline…`);
  const baseSeconds = await baseline(files);
  const basePerPhotoMs = (baseSeconds * 1000 * CONCURRENCY) / PHOTOS;
  log('disk write…');
  const diskSeconds = await diskWrite(files, dir);
  log('end to end…');
  const e2e = await endToEnd(files);

  const cpu = cpus();
  const avgWorkerMs = e2e.workerMs.reduce((a, b) => a + b, 0) / Math.max(1, e2e.workerMs.length);
  const rows = [
    ['end-to-end ingest (upload → READY)', `${(PHOTOS / e2e.ingestSeconds).toFixed(2)} photos/s`, `${WORKERS} worker process(es) × concurrency ${CONCURRENCY}, ${UPLOAD_PARALLEL} uploads at a time; ${avgWorkerMs.toFixed(0)} ms of worker time per photo`],
    ['single-process baseline (same EXIF/decode/resize/places/things/faces/OCR work)', `${(PHOTOS / baseSeconds).toFixed(2)} photos/s`, `concurrency ${CONCURRENCY}, no services; ${basePerPhotoMs.toFixed(0)} ms per photo`],
    ['upload through the API', `${(bytes / MB / e2e.uploadSeconds).toFixed(1)} MB/s`, `multipart → gateway → sha256 → blob store (fs), ${UPLOAD_PARALLEL} at a time, workers stopped (${(bytes / MB / e2e.uploadSecondsDuringIngest).toFixed(1)} MB/s while they were processing)`],
    ['plain local disk write (+fsync)', `${(bytes / MB / diskSeconds).toFixed(1)} MB/s`, 'same bytes, one file after another'],
  ];
  console.log(`\nTrove ingest benchmark — ${PHOTOS} photos (12 MP JPEG with EXIF, ${(bytes / MB / PHOTOS).toFixed(1)} MB each on average)`);
  console.log(`machine: ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}\n`);
  console.log('| measurement | result | setup |');
  console.log('|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  console.log(`\nend to end is ${((e2e.ingestSeconds ? baseSeconds / e2e.ingestSeconds : 0) * 100).toFixed(0)}% of the baseline's rate; upload is ${((diskSeconds / e2e.uploadSeconds) * 100).toFixed(0)}% of the disk write's.`);
  console.log(`explore per photo (baseline): places ${(exploreMs.places / PHOTOS).toFixed(1)} ms, things ${(exploreMs.things / PHOTOS).toFixed(0)} ms, faces ${(exploreMs.faces / PHOTOS).toFixed(0)} ms, ocr ${(exploreMs.ocr / PHOTOS).toFixed(0)} ms (wall time, ${CONCURRENCY} at a time; ${facesFound} faces found in ${Math.ceil(PHOTOS / 2)} group photos)\n`);
  // Both runs include the explore components (places, things, faces, OCR): the worker always runs them.
  console.log(`ratio explore_ingest_vs_baseline ${(e2e.ingestSeconds ? baseSeconds / e2e.ingestSeconds : 0).toFixed(3)}`);
  console.log(`ratio upload_vs_disk_write ${(diskSeconds / e2e.uploadSeconds).toFixed(3)}`);
  console.log(`ratio places_ms_per_photo ${(exploreMs.places / PHOTOS).toFixed(2)}`);
  console.log(`ratio things_ms_per_photo ${(exploreMs.things / PHOTOS).toFixed(1)}`);
  // Faces found per second of the faces component's time, and that time per photo (half of them group photos).
  console.log(`ratio faces_per_second ${(exploreMs.faces ? facesFound / (exploreMs.faces / 1000) : 0).toFixed(2)}`);
  console.log(`ratio faces_ms_per_photo ${(exploreMs.faces / PHOTOS).toFixed(1)}`);
  console.log(`ratio ocr_ms_per_photo ${(exploreMs.ocr / PHOTOS).toFixed(1)}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
