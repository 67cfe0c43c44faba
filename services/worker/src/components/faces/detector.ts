/**
 * Where the faces are: BlazeFace (models/blazeface-back, see its README) in two stages.
 *
 * The model sees a fixed 256×256 input, where a face of a group photo is a few pixels: on the
 * whole picture alone it misses small faces, or finds them only at scores where hands and hair
 * pass too. So:
 * 1. candidates at a lower score, from the whole picture and from 3×3 overlapping tiles (never
 *    enlarged), merged by non-maximum suppression;
 * 2. each candidate verified by running the model again on a square around it where it is a face
 *    of ordinary size (64 px): kept if it scores `minScore` there, with the box found there.
 * On the reference photos this keeps every real face (0.76–0.95) and drops every hand, gun, cape
 * and tile-edge fragment the first stage finds.
 *
 * The model (converted to ONNX at vendor time, on onnxruntime) costs ~8 ms of CPU a run (~50 ms on tfjs' wasm
 * backend), so runs are few: the tiles are cut from one
 * downscaled copy of the picture, and the verification squares of four candidates share one run,
 * as the 128 px cells of a 2×2 mosaic (each square twice the candidate's side, the face 64 px in
 * it, as in the one-candidate-a-run 4× square of 256 px it replaces: the same faces and boxes on
 * the group photo, see faces.test.ts).
 */
import type { Bitmap } from '../bitmap';
import { ort, sharedSession } from '../vision';
import type { Landmarks, Point, Rect, Square } from './geometry';
import { longSide, overlap, squareAround, suppressOverlaps, tiles } from './geometry';
import { resizedBitmap, squareRgb } from './pixels';

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
/** Verification: candidates per run, as MOSAIC×MOSAIC cells, and each one's square as a multiple of its long side. */
const MOSAIC = 2;
const CELL = INPUT_SIZE / MOSAIC;
const VERIFY_SCALE = 2;
/** A candidate scoring from RECHECK_SCORE to SURE_SCORE in the mosaic is verified again alone. */
const RECHECK_SCORE = 0.5;
const SURE_SCORE = 0.7;
/** Overlap (IoU) from which two detections are the same face. */
const SAME_FACE_IOU = 0.3;

type Model = ort.InferenceSession;

