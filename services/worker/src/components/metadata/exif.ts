/**
 * The EXIF/XMP fields of a still image, gathered from whichever reader understands the file:
 * exifr for JPEG, PNG, TIFF, HEIF/AVIF and the TIFF-based raws; sharp's copy of the EXIF block for
 * WebP/GIF/BMP (exifr does not read those containers); the CMT boxes for CR3.
 */
import { parse as exifrParse } from 'exifr';
import type sharp from 'sharp';
import { MediaError, errorMessage } from '../errors';
import { Tag, TiffReader } from '../formats/tiff';
import { cr3MetadataTiffs, findEmbeddedJpegs } from '../formats/raw';
import { decodeUserComment, exifDateTime, isoDateTime, nonEmptyString, toNumber, validCoordinates } from './values';
import { xmpProperty } from './xmp';

export interface ExifFields {
  make: string | null;
  model: string | null;
  software: string | null;
  orientation: number | null;
  /** ISO 8601, see exifDateTime. */
  dateTimeOriginal: string | null;
  exposureTime: number | null;
  fNumber: number | null;
  iso: number | null;
  focalLength: number | null;
  latitude: number | null;
  longitude: number | null;
  /** Stored pixel size as EXIF says (before orientation). */
  exifWidth: number | null;
  exifHeight: number | null;
  userComment: string | null;
  makerNote: Uint8Array | null;
  xmp: string | null;
  /** PNG tEXt/iTXt key/value pairs. */
  pngText: Record<string, string>;
}

const emptyFields = (): ExifFields => ({
  make: null,
  model: null,
  software: null,
  orientation: null,
  dateTimeOriginal: null,
  exposureTime: null,
  fNumber: null,
  iso: null,
  focalLength: null,
  latitude: null,
  longitude: null,
  exifWidth: null,
  exifHeight: null,
  userComment: null,
  makerNote: null,
  xmp: null,
  pngText: {},
});

/** exifr's d.ts does not export its Options interface; take it from `parse`. */
type ExifrOptions = Exclude<Parameters<typeof exifrParse>[1], undefined | boolean | Array<string | number>>;

/**
 * Raw values (translateValues/reviveValues off): Orientation stays 1–8 and dates stay the EXIF
 * strings, so time zones are ours to handle rather than exifr's (it would read them in the
 * process's zone). XMP comes back unparsed, for xmpProperty.
 */
const EXIFR_OPTIONS: ExifrOptions = {
  tiff: true,
  exif: true,
  gps: true,
  ifd1: false,
  interop: false,
  xmp: { parse: false },
  icc: false,
  iptc: false,
  jfif: false,
  makerNote: true,
  userComment: true,
  translateValues: false,
  reviveValues: false,
  mergeOutput: false,
};

type Block = Record<string, unknown>;

const isBlock = (v: unknown): v is Block => typeof v === 'object' && v !== null && !(v instanceof Uint8Array) && !Array.isArray(v);
const block = (out: unknown, key: string): Block => (isBlock(out) && isBlock(out[key]) ? out[key] : {});

/** `input`: the bytes, or the file's path (exifr then reads only the pieces holding metadata). */
async function runExifr(input: Buffer | string, options: ExifrOptions, name: string): Promise<unknown> {
  try {
    // exifr's own typing of the result is `any`; it is narrowed field by field below.
    return (await exifrParse(input, options)) as unknown;
  } catch (err) {
    throw new MediaError('corrupt', `${name}: cannot read EXIF metadata: ${errorMessage(err)}`, { cause: err });
  }
}

/** Maps exifr's `mergeOutput: false` result onto ExifFields. */
export function fieldsFromExifr(out: unknown): ExifFields {
  const ifd0 = block(out, 'ifd0');
  const exif = block(out, 'exif');
  const gps = block(out, 'gps');
  const ihdr = block(out, 'ihdr');
  const xmp = isBlock(out) && typeof out.xmp === 'string' ? out.xmp : null;
  const coords = validCoordinates(toNumber(gps.latitude), toNumber(gps.longitude));
  const fNumber = toNumber(exif.FNumber) ?? apexToFNumber(toNumber(exif.ApertureValue));
  const pngText: Record<string, string> = {};
  for (const [k, v] of Object.entries(ihdr)) if (typeof v === 'string') pngText[k] = v;
  return {
    make: nonEmptyString(ifd0.Make),
    model: nonEmptyString(ifd0.Model),
    software: nonEmptyString(ifd0.Software),
    orientation: validOrientation(toNumber(ifd0.Orientation)),
    // OffsetTimeOriginal belongs to DateTimeOriginal; OffsetTime (of DateTime) is the same zone on every camera that writes only it.
    dateTimeOriginal:
      exifDateTime(exif.DateTimeOriginal, exif.SubSecTimeOriginal, exif.OffsetTimeOriginal ?? exif.OffsetTime) ??
      exifDateTime(exif.CreateDate, exif.SubSecTimeDigitized, exif.OffsetTimeDigitized ?? exif.OffsetTime) ??
      xmpDateTime(xmp),
    exposureTime: positive(toNumber(exif.ExposureTime)),
    fNumber: positive(fNumber),
    iso: positive(toNumber(exif.ISO) ?? toNumber(exif.ISOSpeed) ?? toNumber(exif.RecommendedExposureIndex)),
    focalLength: positive(toNumber(exif.FocalLength)),
    latitude: coords?.latitude ?? null,
    longitude: coords?.longitude ?? null,
    exifWidth: positive(toNumber(exif.ExifImageWidth)),
    exifHeight: positive(toNumber(exif.ExifImageHeight)),
    userComment: decodeUserComment(isBlock(out) ? out.userComment : null) ?? xmpProperty(xmp, 'UserComment'),
    makerNote: isBlock(out) && out.makerNote instanceof Uint8Array ? out.makerNote : null,
    xmp,
    pngText,
  };
}

