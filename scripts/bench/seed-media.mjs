// The bench seeder's media documents: one per item of a plan, made by the media service's own
// document functions (an upload's `newMediaDoc`, then the worker's result applied by
// `processedFields`), written in bulk (`insertMany`) after the repository has made its indexes.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { require, root, secondsSince } from '../bench-common.mjs';
import { libraryPlan, processedResult } from './seed-plan.mjs';
import { blobBytes, sha256 } from './seed-blobs.mjs';
import { forSeeding } from './seed-pragmas.mjs';

const { MediaItemsRepository } = require(join(root, 'services/media/dist/media-items/repository.js'));
const { MEDIA_ITEMS, newMediaDoc, processedFields } = require(
  join(root, 'services/media/dist/media-items/document.js'),
);
const { mediaBlobKey } = require(join(root, 'proto-events/dist/index.js'));
const { openDocStore } = require(join(root, 'services/kit/dist/index.js'));

const BATCH = 5000;

/** A READY item as the media service stores it, with the plan's flags; `original`: its blob's bytes. */
function mediaDoc(plan, item, original) {
  const { userId, now } = plan;
  const upload = {
    id: item.id,
    userId,
    filename: item.filename,
    mimeType: item.mimeType,
    size: original.length,
    sha256: sha256(original),
    originalKey: mediaBlobKey(userId, item.id, 'original'),
    mediaItemType: item.video ? 'video' : 'photo',
  };
  return {
    ...newMediaDoc(upload, now),
    ...processedFields(processedResult(plan, item), now),
    description: item.description,
    favourite: item.favourite,
    hidden: item.hidden,
    deleted: item.trashed,
    deletedAt: item.trashed ? now : null,
  };
}

/** Writes the plan's media documents into the media service's store (`bytes`: seed-blobs' `blobBytes()`). */
export async function seedMedia({ store, plan, bytes }) {
  await MediaItemsRepository.open(store);
  const collection = store.collection(MEDIA_ITEMS.name);
  for (let from = 0; from < plan.items.length; from += BATCH) {
    await collection.insertMany(
      plan.items.slice(from, from + BATCH).map((item) => mediaDoc(plan, item, bytes.original(item))),
    );
  }
}

const CHILD_FLAG = '--seed-media';

/**
 * seedMedia in a process of its own, on the second core while this one seeds explore's documents:
 * the child makes the plan again from its arguments (the same plan: see seed-plan.mjs) and writes
 * into the media store of `dataDir`, which nothing else may have open meanwhile. `pictures`:
 * `tinyPictures()` (the originals' bytes, hence their sha256, are the blobs'). Answers the seconds
 * the child took, the plan included (`seconds`: its own clock, since this process may read its
 * answer only after explore's synchronous writes), and the CPU seconds it used (`cpuS`).
 */
export function seedMediaInChild({ dataDir, plan, pictures }) {
  const task = {
    dataDir,
    plan: { count: plan.items.length, userId: plan.userId, now: plan.now.getTime(), seed: plan.seed },
    firstId: plan.items[0]?.id,
    lastId: plan.items.at(-1)?.id,
    pictures,
  };
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG], { serialization: 'advanced' });
  return new Promise((resolve, reject) => {
    child.once('message', (answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer)));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the media seeding process exited (${code})`)));
    child.send(task);
  });
}

async function seedInChild({ dataDir, plan: args, firstId, lastId, pictures }) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const plan = libraryPlan({ ...args, now: new Date(args.now) });
  if (plan.items[0]?.id !== firstId || plan.items.at(-1)?.id !== lastId)
    throw new Error('the media seeding process made another plan than the bench');
  const store = await openDocStore({ service: 'media', dataDir });
  try {
    forSeeding(store);
    await seedMedia({ store, plan, bytes: blobBytes(pictures) });
  } finally {
    await store.close();
  }
  const { user, system } = process.cpuUsage(cpu);
  return { seconds: secondsSince(started), cpuS: (user + system) / 1e6 };
}

if (process.argv[2] === CHILD_FLAG) {
  process.once('message', async (task) => {
    const answer = await seedInChild(task).catch((err) => ({ error: err.stack ?? String(err) }));
    process.send(answer, () => process.disconnect());
  });
}
