/**
 * What the parts of `make eval-vision` share: the worker's built components (its dist, as the pipeline
 * calls them), the picture the pipeline gives them (the previews' decoded, upright bitmap), CPU time of a
 * call and the `ratio` lines.
 */
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** require() from a workspace, for its dist and its dependencies. */
export const requireFrom = (workspace) => createRequire(join(root, workspace, 'package.json'));
const worker = requireFrom('services/worker');

/** The worker's components (services/worker/dist/components): the entry points its pipeline calls. */
export const components = () => worker('./dist/components/index.js');

/** The processing limits the worker runs with by default. */
export const limits = () => components().DEFAULT_LIMITS;

/** A silent logger (TROVE_LOG_LEVEL to see the components' lines). */
export function logger() {
  const { createLogger } = worker('@trove/kit');
  return createLogger({ service: 'eval-vision', level: process.env.TROVE_LOG_LEVEL || 'silent' });
}

/** The file's type as the upload sniffs it (null: refused). */
export async function sniff(path) {
  const { detectFileType } = worker('@trove/kit/filetype');
  const head = Buffer.alloc(64 * 1024);
  const fh = await open(path, 'r');
  try {
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return detectFileType(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/** The picture the analysis components get: the previews' ≤ 2048 px upright bitmap of the file. */
export async function pictureOf(path) {
  const type = await sniff(path);
  if (!type) throw new Error(`${path}: the upload does not recognise the file type`);
  const previews = await components().makeImagePreviews(path, type.mimeType, limits());
  return previews.bitmap;
}

/** Runs `fn`, answering its value and the process CPU time it took (all threads: tesseract's too), ms. */
export async function cpuTimed(fn) {
  const before = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(before);
  return { value, ms: (used.user + used.system) / 1000 };
}

/** A grey picture, for loading each component's models before anything is timed. */
export const blankPicture = (size = 256) => ({
  data: Buffer.alloc(size * size * 3, 128),
  width: size,
  height: size,
  channels: 3,
});

export const ratio = (name, value) =>
  console.log(`ratio ${name} ${value === null || Number.isNaN(value) ? 'n/a' : Number(value).toFixed(4)}`);

/** A label in a ratio name: "tennis racket" → "tennis_racket". */
export const slug = (label) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

/** Mean of a list of numbers (0 without any). */
export const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
