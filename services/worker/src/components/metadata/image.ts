/**
 * Metadata of a still image. The whole file is read into memory once (photos, raws included, are
 * tens of megabytes at most): the completeness check, EXIF, the header and the motion-photo trailer
 * all look at the same buffer.
 */
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import sharp from 'sharp';
import { MediaError, errorMessage } from '../errors';
import { bmpSize } from '../formats/bmp';
import { assertImageComplete } from '../formats/integrity';
import { readBoxes } from '../formats/isobmff';
import { rawStoredSize } from '../formats/raw';
import { isHeifMime, isRawMime } from '../mime';
import { appleContentIdentifier } from './apple';
import type { ExifFields } from './exif';
import { readExifFields } from './exif';
import type { MediaMetadata } from './types';
import { emptyMetadata } from './types';
import { decimalString } from './values';
import { xmpFlag, xmpProperty } from './xmp';

export async function extractImageMetadata(filePath: string, mimeType: string): Promise<MediaMetadata> {
  const name = basename(filePath);
  const buf = await readFile(filePath);
  assertImageComplete(buf, mimeType, name);
  // Raws: libvips would read a thumbnail IFD as the image. BMP: the prebuilt libvips has no loader for it.
  const header = isRawMime(mimeType) || mimeType === 'image/bmp' ? null : await readHeader(buf, name);
  const fields = await readExifFields(buf, mimeType, name, header);
  const size = displayedSize(buf, mimeType, fields, header);
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
  meta.motionPhoto = isMotionPhoto(buf, mimeType, fields.xmp);
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
async function readHeader(buf: Buffer, name: string): Promise<sharp.Metadata> {
  try {
    return await sharp(buf).metadata();
  } catch (err) {
    throw new MediaError('corrupt', `${name}: cannot read the image header: ${errorMessage(err)}`, { cause: err });
  }
}

/**
 * Raws: EXIF's pixel size, else the full-resolution IFD, turned by the orientation. BMP: its own
 * header. Everything else: the decoder's header, whose `autoOrient` size applies EXIF orientation; for HEIF, libheif
 * has already applied the irot/imir transforms and libvips drops the EXIF orientation, so the
 * header size is the displayed size as is.
 */
function displayedSize(buf: Buffer, mimeType: string, fields: ExifFields, header: sharp.Metadata | null): DisplayedSize | null {
  if (header) return { width: header.autoOrient.width, height: header.autoOrient.height, orientation: header.orientation ?? null };
  if (mimeType === 'image/bmp') {
    const bmp = bmpSize(buf);
    return bmp && { ...bmp, orientation: null };
  }
  if (!isRawMime(mimeType)) return null;
  const stored = fields.exifWidth && fields.exifHeight ? { width: fields.exifWidth, height: fields.exifHeight } : rawStoredSize(buf);
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
function isMotionPhoto(buf: Buffer, mimeType: string, xmp: string | null): boolean {
  if (xmpFlag(xmp, 'MotionPhoto') || xmpFlag(xmp, 'MicroVideo')) return true;
  if (mimeType === 'image/jpeg') return buf.includes(SAMSUNG_TRAILER);
  if (isHeifMime(mimeType)) return readBoxes(buf).some((b) => b.type === 'mpvd');
  return false;
}
