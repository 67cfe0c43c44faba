/**
 * JPEG stream structure, walked without decoding: where a JPEG ends (a truncated one has no end),
 * and which coding it uses (lossless JPEG, the raw data of many camera files, is not an image
 * libjpeg can show).
 */

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;

export interface JpegInfo {
  /** Offset just past the EOI marker. */
  end: number;
  /** The first SOFn marker (0xC0 baseline, 0xC1 extended, 0xC2 progressive, 0xC3 lossless…), or null. */
  frameMarker: number | null;
}

/** Walks the JPEG that starts at `start`; null when it is malformed or cut off before its EOI. */
export function readJpeg(buf: Uint8Array, start = 0): JpegInfo | null {
  if (buf[start] !== 0xff || buf[start + 1] !== SOI) return null;
  let frameMarker: number | null = null;
  let p = start + 2;
  while (p + 1 < buf.length) {
    if (buf[p] !== 0xff) return null;
    const marker = buf[p + 1];
    if (marker === 0xff) {
      p += 1; // fill byte
      continue;
    }
    if (marker === EOI) return { end: p + 2, frameMarker };
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2; // markers without a length
      continue;
    }
    if (p + 3 >= buf.length) return null;
    const length = (buf[p + 2] << 8) | buf[p + 3];
    if (length < 2) return null;
    if (frameMarker === null && marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) frameMarker = marker;
    p += 2 + length;
    if (marker === SOS) {
      p = skipEntropyCodedData(buf, p);
      if (p < 0) return null;
    }
  }
  return null;
}

/** Scan data ends at the first 0xFF that is neither a stuffed 0xFF00 nor a restart marker. */
function skipEntropyCodedData(buf: Uint8Array, from: number): number {
  let p = from;
  for (;;) {
    p = buf.indexOf(0xff, p);
    if (p < 0 || p + 1 >= buf.length) return -1;
    const next = buf[p + 1];
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) p += 2;
    else if (next === 0xff) p += 1;
    else return p;
  }
}

/** Coding processes libjpeg (and so sharp) decodes: baseline, extended sequential, progressive. */
export function isDisplayableJpeg(info: JpegInfo): boolean {
  return info.frameMarker === 0xc0 || info.frameMarker === 0xc1 || info.frameMarker === 0xc2;
}
