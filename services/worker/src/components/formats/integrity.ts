/**
 * Structural completeness of an image file. Decoders are lenient with cut-off files (libjpeg pads
 * a truncated scan with grey and only warns; libheif decodes what it has), so a truncated upload is
 * caught here, by its container, before anything is derived from it. The file is read from disk a
 * window at a time: only headers, chunk and box lengths, and the JPEG's own bytes up to its end.
 *
 * One exception, because every viewer and ExifTool accept it: a JPEG that is well formed up to its
 * picture data and then ends without its end-of-image marker (cameras and phones write such files
 * when the card or the transfer is cut short). It is decoded as far as it goes, the rest grey;
 * the caller gets a warning to log. Cut off before its frame header and first scan, it is corrupt.
 */
import { MediaError } from '../errors';
import { ISOBMFF_MIME_TYPES } from '../mime';
import { bmpSize } from './bmp';
import type { FileBytes } from './file-bytes';
import { readTopLevelBoxes } from './isobmff';
import { readJpegFileEnd } from './jpeg';

/** A defect of a file that can still be shown. */
export interface ImageWarning {
  kind: 'truncated-jpeg';
  message: string;
}

/** Throws a `corrupt` MediaError when the file cannot be shown; a warning when it can, with a defect. */
export async function assertImageComplete(
  file: FileBytes,
  mimeType: string,
  name: string,
): Promise<ImageWarning | null> {
  if (mimeType === 'image/jpeg' && file.size > 0) {
    const end = await readJpegFileEnd(file);
    if (end.kind === 'complete') return null;
    if (end.kind === 'truncated')
      return {
        kind: 'truncated-jpeg',
        message: `${name}: JPEG ends without its end-of-image marker (cut off); decoded as far as it goes`,
      };
    throw new MediaError('corrupt', `${name}: JPEG is malformed or cut off before its picture data`);
  }
  const problem = await findProblem(file, mimeType);
  if (problem) throw new MediaError('corrupt', `${name}: ${problem}`);
  return null;
}

async function findProblem(file: FileBytes, mimeType: string): Promise<string | null> {
  if (file.size === 0) return 'the file is empty';
  if (mimeType === 'image/png')
    return (await pngComplete(file)) ? null : 'PNG is truncated or malformed (no IEND chunk)';
  if (mimeType === 'image/webp')
    return (await webpComplete(file)) ? null : 'WebP is truncated (shorter than its RIFF header says)';
  if (mimeType === 'image/bmp') return (await bmpComplete(file)) ? null : 'BMP is truncated or malformed';
  if (ISOBMFF_MIME_TYPES.has(mimeType))
    return (await readTopLevelBoxes(file)).complete
      ? null
      : 'file is truncated or malformed (its boxes do not fill the file)';
  return null;
}

async function pngComplete(file: FileBytes): Promise<boolean> {
  let p = 8;
  while (p + 12 <= file.size) {
    const header = await file.read(p, 8);
    if (header.toString('latin1', 4, 8) === 'IEND') return true;
    p += 12 + header.readUInt32BE(0);
  }
  return false;
}

async function webpComplete(file: FileBytes): Promise<boolean> {
  const header = await file.read(0, 12);
  return header.length >= 12 && header.readUInt32LE(4) + 8 <= file.size;
}

async function bmpComplete(file: FileBytes): Promise<boolean> {
  const header = await file.read(0, 26);
  return bmpSize(header) !== null && header.readUInt32LE(2) <= file.size;
}
