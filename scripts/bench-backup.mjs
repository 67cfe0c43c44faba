#!/usr/bin/env node
// Times `make backup` and `make restore` (scripts/backup.mjs, scripts/restore.mjs, as built) on a library seeded by
// the bench seeder (scripts/bench/seed-*.mjs): one user's --items media and explore documents (default 100 000) and
// the blobs (original, preview, thumbnail) of the first --blob-items of them (default 5 000: storing 300 000 tiny
// blobs takes the seeder about 5 minutes of fsyncs on its own). Times a first backup, a second one (incremental: the
// blobs hard-linked against the first) and a restore into an empty directory. Figures go to the docs' Backup and
// restore page by hand. Run after `make build`:
//   node scripts/bench-backup.mjs --items 100000 --blob-items 5000 [--dir /tmp/somewhere]
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { args, log, require, root, secondsSince } from './bench-common.mjs';
import { blobBytes, seedBlobs, tinyPictures } from './bench/seed-blobs.mjs';
import { seedExplore } from './bench/seed-explore.mjs';
import { seedMedia } from './bench/seed-media.mjs';
import { libraryPlan } from './bench/seed-plan.mjs';

const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));

const ITEMS = Number(args.items ?? 100_000);
const BLOB_ITEMS = Math.min(ITEMS, Number(args['blob-items'] ?? 5_000));
const base = args.dir ?? (await mkdtemp(join(tmpdir(), 'trove-bench-backup-')));
const dataDir = join(base, 'data');
const backupDir = join(base, 'backups');
const restoredDir = join(base, 'restored');

/** Runs a script of scripts/ with `env`, answering its last line of output and the seconds it took. */
async function timedScript(script, argv, env) {
  const started = performance.now();
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, 'scripts', script), ...argv], {
    env: { ...process.env, ...env },
    maxBuffer: 1 << 24,
  });
  const seconds = secondsSince(started);
  process.stderr.write(stdout);
  return { last: stdout.trim().split('\n').at(-1), seconds };
}

const du = async (path) => (await promisify(execFile)('du', ['-sm', path])).stdout.split('\t')[0];

try {
  const plan = libraryPlan({ count: ITEMS, userId: randomUUID() });
  log(`seeding ${ITEMS} items' documents and ${BLOB_ITEMS} items' blobs into ${dataDir}…`);
  const seedStarted = performance.now();
  const pictures = await tinyPictures();
  const bytes = blobBytes(pictures);
  const mediaStore = await openDocStore({ service: 'media', dataDir });
  const exploreStore = await openDocStore({ service: 'explore', dataDir });
  let blobs;
  try {
    [blobs] = await Promise.all([
      seedBlobs({ dataDir, userId: plan.userId, items: plan.items.slice(0, BLOB_ITEMS), pictures }),
      seedMedia({ store: mediaStore, plan, bytes }),
      seedExplore({ store: exploreStore, plan }),
    ]);
  } finally {
    await Promise.all([mediaStore.close(), exploreStore.close()]);
  }
  log(`seeded in ${secondsSince(seedStarted).toFixed(1)} s: ${blobs.blobs} blobs, data ${await du(dataDir)} MiB`);

  const env = { TROVE_DATA_DIR: dataDir, TROVE_BACKUP_DIR: backupDir, TROVE_BACKUP_KEEP: '7' };
  const first = await timedScript('backup.mjs', [], env);
  const second = await timedScript('backup.mjs', [], env);
  const restored = await timedScript('restore.mjs', [second.last], { TROVE_DATA_DIR: restoredDir });
  console.log(
    `\nbackup bench — ${ITEMS} items' documents (media, explore), ${BLOB_ITEMS} items' blobs (${blobs.blobs} files), ` +
      `data ${await du(dataDir)} MiB, backups ${await du(backupDir)} MiB on disk; ${cpus().length} × ${cpus()[0].model}`,
  );
  console.log(`first backup     ${first.seconds.toFixed(1)} s`);
  console.log(`second backup    ${second.seconds.toFixed(1)} s (blobs hard-linked against the first)`);
  console.log(`restore          ${restored.seconds.toFixed(1)} s`);
} finally {
  if (!args.dir) await rm(base, { recursive: true, force: true });
}
