#!/usr/bin/env node
/**
 * `make eval-metadata`: how far the metadata Trove stores agrees with ExifTool on real camera and phone files.
 *
 * Runs the worker's own processing (processItem, as its tests do: a filesystem blob store, a recording
 * publisher; no stack) over every file in ../shared/eval/metadata/files (relative to the repo root, or
 * TROVE_EVAL_METADATA_DIR), after the upload's own type sniffing, and compares the published metadata with
 * truth.json (see that folder's README for the fields and their rules). Prints per-field agreement, each
 * disagreement (file, field, expected, got), the files that did not end READY, and the line
 * `ratio metadata_field_agreement VALUE`. Without the folder it says so and exits 0. Needs a build first.
 *
 * Rules: numbers agree within a relative 1e-3 (camera values are 6-significant-digit strings), positions within
 * 1e-4°; a date with an offset in the truth must be the same instant, one without (a local time in an unknown
 * zone) the same wall-clock time to the second, whatever offset Trove put on it; a truth `alt` value also counts;
 * a file without a date (creationTimeTag null) must get its upload time. A file the upload refuses or that fails
 * has every field wrong (a `ready_or_failed` file may fail: it is then left out of the ratio).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'services/worker/package.json'));

if (process.argv.includes('--help')) {
  console.log(
    'usage: node scripts/eval-metadata.mjs [--only SUBSTRING] [--verbose]\n  TROVE_EVAL_METADATA_DIR: the evaluation folder (default ../shared/eval/metadata)',
  );
  process.exit(0);
}
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const verbose = process.argv.includes('--verbose');

const evalDir = resolve(root, process.env.TROVE_EVAL_METADATA_DIR || '../shared/eval/metadata');
if (!existsSync(join(evalDir, 'truth.json'))) {
  console.log(`eval-metadata: no evaluation set at ${evalDir} (truth.json missing): nothing to evaluate`);
  process.exit(0);
}

const { processItem } = require('./dist/pipeline/process.js');
const { closeOcr, closeExifTool } = require('./dist/components/index.js');
const { openBlobStore, createLogger, DLQ_REASON_HEADER } = require('@trove/kit');
const { detectFileType } = require('@trove/kit/filetype');
const { mediaBlobKey } = require('@trove/proto-events');

const truth = JSON.parse(await readFile(join(evalDir, 'truth.json'), 'utf8')).files;
const FIELDS = [
  'mimeType',
  'width',
  'height',
  'creationTime',
  'latitude',
  'longitude',
  'cameraMake',
  'cameraModel',
  'focalLength',
  'apertureFNumber',
  'isoEquivalent',
  'exposureTime',
  'fps',
  'durationSeconds',
];
const ZONE = /(Z|[+-]\d{2}:?\d{2})$/;
const NUMERIC = new Set(['focalLength', 'apertureFNumber', 'isoEquivalent', 'exposureTime', 'fps', 'durationSeconds']);

const work = await mkdtemp(join(tmpdir(), 'trove-eval-metadata-'));
const blobs = await openBlobStore({ dataDir: join(work, 'blobs') });
const log = createLogger({ service: 'eval-metadata', level: process.env.TROVE_LOG_LEVEL || 'silent' });

const perField = Object.fromEntries(FIELDS.map((f) => [f, { agree: 0, total: 0 }]));
const disagreements = [];
const notReady = [];
const uploadDated = [];
let agreeing = 0;
let total = 0;
const started = Date.now();

for (const [name, expected] of Object.entries(truth)) {
  if (only && !name.includes(only)) continue;
  const path = join(evalDir, 'files', name);
  const outcome = await runOne(name, path);
  const mayFail = expected.expect === 'ready_or_failed';
  if (outcome.state !== 'READY') {
    if (!mayFail) notReady.push({ name, ...outcome });
    else if (verbose) console.log(`  (may fail) ${name}: ${outcome.state} ${outcome.reason ?? ''}`);
    if (mayFail) continue;
  }
  const got = outcome.state === 'READY' ? { mimeType: outcome.mimeType, ...outcome.metadata } : null;
  for (const field of FIELDS) {
    const ok = got !== null && agrees(field, expected, got, outcome.uploadedAt);
    perField[field].total++;
    total++;
    if (ok) {
      perField[field].agree++;
      agreeing++;
    } else if (got) disagreements.push({ name, field, expected: expected[field], got: got[field] });
  }
  if (got && expected.creationTimeTag && sameInstant(got.creationTime, outcome.uploadedAt.toISOString()))
    uploadDated.push(name);
}

await closeOcr();
await closeExifTool?.();
await rm(work, { recursive: true, force: true });

console.log(
  `\nmetadata evaluation: ${Object.keys(truth).length} files in ${evalDir} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
);
console.log('field              agree / total');
for (const field of FIELDS) {
  const { agree, total: n } = perField[field];
  console.log(
    `  ${field.padEnd(17)} ${String(agree).padStart(5)} / ${n}  ${n ? ((100 * agree) / n).toFixed(1) : '-'} %`,
  );
}
if (disagreements.length) {
  console.log('\ndisagreements (file: field expected → got):');
  for (const d of disagreements)
    console.log(`  ${d.name}: ${d.field} ${JSON.stringify(d.expected)} → ${JSON.stringify(d.got)}`);
}
if (notReady.length) {
  console.log('\nsound files not READY:');
  for (const n of notReady) console.log(`  ${n.name}: ${n.state}${n.reason ? ` (${n.reason})` : ''}`);
}
if (uploadDated.length) console.log(`\nfiles with a date of their own dated at upload time: ${uploadDated.join(', ')}`);
console.log(`\nratio metadata_field_agreement ${(total ? agreeing / total : 0).toFixed(4)}`);

/** Sniff the type as the upload does, then process the file as the worker does; READY, FAILED or REFUSED. */
async function runOne(name, path) {
  const head = Buffer.alloc(64 * 1024);
  const fh = await open(path, 'r');
  const { bytesRead } = await fh.read(head, 0, head.length, 0);
  await fh.close();
  const type = detectFileType(head.subarray(0, bytesRead));
  if (!type) return { state: 'REFUSED', reason: 'the upload does not recognise the file type' };
  const userId = randomUUID();
  const mediaItemId = randomUUID();
  const originalKey = mediaBlobKey(userId, mediaItemId, 'original');
  await blobs.put(originalKey, Readable.from(await readFile(path)), { contentType: type.mimeType });
  const uploadedAt = (await blobs.head(originalKey)).lastModified;
  const published = [];
  const events = {
    async publish(contract, payload, opts) {
      published.push({ subject: contract.subject, payload, headers: opts.headers });
    },
  };
  const item = {
    userId,
    mediaItemId,
    originalKey,
    mimeType: type.mimeType,
    mediaItemType: type.mediaItemType,
    filename: name,
    components: ['metadata', 'previews'],
  };
  try {
    const result = await processItem({ blobs, events, log, tempRoot: work }, item);
    if (result !== 'processed')
      return { state: 'FAILED', reason: published[0]?.headers?.[DLQ_REASON_HEADER] ?? result, uploadedAt };
    return { state: 'READY', mimeType: type.mimeType, metadata: published[0].payload.metadata, uploadedAt };
  } catch (err) {
    // Thrown: the queue would retry it; a file that keeps throwing ends FAILED after the retries.
    return { state: 'RETRIED', reason: err instanceof Error ? err.message : String(err), uploadedAt };
  }
}

