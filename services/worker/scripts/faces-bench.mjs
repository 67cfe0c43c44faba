#!/usr/bin/env node
// Faces benchmark (build first: npx tsc -b tsconfig.build.json). Not a test: it prints figures and asserts
// nothing. On the photos `make bench` makes (12 MP, the group photo of the fixtures in every other one), decoded
// once by the previews component, detectFaces' CPU and wall time per photo, models loaded beforehand, as
// faces_ms_per_photo counts it.
//
// Options: --photos N (default 4).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { makePhotos } from '../../../scripts/bench/photos.mjs';
import { measure } from '../../../scripts/bench/cpu.mjs';

const worker = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(worker, 'package.json'));
const { detectFaces, makeImagePreviews, DEFAULT_FACES_MIN_SCORE, DEFAULT_FACES_MIN_SIZE } = require(
  join(worker, 'dist/components/index.js'),
);

const i = process.argv.indexOf('--photos');
const COUNT = i > 0 ? Number(process.argv[i + 1]) : 4;
const options = { minScore: DEFAULT_FACES_MIN_SCORE, minSize: DEFAULT_FACES_MIN_SIZE };

const dir = await mkdtemp(join(tmpdir(), 'trove-faces-bench-'));
try {
  const files = await makePhotos(dir, COUNT);
  const load = await measure(() => detectFaces({ data: Buffer.alloc(3), width: 1, height: 1, channels: 3 }, options));
  console.log(`models loaded: ${load.cpuMs.toFixed(0)} ms cpu`);
  let cpu = 0;
  let wall = 0;
  for (const f of files) {
    const { bitmap } = await makeImagePreviews(f.path, 'image/jpeg');
    const run = await measure(() => detectFaces(bitmap, options));
    cpu += run.cpuMs;
    wall += run.wallMs;
    console.log(
      `${f.name}: ${run.value.length} faces, ${run.cpuMs.toFixed(0)} ms cpu, ${run.wallMs.toFixed(0)} ms wall`,
    );
  }
  console.log(
    `faces per photo: ${(cpu / files.length).toFixed(0)} ms cpu, ${(wall / files.length).toFixed(0)} ms wall`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exit(0);
