// The bench seeder's media documents: one per item of a plan, made by the media service's own
// document functions (an upload's `newMediaDoc`, then the worker's result applied by
// `processedFields`), written in bulk (`insertMany`) after the repository has made its indexes.
import { join } from 'node:path';
import { require, root } from '../bench-common.mjs';
import { processedResult } from './seed-plan.mjs';
import { sha256 } from './seed-blobs.mjs';

const { MediaItemsRepository } = require(join(root, 'services/media/dist/media-items/repository.js'));
const { MEDIA_ITEMS, newMediaDoc, processedFields } = require(
  join(root, 'services/media/dist/media-items/document.js'),
);
const { mediaBlobKey } = require(join(root, 'proto-events/dist/index.js'));

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
