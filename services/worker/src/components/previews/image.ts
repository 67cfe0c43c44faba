/**
 * Preview, thumbnail and placeholder of a still image, all upright (orientation applied) and sRGB:
 * - preview: long edge ≤ 2048 px, never upscaled — the size a screen shows the photo at;
 * - thumbnail: long edge ≤ 512 px. The long edge, not the short one, so that a 10:1 panorama
 *   does not get a 5120 px wide "thumbnail"; grids crop or letterbox it client-side;
 * - placeholder: the ThumbHash of a ≤ 100 px version, base64.
 * Both images are WebP (every current browser shows it; a third of JPEG's size at equal quality).
 *
 * The source is decoded once, to a raw ≤ 2048 px bitmap that the three outputs are made from. What
 * a viewer decodes, we decode:
 * - JPEG/PNG/WebP/TIFF/GIF: libvips reads the file itself (shrinking JPEGs while decoding) and
 *   applies the EXIF orientation (1–8; 5–8 swap width and height). A JPEG cut off before its end
 *   marker is decoded as far as it goes, with a warning (formats/integrity.ts);
 * - HEIF/HEIC/AVIF: the primary image, irot/imir applied by libheif and EXIF orientation not
 *   applied again. libvips first for AV1 (AVIF), libheif-wasm first for HEVC (the prebuilt libvips
 *   has no HEVC decoder); whichever fails, the other is tried (heif.ts);
 * - raws: the largest embedded preview that decodes (from the raw-preview source when one is
 *   given, else our own reader), the raw's orientation applied; a DNG's own RGB picture last;
 * - BMP, JPEG XL: ffmpeg (the prebuilt libvips has no loader for either).
 * Raws and HEVC-coded HEIF, whose decoders need the bytes in memory, are read whole only within the
 * item's memory share; every decoder's pixel limit comes from that share too (limits.ts decodeLimits),
 * checked from the header before decoding, so one item's worst case times the items run at once
 * fits the process's memory budget.
 */
import { basename } from 'node:path';
import type { Bitmap } from '../bitmap';
import { MediaError, errorMessage } from '../errors';
import { FileBytes } from '../formats/file-bytes';
import { assertImageComplete } from '../formats/integrity';
import { findEmbeddedJpegs, rawOrientation } from '../formats/raw';
import { TiffReader } from '../formats/tiff';
import { assertImageSize, assertPixels, assertWholeRead, decodeLimits, DEFAULT_LIMITS } from '../limits';
import type { DecodeLimits, ProcessingLimits } from '../limits';
import { isHeifMime, isRawMime } from '../mime';
import { frameBounds, grabFrame } from './frame';
import { decodeHeifPrimary } from './heif';
import { openImage, sharp } from './sharp';
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
  /** What was wrong with the file though it decoded (a JPEG cut off before its end), for the log. */
  warnings: string[];
}

/**
 * A raw file's embedded preview as another reader extracts it (ExifTool's `JpgFromRaw`, else
 * `PreviewImage`): the JPEG's bytes and the raw's own IFD0 orientation (null when it has none), or
 * null when the file has no preview. Its JPEG is tried before those our own reader finds.
 */
export interface RawPreview {
  jpeg: Buffer;
  orientation: number | null;
}
export type RawPreviewSource = (filePath: string) => Promise<RawPreview | null>;

export interface ImagePreviewOptions {
  /** Where a raw's largest embedded preview comes from first (default: only our own reader). */
  rawPreview?: RawPreviewSource;
  /**
   * The size the metadata read from the file's header (BMP's own, JPEG XL's codestream through
   * ExifTool): a still decoded by ffmpeg is refused beyond its pixel bound before decoding.
   */
  declared?: { width: number | null; height: number | null };
}

/** Stills the prebuilt libvips cannot read, decoded by ffmpeg instead. */
const FFMPEG_DECODED: ReadonlySet<string> = new Set(['image/bmp', 'image/jxl']);

