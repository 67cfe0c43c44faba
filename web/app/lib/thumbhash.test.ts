import { rgbaToThumbHash } from '@trove/worker/thumbhash';
import { placeholderDataUrl, thumbHashToApproximateAspectRatio, thumbHashToRGBA } from './thumbhash';

/** A ThumbHash as the worker makes it: of a w×h image of one colour. */
function hashOf(w: number, h: number, [r, g, b]: [number, number, number]): string {
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) rgba.set([r, g, b, 255], i * 4);
  return Buffer.from(rgbaToThumbHash(w, h, rgba)).toString('base64');
}

describe('ThumbHash placeholder', () => {
  it('decodes what the worker encodes: about the same colour and aspect ratio', () => {
    const hash = Buffer.from(hashOf(100, 50, [200, 40, 40]), 'base64');
    expect(thumbHashToApproximateAspectRatio(hash)).toBeGreaterThan(1.5);
    const { w, h, rgba } = thumbHashToRGBA(hash);
    expect(w).toBe(32);
    expect(h).toBeLessThan(20);
    const mid = ((h >> 1) * w + (w >> 1)) * 4;
    expect(Math.abs(rgba[mid] - 200)).toBeLessThan(30);
    expect(rgba[mid + 1]).toBeLessThan(80);
    expect(rgba[mid + 3]).toBe(255);
  });

  it('makes a PNG data URL, memoised, and nothing for a missing or broken placeholder', () => {
    const hash = hashOf(60, 80, [20, 120, 220]);
    const url = placeholderDataUrl(hash);
    expect(url).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(url!.split(',')[1], 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // Width and height in the IHDR chunk: portrait.
    expect(png.readUInt32BE(16)).toBeLessThan(png.readUInt32BE(20));
    expect(placeholderDataUrl(hash)).toBe(url);
    expect(placeholderDataUrl(null)).toBeNull();
    expect(placeholderDataUrl('')).toBeNull();
    expect(placeholderDataUrl('%%%')).toBeNull();
  });
});
