#!/usr/bin/env node
// Ingest and upload benchmark (`make bench`; build first). Not a test: it prints figures (one line
// `ratio NAME VALUE` per goal of issue 18, plus a table), it asserts nothing.
//
// One run, one set of files (N camera-sized JPEGs with EXIF, made here), measured side by side:
//   1. upload: the same uploads (same client, same concurrency) against the gateway and against a
//      minimal reference server (node:http + busboy + sha256 + a write with fsync), rounds
//      alternating; the parts of an upload alone (sha256, multipart parsing, fsync, the blob store's
//      put) and the gateway's own timing of each upload (receive, commit, register);
//   2. disk: a plain local write (+ fsync) of the same bytes;
//   3. memory: the gateway's resident memory growth during one very large upload;
//   4. ingest: one plain Node process doing the worker's work (the baseline) against the real
//      services (nats-server, auth, gateway, media, worker) uploading every file until every item
//      is READY; without explore (metadata, previews, words), the same with two worker processes
//      instead of one, and with explore (places, things, faces too).
//
// Options: --photos N (default 40), --concurrency N per worker (default 2, the service default),
//          --upload-parallel N (default 4), --upload-rounds N (default 20),
//          --ingest-photos N (default 20: the first N photos, for the ingest runs),
//          --explore-photos N (default 10: the first N, for the runs with explore),
//          --ingest-rounds N (default 3: baseline and end to end, taking turns; ingest_vs_baseline is their median),
//          --big-upload-mib N (default 2048; 0 skips it), --trove-rounds N (default 5), --trove-files N (default 160),
//          --only upload|ingest|trove (trove: `trove upload` vs the bench client alone, on a stack of its own),
//          --no-explore (the ingest part without its explore runs: ingest_vs_baseline and the worker's RSS only).
import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdir, mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { args, log, require, root } from './bench-common.mjs';
import { ingest, newUser, startWorkers } from './bench/ingest.mjs';
import { baseline } from './bench/ingest-baseline.mjs';
import { MB, makePhotos, median, seconds } from './bench/photos.mjs';
import { childPid, withCpu } from './bench/cpu.mjs';
import { startReferenceServer } from './bench/reference-server.mjs';
import { troveVsClient } from './bench/trove.mjs';
import {
  bigUpload,
  gatewayUploadPhases,
  gcCounts,
  measureUploadParts,
  metricsUrl,
  uploadAll,
} from './bench/upload.mjs';

// The client (this process) holds every photo in memory and makes each upload's body. V8's dynamic
// heap growth left it, in about one run in two, collecting twice as often (~270 major collections in
// the upload part instead of ~140) at twice its CPU per file, which both sides of the upload
// comparison share: a slow client lifted upload_vs_minimal_server by ~0.05. The gateway's fixed factor
// (services/kit/src/heap-growth.ts, in the gateway and the worker), set here too, keeps it steady: ~100 major collections, ~5 ms a file.
setFlagsFromString('--heap-growing-percent=100');

const { startStack } = require(join(root, 'services/kit/dist/testing/index.js'));

const PHOTOS = Number(args.photos ?? 40);
// Ingest costs seconds of CPU per photo (words, and with explore things and faces above all):
// fewer photos than the uploads keep `make bench` short.
const INGEST_PHOTOS = Number(args['ingest-photos'] ?? 20);
const EXPLORE_PHOTOS = Number(args['explore-photos'] ?? 10);
// One round (baseline, then end to end) of 20 photos takes ~25 s and its ratio varied ±0.05 between
// runs: the median of three rounds, alternating which side goes first, is steadier.
const INGEST_ROUNDS = Number(args['ingest-rounds'] ?? 3);
const CONCURRENCY = Number(args.concurrency ?? 2);
const UPLOAD_PARALLEL = Number(args['upload-parallel'] ?? 4);
// Each side's part of a round takes half a second or so; the machine is shared, so a round's ratio
// varies (0.5–1.2 within one run): the median of twenty, about a minute in all, is steadier than
// that of ten, and the spread is printed.
const UPLOAD_ROUNDS = Number(args['upload-rounds'] ?? 20);
const BIG_UPLOAD_MIB = Number(args['big-upload-mib'] ?? 2048);
// `trove upload` against this client: rounds of the same files (a process start and a hashing pass each).
const CLI_ROUNDS = Number(args['trove-rounds'] ?? 5);
// …on this many files (the photos, then distinct copies of them: see bench/trove.mjs).
const CLI_FILES = Number(args['trove-files'] ?? 160);
const ONLY = args.only;
const EXPLORE = !('no-explore' in args);

