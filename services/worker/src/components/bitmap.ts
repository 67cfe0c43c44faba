/**
 * Decoded pixels as the previews component leaves them for the analysis components (things now,
 * faces and OCR later), so that a photo is decoded once: 8-bit interleaved samples, upright,
 * sRGB, with `channels` 3 (RGB) or 4 (RGBA).
 */
export interface Bitmap {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}
