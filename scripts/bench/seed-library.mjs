// The bench seeder: a plan's library written straight into the stores of a data directory, as the
// services keep it under `make up` (the embedded stores): the blobs, the media documents and
// explore's documents, side by side (the blobs wait on the disk, the documents on the CPU).
import { join } from 'node:path';
import { require, root, secondsSince } from '../bench-common.mjs';
import { blobBytes, seedBlobs, tinyPictures } from './seed-blobs.mjs';
import { seedExplore } from './seed-explore.mjs';
import { seedMedia } from './seed-media.mjs';

const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));

/** Runs `task`, answering its result and how long it took. */
async function timed(task) {
  const started = performance.now();
  const result = await task();
  return { result, seconds: secondsSince(started) };
}

/**
 * The seeding connection of an embedded SQLite store (the services open their own): no fsync at each
 * commit (a crash while seeding loses a bench run, nothing else) and a page cache of 256 MiB, so that
 * the key tables' B-trees of a million documents stay in memory while their random keys go in.
 */
function forSeeding(store) {
  if (store.kind !== 'sqlite' || !store.db) return;
  store.db.pragma('synchronous = OFF');
  store.db.pragma('cache_size = -262144');
}

/**
 * Writes the plan (seed-plan.mjs) into the stores of `dataDir`, whose services are stopped: every
 * item's documents, and the blobs of `blobItems` (default: every item). Answers the blobs' bytes
 * (`blobBytes()`), what seedExplore answers (`seeded`), how many blobs were stored and the seconds
 * taken, in all and by part.
 */
export async function seedLibrary(dataDir, plan, { blobItems = plan.items } = {}) {
  const started = performance.now();
  const pictures = await tinyPictures();
  const bytes = blobBytes(pictures);
  const mediaStore = await openDocStore({ service: 'media', dataDir });
  const exploreStore = await openDocStore({ service: 'explore', dataDir });
  forSeeding(mediaStore);
  forSeeding(exploreStore);
  try {
    const [blobs, media, explore] = await Promise.all([
      timed(() => seedBlobs({ dataDir, userId: plan.userId, items: blobItems, pictures })),
      timed(() => seedMedia({ store: mediaStore, plan, bytes })),
      timed(() => seedExplore({ store: exploreStore, plan })),
    ]);
    const faces = await seedBlobs({ dataDir, userId: plan.userId, pictures, faceKeys: explore.result.coverFaceKeys });
    const stored = { blobs: blobs.result.blobs + faces.blobs, mib: (blobs.result.bytes + faces.bytes) / 2 ** 20 };
    return {
      bytes,
      seeded: explore.result,
      seconds: secondsSince(started),
      blobsS: blobs.seconds,
      mediaS: media.seconds,
      exploreS: explore.seconds,
      stored,
    };
  } finally {
    await Promise.all([mediaStore.close(), exploreStore.close()]);
  }
}