const ratio = (name, value, digits = 3) =>
  console.log(`ratio ${name} ${Number.isFinite(value) ? value.toFixed(digits) : 'NaN'}`);
/** The first and third quartiles (nearest rank). */
const quartiles = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
  return [at(0.25), at(0.75)];
};
const range = (values, digits = 2) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

async function diskWrite(files, dir) {
  const started = performance.now();
  for (const f of files) {
    const handle = await open(join(dir, `copy-${f.name}`), 'wx');
    await handle.writeFile(f.data);
    await handle.sync();
    await handle.close();
  }
  return seconds(started);
}

/** Rounds alternating between the reference server and the gateway (which goes first alternates too). */
async function uploadRounds(stack, files, dir) {
  const refDir = join(dir, 'reference');
  await mkdir(refDir);
  const reference = await startReferenceServer(refDir);
  const rounds = [];
  const cpu = {};
  // The client (this process) is counted apart for each side: it shares the two cores with the servers.
  const servicePids = {
    gateway: pidOf(stack, 'gateway'),
    media: pidOf(stack, 'media'),
    auth: pidOf(stack, 'auth'),
    nats: childPid('nats-server'),
    gatewayClient: process.pid,
  };
  try {
    // Warm-up of both, a whole round each, not counted: connections, compiled code paths, and the
    // disk settling after the files were made (with a few files only, the first round's first side
    // ran up to 2× slower than the same side later).
    const warm = await newUser(stack, 'upload-warmup');
    await uploadAll(`${stack.gatewayUrl}/v1/mediaItems`, warm.headers, files, UPLOAD_PARALLEL);
    await uploadAll(reference.url, {}, files, UPLOAD_PARALLEL);
    // Every round's user first: a user's creation and login (password hashing) must not run into the
    // round after it.
    const users = [];
    for (let r = 0; r < UPLOAD_ROUNDS; r++) users.push(await newUser(stack, `upload-${r}`));
    for (let r = 0; r < UPLOAD_ROUNDS; r++) {
      const user = users[r];
      const runs = {
        reference: () =>
          withCpu({ reference: reference.pid, referenceClient: process.pid }, () =>
            uploadAll(reference.url, {}, files, UPLOAD_PARALLEL),
          ),
        gateway: () =>
          withCpu(servicePids, () =>
            uploadAll(`${stack.gatewayUrl}/v1/mediaItems`, user.headers, files, UPLOAD_PARALLEL),
          ),
      };
      const order = r % 2 ? ['gateway', 'reference'] : ['reference', 'gateway'];
      const round = {};
      for (const which of order) {
        const run = await runs[which]();
        round[which] = run.result;
        for (const [name, s] of Object.entries(run.cpu)) cpu[name] = (cpu[name] ?? 0) + s;
      }
      rounds.push(round);
    }
  } finally {
    await reference.close();
    // Only now: removing a round's files between rounds made the next round's first side wait for
    // the filesystem to free (and, with the `discard` mount option, trim) them. The gateway's stay too.
    await rm(refDir, { recursive: true, force: true });
  }
  return { rounds, cpu, referenceTimings: reference.timings };
}

const pidOf = (stack, service) => stack.processes[service].child.pid;

/** The big upload's original, removed again (as a purge would) to keep the disk small. */
async function removeOriginal(stack, id) {
  const media = join(stack.dataDir, 'blobs', 'media');
  for (const userDir of await readdir(media)) await rm(join(media, userDir, id), { recursive: true, force: true });
}

