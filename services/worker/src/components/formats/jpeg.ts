/**
 * JPEG stream structure, walked without decoding: where a JPEG ends (a truncated one has no end),
 * and which coding it uses (lossless JPEG, the raw data of many camera files, is not an image
 * libjpeg can show). The walker takes the bytes in pieces, so a JPEG on disk is walked a window at
 * a time and one inside a raw file in memory in one go, by the same code.
 */
import type { FileBytes } from './file-bytes';

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;

export interface JpegInfo {
  /** Offset just past the EOI marker. */
  end: number;
  /** The first SOFn marker (0xC0 baseline, 0xC1 extended, 0xC2 progressive, 0xC3 lossless…), or null. */
  frameMarker: number | null;
  /** Offset of the first SOS marker (where the compressed picture begins), or null. */
  firstScan: number | null;
}

/** Walks the JPEG that starts at `start`; null when it is malformed or cut off before its EOI. */
export function readJpeg(buf: Uint8Array, start = 0): JpegInfo | null {
  const walker = new JpegWalker(start);
  walker.push(buf.subarray(start));
  return walker.result ?? null;
}

/**
 * How a JPEG file ends: `complete` (walked to its EOI), `truncated` (well formed up to its picture
 * data, then cut off before the EOI: viewers show what arrived, the rest grey) or `malformed` (not
 * a JPEG, or cut off before its frame header and first scan: there is no picture to show).
 */
export type JpegFileEnd =
  { kind: 'complete'; info: JpegInfo } | { kind: 'truncated'; frameMarker: number } | { kind: 'malformed' };

export async function readJpegFileEnd(file: FileBytes): Promise<JpegFileEnd> {
  const walker = new JpegWalker(0);
  for await (const chunk of file.chunks()) if (walker.push(chunk)) break;
  if (walker.result) return { kind: 'complete', info: walker.result };
  const { frameMarker, firstScan } = walker.progress();
  // undefined: the bytes ran out before the walk was over; null: the structure itself is broken.
  if (walker.result === undefined && frameMarker !== null && firstScan !== null)
    return { kind: 'truncated', frameMarker };
  return { kind: 'malformed' };
}

/** Coding processes libjpeg (and so sharp) decodes: baseline, extended sequential, progressive. */
export function isDisplayableJpeg(info: JpegInfo): boolean {
  return info.frameMarker === 0xc0 || info.frameMarker === 0xc1 || info.frameMarker === 0xc2;
}

/** Where the walker is: which byte it expects next. */
type State = 'soi-ff' | 'soi' | 'ff' | 'marker' | 'length-high' | 'length-low' | 'skip' | 'scan' | 'scan-ff';

/**
 * Segments are skipped by their length; after SOS the entropy-coded data runs to the first 0xFF
 * that is neither a stuffed 0xFF00, a restart marker nor a fill byte. `result` is set once the EOI
 * is reached (a JpegInfo) or the stream is malformed (null); undefined means it wants more bytes.
 */
class JpegWalker {
  result: JpegInfo | null | undefined = undefined;
  private state: State = 'soi-ff';
  private position: number;
  private marker = 0;
  private length = 0;
  private toSkip = 0;
  private afterSkip: State = 'ff';
  private frameMarker: number | null = null;
  private firstScan: number | null = null;

  constructor(start: number) {
    this.position = start;
  }

  /** What the walk has seen so far. */
  progress(): { frameMarker: number | null; firstScan: number | null } {
    return { frameMarker: this.frameMarker, firstScan: this.firstScan };
  }

  /** Takes the next bytes; true once the walk is over (no more bytes needed). */
  push(bytes: Uint8Array): boolean {
    let i = 0;
    while (i < bytes.length && this.result === undefined) {
      if (this.state === 'skip') {
        const n = Math.min(this.toSkip, bytes.length - i);
        i += n;
        this.toSkip -= n;
        if (this.toSkip === 0) this.state = this.afterSkip;
      } else if (this.state === 'scan') {
        const ff = bytes.indexOf(0xff, i);
        i = ff < 0 ? bytes.length : ff + 1;
        if (ff >= 0) this.state = 'scan-ff';
      } else {
        this.step(bytes[i], this.position + i);
        i += 1;
      }
    }
    this.position += i;
    return this.result !== undefined;
  }

  private step(b: number, at: number): void {
    switch (this.state) {
      case 'soi-ff':
        return this.expect(b === 0xff, 'soi');
      case 'soi':
        return this.expect(b === SOI, 'ff');
      case 'ff':
        return this.expect(b === 0xff, 'marker');
      case 'scan-ff':
        if (b === 0x00 || (b >= 0xd0 && b <= 0xd7)) this.state = 'scan';
        else if (b !== 0xff) this.onMarker(b, at);
        return;
      case 'marker':
        if (b !== 0xff) this.onMarker(b, at); // 0xFF: a fill byte
        return;
      case 'length-high':
        this.length = b << 8;
        this.state = 'length-low';
        return;
      case 'length-low':
        return this.onLength(this.length | b);
      default:
        return;
    }
  }

  private expect(ok: boolean, next: State): void {
    if (ok) this.state = next;
    else this.result = null;
  }

  private onMarker(marker: number, at: number): void {
    if (marker === SOS && this.firstScan === null) {
      this.firstScan = at - 1; // the marker's 0xFF
    }
    if (marker === EOI) {
      this.result = { end: at + 1, frameMarker: this.frameMarker, firstScan: this.firstScan };
    } else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      this.state = 'ff'; // markers without a length
    } else {
      this.marker = marker;
      this.state = 'length-high';
    }
  }

  private onLength(length: number): void {
    if (length < 2) {
      this.result = null;
      return;
    }
    const m = this.marker;
    if (this.frameMarker === null && m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc)
      this.frameMarker = m;
    this.toSkip = length - 2;
    this.afterSkip = m === SOS ? 'scan' : 'ff';
    this.state = this.toSkip > 0 ? 'skip' : this.afterSkip;
  }
}