function xmpDateTime(xmp: string | null): string | null {
  for (const name of ['DateTimeOriginal', 'DateCreated', 'CreateDate']) {
    const t = isoDateTime(xmpProperty(xmp, name));
    if (t) return t;
  }
  return null;
}

/** ApertureValue is APEX: f-number = 2^(Av/2). */
const apexToFNumber = (av: number | null): number | null => (av === null ? null : Math.pow(2, av / 2));
const positive = (v: number | null): number | null => (v !== null && v > 0 ? v : null);
const validOrientation = (v: number | null): number | null => (v !== null && Number.isInteger(v) && v >= 1 && v <= 8 ? v : null);

/**
 * Reads the EXIF/XMP fields of a still image: `source` is its path, or for raws the whole file in
 * memory (their readers walk IFDs and embedded previews). `header` is sharp's reading of it (null
 * for raws and BMP): it supplies the EXIF of WebP and GIF, and XMP and PNG text that exifr misses
 * (libvips and other writers compress PNG XMP into zTXt, exifr reads only iTXt).
 */
export async function readExifFields(source: string | Buffer, mimeType: string, name: string, header: sharp.Metadata | null): Promise<ExifFields> {
  const fields = await readContainerFields(source, mimeType, name, header);
  const xmp = header?.xmpAsString ?? null;
  if (!fields.xmp && xmp) {
    fields.xmp = xmp;
    fields.userComment ??= xmpProperty(xmp, 'UserComment');
    fields.dateTimeOriginal ??= xmpDateTime(xmp);
  }
  for (const { keyword, text } of header?.comments ?? []) fields.pngText[keyword] ??= text;
  return fields;
}

async function readContainerFields(source: string | Buffer, mimeType: string, name: string, header: sharp.Metadata | null): Promise<ExifFields> {
  const inMemory = () => {
    if (typeof source === 'string') throw new TypeError(`${name}: raw files are read from memory`);
    return source;
  };
  switch (mimeType) {
    case 'image/webp':
    case 'image/gif':
    case 'image/bmp':
      return header?.exif ? fieldsFromExifBlock(header.exif, name) : emptyFields();
    case 'image/x-canon-cr3':
      return withPreviewFallback(fieldsFromCr3(inMemory()), inMemory(), name);
    case 'image/x-olympus-orf':
    case 'image/x-panasonic-rw2':
      // Their TIFF structure is standard behind a private magic number, which exifr refuses.
      return withPreviewFallback(fieldsFromExifr(await runExifr(withTiffMagic(inMemory()), EXIFR_OPTIONS, name)), inMemory(), name);
    case 'image/x-adobe-dng':
    case 'image/x-canon-cr2':
    case 'image/x-nikon-nef':
    case 'image/x-sony-arw':
      return withPreviewFallback(fieldsFromExifr(await runExifr(inMemory(), EXIFR_OPTIONS, name)), inMemory(), name);
    case 'image/png':
      return fieldsFromExifr(await runExifr(source, { ...EXIFR_OPTIONS, ihdr: true }, name));
    default:
      return fieldsFromExifr(await runExifr(source, EXIFR_OPTIONS, name));
  }
}

/** libvips hands the EXIF block with its "Exif\0\0" APP1 prefix; exifr wants the TIFF structure. */
async function fieldsFromExifBlock(exif: Buffer, name: string): Promise<ExifFields> {
  const tiff = exif.toString('latin1', 0, 6) === 'Exif\0\0' ? exif.subarray(6) : exif;
  if (tiff.length < 8) return emptyFields();
  return fieldsFromExifr(await runExifr(tiff, EXIFR_OPTIONS, name));
}

function withTiffMagic(buf: Buffer): Buffer {
  const copy = Buffer.from(buf);
  if (copy.toString('latin1', 0, 2) === 'II') copy.writeUInt16LE(0x2a, 2);
  else copy.writeUInt16BE(0x2a, 2);
  return copy;
}

