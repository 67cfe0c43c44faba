import sharp from 'sharp';
import { alignedRgb, laplacianVariance, shrinkRgb } from './pixels';
import { faceQuality, nativeSide, sharpnessScore, sizeScore } from './quality';

const face = (eyes: number) => ({
  rightEye: { x: 100, y: 100 },
  leftEye: { x: 100 + eyes, y: 100 },
  nose: { x: 100 + eyes / 2, y: 100 + eyes / 2 },
  mouth: { x: 100 + eyes / 2, y: 100 + eyes },
});

/** A size×size RGB checkerboard of cell px squares (sharp edges), optionally box-blurred `blur` times. */
function checkerboard(size: number, cell: number, blur = 0): Buffer {
  let grey = Float32Array.from({ length: size * size }, (_, i) =>
    (Math.floor((i % size) / cell) + Math.floor(i / size / cell)) % 2 ? 200 : 50,
  );
  for (let n = 0; n < blur; n++) {
    const next = new Float32Array(grey.length);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        let sum = 0;
        let count = 0;
        for (let dy = -2; dy <= 2; dy++)
          for (let dx = -2; dx <= 2; dx++) {
            const xx = x + dx;
            const yy = y + dy;
            if (xx >= 0 && yy >= 0 && xx < size && yy < size) [sum, count] = [sum + grey[yy * size + xx], count + 1];
          }
        next[y * size + x] = sum / count;
      }
    grey = next;
  }
  return Buffer.from(Array.from(grey).flatMap((v) => [v, v, v].map(Math.round)));
}

describe('face quality', () => {
  it("sharpness at the face's own resolution: a sharp small crop enlarged to 224 px measures sharp again once shrunk back", async () => {
    const small = checkerboard(56, 3);
    const enlarged = new Uint8Array(
      await sharp(small, { raw: { width: 56, height: 56, channels: 3 } })
        .resize(224, 224, { kernel: 'cubic' })
        .raw()
        .toBuffer(),
    );
    // Enlarged, its edges spread over 4× the pixels: its Laplacian falls by an order of magnitude; at
    // its own 56 px it measures nearly as it did.
    const side = nativeSide(face(14), 224, 56);
    expect(side).toBe(56);
    const original = laplacianVariance(small, 56);
    const measured = laplacianVariance(shrinkRgb(enlarged, 224, side), side);
    expect(laplacianVariance(enlarged, 224)).toBeLessThan(original / 10);
    expect(measured).toBeGreaterThan(original / 3);
    // A blurred small face stays blurred at its own size.
    const blurred = checkerboard(56, 3, 3);
    expect(sharpnessScore(laplacianVariance(blurred, 56))).toBeLessThan(0.5);
    // Never larger than the crop, never below 8 px.
    expect(nativeSide(face(400), 224, 56)).toBe(224);
    expect(nativeSide(face(0.5), 224, 56)).toBe(8);
  });

  it('size: nothing at 4 px between the eyes, half at 12 px, full from 20 px', () => {
    expect(sizeScore(face(4))).toBe(0);
    expect(sizeScore(face(12))).toBeCloseTo(0.5, 9);
    expect(sizeScore(face(20))).toBe(1);
    expect(sizeScore(face(300))).toBe(1);
  });

  it('sharpness: a blurred crop measures far less than the same crop sharp', () => {
    const sharp = laplacianVariance(checkerboard(112, 8), 112);
    const blurred = laplacianVariance(checkerboard(112, 24, 6), 112);
    expect(sharp).toBeGreaterThan(1000);
    expect(blurred).toBeLessThan(sharp / 20);
    expect(sharpnessScore(sharp)).toBe(1);
    expect(sharpnessScore(blurred)).toBeLessThan(0.5);
    expect(sharpnessScore(0)).toBe(0);
    // A flat crop has no edges at all.
    expect(laplacianVariance(Buffer.alloc(112 * 112 * 3, 128), 112)).toBe(0);
  });

  it('quality: a large sharp face is clearly usable (≥ 0.5); a small or a blurred one is not', () => {
    const sharp = laplacianVariance(checkerboard(224, 8), 224);
    const blurred = laplacianVariance(checkerboard(224, 24, 6), 224);
    expect(faceQuality(face(40), sharp)).toBe(1);
    expect(faceQuality(face(12), 100)).toBeGreaterThanOrEqual(0.5);
    expect(faceQuality(face(20), 18)).toBeGreaterThanOrEqual(0.5);
    expect(faceQuality(face(6), sharp)).toBeLessThan(0.5);
    expect(faceQuality(face(40), 12)).toBeLessThan(0.5);
    expect(faceQuality(face(40), blurred)).toBeLessThan(0.5);
  });

  it('alignedRgb samples through the transform: identity copies, a shift moves, outside is black', () => {
    const size = 16;
    const data = Buffer.from(Array.from({ length: size * size }, (_, i) => [i % 256, 0, 255 - (i % 256)]).flat());
    const picture = { data, width: size, height: size, channels: 3 };
    expect(alignedRgb(picture, { a: 1, b: 0, tx: 0, ty: 0 }, size)).toEqual(data);
    const shifted = alignedRgb(picture, { a: 1, b: 0, tx: 3, ty: 2 }, 8);
    expect([...shifted.subarray(0, 3)]).toEqual([...data.subarray((2 * size + 3) * 3, (2 * size + 3) * 3 + 3)]);
    const outside = alignedRgb(picture, { a: 1, b: 0, tx: 100, ty: 100 }, 4);
    expect(outside.every((v) => v === 0)).toBe(true);
    // Halving: each output pixel is the mean of a 2×2 block.
    const half = alignedRgb(picture, { a: 2, b: 0, tx: 0.5, ty: 0.5 }, 8);
    expect(half[0]).toBeCloseTo((data[0] + data[3] + data[size * 3] + data[size * 3 + 3]) / 4, -0.5);
  });
});
