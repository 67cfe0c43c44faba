/**
 * The faces component as a step of the pipeline (photos only), with the analysis steps' failure
 * policy (see analysis.ts), and the storing of its thumbnails beside the item's other blobs.
 */
import { Readable } from 'node:stream';
import type { BlobStore, Logger } from '@trove/kit';
import { encodeEmbedding, faceThumbnailKey, faceThumbnailsPrefix } from '@trove/proto-events';
import type { MediaItemProcessedV1, ProcessMediaItemV1 } from '@trove/proto-events';
import { ANIMAL_LABELS, DEFAULT_FACES_MIN_SCORE, DEFAULT_FACES_MIN_SIZE, detectFaces } from '../components';
import type { Bitmap, Face, FacesOptions, SeenObject } from '../components';
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

/** Classes whose faces the face detector takes for people's: COCO's animals (a cat's, a dog's), and a teddy bear's. */
const ANIMALS: ReadonlySet<string> = new Set([...ANIMAL_LABELS, 'teddy bear']);
/**
 * An animal at least this sure holds a face that is no person's. 0.5: on the evaluation photos
 * (`make eval-vision`'s faces, objects and metadata files, ~230 photos) the cat and the dog the face
 * detector took for people scored 0.65 and 0.79; the one human face inside an animal's box, a tight
 * grayscale crop with no person box, was a 0.32 "dog".
 */
export const ANIMAL_FACE_MIN_SCORE = 0.5;

/**
 * The faces without those on an animal: a face whose centre lies in an animal's box (scored
 * ANIMAL_FACE_MIN_SCORE or more) and in no person's box. A person holding a pet keeps their face:
 * it is inside their own box too.
 */
export function withoutAnimalFaces<F extends Pick<Face, 'box'>>(
  faces: readonly F[],
  objects: readonly SeenObject[],
): F[] {
  const holds = (o: SeenObject, face: F) => {
    const x = face.box.x + face.box.width / 2;
    const y = face.box.y + face.box.height / 2;
    return x >= o.box.x1 && x <= o.box.x2 && y >= o.box.y1 && y <= o.box.y2;
  };
  const animals = objects.filter((o) => ANIMALS.has(o.cls) && o.score >= ANIMAL_FACE_MIN_SCORE);
  const people = objects.filter((o) => o.cls === 'person');
  return faces.filter((face) => !animals.some((a) => holds(a, face)) || people.some((p) => holds(p, face)));
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
