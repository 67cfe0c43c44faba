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