export const blazeface = sharedSession('blazeface-back', {
  // The first run sets the kernels up: paid at load, not by the first photo.
  prepare: (session) => run(session, new Float32Array(INPUT_SIZE * INPUT_SIZE * 3)),
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
  model: Model,
  picture: Bitmap,
  { minScore, minSize }: DetectorOptions,
): Promise<Detection[]> {
  const candidates = (await findCandidates(model, picture, Math.min(CANDIDATE_SCORE, minScore))).filter(
    (c) => longSide(c) >= minSize,
  );
  // The mosaic's smaller context costs a face some score (0.01–0.06; a face at the edge of a group
  // 0.84 → 0.62): candidates it leaves unsure are looked at again alone, as before. Things that are
  // not faces score under RECHECK_SCORE there (at most 0.48 on the noise of the bench photos).
  // The band is fixed (not minScore's): a face gets the same box and score whatever minScore is.
  const mosaic = await verifyCandidates(model, picture, candidates, Math.min(RECHECK_SCORE, minScore), MOSAIC);
  const unsure = candidates.filter((_, i) => mosaic[i] !== undefined && mosaic[i].score < SURE_SCORE);
  const alone = await verifyCandidates(model, picture, unsure, minScore, 1);
  const sure = mosaic.filter((d) => d !== undefined && d.score >= SURE_SCORE);
  const verified = [...sure, ...alone].filter((d): d is Detection => d !== undefined && d.score >= minScore);
  return suppressOverlaps(
    verified.filter((d) => longSide(d) >= minSize),
    SAME_FACE_IOU,
  );
}

/** Stage 1: the candidates of the whole picture and of its tiles, merged. */
export async function findCandidates(model: Model, picture: Bitmap, minScore: number): Promise<Detection[]> {
  const candidates: Detection[] = [];
  for (const n of TILINGS) {
    const squares = tiles(picture.width, picture.height, n).filter((tile) => n === 1 || tile.side >= INPUT_SIZE);
    if (squares.length === 0) continue;
    // One resize for all the tiles of a tiling (each is then a plain cut), rather than one per tile.
    const k = Math.min(1, INPUT_SIZE / squares[0].side);
    const view = k < 1 ? await scaledBitmap(picture, k) : { bitmap: picture, kx: 1, ky: 1 };
    for (const square of squares) {
      const cut = { left: square.left * view.kx, top: square.top * view.ky, side: square.side * view.kx };
      const input = await squareRgb(view.bitmap, cut, INPUT_SIZE);
      candidates.push(...(await detect(model, input, minScore)).map((d) => toPicture(d, square, 0, 0, INPUT_SIZE)));
    }
  }
  return suppressOverlaps(candidates, SAME_FACE_IOU);
}

/**
 * Stage 2: each candidate looked at again, `perSide`² at a time (1: one per run, in a square 4× its
 * side): the best detection there scoring `minScore` and overlapping it, or undefined, per candidate.
 */
export async function verifyCandidates(
  model: Model,
  picture: Bitmap,
  candidates: readonly Detection[],
  minScore: number,
  perSide: number,
): Promise<(Detection | undefined)[]> {
  const cell = INPUT_SIZE / perSide;
  const scale = perSide === 1 ? 4 : (VERIFY_SCALE * CELL) / cell;
  const perRun = perSide * perSide;
  const verified: (Detection | undefined)[] = [];
  for (let start = 0; start < candidates.length; start += perRun) {
    const group = candidates.slice(start, start + perRun);
    const squares = group.map((c) => squareAround(c, scale));
    const input = Buffer.alloc(INPUT_SIZE * INPUT_SIZE * 3);
    for (const [i, square] of squares.entries())
      pasteCell(
        input,
        await squareRgb(picture, square, cell),
        cell,
        (i % perSide) * cell,
        Math.floor(i / perSide) * cell,
      );
    const found = await detect(model, input, minScore);
    for (const [i, candidate] of group.entries()) {
      const [left, top] = [(i % perSide) * cell, Math.floor(i / perSide) * cell];
      const best = found
        .filter((d) => {
          const cx = (d.x1 + d.x2) / 2;
          const cy = (d.y1 + d.y2) / 2;
          return cx >= left && cx < left + cell && cy >= top && cy < top + cell;
        })
        .map((d) => toPicture(d, squares[i], left, top, cell))
        .filter((d) => overlap(d, candidate).iou > SAME_FACE_IOU)
        .sort((a, b) => b.score - a.score)[0];
      verified.push(best);
    }
  }
  return verified;
}

/** The picture resized by k (< 1) with sharp, and the exact scale of each axis after rounding. */
async function scaledBitmap(picture: Bitmap, k: number): Promise<{ bitmap: Bitmap; kx: number; ky: number }> {
  const width = Math.max(1, Math.round(picture.width * k));
  const height = Math.max(1, Math.round(picture.height * k));
  const bitmap = await resizedBitmap(picture, width, height);
  return { bitmap, kx: width / picture.width, ky: height / picture.height };
}

/** Copies a cell×cell RGB square into the INPUT_SIZE² RGB input at (left, top). */
function pasteCell(input: Buffer, rgb: Buffer, cell: number, left: number, top: number): void {
  for (let y = 0; y < cell; y++) rgb.copy(input, ((top + y) * INPUT_SIZE + left) * 3, y * cell * 3, (y + 1) * cell * 3);
}

/** A detection in input pixels mapped to the picture: the input's region (left, top, side) shows `square`. */
function toPicture(d: Detection, square: Square, left: number, top: number, side: number): Detection {
  const k = square.side / side;
  const x = (v: number) => square.left + (v - left) * k;
  const y = (v: number) => square.top + (v - top) * k;
  const point = (p: Point): Point => ({ x: x(p.x), y: y(p.y) });
  const { rightEye, leftEye, nose, mouth } = d.landmarks;
  return {
    x1: x(d.x1),
    y1: y(d.y1),
    x2: x(d.x2),
    y2: y(d.y2),
    score: d.score,
    landmarks: { rightEye: point(rightEye), leftEye: point(leftEye), nose: point(nose), mouth: point(mouth) },
  };
}

/** The 4 outputs of a run on an INPUT_SIZE² input (RGB, -1..1). */
async function run(model: Model, input: Float32Array): Promise<Float32Array[]> {
  const outputs = await model.run({ [INPUT]: new ort.Tensor('float32', input, [1, INPUT_SIZE, INPUT_SIZE, 3]) });
  return OUTPUTS.map((name) => outputs[name]!.data as Float32Array);
}

/** The detections scoring at least `minScore` in an INPUT_SIZE² RGB input, in input pixels. */
async function detect(model: Model, rgb: Buffer, minScore: number): Promise<Detection[]> {
  // RGB scaled to -1..1; a plain loop: Float32Array.from with a map function cost ~20 ms an input.
  const input = new Float32Array(rgb.length);
  for (let i = 0; i < rgb.length; i++) input[i] = rgb[i]! / 127.5 - 1;
  const [scores16, scores32, regressors16, regressors32] = await run(model, input);
  const scores = concat(scores16, scores32);
  const regressors = concat(regressors16, regressors32);
  const detections: Detection[] = [];
  for (let i = 0; i < scores.length; i++) {
    const score = 1 / (1 + Math.exp(-scores[i]));
    if (score < minScore) continue;
    const [dx, dy, w, h] = regressors.subarray(i * REGRESSOR, i * REGRESSOR + 4);
    const cx = ANCHORS[2 * i] + dx;
    const cy = ANCHORS[2 * i + 1] + dy;
    const keypoint = (k: number): Point => {
      const at = i * REGRESSOR + 4 + 2 * k;
      return { x: ANCHORS[2 * i] + regressors[at], y: ANCHORS[2 * i + 1] + regressors[at + 1] };
    };
    detections.push({
      x1: cx - w / 2,
      y1: cy - h / 2,
      x2: cx + w / 2,
      y2: cy + h / 2,
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
