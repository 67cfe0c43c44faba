/**
 * The square input of a detector with a fixed input size: the picture scaled to fit, aspect ratio
 * kept, centred on black. Stretching it instead changes what the model sees (and its scores): the
 * thresholds of the models here were chosen with letterboxed input.
 */
import type { Bitmap } from '../bitmap';
import { sharp } from '../previews/sharp';

export interface Letterboxed {
  /** size × size × 3 bytes, RGB. */
  rgb: Buffer;
  size: number;
  /** Input pixels per picture pixel, and where the picture starts in the input. */
  scale: number;
  left: number;
  top: number;
}

export async function letterbox(image: Bitmap, size: number): Promise<Letterboxed> {
  const scale = Math.min(size / image.width, size / image.height);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const left = Math.floor((size - width) / 2);
  const top = Math.floor((size - height) / 2);
  const rgb = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: image.channels as 1 | 2 | 3 | 4 },
  })
    .resize(width, height, { fit: 'fill' })
    // Transparent parts become black, like the padding.
    .flatten({ background: { r: 0, g: 0, b: 0 } })
    .extend({ left, right: size - width - left, top, bottom: size - height - top, background: { r: 0, g: 0, b: 0 } })
    .toColourspace('srgb')
    .raw()
    .toBuffer();
  return { rgb, size, scale, left, top };
}
