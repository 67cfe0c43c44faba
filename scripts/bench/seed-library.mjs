// The bench seeder: a plan's library written straight into the stores of a data directory, as the
// services keep it under `make up` (the embedded stores): the blobs, the media documents and
// explore's documents, side by side (the blobs wait on the disk; the media documents are written
// by a process of their own, on another core than explore's).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { require, root, secondsSince } from '../bench-common.mjs';
import { blobBytes, seedBlobs, tinyPictures } from './seed-blobs.mjs';
import { seedExplore } from './seed-explore.mjs';
import { seedMediaInChild } from './seed-media.mjs';
import { forSeeding } from './seed-pragmas.mjs';

const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));

/** Runs `task`, answering its result and how long it took. */
async function timed(task) {
  const started = performance.now();
  const result = await task();
  return { result, seconds: secondsSince(started) };
}

/**
 * Writes the plan (seed-plan.mjs) into the stores of `dataDir`, whose services are stopped: every
 * item's documents, and the blobs of `blobItems` (default: every item). Answers the blobs' bytes
 * (`blobBytes()`), what seedExplore answers (`seeded`), how many blobs were stored and the seconds
 * taken, in all and by part (`flushS`: writing the page cache back at the end).
 */
export async function seedLibrary(dataDir, plan, { blobItems = plan.items } = {}) {
  const started = performance.now();
  const pictures = await tinyPictures();
  const bytes = blobBytes(pictures);
  const exploreStore = await openDocStore({ service: 'explore', dataDir });
  forSeeding(exploreStore);
  let result;
  try {
    const [blobs, media, explore] = await Promise.all([
      timed(() => seedBlobs({ dataDir, userId: plan.userId, items: blobItems, pictures })),
      timed(() => seedMediaInChild({ dataDir, plan, pictures })),
      timed(() => seedExplore({ store: exploreStore, plan })),
    ]);
    const faces = await seedBlobs({ dataDir, userId: plan.userId, pictures, faceKeys: explore.result.coverFaceKeys });
    const stored = { blobs: blobs.result.blobs + faces.blobs, mib: (blobs.result.bytes + faces.bytes) / 2 ** 20 };
    result = {
      bytes,
      seeded: explore.result,
      blobsS: blobs.result.seconds,
      // The children's own clocks: their answers wait for explore's writes, which never yield to the event loop.
      mediaS: media.result.seconds,
      mediaCpuS: media.result.cpuS,
      exploreS: explore.seconds,
      stored,
    };
  } finally {
    await exploreStore.close();
    // libsql lets the file go only once the connection's statements are garbage: collected now, so that the
    // services started next do not meet this idle process's connection (explore failed to open its store once).
    collectGarbage();
  }
  // The seeder's stores skip fsync at commit (seed-pragmas.mjs): what they left in the page cache
  // is written back now, not by the kernel during the timed queries that follow.
  const flushStarted = performance.now();
  execFileSync('sync');
  return { ...result, flushS: secondsSince(flushStarted), seconds: secondsSince(started) };
}

/** A full garbage collection of this process (V8's `gc`, exposed for the call). */
function collectGarbage() {
  setFlagsFromString('--expose-gc');
  runInNewContext('gc')();
}
