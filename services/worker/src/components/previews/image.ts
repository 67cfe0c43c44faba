/**
 * Preview, thumbnail and placeholder of a still image, all upright (orientation applied) and sRGB:
 * - preview: long edge ≤ 2048 px, never upscaled — the size a screen shows the photo at;
 * - thumbnail: long edge ≤ 512 px. The long edge, not the short one, so that a 10:1 panorama
 *   does not get a 5120 px wide "thumbnail"; grids crop or letterbox it client-side;
 * - placeholder: the ThumbHash of a ≤ 100 px version, base64.
 * Both images are WebP (every current browser shows it; a third of JPEG's size at equal quality).
 * The source is decoded once, to a raw ≤ 2048 px bitmap that the three outputs are made from.
 * libvips reads the file itself (shrinking JPEGs while decoding); raws and HEVC-coded HEIF, whose
 * decoders need the bytes in memory, are read whole within the size limit checked first.
 */
import { basename } from 'node:path';
import decodeHeic from 'heic-decode';
import type { DecodedImage } from 'heic-decode';
import type { Bitmap } from '../bitmap';
import { MediaError, errorMessage } from '../errors';
import { FileBytes } from '../formats/file-bytes';
import { assertImageComplete } from '../formats/integrity';
import { findEmbeddedJpegs, rawOrientation } from '../formats/raw';
import { TiffReader } from '../formats/tiff';
import { assertImageSize, DEFAULT_LIMITS } from '../limits';
import type { ProcessingLimits } from '../limits';
import { isHeifMime, isRawMime } from '../mime';
import { grabFrame } from './frame';
import { LIMIT_INPUT_PIXELS, openImage, sharp } from './sharp';
import { rgbaToThumbHash } from './thumbhash';

export const PREVIEW_MAX_EDGE = 2048;
export const THUMBNAIL_MAX_EDGE = 512;
const PLACEHOLDER_MAX_EDGE = 100;
const PREVIEW_QUALITY = 80;
const THUMBNAIL_QUALITY = 70;

export interface Previews {
  preview: Buffer;
  thumbnail: Buffer;
  previewMimeType: string;
  thumbnailMimeType: string;
  /** ThumbHash, base64. */
  placeholder: string;
  /** Size of the preview (the original's aspect ratio, as displayed). */
  width: number;
  height: number;
  thumbnailWidth: number;
  thumbnailHeight: number;
  /** The decoded ≤ 2048 px picture the outputs were made from, for the analysis components (things). */
  bitmap: Bitmap;
}

export async function makeImagePreviews(filePath: string, mimeType: string, limits: ProcessingLimits = DEFAULT_LIMITS): Promise<Previews> {
  const name = basename(filePath);
  const source = await FileBytes.with(filePath, async (file) => {
    assertImageSize(file.size, limits, name);
    await assertImageComplete(file, mimeType, name);
    return mimeType === 'image/bmp' ? null : openSource(file, filePath, mimeType, name);
  });
  if (source) return renderPreviews(source, name);
  // The prebuilt libvips has no BMP loader; ffmpeg decodes it.
  const png = await grabFrame(filePath, 0, name, limits.frameTimeoutSeconds);
  if (!png) throw new MediaError('corrupt', `${name}: cannot decode the BMP`);
  return previewsFromImageBuffer(png, name);
}

/** Previews of an image file in memory whose format sharp reads itself (a video's poster frame). */
export function previewsFromImageBuffer(buf: Buffer, name: string): Promise<Previews> {
  return renderPreviews(openImage(buf, { autoOrient: true }), name);
}

async function openSource(file: FileBytes, filePath: string, mimeType: string, name: string): Promise<sharp.Sharp> {
  if (isRawMime(mimeType)) return openRaw(await file.readAll(), name);
  if (isHeifMime(mimeType)) {
    const header = await sharp(filePath)
      .metadata()
      .catch(() => null);
    // The prebuilt libvips decodes AV1 (AVIF) but has no HEVC decoder.
    if (header?.compression === 'av1') return openImage(filePath, { autoOrient: true });
    return openHevc(await file.readAll(), name);
  }
  return openImage(filePath, { autoOrient: true });
}

/**
 * HEVC-coded HEIF through libheif compiled to wasm. libheif applies the irot/imir transforms
 * itself, so the pixels come out upright. The wasm decoder has no pixel limit of its own: the size
 * it reads from the file is checked before any pixel is decoded.
 */
