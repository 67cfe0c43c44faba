/**
 * The pixels the face models and the thumbnails are made of, cut from the upright picture.
 */
import type { Bitmap } from '../bitmap';
import { sharp } from '../previews/sharp';
import type { Rect, Square } from './geometry';
import { longSide } from './geometry';

const BLACK = { r: 0, g: 0, b: 0 };

const open = (picture: Bitmap) =>
  sharp(picture.data, {
    raw: { width: picture.width, height: picture.height, channels: picture.channels as 1 | 2 | 3 | 4 },
  });

/**
 * A square region scaled to size×size, RGB (size × size × 3 bytes); what lies outside the picture
 * is black, as is anything transparent.
 */
export async function squareRgb(picture: Bitmap, square: Square, size: number): Promise<Buffer> {
  const x0 = Math.max(0, Math.floor(square.left));
  const y0 = Math.max(0, Math.floor(square.top));
  const x1 = Math.min(picture.width, Math.ceil(square.left + square.side));
  const y1 = Math.min(picture.height, Math.ceil(square.top + square.side));
  if (x1 <= x0 || y1 <= y0) return Buffer.alloc(size * size * 3);
  const scale = size / square.side;
  const width = Math.min(size, Math.max(1, Math.round((x1 - x0) * scale)));
  const height = Math.min(size, Math.max(1, Math.round((y1 - y0) * scale)));
  const left = Math.max(0, Math.min(size - width, Math.round((x0 - square.left) * scale)));
  const top = Math.max(0, Math.min(size - height, Math.round((y0 - square.top) * scale)));
  // sharp extracts, then resizes, then extends, whatever the order of the calls.
  return open(picture)
    .extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 })
    .resize(width, height, { fit: 'fill' })
    .flatten({ background: BLACK })
    .extend({ left, top, right: size - width - left, bottom: size - height - top, background: BLACK })
    .toColourspace('srgb')
    .raw()
    .toBuffer();
}

export interface ThumbnailOptions {
  /** Side of the square cut, as a multiple of the face's long side: the margin around the face. */
  scale: number;
  /** Side of the thumbnail, pixels. */
  size: number;
  quality: number;
}

/**
 * A square WebP thumbnail of a face with a margin around it. The square is moved to stay inside
 * the picture (rather than padded), and shrunk only when the picture is smaller than it.
 */
export async function faceThumbnail(
  picture: Bitmap,
  face: Rect,
  { scale, size, quality }: ThumbnailOptions,
): Promise<Buffer> {
  const side = Math.max(1, Math.min(Math.round(scale * longSide(face)), picture.width, picture.height));
  const inside = (centre: number, length: number) =>
    Math.round(Math.min(Math.max(0, centre - side / 2), length - side));
  return open(picture)
    .extract({
      left: inside((face.x1 + face.x2) / 2, picture.width),
      top: inside((face.y1 + face.y2) / 2, picture.height),
      width: side,
      height: side,
    })
    .resize(size, size, { fit: 'fill' })
    .flatten({ background: BLACK })
    .webp({ quality })
    .toBuffer();
}
