// The ingest baseline: one plain Node process doing the worker's work on the photos, without services.
// It runs in a child process of its own, a new one each time: so does the worker, and the benchmark's
// own process (its client and its wait for READY) then stays small. In the benchmark's process, the
// heap the baseline left behind (decoders, models) took ~1.8 s of CPU in garbage collection during
// the end-to-end run that followed it, competing with the services for the two cores.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { require, root } from '../bench-common.mjs';
import { pool, seconds } from './photos.mjs';

/**
 * The worker's work on `files` ({ path, name }), `concurrency` at a time, in a new process: EXIF and
 * metadata, decode, previews, words, category, and with `explore` the place, things and faces.
 * Resolves { seconds, cpuSeconds (that process's own, its ExifTool processes apart), exploreMs (wall
 * time per component, summed), facesFound, and with `explore` exploreCpuMs (CPU time of things, faces
 * and OCR, summed, measured one photo at a time; unless `componentCpu` is false) }.
 */
export async function baseline(files, { concurrency, explore, componentCpu = true }) {
  const child = fork(fileURLToPath(import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const answer = once(child, 'message');
  child.send({ files: files.map((f) => ({ path: f.path, name: f.name })), concurrency, explore, componentCpu });
  const [first] = await Promise.race([answer, exited.then(([code]) => [{ error: `exited with ${code}` }])]);
  await exited;
  if (first.error) throw new Error(`the ingest baseline failed: ${first.error}`);
  return first;
}

// The worker's components: loaded in the child only (the benchmark's process just forks it).
let components;

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

/** What `baseline` describes, in this process (the child). */
async function runBaseline(files, { concurrency, explore, componentCpu: measureCpu }) {
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
  const cpu = process.cpuUsage();
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
  const used = process.cpuUsage(cpu);
  const result = { seconds: seconds(started), cpuSeconds: (used.user + used.system) / 1e6, exploreMs, facesFound };
  return explore && measureCpu ? { ...result, exploreCpuMs: await componentCpu(files, faceOptions) } : result;
}

/** How many times each component's CPU time is measured on each photo (the least counts, see below). */
const CPU_PASSES = 3;

/**
 * The CPU time (all threads of this process: onnxruntime's, libvips's) each vision component spends per photo, summed
 * over `files`: one photo at a time, decoded once beforehand as the worker does, so that nothing else runs while a
 * component is measured. The wall times above, two photos at a time on a shared machine, include waiting for a core.
 * A shared host's neighbours also slow the same instructions down (the same photos took 143 or 309 ms of CPU in
 * things five minutes apart), so every photo goes through the components CPU_PASSES times, the passes one after
 * another, and the least time of each (photo, component) counts: what the work costs, not the host's bad minute.
 * The totals of every pass come along (`passes`), so that the spread is in the output too.
 */
async function componentCpu(files, faceOptions) {
  const bitmaps = [];
  for (const f of files) bitmaps.push((await components.makeImagePreviews(f.path, 'image/jpeg')).bitmap);
  const parts = ['things', 'faces', 'ocr'];
  const least = bitmaps.map(() => ({ things: Infinity, faces: Infinity, ocr: Infinity }));
  const passes = [];
  const cpuOf = async (fn) => {
    const before = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
  for (let pass = 0; pass < CPU_PASSES; pass++) {
    const total = { things: 0, faces: 0, ocr: 0 };
    for (const [i, bitmap] of bitmaps.entries()) {
      const ms = {
        things: await cpuOf(() =>
          components.detectThings(bitmap, { minScore: components.DEFAULT_THINGS_MIN_SCORE, log: quiet }),
        ),
        faces: await cpuOf(() => components.detectFaces(bitmap, faceOptions)),
        ocr: await cpuOf(() =>
          components.readWords(bitmap, { timeoutMs: components.DEFAULT_OCR_TIMEOUT_SECONDS * 1000 }),
        ),
      };
      for (const part of parts) {
        total[part] += ms[part];
        least[i][part] = Math.min(least[i][part], ms[part]);
      }
    }
    passes.push(total);
  }
  const sum = (part) => least.reduce((n, photo) => n + photo[part], 0);
  return { things: sum('things'), faces: sum('faces'), ocr: sum('ocr'), passes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const job = once(process, 'message');
  components = require(join(root, 'services/worker/dist/components/index.js'));
  const [{ files, concurrency, explore, componentCpu }] = await job;
  try {
    const result = await runBaseline(files, { concurrency, explore, componentCpu });
    await components.closeOcr();
    await components.closeExifTool();
    process.send(result, () => process.disconnect());
  } catch (err) {
    process.send({ error: err.stack ?? String(err) }, () => process.exit(1));
  }
}