async function uploadBench(stack, files, dir, bytes, diskSeconds) {
  log(`upload: ${UPLOAD_ROUNDS} rounds, gateway and reference server alternating…`);
  const gatewayMetrics = metricsUrl(stack.processes.gateway.output());
  const gcBefore = gatewayMetrics && (await gcCounts(gatewayMetrics));
  const { rounds, cpu, referenceTimings } = await uploadRounds(stack, files, dir);
  const gcAfter = gatewayMetrics && (await gcCounts(gatewayMetrics));
  const phases = gatewayUploadPhases(stack.processes.gateway.output());
  log('upload: its parts one by one…');
  const parts = await measureUploadParts(files, dir);

  const mbps = (s) => bytes / MB / s;
  const vsReference = rounds.map((r) => r.reference / r.gateway);
  console.log(
    `\nUpload — ${files.length} files, ${(bytes / MB).toFixed(1)} MB, ${UPLOAD_PARALLEL} at a time, ${UPLOAD_ROUNDS} rounds`,
  );
  console.log(
    `  gateway (auth + multipart → sha256 → blob store → media RPC): ${range(
      rounds.map((r) => mbps(r.gateway)),
      1,
    )} MB/s`,
  );
  console.log(
    `  minimal reference server (node:http + busboy + sha256 + write + fsync): ${range(
      rounds.map((r) => mbps(r.reference)),
      1,
    )} MB/s`,
  );
  const total = (side) => rounds.reduce((n, r) => n + r[side], 0);
  console.log(`  gateway / reference per round: ${vsReference.map((v) => v.toFixed(2)).join(', ')}`);
  console.log(
    `  spread of those: median ${median(vsReference).toFixed(2)}, middle half ${quartiles(vsReference)
      .map((v) => v.toFixed(2))
      .join('–')}, ` +
      `all ${range(vsReference)}; all rounds together ${(total('reference') / total('gateway')).toFixed(2)}`,
  );
  console.log(`  plain disk write (+fsync), one file after another: ${mbps(diskSeconds).toFixed(1)} MB/s`);
  // CPU milliseconds per file, over every round.
  const cpuMs = (name) => ((cpu[name] * 1000) / (files.length * rounds.length)).toFixed(1);
  console.log(
    `  CPU ms per file: reference server ${cpuMs('reference')} (its client ${cpuMs('referenceClient')}); ` +
      `gateway ${cpuMs('gateway')}, media ${cpuMs('media')}, auth ${cpuMs('auth')}, nats-server ${cpuMs('nats')} (their client ${cpuMs('gatewayClient')})`,
  );
  if (phases) {
    console.log(
      `  gateway's own timing, median of ${phases.count} uploads: receive ${phases.receiveMs} ms, stored in place after the last byte ${phases.commitMs} ms, then side by side: register (media RPC) ${phases.registerMs} ms and its name durable (directory fsync) ${phases.durableMs} ms`,
    );
  }
  if (gcBefore && gcAfter) {
    // A handful of major collections is normal; dozens mean the gateway's heap is in the state
    // services/kit/src/heap-growth.ts prevents (docs: Benchmarks, the slow state).
    const during = (kind) => (gcAfter[kind] ?? 0) - (gcBefore[kind] ?? 0);
    console.log(
      `  gateway garbage collections during the rounds (warm-up included): major ${during('major')}, minor ${during('minor')}`,
    );
  }
  if (referenceTimings.length) {
    const ms = (key) => median(referenceTimings.map((t) => t[key])).toFixed(1);
    console.log(
      `  reference server's own timing, median of ${referenceTimings.length} uploads: receive ${ms('receiveMs')} ms, commit (fsync) after the last byte ${ms('commitMs')} ms`,
    );
  }
  console.log(
    `  parts alone, ms per file: sha256 ${parts.sha256Ms.toFixed(1)} (${parts.sha256MBps.toFixed(0)} MB/s), multipart parsing ${parts.busboyMs.toFixed(1)}, ` +
      `write + fsync ${parts.writeFsyncMs.toFixed(1)}, a small file + fsync ${parts.smallFileFsyncMs.toFixed(1)}, blob store put ${parts.blobStorePutMs.toFixed(1)}`,
  );

  let big;
  if (BIG_UPLOAD_MIB > 0) {
    log(`upload: one ${BIG_UPLOAD_MIB} MiB upload, gateway memory sampled…`);
    const user = await newUser(stack, 'upload-big');
    big = await bigUpload(
      stack.gatewayUrl,
      user.token,
      stack.processes.gateway.child.pid,
      BIG_UPLOAD_MIB * 1024 * 1024,
    );
    if (big.status !== 201) throw new Error(`the big upload answered ${big.status}`);
    await removeOriginal(stack, big.id);
    console.log(
      `  one ${BIG_UPLOAD_MIB} MiB upload: ${((BIG_UPLOAD_MIB * 1024 * 1024) / MB / big.seconds).toFixed(1)} MB/s, gateway resident memory +${big.growthMiB.toFixed(1)} MiB`,
    );
  }
  const trove = await troveBench(stack, files, dir);
  ratio('upload_vs_minimal_server', median(vsReference));
  ratio('upload_vs_disk_write', median(rounds.map((r) => diskSeconds / r.gateway)));
  if (big) ratio('upload_gateway_rss_growth_mib', big.growthMiB, 1);
  ratio('trove_upload_vs_bench_client', trove.ratio);
}

