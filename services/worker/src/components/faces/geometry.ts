/**
 * Rectangles and squares in picture pixels: merging overlapping detections and choosing the
 * squares the detector looks at.
 */

/** A rectangle in picture pixels, corners (x1, y1) inclusive to (x2, y2). */
export interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A square region of the picture, in picture pixels; it may reach past the picture's edges. */
export interface Square {
  left: number;
  top: number;
  side: number;
}

export const longSide = (r: Rect): number => Math.max(r.x2 - r.x1, r.y2 - r.y1);

const area = (r: Rect) => Math.max(0, r.x2 - r.x1) * Math.max(0, r.y2 - r.y1);

/** Intersection over union, and the intersection over the smaller of the two. */
export function overlap(a: Rect, b: Rect): { iou: number; ofSmaller: number } {
  const inter = area({
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
    x2: Math.min(a.x2, b.x2),
    y2: Math.min(a.y2, b.y2),
  });
  if (inter === 0) return { iou: 0, ofSmaller: 0 };
  return { iou: inter / (area(a) + area(b) - inter), ofSmaller: inter / Math.min(area(a), area(b)) };
}

/**
 * Greedy non-maximum suppression, best score first: a detection is dropped when it overlaps a kept
 * one by `iou` or more, or lies mostly (60 %) inside it, as a face cut by a tile's edge does.
 */
export function suppressOverlaps<T extends Rect & { score: number }>(detections: readonly T[], iou: number): T[] {
  const kept: T[] = [];
  for (const d of [...detections].sort((a, b) => b.score - a.score)) {
    if (
      kept.every((k) => {
        const o = overlap(k, d);
        return o.iou < iou && o.ofSmaller < 0.6;
      })
    )
      kept.push(d);
  }
  return kept;
}

/** The square `scale` times the rectangle's long side, centred on it. */
export function squareAround(r: Rect, scale: number): Square {
  const side = scale * longSide(r);
  return { left: (r.x1 + r.x2) / 2 - side / 2, top: (r.y1 + r.y2) / 2 - side / 2, side };
}

/** Overlap of neighbouring tiles, as a share of their side. */
const TILE_OVERLAP = 0.25;

/**
 * The squares of an n×n tiling of a width×height picture: n = 1 is the whole picture in one
 * square (centred, reaching past the short side); for n > 1, n squares along the long side that
 * overlap by a quarter, and as many as needed along the short one.
 */
export function tiles(width: number, height: number, n: number): Square[] {
  if (n <= 1) {
    const side = Math.max(width, height);
    return [{ left: (width - side) / 2, top: (height - side) / 2, side }];
  }
  const side = Math.ceil(Math.max(width, height) / (n - TILE_OVERLAP * (n - 1)));
  const starts = (length: number) => {
    const count = Math.max(1, Math.ceil((length - side) / (side * (1 - TILE_OVERLAP))) + 1);
    return Array.from({ length: count }, (_, i) =>
      count === 1 ? (length - side) / 2 : (i * (length - side)) / (count - 1),
    );
  };
  return starts(height).flatMap((top) => starts(width).map((left) => ({ left, top, side })));
}

/** A point in pixels. */
export interface Point {
  x: number;
  y: number;
}

/** The face points the alignment uses. */
export interface Landmarks {
  rightEye: Point;
  leftEye: Point;
  nose: Point;
  mouth: Point;
}

/**
 * A similarity transform (scale, rotation, translation, no shear or mirroring):
 * x' = a·x − b·y + tx, y' = b·x + a·y + ty.
 */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

export const applySimilarity = ({ a, b, tx, ty }: Similarity, { x, y }: Point): Point => ({
  x: a * x - b * y + tx,
  y: b * x + a * y + ty,
});

/** The scale factor of a similarity: how many units of its output one unit of its input becomes. */
export const similarityScale = ({ a, b }: Similarity): number => Math.hypot(a, b);

/**
 * The similarity that maps `from` onto `to` best in the least-squares sense (the closed form of
 * Umeyama's method without reflection): what aligns detected landmarks with a model's template.
 * Needs two distinct points at least.
 */
export function fitSimilarity(from: readonly Point[], to: readonly Point[]): Similarity {
  if (from.length !== to.length || from.length < 2) throw new Error('fitSimilarity needs two pairs of points or more');
  const mean = (ps: readonly Point[]) => ({
    x: ps.reduce((s, p) => s + p.x, 0) / ps.length,
    y: ps.reduce((s, p) => s + p.y, 0) / ps.length,
  });
  const mf = mean(from);
  const mt = mean(to);
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (const [i, f] of from.entries()) {
    const px = f.x - mf.x;
    const py = f.y - mf.y;
    const qx = to[i].x - mt.x;
    const qy = to[i].y - mt.y;
    dot += px * qx + py * qy;
    cross += px * qy - py * qx;
    norm += px * px + py * py;
  }
  if (norm === 0) throw new Error('fitSimilarity needs distinct points');
  const a = dot / norm;
  const b = cross / norm;
  return { a, b, tx: mt.x - (a * mf.x - b * mf.y), ty: mt.y - (b * mf.x + a * mf.y) };
}

/** The landmarks in the order of a template's points. */
export const landmarkPoints = (l: Landmarks): Point[] => [l.rightEye, l.leftEye, l.nose, l.mouth];

/**
 * ArcFace's canonical 112×112 crop (InsightFace's five-point template, the one MS1M-trained models
 * are aligned with), with its two mouth corners averaged into the mouth centre BlazeFace gives:
 * right eye, left eye, nose tip, mouth centre (as `landmarkPoints` orders them).
 */
export const ARCFACE_TEMPLATE: readonly Point[] = [
  { x: 38.2946, y: 51.6963 },
  { x: 73.5318, y: 51.5014 },
  { x: 56.0252, y: 71.7366 },
  { x: 56.1396, y: 92.2848 },
];

/** A template for a `size`×`size` crop: ARCFACE_TEMPLATE scaled, then shrunk around the centre by `zoom` (< 1: more margin). */
export function scaledTemplate(size: number, zoom = 1): Point[] {
  const k = size / 112;
  return ARCFACE_TEMPLATE.map(({ x, y }) => ({
    x: size / 2 + (x * k - size / 2) * zoom,
    y: size / 2 + (y * k - size / 2) * zoom,
  }));
}
