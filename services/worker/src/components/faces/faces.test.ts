/**
 * The faces component with the real BlazeFace and FaceRes models, on the pictures the previews
 * component decodes: the group photo faces.jpg (11 real faces, masks aside), photos without faces,
 * synthetic patterns, and copies of the group photo turned by EXIF orientation or cropped and scaled.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeWithFixtures, FIXTURES, fixturesPresent, SYNTHETIC_PATTERNS } from '@trove/kit/testing/media';
import { tempDirPerFile } from '@trove/kit/testing';
import type { Bitmap } from '../bitmap';
import { makeImagePreviews } from '../previews';
import { sharp } from '../previews/sharp';
import { blazeface, findCandidates, findFaceBoxes, verifyCandidates } from './detector';
import { overlap, suppressOverlaps } from './geometry';
import type { Face } from '.';
import { DEFAULT_FACES_MIN_SCORE, DEFAULT_FACES_MIN_SIZE, detectFaces, EMBEDDING_LENGTH, FACE_THUMBNAIL_SIZE } from '.';

const options = { minScore: DEFAULT_FACES_MIN_SCORE, minSize: DEFAULT_FACES_MIN_SIZE };
const dir = tempDirPerFile('trove-faces-');
let groupJpeg: Buffer;
let group: Bitmap;
let groupFaces: Face[];

/** A JPEG (or HEIC) through the previews, as an upload goes. */
async function decoded(name: string, bytes: Buffer, mimeType = 'image/jpeg'): Promise<Bitmap> {
  return (await makeImagePreviews(await dir.write(name, bytes), mimeType)).bitmap;
}

const cosineDistance = (a: Float32Array, b: Float32Array) => 1 - a.reduce((sum, v, i) => sum + v * b[i], 0);
const centre = ({ box }: Face) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

beforeAll(async () => {
  if (!fixturesPresent()) return;
  groupJpeg = await readFile(join(FIXTURES, 'faces.jpg'));
  group = await decoded('faces.jpg', groupJpeg);
  groupFaces = await detectFaces(group, options);
}, 120_000);

