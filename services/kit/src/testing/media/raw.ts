/**
 * Raw-like camera files written byte by byte (no tool here can make a real camera raw): TIFF-based
 * DNG/NEF/ORF look-alikes, a CR3 (ISO-BMFF) look-alike and a RAF look-alike, each carrying EXIF, GPS and an
 * embedded JPEG preview, which is all the worker reads of a raw.
 */
import { cornerImage } from './images';

type TiffValue =
  | { ascii: string }
  | { short: number[] }
  | { long: number[] }
  | { rational: Array<[number, number]> }
  | { srational: Array<[number, number]> }
  | { undefined: Buffer };

export type TiffEntries = Record<number, TiffValue>;

/**
 * Little-endian TIFF writer. Blobs and child IFDs are written before the IFDs that point to them,
 * so every offset is known when its pointer is written; IFD0 comes last and the header is patched.
 */
export class TiffBuilder {
  private parts: Buffer[] = [];
  private length = 0;

  constructor(magic: Buffer = Buffer.from('II*\0', 'latin1'), headerExtra: Buffer = Buffer.alloc(0)) {
    const header = Buffer.alloc(8 + headerExtra.length);
    magic.copy(header, 0);
    headerExtra.copy(header, 8);
    this.append(header);
  }

  private append(data: Buffer): number {
    if (this.length % 2) {
      this.parts.push(Buffer.alloc(1)); // word alignment
      this.length += 1;
    }
    const at = this.length;
    this.parts.push(data);
    this.length += data.length;
    return at;
  }

  /** Raw bytes (an embedded JPEG, strip data); returns their offset. */
  blob(data: Buffer): number {
    return this.append(data);
  }

  /** An IFD; returns its offset. */
  ifd(entries: TiffEntries, next = 0): number {
    const tags = Object.keys(entries)
      .map(Number)
      .sort((a, b) => a - b);
    const encoded = tags.map((tag) => ({ tag, ...encode(entries[tag]) }));
    const tableSize = 2 + tags.length * 12 + 4;
    const out = Buffer.alloc(tableSize);
    const at = this.length + (this.length % 2);
    let dataAt = at + tableSize;
    const overflow: Buffer[] = [];
    out.writeUInt16LE(tags.length, 0);
    encoded.forEach((e, i) => {
      const o = 2 + i * 12;
      out.writeUInt16LE(e.tag, o);
      out.writeUInt16LE(e.type, o + 2);
      out.writeUInt32LE(e.count, o + 4);
      if (e.bytes.length <= 4) e.bytes.copy(out, o + 8);
      else {
        out.writeUInt32LE(dataAt, o + 8);
        const padded = e.bytes.length % 2 ? Buffer.concat([e.bytes, Buffer.alloc(1)]) : e.bytes;
        overflow.push(padded);
        dataAt += padded.length;
      }
    });
    out.writeUInt32LE(next, tableSize - 4);
    const written = this.append(Buffer.concat([out, ...overflow]));
    if (written !== at) throw new Error('TiffBuilder: misaligned IFD');
    return written;
  }

  finish(ifd0: number): Buffer {
    const buf = Buffer.concat(this.parts);
    buf.writeUInt32LE(ifd0, 4);
    return buf;
  }
}

function encode(value: TiffValue): { type: number; count: number; bytes: Buffer } {
  if ('ascii' in value) {
    const bytes = Buffer.from(`${value.ascii}\0`, 'latin1');
    return { type: 2, count: bytes.length, bytes };
  }
  if ('short' in value) {
    const bytes = Buffer.alloc(value.short.length * 2);
    value.short.forEach((v, i) => bytes.writeUInt16LE(v, i * 2));
    return { type: 3, count: value.short.length, bytes };
  }
  if ('long' in value) {
    const bytes = Buffer.alloc(value.long.length * 4);
    value.long.forEach((v, i) => bytes.writeUInt32LE(v, i * 4));
    return { type: 4, count: value.long.length, bytes };
  }
  if ('rational' in value || 'srational' in value) {
    const pairs = 'rational' in value ? value.rational : value.srational;
    const bytes = Buffer.alloc(pairs.length * 8);
    pairs.forEach(([n, d], i) => {
      if ('rational' in value) {
        bytes.writeUInt32LE(n, i * 8);
        bytes.writeUInt32LE(d, i * 8 + 4);
      } else {
        bytes.writeInt32LE(n, i * 8);
        bytes.writeInt32LE(d, i * 8 + 4);
      }
    });
    return { type: 'rational' in value ? 5 : 10, count: pairs.length, bytes };
  }
  return { type: 7, count: value.undefined.length, bytes: value.undefined };
}

