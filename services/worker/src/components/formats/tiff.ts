/**
 * A minimal TIFF reader over an in-memory file: the IFD0 chain plus SubIFDs, with typed tag
 * access. Camera raws (DNG, CR2, NEF, ARW, ORF, RW2) are TIFF containers, some with their own
 * magic number, and their embedded previews and dimensions are found through these IFDs.
 */

export const Tag = {
  NewSubfileType: 0x00fe,
  ImageWidth: 0x0100,
  ImageLength: 0x0101,
  Compression: 0x0103,
  StripOffsets: 0x0111,
  Orientation: 0x0112,
  StripByteCounts: 0x0117,
  SubIFDs: 0x014a,
  JpegInterchangeFormat: 0x0201,
  JpegInterchangeFormatLength: 0x0202,
  /** Panasonic RW2 keeps a full-size JPEG in this IFD0 tag. */
  JpgFromRaw: 0x002e,
} as const;

const TYPE_SIZES: Record<number, number> = {
  1: 1,
  2: 1,
  3: 2,
  4: 4,
  5: 8,
  6: 1,
  7: 1,
  8: 2,
  9: 4,
  10: 8,
  11: 4,
  12: 8,
  13: 4,
};

export interface TiffEntry {
  tag: number;
  type: number;
  count: number;
  /** Absolute offset of the value bytes in the file. */
  valueAt: number;
}

export interface Ifd {
  offset: number;
  entries: Map<number, TiffEntry>;
}

/** Bounds against malformed or hostile files: loops of IFD pointers, absurd entry counts. */
const MAX_IFDS = 64;
const MAX_ENTRIES = 1000;

export class TiffReader {
  private constructor(
    readonly buf: Buffer,
    readonly littleEndian: boolean,
    private readonly ifd0Offset: number,
  ) {}

  /** Accepts `II*\0`/`MM\0*` and the raw variants ORF (`IIRO`, `IIRS`, `MMOR`) and RW2 (`IIU\0`). */
  static open(buf: Buffer): TiffReader | null {
    if (buf.length < 8) return null;
    const order = buf.toString('latin1', 0, 2);
    if (order !== 'II' && order !== 'MM') return null;
    const little = order === 'II';
    const magic = little ? buf.readUInt16LE(2) : buf.readUInt16BE(2);
    if (magic !== 0x2a && magic !== 0x4f52 && magic !== 0x5352 && magic !== 0x55) return null;
    const ifd0 = little ? buf.readUInt32LE(4) : buf.readUInt32BE(4);
    if (ifd0 < 8 || ifd0 + 2 > buf.length) return null;
    return new TiffReader(buf, little, ifd0);
  }

  private u16(o: number): number {
    return this.littleEndian ? this.buf.readUInt16LE(o) : this.buf.readUInt16BE(o);
  }

  private u32(o: number): number {
    return this.littleEndian ? this.buf.readUInt32LE(o) : this.buf.readUInt32BE(o);
  }

  readIfd(offset: number): Ifd | null {
    if (offset < 8 || offset + 2 > this.buf.length) return null;
    const count = this.u16(offset);
    if (count > MAX_ENTRIES || offset + 2 + count * 12 > this.buf.length) return null;
    const entries = new Map<number, TiffEntry>();
    for (let i = 0; i < count; i++) {
      const at = offset + 2 + i * 12;
      const type = this.u16(at + 2);
      const n = this.u32(at + 4);
      const size = (TYPE_SIZES[type] ?? 1) * n;
      const valueAt = size <= 4 ? at + 8 : this.u32(at + 8);
      entries.set(this.u16(at), { tag: this.u16(at), type, count: n, valueAt });
    }
    return { offset, entries };
  }

  private nextIfdOffset(ifd: Ifd): number {
    const at = ifd.offset + 2 + ifd.entries.size * 12;
    return at + 4 <= this.buf.length ? this.u32(at) : 0;
  }

  /** IFD0 (the primary image or a thumbnail), the IFDs chained after it, and every SubIFD below them. */
  ifds(): Ifd[] {
    const out: Ifd[] = [];
    const seen = new Set<number>();
    const visit = (offset: number): void => {
      while (offset && !seen.has(offset) && out.length < MAX_IFDS) {
        seen.add(offset);
        const ifd = this.readIfd(offset);
        if (!ifd) return;
        out.push(ifd);
        for (const sub of this.numbers(ifd, Tag.SubIFDs)) visit(sub);
        offset = this.nextIfdOffset(ifd);
      }
    };
    visit(this.ifd0Offset);
    return out;
  }

  ifd0(): Ifd | null {
    return this.readIfd(this.ifd0Offset);
  }

  /** Integer and rational values (rationals as their quotient). */
  numbers(ifd: Ifd, tag: number): number[] {
    const e = ifd.entries.get(tag);
    if (!e) return [];
    const size = TYPE_SIZES[e.type] ?? 1;
    const out: number[] = [];
    for (let i = 0; i < Math.min(e.count, 1024); i++) {
      const at = e.valueAt + i * size;
      if (at + size > this.buf.length) break;
      switch (e.type) {
        case 1:
        case 7:
          out.push(this.buf[at]);
          break;
        case 3:
          out.push(this.u16(at));
          break;
        case 4:
        case 13:
          out.push(this.u32(at));
          break;
        case 8:
          out.push((this.u16(at) << 16) >> 16);
          break;
        case 9:
          out.push(this.u32(at) | 0);
          break;
        case 5: {
          const d = this.u32(at + 4);
          out.push(d ? this.u32(at) / d : NaN);
          break;
        }
        case 10: {
          const d = this.u32(at + 4) | 0;
          out.push(d ? (this.u32(at) | 0) / d : NaN);
          break;
        }
        default:
          return out;
      }
    }
    return out;
  }

  number(ifd: Ifd, tag: number): number | null {
    const [v] = this.numbers(ifd, tag);
    return v === undefined || Number.isNaN(v) ? null : v;
  }

  /** The [offset, length] of an UNDEFINED/BYTE tag's value. */
  blob(ifd: Ifd, tag: number): { offset: number; length: number } | null {
    const e = ifd.entries.get(tag);
    if (!e || e.valueAt + e.count > this.buf.length) return null;
    return { offset: e.valueAt, length: e.count };
  }
}