/**
 * Some raws keep their EXIF only in the embedded JPEG (RW2 in JpgFromRaw, some CR3 and ORF
 * variants): fill what the container lacked from the largest preview.
 */
async function withPreviewFallback(fields: ExifFields, buf: Buffer, name: string): Promise<ExifFields> {
  if (fields.dateTimeOriginal && fields.exposureTime !== null) return fields;
  const [largest] = findEmbeddedJpegs(buf);
  if (!largest) return fields;
  let fromPreview: ExifFields;
  try {
    fromPreview = fieldsFromExifr(await runExifr(buf.subarray(largest.offset, largest.offset + largest.length), EXIFR_OPTIONS, name));
  } catch {
    return fields; // the preview's EXIF is a bonus, not a requirement
  }
  const merged = { ...fields };
  for (const key of Object.keys(merged) as Array<keyof ExifFields>) {
    if (merged[key] === null) (merged as Record<keyof ExifFields, unknown>)[key] = fromPreview[key];
  }
  return merged;
}

// Tag numbers of the Exif and GPS IFDs, for CR3 whose CMT boxes exifr cannot reach.
const EXIF_EXPOSURE_TIME = 0x829a;
const EXIF_F_NUMBER = 0x829d;
const EXIF_ISO = 0x8827;
const EXIF_DATE_TIME_ORIGINAL = 0x9003;
const EXIF_OFFSET_TIME_ORIGINAL = 0x9011;
const EXIF_SUB_SEC_ORIGINAL = 0x9291;
const EXIF_FOCAL_LENGTH = 0x920a;
const EXIF_IMAGE_WIDTH = 0xa002;
const EXIF_IMAGE_HEIGHT = 0xa003;
const IFD0_SOFTWARE = 0x0131;
const GPS_LATITUDE_REF = 1;
const GPS_LATITUDE = 2;
const GPS_LONGITUDE_REF = 3;
const GPS_LONGITUDE = 4;

/** CR3: CMT1 holds IFD0, CMT2 the Exif IFD and CMT4 the GPS IFD, each as the IFD0 of its own TIFF. */
export function fieldsFromCr3(buf: Buffer): ExifFields {
  const fields = emptyFields();
  const boxes = cr3MetadataTiffs(buf);
  const open = (b: Buffer | undefined) => {
    const reader = b ? TiffReader.open(b) : null;
    const ifd = reader?.ifd0();
    return reader && ifd ? { reader, ifd } : null;
  };
  const ifd0 = open(boxes.CMT1);
  if (ifd0) {
    fields.make = ifd0.reader.string(ifd0.ifd, Tag.Make);
    fields.model = ifd0.reader.string(ifd0.ifd, Tag.Model);
    fields.software = ifd0.reader.string(ifd0.ifd, IFD0_SOFTWARE);
    fields.orientation = validOrientation(ifd0.reader.number(ifd0.ifd, Tag.Orientation));
  }
  const exif = open(boxes.CMT2);
  if (exif) {
    const { reader, ifd } = exif;
    fields.dateTimeOriginal = exifDateTime(reader.string(ifd, EXIF_DATE_TIME_ORIGINAL), reader.string(ifd, EXIF_SUB_SEC_ORIGINAL), reader.string(ifd, EXIF_OFFSET_TIME_ORIGINAL));
    fields.exposureTime = positive(reader.number(ifd, EXIF_EXPOSURE_TIME));
    fields.fNumber = positive(reader.number(ifd, EXIF_F_NUMBER));
    fields.iso = positive(reader.number(ifd, EXIF_ISO));
    fields.focalLength = positive(reader.number(ifd, EXIF_FOCAL_LENGTH));
    fields.exifWidth = positive(reader.number(ifd, EXIF_IMAGE_WIDTH));
    fields.exifHeight = positive(reader.number(ifd, EXIF_IMAGE_HEIGHT));
  }
  const gps = open(boxes.CMT4);
  if (gps) {
    const { reader, ifd } = gps;
    const dms = (tag: number) => {
      const [d, m = 0, s = 0] = reader.numbers(ifd, tag);
      return d === undefined ? null : d + m / 60 + s / 3600;
    };
    const lat = dms(GPS_LATITUDE);
    const lon = dms(GPS_LONGITUDE);
    const sign = (ref: string | null, negative: string) => (ref?.toUpperCase() === negative ? -1 : 1);
    const coords = validCoordinates(lat === null ? null : lat * sign(reader.string(ifd, GPS_LATITUDE_REF), 'S'), lon === null ? null : lon * sign(reader.string(ifd, GPS_LONGITUDE_REF), 'W'));
    fields.latitude = coords?.latitude ?? null;
    fields.longitude = coords?.longitude ?? null;
  }
  return fields;
}
