/**
 * Faces: where the faces of a photo are, what each looks like (an embedding explore groups into
 * people) and a square thumbnail of each. All on the upright picture the previews decoded, so
 * boxes are relative to the picture as shown (EXIF orientation applied).
 */
import type { Logger } from '@trove/kit';
import type { Bitmap } from '../bitmap';
import { blazeface, findFaceBoxes } from './detector';
import type { Detection } from './detector';
import type { EmbedderSpec } from './embedder';
import { describeFaces, embedderModel } from './embedder';
import { scaledTemplate } from './geometry';
import { faceThumbnail, laplacianVariance, shrinkRgb } from './pixels';
import { faceQuality, nativeSide } from './quality';

export const EMBEDDING_LENGTH = 1024;
/**
 * FaceRes (models/faceres, see its README) on aligned faces: the landmarks mapped onto ArcFace's
 * template scaled to 224 px with a 10 % wider margin (zoom 0.9), which measured best of zooms 0.65, 0.8 and 0.9
 * on the labelled faces (pairwise recall 0.90 → 0.95 at precision 1 against the old box crop).
 * Input RGB 0..255.
 */
export const EMBEDDER: EmbedderSpec = {
  input: 'input_1',
  output: 'global_pooling/Mean',
  size: 224,
  length: EMBEDDING_LENGTH,
  template: scaledTemplate(224, 0.9),
  scale: 1,
  offset: 0,
};
const embedder = embedderModel('faceres', EMBEDDER);

export interface Face {
  /** Relative to the upright picture: fractions 0..1 of its width and height. */
  box: { x: number; y: number; width: number; height: number };
  /** Detector score 0..1, three decimals. */
  score: number;
  /** Unit length: the cosine distance of two faces is 1 − their dot product. */
  embedding: Float32Array;
  /** How usable the face is for recognition, 0..1, from its size and sharpness (see quality.ts); ≥ 0.5 is clearly usable. */
  quality: number;
  /** Square WebP, FACE_THUMBNAIL_SIZE px, the face with a margin around it. */
  thumbnail: Buffer;
}

export interface FacesOptions {
  /** Lowest (verified) detector score kept. */
  minScore: number;
  /** Smallest face kept: its long side, in pixels of the picture analysed (the previews' ≤ 2048 px bitmap). */
  minSize: number;
  /** Told when a model is loaded (once per process). */
  log?: Logger;
}

/**
 * 0.7: every real face of the reference photos scores 0.76–0.95 after verification, while the
 * worst synthetic pattern (concentric circles) reaches 0.62.
 */
export const DEFAULT_FACES_MIN_SCORE = 0.7;
/** 16 px: the smallest real face of faces.jpg is 24 px; below ~16 px BlazeFace mostly finds noise. */
export const DEFAULT_FACES_MIN_SIZE = 16;
/** The most faces kept for a photo, best first (the processed result's limit). */
export const MAX_FACES = 64;
export const FACE_THUMBNAIL_SIZE = 160;
const THUMBNAIL = { scale: 1.8, size: FACE_THUMBNAIL_SIZE, quality: 80 };

/**
 * The faces in an upright picture, best score first (then left to right). Both models are loaded
 * on the first call (a ModelLoadError if one cannot be).
 */
export async function detectFaces(picture: Bitmap, { minScore, minSize, log }: FacesOptions): Promise<Face[]> {
  const [detector, model] = await Promise.all([blazeface(log), embedder(log)]);
  const found = (await findFaceBoxes(detector, picture, { minScore, minSize }))
    .sort((a, b) => b.score - a.score || a.x1 - b.x1)
    .slice(0, MAX_FACES);
  const described = await describeFaces(model, EMBEDDER, picture, found);
  const faces: Face[] = [];
  for (const [i, face] of found.entries()) {
    faces.push({
      box: relativeBox(face, picture),
      score: round(face.score, 3),
      quality: faceQuality(face.landmarks, nativeSharpness(described[i].crop, face.landmarks)),
      embedding: described[i].embedding,
      thumbnail: await faceThumbnail(picture, face, THUMBNAIL),
    });
  }
  return faces;
}

/** The eye distance in the embedder's aligned crop (its template's eye centres). */
const CROP_EYES = Math.hypot(
  EMBEDDER.template[1]!.x - EMBEDDER.template[0]!.x,
  EMBEDDER.template[1]!.y - EMBEDDER.template[0]!.y,
);

/** The Laplacian variance of a face's aligned crop at the face's own resolution (see quality.ts). */
function nativeSharpness(crop: Uint8Array, landmarks: Detection['landmarks']): number {
  const side = nativeSide(landmarks, EMBEDDER.size, CROP_EYES);
  return laplacianVariance(shrinkRgb(crop, EMBEDDER.size, side), side);
}

/** The box clipped to the picture, as fractions of its size. */
function relativeBox(d: Detection, { width, height }: Bitmap): Face['box'] {
  const x1 = clamp(d.x1 / width);
  const y1 = clamp(d.y1 / height);
  return {
    x: round(x1, 4),
    y: round(y1, 4),
    width: round(clamp(d.x2 / width) - x1, 4),
    height: round(clamp(d.y2 / height) - y1, 4),
  };
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));
const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;