export async function makeImagePreviews(
  filePath: string,
  mimeType: string,
  limits: ProcessingLimits = DEFAULT_LIMITS,
  options: ImagePreviewOptions = {},
): Promise<Previews> {
  const name = basename(filePath);
  const warnings: string[] = [];
  const bounds = decodeLimits(limits);
  const bitmap = await FileBytes.with(filePath, async (file) => {
    assertImageSize(file.size, limits, name);
    const defect = await assertImageComplete(file, mimeType, name);
    if (defect) warnings.push(defect.message);
    if (FFMPEG_DECODED.has(mimeType)) return null;
    if (isRawMime(mimeType)) return decodeRaw(file, filePath, name, options.rawPreview, bounds, limits);
    if (isHeifMime(mimeType)) return decodeHeif(file, filePath, name, bounds, limits);
    // A cut-off JPEG: libjpeg's "premature end" is an error to libvips at any other failOn level.
    return decodeBitmap(
      openImage(filePath, {
        autoOrient: true,
        limitInputPixels: bounds.libvipsPixels,
        ...(defect?.kind === 'truncated-jpeg' ? { failOn: 'none' } : {}),
      }),
      name,
    );
  });
  if (bitmap) return { ...(await renderPreviews(bitmap)), warnings };
  // The prebuilt libvips has no BMP or JPEG XL loader; ffmpeg decodes them (Debian's ffmpeg has libjxl),
  // within the pixels of the item's share: refused from the declared size first, by -max_pixels if it lied.
  const { width, height } = options.declared ?? { width: null, height: null };
  if (width && height) assertPixels(width, height, bounds.ffmpegPixels, name);
  const png = await grabFrame(filePath, 0, name, frameBounds(limits));
  if (!png)
    throw new MediaError('corrupt', `${name}: cannot decode the ${mimeType === 'image/jxl' ? 'JPEG XL' : 'BMP'}`);
  return previewsFromImageBuffer(png, name);
}

/** Previews of an image file in memory whose format sharp reads itself (a video's poster frame). */
export async function previewsFromImageBuffer(buf: Buffer, name: string): Promise<Previews> {
  return { ...(await renderPreviews(await decodeBitmap(openImage(buf, { autoOrient: true }), name))), warnings: [] };
}

/**
 * HEIF: libvips first when it reads the header and says AV1 (its own decoder, the prebuilt libvips
 * has), libheif-wasm first otherwise (HEVC, or a header libvips cannot read); the other decoder
 * when the first fails. Both failing is a `corrupt` file with both reasons.
 */
async function decodeHeif(
  file: FileBytes,
  filePath: string,
  name: string,
  bounds: DecodeLimits,
  limits: ProcessingLimits,
): Promise<Bitmap> {
  const header = await sharp(filePath)
    .metadata()
    .catch(() => null);
  const viaVips = () =>
    decodeBitmap(openImage(filePath, { autoOrient: true, limitInputPixels: bounds.libvipsPixels }), name);
  const viaLibheif = async () => {
    assertWholeRead(file.size, limits, name);
    const { width, height, data } = await decodeHeifPrimary(await file.readAll(), name, bounds.libheifPixels);
    return decodeBitmap(openImage(data, { raw: { width, height, channels: 4 } }), name);
  };
  const decoders: Array<[string, () => Promise<Bitmap>]> = [
    ['libheif', viaLibheif],
    ['libvips', viaVips],
  ];
  if (header?.compression === 'av1') decoders.reverse();
  return firstThatDecodes(decoders, name, 'HEIF');
}

/** Tries each decoder in turn; a pixel-limit refusal is final (no other decoder may go beyond it). */
async function firstThatDecodes(
  decoders: Array<[string, () => Promise<Bitmap>]>,
  name: string,
  what: string,
): Promise<Bitmap> {
  const reasons: string[] = [];
  for (const [decoder, decode] of decoders) {
    try {
      return await decode();
    } catch (err) {
      if (err instanceof MediaError && err.kind === 'too-large') throw err;
      reasons.push(`${decoder}: ${errorMessage(err).replace(`${name}: `, '')}`);
    }
  }
  throw new MediaError('corrupt', `${name}: cannot decode the ${what}: ${reasons.join('; ')}`);
}

