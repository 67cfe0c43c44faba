/**
 * Where the faces are: BlazeFace (models/blazeface-back, see its README) in two stages.
 *
 * The model sees a fixed 256×256 input, where a face of a group photo is a few pixels: on the
 * whole picture alone it misses small faces, or finds them only at scores where hands and hair
 * pass too. So:
 * 1. candidates at a lower score, from the whole picture and from 3×3 overlapping tiles (never
 *    enlarged), merged by non-maximum suppression;
 * 2. each candidate verified by running the model again on a square 4× its size around it, where
 *    it is a face of ordinary size: kept if it scores `minScore` there, with the box found there.
 * On the reference photos this keeps every real face (0.76–0.95) and drops every hand, gun, cape
 * and tile-edge fragment the first stage finds.
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Bitmap } from '../bitmap';
import { sharedModel, tf } from '../vision';
import type { Landmarks, Point, Rect, Square } from './geometry';
import { longSide, overlap, squareAround, suppressOverlaps, tiles } from './geometry';
import { squareRgb } from './pixels';

export interface Detection extends Rect {
  /** 0..1 */
  score: number;
  /**
   * Where the eyes, nose tip and mouth centre are, in picture pixels (BlazeFace's first four
   * keypoints; its two ear points are too unsteady to align on). `rightEye` is the person's right
   * eye, on the left of the picture for a face looking at the camera.
   */
  landmarks: Landmarks;
}

export interface DetectorOptions {
  /** Lowest verified score kept. */
  minScore: number;
  /** Smallest face kept, as its long side in picture pixels. */
  minSize: number;
}

const INPUT = 'input';
const INPUT_SIZE = 256;
/** Scores and regressors of the 512 stride-16 anchors, then of the 384 stride-32 ones. */
const OUTPUTS = ['Identity', 'Identity_1', 'Identity_2', 'Identity_3'];
/** Per anchor: box centre offset (x, y), width, height, then 6 keypoints (x, y); input pixels. */
const REGRESSOR = 16;
/** First-stage score: low enough to catch small faces, which the verification then sorts out. */
const CANDIDATE_SCORE = 0.5;
/** The tilings looked at: the whole picture, then 3×3. */
const TILINGS = [1, 3];
/** The verification square, as a multiple of the candidate's long side. */
const VERIFY_SCALE = 4;
/** Overlap (IoU) from which two detections are the same face. */
const SAME_FACE_IOU = 0.3;

export const blazeface = sharedModel('blazeface-back', {
  // The first execution sets the kernels up: paid at load, not by the first photo.
  prepare: (model) => tf.tidy(() => void model.execute({ [INPUT]: tf.zeros([1, INPUT_SIZE, INPUT_SIZE, 3]) }, OUTPUTS)),
});

/** Centres of the 896 anchors, x then y, in input pixels: 16×16 cells × 2 at stride 16, then 8×8 cells × 6 at stride 32. */
const ANCHORS = Float32Array.from(
  [
    { stride: 16, perCell: 2 },
    { stride: 32, perCell: 6 },
  ].flatMap(({ stride, perCell }) => {
    const cells = INPUT_SIZE / stride;
    const centres: number[] = [];
    for (let y = 0; y < cells; y++)
      for (let x = 0; x < cells; x++)
        for (let k = 0; k < perCell; k++) centres.push(stride * (x + 0.5), stride * (y + 0.5));
    return centres;
  }),
);

export async function findFaceBoxes(
  model: GraphModel,
  picture: Bitmap,
  { minScore, minSize }: DetectorOptions,
): Promise<Detection[]> {
  const candidateScore = Math.min(CANDIDATE_SCORE, minScore);
  const candidates: Detection[] = [];
  for (const n of TILINGS) {
    for (const tile of tiles(picture.width, picture.height, n)) {
      if (n > 1 && tile.side < INPUT_SIZE) continue;
      candidates.push(...(await detectIn(model, picture, tile, candidateScore)));
    }
  }
  const verified: Detection[] = [];
  for (const candidate of suppressOverlaps(candidates, SAME_FACE_IOU)) {
    if (longSide(candidate) < minSize) continue;
    const found = await detectIn(model, picture, squareAround(candidate, VERIFY_SCALE), minScore);
    const best = found.filter((d) => overlap(d, candidate).iou > SAME_FACE_IOU).sort((a, b) => b.score - a.score)[0];
    if (best && longSide(best) >= minSize) verified.push(best);
  }
  return suppressOverlaps(verified, SAME_FACE_IOU);
}

/** The detections scoring at least `minScore` in one square of the picture, in picture pixels. */
async function detectIn(model: GraphModel, picture: Bitmap, square: Square, minScore: number): Promise<Detection[]> {
  const rgb = await squareRgb(picture, square, INPUT_SIZE);
  // RGB scaled to -1..1.
  const input = Float32Array.from(rgb, (v) => v / 127.5 - 1);
  const outputs = tf.tidy(
    () => model.execute({ [INPUT]: tf.tensor4d(input, [1, INPUT_SIZE, INPUT_SIZE, 3]) }, OUTPUTS) as tf.Tensor[],
  );
  let scores: Float32Array;
  let regressors: Float32Array;
  try {
    const [scores16, scores32, regressors16, regressors32] = (await Promise.all(
      outputs.map((t) => t.data()),
    )) as Float32Array[];
    scores = concat(scores16, scores32);
    regressors = concat(regressors16, regressors32);
  } finally {
    tf.dispose(outputs);
  }
  const toPicture = square.side / INPUT_SIZE;
  const detections: Detection[] = [];
  for (let i = 0; i < scores.length; i++) {
    const score = 1 / (1 + Math.exp(-scores[i]));
    if (score < minScore) continue;
    const [dx, dy, w, h] = regressors.subarray(i * REGRESSOR, i * REGRESSOR + 4);
    const cx = ANCHORS[2 * i] + dx;
    const cy = ANCHORS[2 * i + 1] + dy;
    const keypoint = (k: number): Point => {
      const at = i * REGRESSOR + 4 + 2 * k;
      return {
        x: square.left + (ANCHORS[2 * i] + regressors[at]) * toPicture,
        y: square.top + (ANCHORS[2 * i + 1] + regressors[at + 1]) * toPicture,
      };
    };
    detections.push({
      x1: square.left + (cx - w / 2) * toPicture,
      y1: square.top + (cy - h / 2) * toPicture,
      x2: square.left + (cx + w / 2) * toPicture,
      y2: square.top + (cy + h / 2) * toPicture,
      score,
      landmarks: { rightEye: keypoint(0), leftEye: keypoint(1), nose: keypoint(2), mouth: keypoint(3) },
    });
  }
  return detections;
}

function concat(a: Float32Array, b: Float32Array): Float32Array {
  const all = new Float32Array(a.length + b.length);
  all.set(a);
  all.set(b, a.length);
  return all;
}