describeWithFixtures('detectFaces on the group photo', () => {
  it('finds its faces, best first, boxes inside the picture, unit-length 1024-d embeddings', () => {
    // 11 measured: every real face down to the 24 px face-painted one; the masks are not faces.
    expect(groupFaces.length).toBeGreaterThanOrEqual(8);
    expect(groupFaces.length).toBeLessThanOrEqual(12);
    for (const [i, { box, score, embedding }] of groupFaces.entries()) {
      expect(score).toBeGreaterThanOrEqual(DEFAULT_FACES_MIN_SCORE);
      if (i > 0) expect(score).toBeLessThanOrEqual(groupFaces[i - 1].score);
      expect([box.x, box.y, box.width, box.height].every((v) => v >= 0 && v <= 1)).toBe(true);
      expect(box.x + box.width).toBeLessThanOrEqual(1.0001);
      expect(box.y + box.height).toBeLessThanOrEqual(1.0001);
      // Faces of people, not of the whole picture: 2 to 10 % of its width.
      expect(box.width).toBeGreaterThan(0.02);
      expect(box.width).toBeLessThan(0.1);
      expect(embedding).toHaveLength(EMBEDDING_LENGTH);
      expect(Math.hypot(...embedding)).toBeCloseTo(1, 5);
    }
  });

  it('different people are far apart: no two faces within cosine distance 0.3', () => {
    for (const [i, a] of groupFaces.entries())
      for (const b of groupFaces.slice(i + 1)) expect(cosineDistance(a.embedding, b.embedding)).toBeGreaterThan(0.3);
  });

  it('each face has a square WebP thumbnail', async () => {
    for (const { thumbnail } of groupFaces) {
      const { format, width, height } = await sharp(thumbnail).metadata();
      expect({ format, width, height }).toEqual({
        format: 'webp',
        width: FACE_THUMBNAIL_SIZE,
        height: FACE_THUMBNAIL_SIZE,
      });
    }
  });

  it('minScore and minSize leave out the weaker and the smaller faces', async () => {
    const strong = await detectFaces(group, { ...options, minScore: 0.9 });
    expect(strong.map((f) => f.box)).toEqual(groupFaces.filter((f) => f.score >= 0.9).map((f) => f.box));
    expect(strong.length).toBeLessThan(groupFaces.length);
    const large = await detectFaces(group, { ...options, minSize: 40 });
    expect(large.length).toBeGreaterThan(0);
    expect(large.length).toBeLessThan(groupFaces.length);
    for (const { box } of large)
      expect(Math.max(box.width * group.width, box.height * group.height)).toBeGreaterThanOrEqual(39.9);
  }, 60_000);

  it('verifying candidates four at a time (2×2 mosaic) keeps the faces one at a time keeps, with the same boxes', async () => {
    const model = await blazeface();
    const candidates = (await findCandidates(model, group, 0.5)).filter((c) => c.x2 - c.x1 >= DEFAULT_FACES_MIN_SIZE);
    expect(candidates.length).toBeGreaterThanOrEqual(groupFaces.length);
    const alone = await verifyCandidates(model, group, candidates, DEFAULT_FACES_MIN_SCORE, 1);
    const mosaic = await verifyCandidates(model, group, candidates, 0.5, 2);
    expect(mosaic.filter((d) => d !== undefined).length).toBeGreaterThanOrEqual(groupFaces.length - 1);
    for (const [i, one] of alone.entries()) {
      if (!one) {
        // Not a face alone: not a face in the mosaic either.
        expect(mosaic[i] === undefined || mosaic[i]!.score < DEFAULT_FACES_MIN_SCORE).toBe(true);
        continue;
      }
      // A face alone is found in the mosaic too (maybe below minScore: findFaceBoxes then looks again alone).
      expect(mosaic[i]).toBeDefined();
      expect(overlap(one, mosaic[i]!).iou).toBeGreaterThan(0.75);
      expect(Math.abs(one.score - mosaic[i]!.score)).toBeLessThan(0.25);
    }
    // And the detector as a whole keeps exactly the faces verified one at a time.
    const found = await findFaceBoxes(model, group, options);
    const faces = suppressOverlaps(
      alone.filter((d) => d !== undefined),
      0.3,
    );
    expect(found).toHaveLength(faces.length);
    for (const f of faces) expect(Math.max(...found.map((d) => overlap(d, f).iou))).toBeGreaterThan(0.75);
  }, 60_000);

  it('a second run gives the same faces', async () => {
    const again = await detectFaces(group, options);
    expect(again.map((f) => [f.box, f.score])).toEqual(groupFaces.map((f) => [f.box, f.score]));
  }, 60_000);
});

describeWithFixtures('the same faces in other copies of the group photo', () => {
  /**
   * The stored pixels of an upright picture shown with EXIF orientation 3, 6 or 8, and that
   * orientation: the previews turn it back.
   */
  it.each([
    [3, 180],
    [6, 270],
    [8, 90],
  ])(
    'EXIF orientation %i: the same faces, boxes within 0.01, embeddings within 0.1',
    async (orientation, angle) => {
      const stored = await sharp(groupJpeg)
        .rotate(angle)
        .jpeg({ quality: 95 })
        .withMetadata({ orientation })
        .toBuffer();
      const picture = await decoded(`turned-${orientation}.jpg`, stored);
      expect([picture.width, picture.height]).toEqual([group.width, group.height]);
      const faces = await detectFaces(picture, options);
      expect(faces).toHaveLength(groupFaces.length);
      for (const original of groupFaces) {
        const same = faces.find(
          (f) => Math.abs(centre(f).x - centre(original).x) < 0.01 && Math.abs(centre(f).y - centre(original).y) < 0.01,
        );
        expect(same).toBeDefined();
        const [a, b] = [original.box, same!.box];
        expect([a.x - b.x, a.y - b.y, a.width - b.width, a.height - b.height].every((d) => Math.abs(d) <= 0.01)).toBe(
          true,
        );
        expect(cosineDistance(original.embedding, same!.embedding)).toBeLessThan(0.1);
      }
    },
    120_000,
  );

  it('cropped by 10 % on each side and scaled to 70 %: each face within cosine distance 0.30 of the same face in the original', async () => {
    const crop = { left: 100, top: 73, width: 800, height: 581 };
    const copy = await sharp(groupJpeg).extract(crop).resize(560).jpeg({ quality: 85 }).toBuffer();
    const picture = await decoded('copy.jpg', copy);
    const faces = await detectFaces(picture, options);
    // 9 measured: one face is cut by the crop, the 24 px one shrinks below what the detector sees.
    expect(faces.length).toBeGreaterThanOrEqual(8);
    for (const face of faces) {
      // Where that face is in the original picture.
      const x = (crop.left + centre(face).x * crop.width) / group.width;
      const y = (crop.top + centre(face).y * crop.height) / group.height;
      const nearest = [...groupFaces].sort(
        (a, b) => cosineDistance(face.embedding, a.embedding) - cosineDistance(face.embedding, b.embedding),
      )[0];
      expect(cosineDistance(face.embedding, nearest.embedding)).toBeLessThan(0.3);
      expect(Math.abs(centre(nearest).x - x)).toBeLessThan(0.01);
      expect(Math.abs(centre(nearest).y - y)).toBeLessThan(0.01);
    }
  }, 120_000);
});