function agrees(field, expected, got, uploadedAt) {
  const want = expected[field];
  const have = got[field];
  const alt = expected.alt ?? {};
  if (field === 'creationTime') {
    if (expected.creationTimeTag === null) return sameInstant(have, uploadedAt.toISOString());
    const candidates = [
      want,
      alt.creationTime_local,
      alt.creationTime_utc,
      ...(alt.creationTime_other_dates_in_file ?? []).map((d) => d.value),
    ].filter(Boolean);
    if (alt.creationTime_null_ok && sameInstant(have, uploadedAt.toISOString())) return true;
    return candidates.some((c) => sameDate(c, have));
  }
  if (field in alt && alt[field] === have) return true;
  if (want === null || want === undefined) return have === null || have === undefined;
  if (have === null || have === undefined) return false;
  if (field === 'latitude' || field === 'longitude') return Math.abs(Number(have) - want) <= 1e-4;
  if (NUMERIC.has(field)) return Math.abs(Number(have) - want) <= 1e-3 * Math.max(Math.abs(want), 1e-9) + 1e-9;
  if (typeof want === 'number') return Number(have) === want;
  return String(have).trim() === String(want).trim();
}

/** The truth's date: with an offset, the same instant; without, the same local wall-clock time to the second. */
function sameDate(want, have) {
  if (typeof have !== 'string') return false;
  if (ZONE.test(want)) return sameInstant(want, have);
  return wallClock(have) === wallClock(want);
}

function wallClock(iso) {
  return iso
    .replace(ZONE, '')
    .replace(/\.\d+$/, '')
    .slice(0, 19);
}

function sameInstant(a, b) {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  return Math.abs(Date.parse(a) - Date.parse(b)) < 1000;
}
