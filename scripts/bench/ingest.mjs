// Ingest measurements: the single-process baseline, and uploads through the real services until
// every item is READY.
import { readdir, readFile } from 'node:fs/promises';
import { Agent, get as httpGet } from 'node:http';
import { join } from 'node:path';
import { require, root } from '../bench-common.mjs';
import { pool, seconds } from './photos.mjs';
import { uploadAll } from './upload.mjs';

const components = require(join(root, 'services/worker/dist/components/index.js'));
const { startProcess, serviceEntry } = require(join(root, 'services/kit/dist/testing/index.js'));

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

/**
 * One plain Node process doing the worker's work on the files, `concurrency` at a time: EXIF and
 * metadata, decode, previews, words, category, and with `explore` the place, things and faces.
 * Returns { seconds, exploreMs (wall time per component, summed), facesFound, and with `explore` exploreCpuMs (CPU
 * time of things, faces and OCR, summed, measured one photo at a time) }.
 */
export async function baseline(files, { concurrency, explore }) {
  const faceOptions = {
    minScore: components.DEFAULT_FACES_MIN_SCORE,
    minSize: components.DEFAULT_FACES_MIN_SIZE,
    log: quiet,
  };
  // The gazetteer and the models load once per worker process: the baseline loads them before timing too.
  const blank = { data: Buffer.alloc(3), width: 1, height: 1, channels: 3 };
  if (explore) {
    await components.findPlace(0, 0);
    await components.detectFaces(blank, faceOptions);
    await components.detectThings(blank, { minScore: components.DEFAULT_THINGS_MIN_SCORE, log: quiet });
  }
  await components.readWords(blank, { timeoutMs: components.DEFAULT_OCR_TIMEOUT_SECONDS * 1000 });
  const exploreMs = { places: 0, things: 0, faces: 0, ocr: 0 };
  let facesFound = 0;
  const timed = async (part, fn) => {
    const t = performance.now();
    const result = await fn();
    exploreMs[part] += performance.now() - t;
    return result;
  };
  const started = performance.now();
  await pool(files, concurrency, async (f) => {
    const meta = await components.extractMetadata(f.path, 'image/jpeg');
    const previews = await components.makeImagePreviews(f.path, 'image/jpeg');
    if (explore) {
      if (meta.latitude !== null && meta.longitude !== null)
        await timed('places', () => components.findPlace(meta.latitude, meta.longitude));
      await timed('things', () =>
        components.detectThings(previews.bitmap, { minScore: components.DEFAULT_THINGS_MIN_SCORE, log: quiet }),
      );
      facesFound += (await timed('faces', () => components.detectFaces(previews.bitmap, faceOptions))).length;
    }
    await timed('ocr', () =>
      components.readWords(previews.bitmap, { timeoutMs: components.DEFAULT_OCR_TIMEOUT_SECONDS * 1000 }),
    );
    components.detectCategory(meta, { filename: f.name, mimeType: 'image/jpeg' });
  });
  const result = { seconds: seconds(started), exploreMs, facesFound };
  return explore ? { ...result, exploreCpuMs: await componentCpu(files, faceOptions) } : result;
}

/**
 * The CPU time (all threads of this process: onnxruntime's, libvips's) each vision component spends per photo, summed
 * over `files`: one photo at a time, decoded once beforehand as the worker does, so that nothing else runs while a
 * component is measured. The wall times above, two photos at a time on a shared machine, include waiting for a core.
 */
async function componentCpu(files, faceOptions) {
  const cpuMs = { things: 0, faces: 0, ocr: 0 };
  const measured = async (part, fn) => {
    const before = process.cpuUsage();
    const value = await fn();
    const used = process.cpuUsage(before);
    cpuMs[part] += (used.user + used.system) / 1000;
    return value;
  };
  for (const f of files) {
    const { bitmap } = await components.makeImagePreviews(f.path, 'image/jpeg');
    await measured('things', () =>
      components.detectThings(bitmap, { minScore: components.DEFAULT_THINGS_MIN_SCORE, log: quiet }),
    );
    await measured('faces', () => components.detectFaces(bitmap, faceOptions));
    await measured('ocr', () =>
      components.readWords(bitmap, { timeoutMs: components.DEFAULT_OCR_TIMEOUT_SECONDS * 1000 }),
    );
  }
  return cpuMs;
}

export const closeBaseline = async () => {
  await components.closeOcr();
  await components.closeExifTool();
};

