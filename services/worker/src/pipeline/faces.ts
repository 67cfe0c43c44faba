/**
 * The faces component as a step of the pipeline (photos only), with the analysis steps' failure
 * policy (see analysis.ts), and the storing of its thumbnails beside the item's other blobs.
 */
import { Readable } from 'node:stream';
import type { BlobStore, Logger } from '@trove/kit';
import { encodeEmbedding, faceThumbnailKey, faceThumbnailsPrefix } from '@trove/proto-events';
import type { MediaItemProcessedV1, ProcessMediaItemV1 } from '@trove/proto-events';
import { DEFAULT_FACES_MIN_SCORE, DEFAULT_FACES_MIN_SIZE, detectFaces } from '../components';
import type { Bitmap, Face, FacesOptions } from '../components';
import { analyse } from './analysis';

/** A face as the processed result carries it. */
export type ProcessedFace = NonNullable<MediaItemProcessedV1['faces']>[number];

export interface FacesStepOptions {
  minScore?: number;
  minSize?: number;
  /** The detector (the tests give one whose model cannot load). */
  detect?: (picture: Bitmap, options: FacesOptions) => Promise<Face[]>;
}

export function findFaces(
  log: Logger,
  item: ProcessMediaItemV1,
  picture: Bitmap,
  { minScore = DEFAULT_FACES_MIN_SCORE, minSize = DEFAULT_FACES_MIN_SIZE, detect = detectFaces }: FacesStepOptions = {},
): Promise<Face[]> {
  return analyse(
    log,
    item,
    'faces',
    () => detect(picture, { minScore, minSize, log }),
    (faces) => ({ faces: faces.length }),
    [],
  );
}

/**
 * Stores each face's thumbnail under `faceThumbnailKey(…, index)` and returns the faces for the
 * result. Thumbnails an earlier processing of the item left beyond the new faces' count are removed.
 */
export async function storeFaces(
  blobs: BlobStore,
  item: ProcessMediaItemV1,
  faces: readonly Face[],
): Promise<ProcessedFace[]> {
  const stored: ProcessedFace[] = [];
  for (const [index, { box, score, quality, embedding, thumbnail }] of faces.entries()) {
    const thumbnailKey = faceThumbnailKey(item.userId, item.mediaItemId, index);
    await blobs.put(thumbnailKey, Readable.from(thumbnail), { contentType: 'image/webp' });
    stored.push({ box, score, quality, embedding: encodeEmbedding(embedding), thumbnailKey });
  }
  const current = new Set(stored.map((f) => f.thumbnailKey));
  const stale: string[] = [];
  for await (const blob of blobs.list(faceThumbnailsPrefix(item.userId, item.mediaItemId)))
    if (!current.has(blob.key)) stale.push(blob.key);
  for (const key of stale) await blobs.delete(key);
  return stored;
}