/** `trove upload` against this process's client (bench/trove.mjs); alone with `--only trove`. */
async function troveBench(stack, files, dir) {
  log(`upload: trove upload vs the bench client, ${CLI_ROUNDS} rounds…`);
  const trove = await troveVsClient(stack, files, dir, UPLOAD_PARALLEL, CLI_ROUNDS, CLI_FILES);
  console.log(
    `  trove upload (walk, sha256, exist, upload; its own process) vs this client, ${CLI_FILES} files, per round: ${trove.ratios.map((v) => v.toFixed(2)).join(', ')}`,
  );
  console.log(
    `  seconds per round, client: ${trove.client.map((v) => v.toFixed(2)).join(', ')}; trove: ${trove.trove.map((v) => v.toFixed(2)).join(', ')}`,
  );
  return trove;
}

async function ingestBench(stack, allFiles) {
  const files = allFiles;
  const exploreFiles = allFiles.slice(0, EXPLORE_PHOTOS);
  log('ingest: end to end, one worker…');
  const one = await startWorkers(stack, 1, 'one');
  let plain, plainBase, exploreBase, explore, exploreVsBaseline, two;
  const rounds = [];
  try {
    // The baseline and the services take turns, each round in the other order: what the machine does
    // meanwhile (another process waking, the page cache) falls on both sides alike.
    for (let r = 1; r <= INGEST_ROUNDS; r++) {
      log(`ingest: round ${r} of ${INGEST_ROUNDS}, baseline (one process, no services) and end to end…`);
      const base = () => baseline(files, { concurrency: CONCURRENCY, explore: false });
      const user = await newUser(stack, `ingest-plain-${r}`, { explore: false });
      const ends = () => ingest(stack, user, files, one, UPLOAD_PARALLEL);
      const round = r % 2 ? { base: await base(), end: await ends() } : { end: await ends(), base: await base() };
      rounds.push(round);
    }
    plain = {
      seconds: median(rounds.map((r) => r.end.seconds)),
      workerMs: rounds.flatMap((r) => r.end.workerMs),
      rss: rounds.map((r) => r.end.rss).reduce((a, b) => (b.peakMiB > a.peakMiB ? b : a)),
    };
    plainBase = { seconds: median(rounds.map((r) => r.base.seconds)) };
    if (EXPLORE) {
      // Taking turns too, the median of the rounds: one run each way swung with the host's speed (0.65–0.96).
      // The components' CPU per photo is measured in the first round's baseline only.
      const exploreRounds = [];
      for (let r = 1; r <= INGEST_ROUNDS; r++) {
        log(
          `ingest: with explore, round ${r} of ${INGEST_ROUNDS}, baseline (one process, no services) and end to end…`,
        );
        const base = () => baseline(exploreFiles, { concurrency: CONCURRENCY, explore: true, componentCpu: r === 1 });
        const user = await newUser(stack, `ingest-explore-${r}`);
        const ends = () => ingest(stack, user, exploreFiles, one, UPLOAD_PARALLEL);
        exploreRounds.push(
          r % 2 ? { base: await base(), end: await ends() } : { end: await ends(), base: await base() },
        );
      }
      exploreBase = { ...exploreRounds[0].base, seconds: median(exploreRounds.map((r) => r.base.seconds)) };
      explore = {
        seconds: median(exploreRounds.map((r) => r.end.seconds)),
        workerMs: exploreRounds.flatMap((r) => r.end.workerMs),
      };
      exploreVsBaseline = exploreRounds.map((r) => ({ base: r.base.seconds, end: r.end.seconds }));
    }
  } finally {
    await Promise.allSettled(one.map((w) => w.stop()));
  }
  log('ingest: end to end, two workers…');
  const pair = await startWorkers(stack, 2, 'two');
  try {
    two = await ingest(stack, await newUser(stack, 'ingest-two', { explore: false }), files, pair, UPLOAD_PARALLEL);
  } finally {
    await Promise.allSettled(pair.map((w) => w.stop()));
  }

  const rate = (s) => `${(files.length / s).toFixed(2)} photos/s`;
  const perPhoto = (ms) =>
    `${(ms.reduce((a, b) => a + b, 0) / Math.max(1, ms.length)).toFixed(0)} ms of worker time per photo`;
  const rows = [
    [
      'baseline, without explore (EXIF, decode, previews, words, category)',
      rate(plainBase.seconds),
      `one process, ${CONCURRENCY} at a time`,
    ],
    [
      'end to end, without explore (upload → READY)',
      rate(plain.seconds),
      `1 worker × concurrency ${CONCURRENCY}; ${perPhoto(plain.workerMs)}`,
    ],
    [
      'end to end, without explore, two workers',
      rate(two.seconds),
      `2 workers × concurrency ${CONCURRENCY}; ${perPhoto(two.workerMs)}`,
    ],
    ...(EXPLORE
      ? [
          [
            `baseline, with explore (+ places, things, faces), first ${exploreFiles.length} photos`,
            rate(exploreBase.seconds),
            `one process, ${CONCURRENCY} at a time`,
          ],
          [
            'end to end, with explore',
            rate(explore.seconds),
            `1 worker × concurrency ${CONCURRENCY}; ${perPhoto(explore.workerMs)}`,
          ],
        ]
      : []),
    [
      'worker peak RSS, without explore',
      `${plain.rss.peakMiB.toFixed(0)} MiB`,
      `the worker process and its children (its ExifTool processes: ${plain.rss.exiftoolMiB.toFixed(0)} MiB of it)`,
    ],
  ];
  console.log(`\nIngest — ${files.length} photos, ${UPLOAD_PARALLEL} uploads at a time\n`);
  console.log('| measurement | result | setup |');
  console.log('|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  const vsBaseline = rounds.map((r) => r.base.seconds / r.end.seconds);
  console.log(
    `ingest_vs_baseline per round (baseline s / end to end s): ${rounds
      .map((r, i) => `${vsBaseline[i].toFixed(2)} (${r.base.seconds.toFixed(1)} / ${r.end.seconds.toFixed(1)})`)
      .join(', ')}; the median below`,
  );
  console.log(
    `CPU seconds per round, baseline process / worker process (their ExifTool processes apart): ${rounds
      .map((r) => `${r.base.cpuSeconds.toFixed(1)} / ${r.end.workerCpuSeconds.toFixed(1)}`)
      .join(', ')}`,
  );
  ratio('ingest_vs_baseline', median(vsBaseline));
  ratio('two_workers_vs_one', plain.seconds / two.seconds);
  // The worker's resident memory at its peak, its ExifTool processes (and ffmpeg, while one runs) counted in.
  ratio('ingest_worker_rss_mib', plain.rss.peakMiB, 0);
  ratio('ingest_worker_exiftool_rss_mib', plain.rss.exiftoolMiB, 0);
  if (!EXPLORE) return;
  const { exploreMs, exploreCpuMs: cpuMs, facesFound } = exploreBase;
  const n = exploreFiles.length;
  console.log(
    `\nexplore per photo (baseline): places ${(exploreMs.places / n).toFixed(1)} ms, things ${(exploreMs.things / n).toFixed(0)} ms, faces ${(exploreMs.faces / n).toFixed(0)} ms, ` +
      `ocr ${(exploreMs.ocr / n).toFixed(0)} ms (wall time, ${CONCURRENCY} at a time; ${facesFound} faces found in ${Math.ceil(n / 2)} group photos)`,
  );
  console.log(
    `CPU per photo, one at a time: things ${(cpuMs.things / n).toFixed(0)} ms, faces ${(cpuMs.faces / n).toFixed(0)} ms, ` +
      `ocr ${(cpuMs.ocr / n).toFixed(0)} ms — the *_ms_per_photo lines below (each photo's least of ${cpuMs.passes.length} passes; ` +
      `the passes' own: ${cpuMs.passes
        .map((p) => `${(p.things / n).toFixed(0)} + ${(p.faces / n).toFixed(0)} + ${(p.ocr / n).toFixed(0)}`)
        .join(', ')})\n`,
  );
  const exploreRatios = exploreVsBaseline.map((r) => r.base / r.end);
  console.log(
    `explore_ingest_vs_baseline per round (baseline s / end to end s): ${exploreVsBaseline
      .map((r, i) => `${exploreRatios[i].toFixed(2)} (${r.base.toFixed(1)} / ${r.end.toFixed(1)})`)
      .join(', ')}; the median below`,
  );
  ratio('explore_ingest_vs_baseline', median(exploreRatios));
  ratio('places_ms_per_photo', exploreMs.places / n, 2);
  // CPU ms of each vision component per photo (all its threads; one photo at a time, models loaded).
  ratio('things_ms_per_photo', cpuMs.things / n, 1);
  // Faces found per CPU second of the faces component, and its CPU time per photo (half of them group photos).
  ratio('faces_per_second', cpuMs.faces ? facesFound / (cpuMs.faces / 1000) : 0, 2);
  ratio('faces_ms_per_photo', cpuMs.faces / n, 1);
  ratio('ocr_ms_per_photo', cpuMs.ocr / n, 1);
}

const dir = await mkdtemp(join(tmpdir(), 'trove-bench-'));
const started = performance.now();
try {
  log(`making ${PHOTOS} 12 MP JPEGs…`);
  const files = await makePhotos(dir, PHOTOS);
  const bytes = files.reduce((n, f) => n + f.data.length, 0);
  const cpu = cpus();
  console.log(
    `\nTrove ingest and upload benchmark — ${PHOTOS} photos (12 MP JPEG with EXIF, ${(bytes / MB / PHOTOS).toFixed(1)} MB each on average)`,
  );
  console.log(
    `machine: ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}`,
  );
  log('disk write…');
  const diskSeconds = ONLY === 'trove' ? 0 : await diskWrite(files, dir);

  // A stack of its own for each part: the upload part's items must not wait in the ingest part's queue.
  const withStack = async (fn) => {
    const stack = await startStack({
      services: ['auth', 'gateway', 'media'],
      // A new user (and login) per upload round: more than the 10 logins a minute one address may make.
      // Metrics on a free port each: the upload part counts the gateway's garbage collections.
      env: {
        TROVE_LOG_LEVEL: 'info',
        TROVE_METRICS_PORT: '0',
        TROVE_WORKER_CONCURRENCY: String(CONCURRENCY),
        TROVE_VALIDATE_RESPONSES: 'false',
        TROVE_LOGIN_RATE_LIMIT: '1000',
      },
    });
    try {
      await fn(stack);
    } finally {
      await stack.stop();
    }
  };
  if (ONLY === 'trove') {
    await withStack(async (stack) =>
      ratio('trove_upload_vs_bench_client', (await troveBench(stack, files, dir)).ratio),
    );
  } else {
    if (ONLY !== 'ingest') await withStack((stack) => uploadBench(stack, files, dir, bytes, diskSeconds));
    if (ONLY !== 'upload') await withStack((stack) => ingestBench(stack, files.slice(0, INGEST_PHOTOS)));
  }
  log(`done in ${seconds(started).toFixed(0)} s`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
