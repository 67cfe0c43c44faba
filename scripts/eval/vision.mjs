#!/usr/bin/env node
/**
 * `make eval-vision`: how well the worker's recognition does on labelled public photos, without a stack.
 *
 * Runs the worker's own analysis steps from its build (services/worker/dist/pipeline: faces, things, OCR, as
 * the pipeline calls them on the previews' decoded, upright picture; the places component on the position
 * its metadata component reads) and explore's face grouping (services/explore/dist/people/grouping) over
 * ../shared/eval/vision (relative to the repo root, or TROVE_EVAL_VISION_DIR; see its README for the labels).
 * Prints what each part got wrong and `ratio NAME VALUE` lines: people pairwise precision/recall, B-cubed and
 * people found per identity (whole photos and crops apart, as uploaded and after a re-grouping), things
 * precision/recall overall and per label, OCR word recall and precision, places matched, and the CPU time
 * of each component per photo (process.cpuUsage around each call, models loaded beforehand).
 * Without the folder it says so and exits 0. Needs a build first. The images are read in place, never copied.
 *
 *   node scripts/eval/vision.mjs [--parts people,things,words,places] [--only SUBSTRING] [--verbose]
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root } from './common.mjs';

const PARTS = ['people', 'things', 'words', 'places'];
const arg = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : null);

if (process.argv.includes('--help')) {
  console.log(
    `usage: node scripts/eval/vision.mjs [--parts ${PARTS.join(',')}] [--only SUBSTRING] [--verbose]\n  TROVE_EVAL_VISION_DIR: the evaluation folder (default ../shared/eval/vision)`,
  );
  process.exit(0);
}
const parts = (arg('--parts') ?? PARTS.join(',')).split(',');
const unknown = parts.filter((p) => !PARTS.includes(p));
if (unknown.length) {
  console.error(`eval-vision: unknown part ${unknown.join(', ')} (parts: ${PARTS.join(', ')})`);
  process.exit(2);
}
const options = { only: arg('--only'), verbose: process.argv.includes('--verbose') };

const evalDir = resolve(root, process.env.TROVE_EVAL_VISION_DIR || '../shared/eval/vision');
if (!existsSync(join(evalDir, 'README.md'))) {
  console.log(`eval-vision: no evaluation set at ${evalDir} (README.md missing): nothing to evaluate`);
  process.exit(0);
}
if (!existsSync(join(root, 'services/worker/dist/pipeline/process.js'))) {
  console.error('eval-vision: the worker is not built (make build)');
  process.exit(1);
}

const started = Date.now();
const present = (folder, file) => existsSync(join(evalDir, folder, file));
try {
  if (parts.includes('people') && present('faces', 'faces.json'))
    await (await import('./people.mjs')).evalPeople(join(evalDir, 'faces'), options);
  if (parts.includes('things') && present('objects', 'objects.json'))
    await (await import('./things.mjs')).evalThings(join(evalDir, 'objects'), options);
  if (parts.includes('words') && present('text', 'text.json'))
    await (await import('./words.mjs')).evalWords(join(evalDir, 'text'), options);
  if (parts.includes('places') && present('places', 'places.json'))
    await (await import('./places.mjs')).evalPlaces(join(evalDir, 'places'), options);
} finally {
  if (parts.includes('words')) await (await import('./common.mjs')).components().closeOcr();
}
console.log(`\nvision evaluation of ${evalDir}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
// The wasm runtime and tesseract's threads would keep the process alive.
process.exit(0);
