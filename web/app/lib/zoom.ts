/**
 * The viewer's zoom as plain numbers: the picture's box (the frame, in which the image is shown
 * whole, `object-fit: contain`) is drawn with `translate(x, y) scale(scale)` from its top left
 * corner. Zooming keeps the point under the pointer where it is; the zoomed image is kept over
 * the frame (centred on an axis where it is smaller than the frame), so it never drifts away.
 */
export interface ZoomView {
  scale: number;
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export const MIN_SCALE = 1;
export const MAX_SCALE = 8;
/** A double click or tap zooms this far (and back). */
export const STEP_SCALE = 2.5;
export const UNZOOMED: ZoomView = { scale: 1, x: 0, y: 0 };

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Where an image of `natural` size shows inside `frame` when fitted whole: offset and size. */
export function fitted(natural: Size, frame: Size): { left: number; top: number; width: number; height: number } {
  // Not loaded yet: the frame itself. (Fields named one by one: a DOMRect's are getters, which a spread leaves out.)
  if (natural.width <= 0 || natural.height <= 0) return { left: 0, top: 0, width: frame.width, height: frame.height };
  const k = Math.min(frame.width / natural.width, frame.height / natural.height);
  const width = natural.width * k;
  const height = natural.height * k;
  return { left: (frame.width - width) / 2, top: (frame.height - height) / 2, width, height };
}

/** One axis: the translation that keeps the scaled image (at `start`, `extent` long) over a frame `frame` long. */
function keepOver(t: number, scale: number, start: number, extent: number, frame: number): number {
  const scaled = extent * scale;
  // `+ 0`: -0 reads as 0.
  if (scaled <= frame) return (frame - scaled) / 2 - start * scale + 0;
  return clamp(t, frame - (start + extent) * scale, -start * scale) + 0;
}

/** The view brought within bounds: scale between MIN and MAX, the image kept over the frame. */
export function bounded(v: ZoomView, natural: Size, frame: Size): ZoomView {
  const scale = clamp(v.scale, MIN_SCALE, MAX_SCALE);
  if (scale === MIN_SCALE) return UNZOOMED;
  const img = fitted(natural, frame);
  return {
    scale,
    x: keepOver(v.x, scale, img.left, img.width, frame.width),
    y: keepOver(v.y, scale, img.top, img.height, frame.height),
  };
}

/** Zooms to `scale`, the point (px, py) of the frame staying under the pointer. */
export function zoomAt(v: ZoomView, scale: number, px: number, py: number, natural: Size, frame: Size): ZoomView {
  const s = clamp(scale, MIN_SCALE, MAX_SCALE);
  const k = s / v.scale;
  return bounded({ scale: s, x: px - (px - v.x) * k, y: py - (py - v.y) * k }, natural, frame);
}

/** Moves the zoomed picture by (dx, dy) pixels. */
export function panBy(v: ZoomView, dx: number, dy: number, natural: Size, frame: Size): ZoomView {
  return bounded({ ...v, x: v.x + dx, y: v.y + dy }, natural, frame);
}

export const isZoomed = (v: ZoomView) => v.scale > MIN_SCALE;

/** The CSS transform of a view. */
export const transformOf = (v: ZoomView) => `translate(${v.x}px, ${v.y}px) scale(${v.scale})`;

/** Types of original a browser shows as an image: zooming in shows the original itself, at full resolution. */
const SHOWN_AS_IS = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

export const originalShowsInBrowser = (mimeType: string) => SHOWN_AS_IS.has(mimeType.toLowerCase());
