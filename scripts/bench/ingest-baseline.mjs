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
 * and OCR, summed, measured one photo at a time) }.
 */
export async function baseline(files, { concurrency, explore }) {
  const child = fork(fileURLToPath(import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = once(child, 'exit');
  const answer = once(child, 'message');
  child.send({ files: files.map((f) => ({ path: f.path, name: f.name })), concurrency, explore });
  const [first] = await Promise.race([answer, exited.then(([code]) => [{ error: `exited with ${code}` }])]);
  await exited;
  if (first.error) throw new Error(`the ingest baseline failed: ${first.error}`);
  return first;
}

// The worker's components: loaded in the child only (the benchmark's process just forks it).
let components;

const quiet = { info() {}, warn() {}, error() {}, debug() {} };

/** What `baseline` describes, in this process (the child). */
async function runBaseline(files, { concurrency, explore }) {
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const job = once(process, 'message');
  components = require(join(root, 'services/worker/dist/components/index.js'));
  const [{ files, concurrency, explore }] = await job;
  try {
    const result = await runBaseline(files, { concurrency, explore });
    await components.closeOcr();
    await components.closeExifTool();
    process.send(result, () => process.disconnect());
  } catch (err) {
    process.send({ error: err.stack ?? String(err) }, () => process.exit(1));
  }
}
