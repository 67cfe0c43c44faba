/**
 * Metadata of a still image, read from the file on disk in pieces: the completeness check walks
 * its structure a window at a time, exifr and libvips read the headers they need, the motion-photo
 * trailer is searched for chunk by chunk. Raws alone are read whole (their IFDs and previews are
 * walked in memory), within the size limit checked first.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import sharp from 'sharp';
import { MediaError, errorMessage } from '../errors';
import { bmpSize } from '../formats/bmp';
import { FileBytes } from '../formats/file-bytes';
import { assertImageComplete } from '../formats/integrity';
import { readJpegHead } from '../formats/jpeg';
import { readTopLevelBoxes } from '../formats/isobmff';
import { rawStoredSize } from '../formats/raw';
import { assertImageSize, DEFAULT_LIMITS } from '../limits';
import type { ProcessingLimits } from '../limits';
import { isHeifMime, isRawMime } from '../mime';
import { appleContentIdentifier } from './apple';
import type { ExifFields } from './exif';
import { readExifFields } from './exif';
import type { MediaMetadata } from './types';
import { emptyMetadata } from './types';
import { decimalString } from './values';
import { xmpFlag, xmpProperty } from './xmp';

export async function extractImageMetadata(filePath: string, mimeType: string, limits: ProcessingLimits = DEFAULT_LIMITS): Promise<MediaMetadata> {
  const name = basename(filePath);
  return FileBytes.with(filePath, async (file) => {
    assertImageSize(file.size, limits, name);
    await assertImageComplete(file, mimeType, name);
    const raw = isRawMime(mimeType) ? await file.readAll() : null;
    // Raws: libvips would read a thumbnail IFD as the image. BMP: the prebuilt libvips has no loader for it.
    const header = raw || mimeType === 'image/bmp' ? null : await readHeader(filePath, name);
    // A JPEG's metadata is read from its bytes before the picture: exifr reading the file in chunks runs past
    // the chunk it holds while looking for XMP segments in the compressed data of about one photo in five.
    const jpegHead = mimeType === 'image/jpeg' ? await readJpegHead(file) : null;
    const fields = await readExifFields(raw ?? jpegHead ?? filePath, mimeType, name, header);
    const size = await displayedSize(file, raw, mimeType, fields, header);
    return metadataOf(filePath, fields, size, await isMotionPhoto(file, mimeType, fields.xmp));
  });
}

async function metadataOf(filePath: string, fields: ExifFields, size: DisplayedSize | null, motionPhoto: boolean): Promise<MediaMetadata> {
  const meta = emptyMetadata();

  if (fields.dateTimeOriginal) {
    meta.creationTime = fields.dateTimeOriginal;
    meta.creationTimeSource = 'exif';
  } else {
    meta.creationTime = (await stat(filePath)).mtime.toISOString();
    meta.creationTimeSource = 'file';
  }
  meta.width = size?.width ?? null;
  meta.height = size?.height ?? null;
  meta.orientation = fields.orientation ?? size?.orientation ?? null;
  meta.latitude = fields.latitude;
  meta.longitude = fields.longitude;
  meta.cameraMake = fields.make;
  meta.cameraModel = fields.model;
  meta.focalLength = decimalString(fields.focalLength);
  meta.apertureFNumber = decimalString(fields.fNumber);
  meta.isoEquivalent = decimalString(fields.iso);
  meta.exposureTime = decimalString(fields.exposureTime);
  meta.xmpProjectionType = xmpProperty(fields.xmp, 'ProjectionType');
  meta.motionPhoto = motionPhoto;
  meta.contentIdentifier = appleContentIdentifier(fields.makerNote);
  meta.softwareHint = fields.software ?? xmpProperty(fields.xmp, 'CreatorTool') ?? fields.pngText.Software ?? null;
  meta.userComment = fields.userComment;
  return meta;
}

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
 * Raws: EXIF's pixel size, else the full-resolution IFD, turned by the orientation. BMP: its own
 * header. Everything else: the decoder's header, whose `autoOrient` size applies EXIF orientation; for HEIF, libheif
 * has already applied the irot/imir transforms and libvips drops the EXIF orientation, so the
 * header size is the displayed size as is.
 */
async function displayedSize(file: FileBytes, raw: Buffer | null, mimeType: string, fields: ExifFields, header: sharp.Metadata | null): Promise<DisplayedSize | null> {
  if (header) return { width: header.autoOrient.width, height: header.autoOrient.height, orientation: header.orientation ?? null };
  if (mimeType === 'image/bmp') {
    const bmp = bmpSize(await file.read(0, 26));
    return bmp && { ...bmp, orientation: null };
  }
  if (!raw) return null;
  const stored = fields.exifWidth && fields.exifHeight ? { width: fields.exifWidth, height: fields.exifHeight } : rawStoredSize(raw);
  if (!stored) return null;
  const swap = swapsAxes(fields.orientation);
  return { width: swap ? stored.height : stored.width, height: swap ? stored.width : stored.height, orientation: fields.orientation };
}

const SAMSUNG_TRAILER = Buffer.from('MotionPhoto_Data');

/**
 * Google writes GCamera:MotionPhoto (older: MicroVideo) or Camera:MotionPhoto in XMP; Samsung
 * appends the video after the JPEG behind a "MotionPhoto_Data" marker, or in HEIC as a top-level
 * `mpvd` box.
 */
async function isMotionPhoto(file: FileBytes, mimeType: string, xmp: string | null): Promise<boolean> {
  if (xmpFlag(xmp, 'MotionPhoto') || xmpFlag(xmp, 'MicroVideo')) return true;
  if (mimeType === 'image/jpeg') return file.includes(SAMSUNG_TRAILER);
  if (isHeifMime(mimeType)) return (await readTopLevelBoxes(file)).types.includes('mpvd');
  return false;
}