describeWithFixtures('quality and alignment on the group photo', () => {
  it('each face has a quality 0..1, and the larger faces are clearly usable (≥ 0.5)', () => {
    for (const { quality } of groupFaces) {
      expect(quality).toBeGreaterThanOrEqual(0);
      expect(quality).toBeLessThanOrEqual(1);
    }
    // The two largest faces are within a pixel of each other (46 px): the better of them is clearly usable.
    const bySize = [...groupFaces].sort((a, b) => b.box.width - a.box.width);
    const largest = Math.max(bySize[0].quality, bySize[1].quality);
    expect(largest).toBeGreaterThanOrEqual(0.5);
    // The photo is in focus: its faces 33 px and larger are usable (their sharpness is measured at their own size).
    for (const f of groupFaces.filter((g) => g.box.width * group.width >= 33))
      expect(f.quality).toBeGreaterThanOrEqual(0.5);
    // The smallest face (24 px) scores below the largest.
    expect(bySize.at(-1)!.quality).toBeLessThan(largest);
  });

  it('the same face scaled, turned 8° and brightened is nearer to itself than to any other face', async () => {
    const source = [...groupFaces].sort((a, b) => b.box.width - a.box.width)[0];
    const side = Math.round(3 * source.box.width * group.width);
    const left = Math.max(0, Math.round(centre(source).x * group.width - side / 2));
    const top = Math.max(0, Math.round(centre(source).y * group.height - side / 2));
    const cut = await sharp(groupJpeg)
      .extract({ left, top, width: Math.min(side, group.width - left), height: Math.min(side, group.height - top) })
      .toBuffer();
    const changed = await sharp(
      await sharp(cut)
        .resize({ width: Math.round(side * 1.5) })
        .toBuffer(),
    )
      .rotate(8, { background: '#808080' })
      .modulate({ brightness: 1.2 })
      .jpeg({ quality: 90 })
      .toBuffer();
    const [face] = (await detectFaces(await decoded('changed.jpg', changed), options)).sort(
      (a, b) => b.box.width - a.box.width,
    );
    expect(face).toBeDefined();
    const toSource = cosineDistance(face.embedding, source.embedding);
    const toOthers = groupFaces.filter((f) => f !== source).map((f) => cosineDistance(face.embedding, f.embedding));
    expect(toSource).toBeLessThan(0.3);
    expect(toSource).toBeLessThan(Math.min(...toOthers));
  }, 60_000);
});

describe('pictures without faces', () => {
  describeWithFixtures('real phone photos', () => {
    it.each([
      ['IMG_0543.HEIC', 'image/heic'],
      ['jobs.jpeg', 'image/jpeg'],
    ])(
      '%s (a pizza, a meal tray) has none',
      async (name, mimeType) => {
        expect(await detectFaces(await decoded(name, await readFile(join(FIXTURES, name)), mimeType), options)).toEqual(
          [],
        );
      },
      60_000,
    );
  });

  // Concentric circles scored 0.62 after verification when measured: the reason the default is 0.7.
  it.each(['gradient', 'noise', 'white', 'black', 'checkerboard', 'concentric circles'] as const)(
    'a synthetic %s has none',
    async (name) => {
      const jpeg = await SYNTHETIC_PATTERNS[name]().jpeg({ quality: 90 }).toBuffer();
      expect(await detectFaces(await decoded(`${name}.jpg`, jpeg), options)).toEqual([]);
    },
  );

  it('a picture smaller than the detector input (a 2×2 grey) has none', async () => {
    expect(await detectFaces({ data: Buffer.alloc(12, 128), width: 2, height: 2, channels: 3 }, options)).toEqual([]);
  });
});
