#!/usr/bin/env node
// Things benchmark (build first: npx tsc -b tsconfig.build.json). Not a test: it prints figures and
// asserts nothing. In one process, as a worker would:
//   1. model load: CenterNet session + warm-up, CPU and wall time, RSS after;
//   2. per photo: the previews component decodes each photo once (as the pipeline does), then
//      detectThings runs on its bitmap --runs times; CPU and wall time per run, the things found;
//   3. memory: RSS after every photo, so growth would show.
// CPU time (all threads of the process) is the figure to compare: wall time on a shared machine
// can be several times higher.
//
// Options: --runs N per photo (default 10), --photos a.jpg,b.heic (default: the worker's fixtures), or --bench N:
// the first N photos `make bench` makes (12 MP; as scripts/faces-bench.mjs measures faces), one run each, and the
// mean CPU time per photo, as things_ms_per_photo counts it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { measure } from '../../../scripts/bench/cpu.mjs';

const worker = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(worker, 'package.json'));
const { detectThings, makeImagePreviews, DEFAULT_THINGS_MIN_SCORE } = require(join(worker, 'dist/components/index.js'));
const { detectFileType } = require('@trove/kit/filetype');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const BENCH = Number(arg('bench', 0));
const RUNS = BENCH ? 1 : Number(arg('runs', 10));
// The shared test fixtures: ../shared/fixtures/photos beside the checkout, or TROVE_FIXTURES_DIR.
const FIXTURES = process.env.TROVE_FIXTURES_DIR ?? join(worker, '..', '..', '..', 'shared', 'fixtures', 'photos');
let PHOTOS = arg('photos', ['IMG_0543.HEIC', 'jobs.jpeg'].map((f) => join(FIXTURES, f)).join(',')).split(',');
const benchDir = BENCH ? await mkdtemp(join(tmpdir(), 'trove-things-bench-')) : null;
if (benchDir) {
  const { makePhotos } = await import('../../../scripts/bench/photos.mjs');
  PHOTOS = (await makePhotos(benchDir, BENCH)).map((f) => f.path);
}

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
function memory() {
  return `rss ${mib(process.memoryUsage().rss)}`;
}
const ms = (n) => `${n.toFixed(0).padStart(5)} ms`;

console.log(`things bench: ${RUNS} runs per photo, min score ${DEFAULT_THINGS_MIN_SCORE}, node ${process.version}`);
console.log(`start: ${mib(process.memoryUsage().rss)} rss`);

// A 1x1 picture: the first call loads the model.
const load = await measure(() =>
  detectThings({ data: Buffer.alloc(3), width: 1, height: 1, channels: 3 }, { minScore: 1 }),
);
console.log(`model load (onnxruntime): ${ms(load.cpuMs)} cpu ${ms(load.wallMs)} wall; ${memory()}`);

let total = 0;
for (const path of PHOTOS) {
  const type = detectFileType((await readFile(path)).subarray(0, 4100));
  if (type?.mediaItemType !== 'photo') throw new Error(`${path}: not a photo the worker reads`);
  const decode = await measure(() => makeImagePreviews(path, type.mimeType));
  const { bitmap } = decode.value;
  let cpu = 0;
  let wall = 0;
  let things = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await measure(() => detectThings(bitmap, { minScore: DEFAULT_THINGS_MIN_SCORE }));
    cpu += run.cpuMs;
    wall += run.wallMs;
    things = run.value;
  }
  total += cpu / RUNS;
  console.log(
    `${path.split('/').pop()} (${bitmap.width}x${bitmap.height}, previews ${ms(decode.cpuMs)} cpu): things ${ms(cpu / RUNS)} cpu ${ms(wall / RUNS)} wall per photo; ${JSON.stringify(things)}; ${memory()}`,
  );
}
console.log(`things per photo: ${ms(total / PHOTOS.length)} cpu (mean of ${PHOTOS.length} photos)`);
if (benchDir) await rm(benchDir, { recursive: true, force: true });
