/**
 * Camera raw files, read for what a photo library needs without demosaicing: the embedded JPEG
 * preview every camera writes (it is what the camera showed on its screen) and the orientation (the
 * size and every tag come from ExifTool). How each container keeps its preview:
 * - DNG: a SubIFD with NewSubfileType 1 and JPEG compression, as one strip;
 * - NEF, ARW, CR2: JPEGInterchangeFormat/Length in IFD0, IFD1 or a SubIFD (CR2 also a strip in IFD0);
 * - RW2: the JpgFromRaw tag (0x002E) of IFD0;
 * - ORF (in the maker notes) and CR3 (a `PRVW` box in a `uuid` box): found by scanning the file
 *   for complete JPEG streams, since neither is reachable through plain TIFF IFDs.
 * Lossless-JPEG streams (the raw data itself in CR2/DNG) are skipped: they are not pictures.
 */
import { isDisplayableJpeg, readJpeg } from './jpeg';
import { readBoxes } from './isobmff';
import { Tag, TiffReader } from './tiff';

export interface ByteRange {
  offset: number;
  length: number;
}

const JPEG_COMPRESSIONS = new Set([6, 7]);
/** Canon's metadata `uuid` box in the CR3 `moov`, holding CMT1 (IFD0), CMT2 (Exif), CMT3 (maker notes), CMT4 (GPS). */
const CR3_METADATA_UUID = '85c0b687820f11e08111f4ce462b6a48';
/** Bounds the fallback scan of a large raw full of sensor data that happens to contain FF D8 FF. */
const MAX_SCAN_CANDIDATES = 2000;

/** Displayable embedded JPEGs of a raw file, largest first. */
export function findEmbeddedJpegs(buf: Buffer): ByteRange[] {
  const found = new Map<number, number>();
  const consider = (offset: number, declaredLength: number | null) => {
    if (found.has(offset) || offset < 0 || offset + 4 > buf.length) return;
    const info = readJpeg(buf, offset);
    if (!info || !isDisplayableJpeg(info)) return;
    const length =
      declaredLength && offset + declaredLength <= buf.length
        ? Math.max(declaredLength, info.end - offset)
        : info.end - offset;
    found.set(offset, Math.min(length, buf.length - offset));
  };

  const tiff = TiffReader.open(buf);
  if (tiff) {
    for (const ifd of tiff.ifds()) {
      const jif = tiff.number(ifd, Tag.JpegInterchangeFormat);
      const jifLength = tiff.number(ifd, Tag.JpegInterchangeFormatLength);
      if (jif && jifLength) consider(jif, jifLength);
      const compression = tiff.number(ifd, Tag.Compression);
      const strips = tiff.numbers(ifd, Tag.StripOffsets);
      const counts = tiff.numbers(ifd, Tag.StripByteCounts);
      if (compression !== null && JPEG_COMPRESSIONS.has(compression) && strips.length === 1 && counts.length === 1)
        consider(strips[0], counts[0]);
      const jpgFromRaw = tiff.blob(ifd, Tag.JpgFromRaw);
      if (jpgFromRaw) consider(jpgFromRaw.offset, jpgFromRaw.length);
    }
  }
  if (found.size === 0) scanForJpegs(buf, consider);
  return [...found].map(([offset, length]) => ({ offset, length })).sort((a, b) => b.length - a.length);
}

function scanForJpegs(buf: Buffer, consider: (offset: number, length: number | null) => void): void {
  const soi = Buffer.from([0xff, 0xd8, 0xff]);
  let from = 0;
  for (let tries = 0; tries < MAX_SCAN_CANDIDATES; tries++) {
    const at = buf.indexOf(soi, from);
    if (at < 0) return;
    const info = readJpeg(buf, at);
    if (info && isDisplayableJpeg(info)) {
      consider(at, null);
      from = info.end; // a JPEG's own EXIF thumbnail is inside it: no need to look there
    } else {
      from = at + 1;
    }
  }
}

/** The CMTn boxes of a CR3: each is a complete little TIFF file. */
export function cr3MetadataTiffs(buf: Buffer): Partial<Record<'CMT1' | 'CMT2' | 'CMT3' | 'CMT4', Buffer>> {
  const moov = readBoxes(buf).find((b) => b.type === 'moov');
  if (!moov) return {};
  const canon = readBoxes(buf, moov.payload, moov.end).find((b) => b.type === 'uuid' && b.uuid === CR3_METADATA_UUID);
  if (!canon) return {};
  const out: Partial<Record<'CMT1' | 'CMT2' | 'CMT3' | 'CMT4', Buffer>> = {};
  for (const box of readBoxes(buf, canon.payload, canon.end)) {
    if (box.type === 'CMT1' || box.type === 'CMT2' || box.type === 'CMT3' || box.type === 'CMT4')
      out[box.type] = buf.subarray(box.payload, box.end);
  }
  return out;
}

/** The Orientation of a raw's main image (IFD0, or CR3's CMT1), 1–8, or null. */
export function rawOrientation(buf: Buffer): number | null {
  const cmt1 = cr3MetadataTiffs(buf).CMT1;
  const tiff = TiffReader.open(cmt1 ?? buf);
  const ifd0 = tiff?.ifd0();
  const o = tiff && ifd0 ? tiff.number(ifd0, Tag.Orientation) : null;
  return o !== null && o >= 1 && o <= 8 ? o : null;
}