/** A user of the stack (created by the administrator, logged in): { headers, token }. */
export async function newUser(stack, username, features) {
  const base = stack.gatewayUrl;
  const admin = `Basic ${Buffer.from(`${stack.adminUsername}:${stack.adminPassword}`).toString('base64')}`;
  const password = 'Bench-Marking-Photos-42';
  const user = await fetch(`${base}/v1/users`, {
    method: 'POST',
    headers: { Authorization: admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', username, password, ...(features ? { features } : {}) }),
  });
  if (user.status !== 201) throw new Error(`creating the user: ${user.status} ${await user.text()}`);
  const res = await fetch(`${base}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
  const { accessToken } = await res.json();
  return { token: accessToken, headers: { Authorization: `Bearer ${accessToken}` } };
}

/** Worker processes on the stack, ready: [ServiceProcess]. */
export async function startWorkers(stack, count, tag) {
  const workers = Array.from({ length: count }, (_, w) =>
    startProcess(`worker-${tag}-${w + 1}`, serviceEntry('worker'), stack.envFor('worker')),
  );
  await Promise.all(workers.map((p) => p.waitForOutput('service ready', 30_000)));
  return workers;
}

/**
 * Uploads every file as `user` (`uploadParallel` at a time) while `workers` process them, until
 * every item is READY: { seconds, workerMs (each item's processing time) }.
 */
export async function ingest(stack, user, files, workers, uploadParallel) {
  const base = stack.gatewayUrl;
  // Is the last item READY, has one FAILED? One small page each, on a kept connection: the wait must
  // not load the services it waits for (two full lists every 100 ms cost the services and this
  // process ~1.3 s of CPU in a 12 s run, which the baseline never had to share the cores with).
  const page = (status, n) => getJson(`${base}/v1/mediaItems?status=${status}&limit=1&page=${n}`, user.headers);
  const allReady = async () => (await page('READY', files.length)).length === 1;
  const assertNoneFailed = async () => {
    const [failed] = await page('FAILED', 1);
    if (failed) throw new Error(`an item failed: ${failed.failureReason}`);
  };
  const processedBefore = workers.map((w) => w.output().length);
  // Each worker with everything it started (its ExifTool processes, ffmpeg while one runs).
  const rss = sampleRss(async () => (await Promise.all(workers.map((w) => processTree(w.child.pid)))).flat());
  const started = performance.now();
  await uploadAll(`${base}/v1/mediaItems`, user.headers, files, uploadParallel);
  const deadline = Date.now() + 30 * 60_000;
  for (let polls = 0; !(await allReady()); polls++) {
    // A failed item never becomes READY: looked for every second.
    if (polls % 10 === 0) await assertNoneFailed();
    if (Date.now() > deadline) throw new Error('timed out waiting for every item to be READY');
    await new Promise((r) => setTimeout(r, 100));
  }
  const took = seconds(started);
  const memory = rss.stop();
  const workerMs = workers.flatMap((w, i) =>
    [
      ...w
        .output()
        .slice(processedBefore[i])
        .matchAll(/"ms":(\d+),"msg":"media item processed"/g),
    ].map((m) => Number(m[1])),
  );
  return { seconds: took, workerMs, rss: memory };
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

/** GET `url` (JSON, 200 expected) over a kept connection. */
function getJson(url, headers) {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { headers, agent: keepAlive }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode} ${body}`));
        else resolve(JSON.parse(body));
      });
    });
    req.on('error', reject);
  });
}

/**
 * `pid` and every process below it, from each one's /proc/N/task/T/children: a few small reads. (Reading
 * /proc/N/stat of every process on the machine, five times a second, cost this process ~0.5 s of CPU
 * per ingest run, and its garbage more: work the baseline's side never had to share the cores with.)
 */
export async function processTree(pid) {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    const tasks = await readdir(`/proc/${tree[i]}/task`).catch(() => []);
    for (const task of tasks) {
      const children = await readFile(`/proc/${tree[i]}/task/${task}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ')) if (child.trim()) tree.push(Number(child));
    }
  }
  return tree;
}

async function rssOf(pid) {
  const [status, cmdline] = await Promise.all([
    readFile(`/proc/${pid}/status`, 'utf8'),
    readFile(`/proc/${pid}/cmdline`, 'utf8'),
  ]).catch(() => ['', '']);
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return { mib: m ? Number(m[1]) / 1024 : 0, exiftool: cmdline.includes('exiftool') };
}

/**
 * Samples the summed resident memory of the processes `pids()` names every 200 ms until stop():
 * { peakMiB, exiftoolMiB (the ExifTool processes' part of that peak) }.
 */
function sampleRss(pids) {
  let peak = { peakMiB: 0, exiftoolMiB: 0 };
  let busy = false;
  const sample = async () => {
    if (busy) return;
    busy = true;
    try {
      const each = await Promise.all((await pids()).map(rssOf));
      const total = each.reduce((n, r) => n + r.mib, 0);
      if (total > peak.peakMiB)
        peak = { peakMiB: total, exiftoolMiB: each.filter((r) => r.exiftool).reduce((n, r) => n + r.mib, 0) };
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void sample().catch(() => undefined), 200);
  return { stop: () => (clearInterval(timer), peak) };
}
