/**
 * ISO base media file format boxes (MP4, MOV, HEIF, AVIF, CR3): a flat walk of one level, and a
 * check that the top-level boxes fill the file exactly (a cut-off upload has a last box that
 * claims more bytes than there are).
 */
import { open } from 'node:fs/promises';

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

/**
 * True when the file's top-level boxes add up to its length. Reads only box headers, so it is
 * cheap for multi-gigabyte videos.
 */
export async function isobmffFileIsComplete(filePath: string): Promise<boolean> {
  const file = await open(filePath, 'r');
  try {
    const { size: fileSize } = await file.stat();
    const header = Buffer.alloc(16);
    let p = 0;
    let boxes = 0;
    while (p < fileSize) {
      const { bytesRead } = await file.read(header, 0, 16, p);
      if (bytesRead < 8) return false;
      let size = header.readUInt32BE(0);
      if (size === 0) return boxes > 0; // "extends to the end of the file"
      if (size === 1) {
        if (bytesRead < 16) return false;
        size = Number(header.readBigUInt64BE(8));
      }
      if (size < 8 || p + size > fileSize) return false;
      p += size;
      boxes += 1;
    }
    return boxes > 0;
  } finally {
    await file.close();
  }
}
