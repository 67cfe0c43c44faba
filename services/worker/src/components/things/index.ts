/**
 * Things: the objects in a photo (or a video's poster frame), as English COCO class names.
 *
 * Model: MB3-CenterNet (models/centernet, see its README), COCO-80, converted to ONNX at vendor time and run on
 * onnxruntime (about a third of the tfjs wasm backend's CPU time).
 *   input   `tower_0/images`    [1, 512, 512, 3] float32, RGB 0..255, not normalised
 *   outputs `tower_0/keypoints` [1, 128, 128, 80] class heatmap 0..1, `tower_0/wh` [1, 128, 128, 4] box extents;
 *           decoded into the tfjs graph's top-100 boxes by ./decode.ts.
 * The picture is letterboxed, as the model's upstream inference code does; the thresholds below
 * were measured that way (stretching it moves a pizza from 0.62 to 0.52 and makes a checkerboard a
 * 0.43 "traffic light").
 *
 * The model is run on the picture and on its mirror image, and a detection's score is the mean of
 * its two (a box of the same class at the same place, IoU ≥ 0.5; one the mirror does not confirm
 * counts 0 there): the model's low-score mistakes rarely survive the flip, its true objects do.
 * A thing covering a tenth of the picture or more is reported from a lower score: big boxes are
 * what the model is least often wrong about, and what people look for. Measured on the labelled
 * photos of `make eval-vision` (41 photos): precision 1.00 / recall 0.64 at 0.5 on one pass;
 * 0.93 / 0.85 with both rules (a lower large-thing share, 0.43, gave 0.89 / 0.92 but let noise through).
 */
import type { Logger } from '@trove/kit';
import type { Bitmap } from '../bitmap';
import { letterbox, ort, sharedSession } from '../vision';
import { CLASSES, decodeCenterNet, GRID } from './decode';
import type { Box } from './decode';
import { COCO_LABELS, thingLabel } from './labels';

export type { Box } from './decode';
export { ANIMAL_LABELS } from './labels';

export interface Thing {
  /** Singular Title Case English COCO name: "Pizza", "Dining Table", "Ski", "TV". */
  label: string;
  /** The best score of that label in the picture, 0..1, three decimals. */
  score: number;
}

export interface ThingsOptions {
  /** Lowest score reported (a large thing's is LARGE_THING_SCORE_RATIO of it). */
  minScore: number;
  /** Told when the model is loaded (once per process). */
  log?: Logger;
}

/**
 * 0.35 (of the mean of the two passes): every synthetic pattern stays below it, and on the labelled
 * evaluation photos it is where precision stays above 0.9 (0.3 lets three more wrong labels in).
 */
export const DEFAULT_THINGS_MIN_SCORE = 0.35;
/**
 * A thing whose box covers at least this share of the picture … (on the evaluation photos, 0.1 gave
 * precision 0.95 / recall 0.90, 0.05 gave 0.89 / 0.95; 0.08 is between, 0.93 / 0.93).
 */
export const LARGE_THING_SHARE = 0.08;
/** … is reported from this share of minScore (0.15 by default; 0.21 cost recall 0.05 for no precision). */
export const LARGE_THING_SCORE_RATIO = 0.43;
/**
 * A box filling at least this share of the picture gets no large-thing discount: in pictures of noise the
 * model puts a whole-picture box of several classes ("umbrella", "pizza", "cat", "bear") at 0.10–0.18.
 */
export const WHOLE_PICTURE_SHARE = 0.9;
/** Boxes of different classes at least this alike are one object under two labels: the better one is kept. */
export const SAME_OBJECT_IOU = 0.7;
/** Two boxes of a class at least this alike (intersection over union) are the same thing. */
const SAME_BOX_IOU = 0.5;
/** Rows below this score in both passes are not looked at (they cannot reach any threshold). */
export const FLOOR = 0.02;

const INPUT = 'tower_0/images';
const HEATMAP = 'tower_0/keypoints';
const WH = 'tower_0/wh';
const INPUT_SIZE = 512;

export const centernet = sharedSession('centernet', {
  // The first run sets the kernels up: paid at load, not by the first photo.
  prepare: (session) => run(session, new Float32Array(INPUT_SIZE * INPUT_SIZE * 3)),
});

/** An object found in the picture: its COCO class ("cat", "person"), its score, and its box as fractions of the picture. */
export interface SeenObject {
  cls: string;
  score: number;
  box: { x1: number; y1: number; x2: number; y2: number };
}

/** What the detector saw: the things (each label once) and every object that passed its threshold. */
export interface ThingsSeen {
  things: Thing[];
  objects: SeenObject[];
}

/**
 * The things in an upright picture: each label once, with its best score, best first. The model
 * is loaded on the first call (a ModelLoadError if it cannot be).
 */
export async function detectThings(image: Bitmap, options: ThingsOptions): Promise<Thing[]> {
  return (await seeThings(image, options)).things;
}