async function openHevc(buf: Buffer, name: string): Promise<sharp.Sharp> {
  const corrupt = (err: unknown) => new MediaError('corrupt', `${name}: cannot decode HEIF: ${errorMessage(err)}`, { cause: err });
  const images = await decodeHeic.all({ buffer: buf }).catch((err: unknown) => Promise.reject(corrupt(err)));
  let decoded: DecodedImage;
  try {
    // The image heic-decode's single-image call decodes.
    const [image] = images;
    if (image.width * image.height > LIMIT_INPUT_PIXELS) throw new MediaError('too-large', `${name}: ${image.width}x${image.height} exceeds the pixel limit`);
    decoded = await image.decode().catch((err: unknown) => Promise.reject(corrupt(err)));
  } finally {
    images.dispose();
  }
  const { width, height, data } = decoded;
  return openImage(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { raw: { width, height, channels: 4 } });
}

/** TIFF PhotometricInterpretation values of ordinary pictures (not CFA or linear raw data). */
const PICTURE_PHOTOMETRICS = new Set([0, 1, 2, 6]);

/**
 * A raw's embedded JPEG, largest that decodes first. The preview rarely carries an orientation of
 * its own: the raw's IFD0 orientation is applied to it unless it does. A DNG without any JPEG
 * preview may still hold an ordinary RGB picture in IFD0, which libvips reads as a TIFF.
 */
async function openRaw(buf: Buffer, name: string): Promise<sharp.Sharp> {
  const orientation = rawOrientation(buf);
  for (const { offset, length } of findEmbeddedJpegs(buf)) {
    const jpeg = buf.subarray(offset, offset + length);
    const header = await sharp(jpeg)
      .metadata()
      .catch(() => null);
    if (!header) continue;
    if ((header.orientation ?? 1) !== 1 || !orientation) return openImage(jpeg, { autoOrient: true });
    return applyOrientation(openImage(jpeg), orientation);
  }
  const tiff = TiffReader.open(buf);
  const ifd0 = tiff?.ifd0();
  const photometric = tiff && ifd0 ? tiff.number(ifd0, 0x0106) : null;
  if (photometric !== null && PICTURE_PHOTOMETRICS.has(photometric)) return openImage(buf, { autoOrient: true });
  throw new MediaError('unsupported', `${name}: the raw file has no embedded preview that can be decoded`);
}

/**
 * EXIF orientation as sharp operations: 2 mirror, 3 rotate 180°, 4 flip, 5 transpose, 6 rotate
 * 90° CW, 7 transverse, 8 rotate 270° CW. sharp mirrors before it rotates, whatever the call
 * order, hence 5 = mirror then 270° and 7 = mirror then 90° (checked against libvips' own
 * auto-orientation in image.test.ts).
 */
export function applyOrientation(image: sharp.Sharp, orientation: number): sharp.Sharp {
  switch (orientation) {
    case 2:
      return image.flop();
    case 3:
      return image.rotate(180);
    case 4:
      return image.flip();
    case 5:
      return image.rotate(270).flop();
    case 6:
      return image.rotate(90);
    case 7:
      return image.rotate(90).flop();
    case 8:
      return image.rotate(270);
    default:
      return image;
  }
}

async function renderPreviews(source: sharp.Sharp, name: string): Promise<Previews> {
  try {
    const { data, info } = await source
      .resize({ width: PREVIEW_MAX_EDGE, height: PREVIEW_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const fromRaw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    const preview = await fromRaw().webp({ quality: PREVIEW_QUALITY }).toBuffer();
    const thumbnail = await fromRaw()
      .resize({ width: THUMBNAIL_MAX_EDGE, height: THUMBNAIL_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: THUMBNAIL_QUALITY })
      .toBuffer({ resolveWithObject: true });
    const tiny = await fromRaw()
      .resize({ width: PLACEHOLDER_MAX_EDGE, height: PLACEHOLDER_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      preview,
      thumbnail: thumbnail.data,
      previewMimeType: 'image/webp',
      thumbnailMimeType: 'image/webp',
      placeholder: Buffer.from(rgbaToThumbHash(tiny.info.width, tiny.info.height, tiny.data)).toString('base64'),
      width: info.width,
      height: info.height,
      thumbnailWidth: thumbnail.info.width,
      thumbnailHeight: thumbnail.info.height,
      bitmap: { data, width: info.width, height: info.height, channels: info.channels },
    };
  } catch (err) {
    if (err instanceof MediaError) throw err;
    throw new MediaError('corrupt', `${name}: cannot decode the image: ${errorMessage(err)}`, { cause: err });
  }
}