/** EXIF facts shared by the raw-like files. */
export const RAW_EXIF: TiffEntries = {
  0x829a: { rational: [[1, 200]] }, // ExposureTime
  0x829d: { rational: [[56, 10]] }, // FNumber
  0x8827: { short: [400] }, // ISO
  0x9003: { ascii: '2020:02:29 23:59:58' }, // DateTimeOriginal
  0x9011: { ascii: '+01:00' }, // OffsetTimeOriginal
  0x920a: { rational: [[35, 1]] }, // FocalLength
};

/** A GPS IFD for 48°51'29.52" N, 2°17'40.2" E (the Eiffel Tower). */
export const RAW_GPS: TiffEntries = {
  1: { ascii: 'N' },
  2: {
    rational: [
      [48, 1],
      [51, 1],
      [2952, 100],
    ],
  },
  3: { ascii: 'E' },
  4: {
    rational: [
      [2, 1],
      [17, 1],
      [402, 10],
    ],
  },
};

/**
 * A DNG-like file: IFD0 a small uncompressed RGB thumbnail with Make/Model/Orientation and the
 * DNGVersion tag; SubIFD 1 the "raw" data (CFA, 600x400, junk bytes); SubIFD 2 a JPEG preview as a
 * single strip with JPEG compression, as Adobe's converter writes it.
 */
export function dngLike(preview: Buffer, orientation: number): Buffer {
  const t = new TiffBuilder();
  const thumbPixels = t.blob(Buffer.alloc(16 * 12 * 3, 90));
  const rawPixels = t.blob(Buffer.alloc(4096, 7));
  const previewAt = t.blob(preview);
  const rawIfd = t.ifd({
    0x00fe: { long: [0] },
    0x0100: { long: [600] },
    0x0101: { long: [400] },
    0x0103: { short: [1] },
    0x0106: { short: [32803] }, // CFA
    0x0111: { long: [rawPixels] },
    0x0117: { long: [4096] },
    0xc620: { long: [600, 400] }, // DefaultCropSize
  });
  const previewIfd = t.ifd({
    0x00fe: { long: [1] },
    0x0103: { short: [7] },
    0x0106: { short: [6] },
    0x0111: { long: [previewAt] },
    0x0117: { long: [preview.length] },
  });
  const exif = t.ifd(RAW_EXIF);
  const gps = t.ifd(RAW_GPS);
  const ifd0 = t.ifd({
    0x00fe: { long: [1] },
    0x0100: { long: [16] },
    0x0101: { long: [12] },
    0x0102: { short: [8, 8, 8] },
    0x0103: { short: [1] },
    0x0106: { short: [2] },
    0x010f: { ascii: 'Trove Cameras' },
    0x0110: { ascii: 'RawMaker 1' },
    0x0111: { long: [thumbPixels] },
    0x0112: { short: [orientation] },
    0x0115: { short: [3] },
    0x0117: { long: [16 * 12 * 3] },
    0x014a: { long: [rawIfd, previewIfd] },
    0x8769: { long: [exif] },
    0x8825: { long: [gps] },
    0xc612: { undefined: Buffer.from([1, 4, 0, 0]) },
  });
  return t.finish(ifd0);
}

/** A NEF-like file: the preview reachable through JPEGInterchangeFormat in a SubIFD, Make NIKON. */
export function nefLike(preview: Buffer): Buffer {
  const t = new TiffBuilder();
  const previewAt = t.blob(preview);
  const sub = t.ifd({
    0x00fe: { long: [1] },
    0x0103: { short: [6] },
    0x0201: { long: [previewAt] },
    0x0202: { long: [preview.length] },
  });
  const exif = t.ifd(RAW_EXIF);
  const ifd0 = t.ifd({
    0x00fe: { long: [1] },
    0x010f: { ascii: 'NIKON CORPORATION' },
    0x0110: { ascii: 'NIKON Z 6' },
    0x0112: { short: [1] },
    0x014a: { long: [sub] },
    0x8769: { long: [exif] },
  });
  return t.finish(ifd0);
}

