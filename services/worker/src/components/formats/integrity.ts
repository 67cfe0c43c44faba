/**
 * Structural completeness of an image file held in memory. Decoders are lenient with cut-off files
 * (libjpeg pads a truncated scan with grey and only warns; libheif decodes what it has), so a
 * truncated upload is caught here, by its container, before anything is derived from it.
 */
import { MediaError } from '../errors';
import { ISOBMFF_MIME_TYPES } from '../mime';
import { readBoxes } from './isobmff';
import { bmpSize } from './bmp';
import { readJpeg } from './jpeg';

export function assertImageComplete(buf: Buffer, mimeType: string, name: string): void {
  const problem = findProblem(buf, mimeType);
  if (problem) throw new MediaError('corrupt', `${name}: ${problem}`);
}

function findProblem(buf: Buffer, mimeType: string): string | null {
  if (buf.length === 0) return 'the file is empty';
  if (mimeType === 'image/jpeg') return readJpeg(buf) ? null : 'JPEG is truncated or malformed (no end-of-image marker)';
  if (mimeType === 'image/png') return pngComplete(buf) ? null : 'PNG is truncated or malformed (no IEND chunk)';
  if (mimeType === 'image/webp') return webpComplete(buf) ? null : 'WebP is truncated (shorter than its RIFF header says)';
  if (mimeType === 'image/bmp') return bmpSize(buf) && buf.readUInt32LE(2) <= buf.length ? null : 'BMP is truncated or malformed';
  if (ISOBMFF_MIME_TYPES.has(mimeType)) return isobmffComplete(buf) ? null : 'file is truncated or malformed (its boxes do not fill the file)';
  return null;
}

function pngComplete(buf: Buffer): boolean {
  let p = 8;
  while (p + 12 <= buf.length) {
    const length = buf.readUInt32BE(p);
    const type = buf.toString('latin1', p + 4, p + 8);
    if (type === 'IEND') return true;
    p += 12 + length;
  }
  return false;
}

function webpComplete(buf: Buffer): boolean {
  return buf.length >= 12 && buf.readUInt32LE(4) + 8 <= buf.length;
}

function isobmffComplete(buf: Buffer): boolean {
  const boxes = readBoxes(buf);
  return boxes.length > 0 && boxes[boxes.length - 1].end === buf.length;
}