/** TIFF PhotometricInterpretation values of ordinary pictures (not CFA or linear raw data). */
const PICTURE_PHOTOMETRICS = new Set([0, 1, 2, 6]);

/**
 * A raw's largest embedded JPEG that decodes: the raw-preview source's first, then those our own
 * reader finds, largest first. The preview rarely carries an orientation of its own: the raw's
 * IFD0 orientation is applied to it unless it does. A DNG without any JPEG preview may still hold
 * an ordinary RGB picture in IFD0, which libvips reads as a TIFF.
 */
async function decodeRaw(
  file: FileBytes,
  filePath: string,
  name: string,
  source: RawPreviewSource | undefined,
  bounds: DecodeLimits,
  limits: ProcessingLimits,
): Promise<Bitmap> {
  const reasons: string[] = [];
  const tryJpeg = async (jpeg: Buffer, orientation: number | null): Promise<Bitmap | null> => {
    try {
      const header = await sharp(jpeg).metadata();
      const pixels = { limitInputPixels: bounds.libvipsPixels };
      const image =
        (header.orientation ?? 1) !== 1 || !orientation
          ? openImage(jpeg, { autoOrient: true, ...pixels })
          : applyOrientation(openImage(jpeg, pixels), orientation);
      return await decodeBitmap(image, name);
    } catch (err) {
      if (err instanceof MediaError && err.kind === 'too-large') throw err;
      reasons.push(errorMessage(err).replace(`${name}: `, ''));
      return null;
    }
  };
  const external = source
    ? await source(filePath).catch((err: unknown) => (reasons.push(`raw-preview source: ${errorMessage(err)}`), null))
    : null;
  const fromSource = external && (await tryJpeg(external.jpeg, external.orientation));
  if (fromSource) return fromSource;

  assertWholeRead(file.size, limits, name);
  const buf = await file.readAll();
  const orientation = rawOrientation(buf);
  for (const { offset, length } of findEmbeddedJpegs(buf)) {
    const bitmap = await tryJpeg(buf.subarray(offset, offset + length), orientation);
    if (bitmap) return bitmap;
  }
  const tiff = TiffReader.open(buf);
  const ifd0 = tiff?.ifd0();
  const photometric = tiff && ifd0 ? tiff.number(ifd0, 0x0106) : null;
  if (photometric !== null && PICTURE_PHOTOMETRICS.has(photometric))
    return decodeBitmap(openImage(buf, { autoOrient: true, limitInputPixels: bounds.libvipsPixels }), name);
  const why = reasons.length ? ` (${reasons.join('; ')})` : '';
  throw new MediaError('unsupported', `${name}: the raw file has no embedded preview that can be decoded${why}`);
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

/**
 * The ≤ 2048 px sRGB bitmap every output is made from; the one place pixels are decoded (libvips
 * shrinks JPEGs while decoding, so a 48 MP photo never sits in memory whole). A decoder's failure
 * is a `corrupt` file, naming it.
 */
async function decodeBitmap(source: sharp.Sharp, name: string): Promise<Bitmap> {
  try {
    const { data, info } = await source
      .resize({ width: PREVIEW_MAX_EDGE, height: PREVIEW_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (err) {
    if (err instanceof MediaError) throw err;
    const kind = /exceeds pixel limit/i.test(errorMessage(err)) ? 'too-large' : 'corrupt';
    throw new MediaError(kind, `${name}: cannot decode the image: ${errorMessage(err)}`, { cause: err });
  }
}

async function renderPreviews(bitmap: Bitmap): Promise<Omit<Previews, 'warnings'>> {
  const { data, width, height, channels } = bitmap;
  const fromRaw = () => sharp(data, { raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } });
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
    width,
    height,
    thumbnailWidth: thumbnail.info.width,
    thumbnailHeight: thumbnail.info.height,
    bitmap,
  };
}