/** An ORF-like file: `IIRO` magic, the preview only inside a maker-note-like blob (found by scanning). */
export function orfLike(preview: Buffer): Buffer {
  const t = new TiffBuilder(Buffer.from('IIRO', 'latin1'));
  const makerNote = t.blob(
    Buffer.concat([
      Buffer.from('OLYMPUS\0II\x03\0', 'latin1'),
      Buffer.alloc(64, 0xab),
      preview,
      Buffer.alloc(64, 0xcd),
    ]),
  );
  const exif = t.ifd({ ...RAW_EXIF, 0x927c: { long: [makerNote] } });
  const ifd0 = t.ifd({
    0x010f: { ascii: 'OLYMPUS CORPORATION' },
    0x0110: { ascii: 'E-M1' },
    0x0112: { short: [1] },
    0x8769: { long: [exif] },
  });
  return t.finish(ifd0);
}

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

function uuidBox(uuid: string, ...payload: Buffer[]): Buffer {
  return box('uuid', Buffer.from(uuid, 'hex'), ...payload);
}

/** A TIFF holding one IFD0, as each of CR3's CMT boxes does. */
function tiffWithIfd0(entries: TiffEntries): Buffer {
  const t = new TiffBuilder();
  return t.finish(t.ifd(entries));
}

/**
 * A CR3-like file: ftyp `crx `, the Canon metadata uuid box in moov with CMT1 (IFD0), CMT2 (Exif)
 * and CMT4 (GPS), the preview in a PRVW box inside another uuid box, then an mdat of "sensor data".
 */
export function cr3Like(preview: Buffer, orientation: number): Buffer {
  const ftyp = box('ftyp', Buffer.from('crx \0\0\0\x01crx isom', 'latin1'));
  const cmt1 = box(
    'CMT1',
    tiffWithIfd0({ 0x010f: { ascii: 'Canon' }, 0x0110: { ascii: 'Canon EOS R5' }, 0x0112: { short: [orientation] } }),
  );
  const cmt2 = box('CMT2', tiffWithIfd0({ ...RAW_EXIF, 0xa002: { long: [8192] }, 0xa003: { long: [5464] } }));
  const cmt4 = box('CMT4', tiffWithIfd0(RAW_GPS));
  const moov = box(
    'moov',
    uuidBox(
      '85c0b687820f11e08111f4ce462b6a48',
      box('CNCV', Buffer.from('CanonCR3_001/01.09.00/00.00.00', 'latin1')),
      cmt1,
      cmt2,
      cmt4,
    ),
  );
  const prvwHeader = Buffer.alloc(16);
  const prvw = uuidBox('eaf42b5e1c984b88b9fbb7dc406e4d16', Buffer.alloc(8), box('PRVW', prvwHeader, preview));
  const mdat = box('mdat', Buffer.alloc(8192, 0x5a));
  return Buffer.concat([ftyp, moov, prvw, mdat]);
}

/**
 * A CR3-like raw (Canon EOS R5 metadata, 8192x5464) whose only decodable picture is its embedded
 * JPEG preview (corners, 600x400). (The DNG-like writes IFD0 at the end of the file, beyond the
 * bytes an upload is sniffed from, so an upload would take it for a plain TIFF; real DNGs start
 * with IFD0.)
 */
export async function rawWithPreview(): Promise<Buffer> {
  const preview = await (await cornerImage(600, 400)).jpeg().toBuffer();
  return cr3Like(preview, 1);
}

/**
 * A Fujifilm RAF look-alike as ExifTool reads one (Image::ExifTool::FujiFilm ProcessRAF): the 16-byte magic
 * `FUJIFILMCCD-RAW `, format version, camera id and model, then at byte 84 the offset and length (big-endian) of
 * the embedded JPEG, which carries the EXIF (a real RAF's camera metadata lives there too), and no CFA data.
 */
export function rafLike(jpegWithExif: Buffer, model = 'X-T30'): Buffer {
  const header = Buffer.alloc(160);
  header.write('FUJIFILMCCD-RAW 0201FF383501', 0, 'latin1');
  header.write(model.slice(0, 32), 28, 'latin1');
  header.write('0100', 60, 'latin1');
  header.writeUInt32BE(header.length, 84);
  header.writeUInt32BE(jpegWithExif.length, 88);
  return Buffer.concat([header, jpegWithExif]);
}
