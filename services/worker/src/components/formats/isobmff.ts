/**
 * ISO base media file format boxes (MP4, MOV, HEIF, AVIF, CR3): a flat walk of one level, and a
 * check that the top-level boxes fill the file exactly (a cut-off upload has a last box that
 * claims more bytes than there are).
 */
import { FileBytes } from './file-bytes';

export interface Box {
  type: string;
  /** Offset of the box header. */
  start: number;
  /** Offset of the payload (after size, type and, for `uuid`, the 16-byte user type). */
  payload: number;
  end: number;
  /** Lower-case hex of a `uuid` box's user type. */
  uuid?: string;
}

/** The boxes between `start` and `end` of `buf`; stops at the first box that does not fit. */
export function readBoxes(buf: Uint8Array, start = 0, end = buf.length): Box[] {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const boxes: Box[] = [];
  let p = start;
  while (p + 8 <= end) {
    let size = view.getUint32(p);
    const type = String.fromCharCode(buf[p + 4], buf[p + 5], buf[p + 6], buf[p + 7]);
    let header = 8;
    if (size === 1) {
      if (p + 16 > end) break;
      size = Number(view.getBigUint64(p + 8));
      header = 16;
    } else if (size === 0) {
      size = end - p;
    }
    if (size < header || p + size > end) break;
    const box: Box = { type, start: p, payload: p + header, end: p + size };
    if (type === 'uuid' && header + 16 <= size) {
      box.uuid = Buffer.from(buf.subarray(p + header, p + header + 16)).toString('hex');
      box.payload += 16;
    }
    boxes.push(box);
    p += size;
  }
  return boxes;
}

/** A file with more top-level boxes than this is not one a camera or phone wrote; reading stops there. */
const MAX_TOP_LEVEL_BOXES = 1_000_000;

/**
 * The types of a file's top-level boxes, from their headers alone (cheap for multi-gigabyte
 * videos), and whether they add up to its length exactly.
 */
export async function readTopLevelBoxes(file: FileBytes): Promise<{ types: string[]; complete: boolean }> {
  const types: string[] = [];
  let p = 0;
  while (p < file.size) {
    if (types.length >= MAX_TOP_LEVEL_BOXES) return { types, complete: false };
    const header = await file.read(p, 16);
    if (header.length < 8) return { types, complete: false };
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (size === 0) return { types: [...types, type], complete: types.length > 0 }; // "extends to the end of the file"
    if (size === 1) {
      if (header.length < 16) return { types, complete: false };
      size = Number(header.readBigUInt64BE(8));
    }
    if (size < 8 || p + size > file.size) return { types, complete: false };
    types.push(type);
    p += size;
  }
  return { types, complete: types.length > 0 };
}

/** True when the file's top-level boxes add up to its length. */
export async function isobmffFileIsComplete(filePath: string): Promise<boolean> {
  return FileBytes.with(filePath, async (file) => (await readTopLevelBoxes(file)).complete);
}
