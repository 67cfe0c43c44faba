/**
 * CenterNet's decoding, done here rather than in the graph (the vendored tfjs graph has it; the ONNX conversion stops
 * at the two heads, models/centernet/README.md): the same steps and constants as the graph's `tower_0/detections`.
 *   1. a heatmap cell is kept where it is the maximum of its 3×3 neighbourhood in its class (a max pool, stride 1,
 *      SAME padding, compared for equality);
 *   2. the best 100 cells over every class and place (ties by position, as a top-k over the flat heatmap);
 *   3. the box of cell (x, y): centre (4x, 4y) in input pixels, minus the `wh` head's first two values for its top
 *      left corner and plus the last two for its bottom right (the graph scales that head by 16 already).
 * Cells below `floor` are skipped before step 2: the caller never looks at them (with fewer than 100 peaks above it,
 * the graph would fill its rows with them).
 */

/** Heatmap rows and columns ([1, 128, 128, 80] for the 512 px input). */
export const GRID = 128;
export const CLASSES = 80;
/** Input pixels per heatmap cell. */
const STRIDE = 4;
/** The graph's top-k. */
export const MAX_DETECTIONS = 100;

/** A detection in input pixels. */
export interface Box {
  cls: number;
  score: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * The boxes of one picture from its heads: `heatmap` [GRID, GRID, CLASSES] (sigmoid scores) and `wh` [GRID, GRID, 4],
 * both NHWC without the batch axis, best first.
 */
export function decodeCenterNet(heatmap: Float32Array, wh: Float32Array, floor: number): Box[] {
  const peaks: number[] = [];
  for (let i = 0; i < heatmap.length; i++) {
    const score = heatmap[i]!;
    if (!(score >= floor) || !isPeak(heatmap, i, score)) continue;
    peaks.push(i);
  }
  peaks.sort((a, b) => heatmap[b]! - heatmap[a]! || a - b);
  return peaks.slice(0, MAX_DETECTIONS).map((i) => {
    const cls = i % CLASSES;
    const cell = (i - cls) / CLASSES;
    const x = cell % GRID;
    const y = (cell - x) / GRID;
    const [l, t, r, b] = [0, 1, 2, 3].map((k) => wh[cell * 4 + k]!);
    // In float32, as the graph computes them.
    return {
      cls,
      score: heatmap[i]!,
      x1: Math.fround(x * STRIDE - l!),
      y1: Math.fround(y * STRIDE - t!),
      x2: Math.fround(x * STRIDE + r!),
      y2: Math.fround(y * STRIDE + b!),
    };
  });
}

/** Whether no neighbour of flat cell `i` (same class, 3×3, inside the grid) scores higher. */
function isPeak(heatmap: Float32Array, i: number, score: number): boolean {
  const cls = i % CLASSES;
  const cell = (i - cls) / CLASSES;
  const x = cell % GRID;
  const y = (cell - x) / GRID;
  for (let dy = -1; dy <= 1; dy++) {
    const ny = y + dy;
    if (ny < 0 || ny >= GRID) continue;
    for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx;
      if (nx < 0 || nx >= GRID || (dx === 0 && dy === 0)) continue;
      if (heatmap[(ny * GRID + nx) * CLASSES + cls]! > score) return false;
    }
  }
  return true;
}