/** The things of an upright picture (see detectThings), and where each object that passed lies. */
export async function seeThings(image: Bitmap, options: ThingsOptions): Promise<ThingsSeen> {
  const model = await centernet(options.log);
  const { rgb, scale, left, top } = await letterbox(image, INPUT_SIZE);
  const [straight, mirrored] = await detections(model, rgb);
  const width = image.width * scale;
  const height = image.height * scale;
  const boxes = oneLabelPerObject(fuseMirrored(straight, mirrored, INPUT_SIZE));
  const objects = boxes
    .filter((b) => passes(b, width * height, options.minScore))
    .map((b) => ({
      cls: COCO_LABELS[b.cls]!,
      score: Math.round(b.score * 1000) / 1000,
      // From the letterboxed input back to the picture.
      box: {
        x1: (b.x1 - left) / width,
        y1: (b.y1 - top) / height,
        x2: (b.x2 - left) / width,
        y2: (b.y2 - top) / height,
      },
    }));
  return { things: bestPerLabel(boxes, width * height, options.minScore), objects };
}

/** The boxes, best first, without those that cover a better box of another class (IoU ≥ SAME_OBJECT_IOU). */
export function oneLabelPerObject(boxes: Box[]): Box[] {
  const kept: Box[] = [];
  for (const b of [...boxes].sort((p, q) => q.score - p.score))
    if (!kept.some((k) => k.cls !== b.cls && iou(k, b) >= SAME_OBJECT_IOU)) kept.push(b);
  return kept;
}

/** Each class once, with its best score among the boxes that pass their threshold, best first. */
export function bestPerLabel(boxes: Box[], pictureArea: number, minScore: number): Thing[] {
  const best = new Map<number, number>();
  for (const b of boxes) {
    if (!passes(b, pictureArea, minScore)) continue;
    if (b.score > (best.get(b.cls) ?? -1)) best.set(b.cls, b.score);
  }
  return [...best]
    .sort(([, a], [, b]) => b - a)
    .map(([cls, score]) => ({ label: thingLabel(COCO_LABELS[cls]), score: Math.round(score * 1000) / 1000 }));
}

/** A box of a known class at or above its threshold (a large thing's is lower: see LARGE_THING_SHARE). */
function passes(b: Box, pictureArea: number, minScore: number): boolean {
  const share = (Math.max(0, b.x2 - b.x1) * Math.max(0, b.y2 - b.y1)) / pictureArea;
  const large = share >= LARGE_THING_SHARE && share < WHOLE_PICTURE_SHARE;
  const threshold = large ? minScore * LARGE_THING_SCORE_RATIO : minScore;
  return b.score >= threshold && b.cls >= 0 && b.cls < COCO_LABELS.length;
}

/**
 * The detections of the picture and of its mirror image (`mirrored`, in the mirror's coordinates)
 * as one list: each box with the mean of its score and its mirror twin's (0 without one), in the
 * picture's coordinates. Twins are paired greedily, best scores first.
 */
export function fuseMirrored(straight: Box[], mirrored: Box[], size: number): Box[] {
  const back = mirrored.map((b) => ({ ...b, x1: size - b.x2, x2: size - b.x1 }));
  const taken = new Set<number>();
  const fused: Box[] = [];
  for (const b of [...straight].sort((p, q) => q.score - p.score)) {
    let twin = -1;
    for (const [j, m] of back.entries())
      if (!taken.has(j) && m.cls === b.cls && iou(b, m) >= SAME_BOX_IOU && (twin < 0 || m.score > back[twin].score))
        twin = j;
    if (twin >= 0) taken.add(twin);
    fused.push({ ...b, score: (b.score + (twin >= 0 ? back[twin].score : 0)) / 2 });
  }
  for (const [j, m] of back.entries()) if (!taken.has(j)) fused.push({ ...m, score: m.score / 2 });
  return fused;
}

function iou(a: Box, b: Box): number {
  const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1);
  const h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / ((a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter);
}

/** The model's boxes on the letterboxed picture and on its mirror (flipped left to right). */
async function detections(model: ort.InferenceSession, rgb: Buffer): Promise<[Box[], Box[]]> {
  // Plain loops: Float32Array.from with a map function is several times slower.
  const input = new Float32Array(rgb.length);
  const mirror = new Float32Array(rgb.length);
  for (let y = 0; y < INPUT_SIZE; y++)
    for (let x = 0; x < INPUT_SIZE; x++) {
      const from = (y * INPUT_SIZE + x) * 3;
      const to = (y * INPUT_SIZE + INPUT_SIZE - 1 - x) * 3;
      for (let c = 0; c < 3; c++) input[from + c] = mirror[to + c] = rgb[from + c]!;
    }
  return [await run(model, input), await run(model, mirror)];
}

/** One pass of the model on a [512, 512, 3] picture, decoded. */
export async function run(model: ort.InferenceSession, input: Float32Array): Promise<Box[]> {
  const outputs = await model.run({ [INPUT]: new ort.Tensor('float32', input, [1, INPUT_SIZE, INPUT_SIZE, 3]) });
  const heatmap = outputs[HEATMAP]!;
  const wh = outputs[WH]!;
  try {
    if (heatmap.dims.join() !== `1,${GRID},${GRID},${CLASSES}` || wh.dims.join() !== `1,${GRID},${GRID},4`)
      throw new Error(`centernet: outputs of shape [${heatmap.dims}] and [${wh.dims}]`);
    return decodeCenterNet(heatmap.data as Float32Array, wh.data as Float32Array, FLOOR);
  } finally {
    heatmap.dispose();
    wh.dispose();
  }
}
