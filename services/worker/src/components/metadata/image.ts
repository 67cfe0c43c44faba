/**
 * Metadata of a still image: the completeness check walks its structure a window at a time, ExifTool reads
 * the tags (tags.ts maps them), libvips the header for the displayed size, the motion-photo trailer is
 * searched for chunk by chunk. Nothing reads the whole file into memory.
 */
import sharp from 'sharp';
import { MediaError, errorMessage } from '../errors';
import { bmpSize } from '../formats/bmp';
import { FileBytes } from '../formats/file-bytes';
import { assertImageComplete } from '../formats/integrity';
import { readTopLevelBoxes } from '../formats/isobmff';
import { assertImageSize } from '../limits';
import { isHeifMime, isRawMime } from '../mime';
import type { ExifTags } from './exiftool';
import { readTags } from './exiftool';
import { metadataFromTags } from './from-tags';
import type { MediaMetadata, MetadataSource } from './types';
import { num } from './tags';

export async function extractImageMetadata(source: MetadataSource): Promise<MediaMetadata> {
  const { filePath, mimeType, limits, fileName, name } = source;
  return FileBytes.with(filePath, async (file) => {
    assertImageSize(file.size, limits, name);
    await assertImageComplete(file, mimeType, name);
    const tags = await readTags(filePath);
    // Raws: libvips would read a thumbnail IFD as the image. BMP, JPEG XL: the prebuilt libvips has no loader for them.
    const header = isRawMime(mimeType) || NO_LIBVIPS_LOADER.has(mimeType) ? null : await readHeader(filePath, name);
    const meta = metadataFromTags(tags, fileName);
    const size = await displayedSize(file, mimeType, tags, header);
    meta.width = size?.width ?? null;
    meta.height = size?.height ?? null;
    meta.orientation ??= size?.orientation ?? null;
    meta.motionPhoto = meta.motionPhoto || (await isMotionPhoto(file, mimeType));
    return meta;
  });
}

/** Stills the prebuilt libvips cannot open (sharp.format.jxl has no input either): sizes from elsewhere. */
const NO_LIBVIPS_LOADER: ReadonlySet<string> = new Set(['image/bmp', 'image/jxl']);

interface DisplayedSize {
  width: number;
  height: number;
  orientation: number | null;
}

const swapsAxes = (orientation: number | null) => orientation !== null && orientation >= 5 && orientation <= 8;

/** sharp's reading of the header (no pixels decoded); a file it cannot even read that of is corrupt. */
async function readHeader(filePath: string, name: string): Promise<sharp.Metadata> {
  try {
    return await sharp(filePath).metadata();
  } catch (err) {
    // libvips refuses even the header of an image over its pixel limit (the one previews/sharp.ts spells out).
    const kind = /exceeds pixel limit/i.test(errorMessage(err)) ? 'too-large' : 'corrupt';
    throw new MediaError(kind, `${name}: cannot read the image header: ${errorMessage(err)}`, { cause: err });
  }
}

/**
 * Raws: ExifTool's ImageSize (the sensor area the camera stores), turned by the orientation. BMP: its own
 * header. JPEG XL: ExifTool's reading of the codestream's size (File:ImageWidth/Height), turned by the
 * orientation. Everything else: the decoder's header, whose `autoOrient` size applies EXIF orientation; for HEIF, libheif
 * has already applied the irot/imir transforms and libvips drops the EXIF orientation, so the
 * header size is the displayed size as is.
 */
async function displayedSize(
  file: FileBytes,
  mimeType: string,
  tags: ExifTags,
  header: sharp.Metadata | null,
): Promise<DisplayedSize | null> {
  if (header)
    return {
      width: header.autoOrient.width,
      height: header.autoOrient.height,
      orientation: header.orientation ?? null,
    };
  if (mimeType === 'image/bmp') {
    const bmp = bmpSize(await file.read(0, 26));
    return bmp && { ...bmp, orientation: null };
  }
  if (mimeType === 'image/jxl') return orientedSize(num(tags['File:ImageWidth']), num(tags['File:ImageHeight']), tags);
  let [w, h] = String(tags['Composite:ImageSize'] ?? '')
    .split(/[\sx]+/)
    .map((v) => num(v));
  if (!w || !h) [w, h] = [num(tags['ExifIFD:ExifImageWidth']), num(tags['ExifIFD:ExifImageHeight'])];
  return orientedSize(w, h, tags);
}

function orientedSize(
  w: number | null | undefined,
  h: number | null | undefined,
  tags: ExifTags,
): DisplayedSize | null {
  if (!w || !h) return null;
  const orientation = num(tags['IFD0:Orientation']);
  const swap = swapsAxes(orientation);
  return { width: swap ? h : w, height: swap ? w : h, orientation };
}

const SAMSUNG_TRAILER = Buffer.from('MotionPhoto_Data');

/**
 * Google's XMP flags are read with the other tags (from-tags.ts); Samsung
 * appends the video after the JPEG behind a "MotionPhoto_Data" marker, or in HEIC as a top-level
 * `mpvd` box.
 */
async function isMotionPhoto(file: FileBytes, mimeType: string): Promise<boolean> {
  if (mimeType === 'image/jpeg') return file.includes(SAMSUNG_TRAILER);
  if (isHeifMime(mimeType)) return (await readTopLevelBoxes(file)).types.includes('mpvd');
  return false;
}
