/**
 * The things detector with the real CenterNet model, on the pictures the previews component
 * decodes: the seed phone photo, synthetic patterns (nothing in them to find), a video's poster.
 */
import { join } from 'node:path';
import { tempDirPerFile } from '@trove/kit/testing';
import { makeImagePreviews, makeVideoPreviews } from '../previews';
import { closeExifTool, extractMetadata } from '../metadata';
import type { Bitmap } from '../bitmap';
import {
  FIXTURES,
  ffmpeg,
  H264_ARGS,
  fixturesPresent,
  itWithFixtures,
  jpegAt,
  SYNTHETIC_PATTERNS,
  testClipArgs,
} from '@trove/kit/testing/media';
import { sharp } from '../previews/sharp';
import {
  bestPerLabel,
  DEFAULT_THINGS_MIN_SCORE,
  detectThings,
  fuseMirrored,
  seeThings,
  LARGE_THING_SHARE,
  oneLabelPerObject,
} from '.';
import type { Box } from '.';
import { COCO_LABELS, thingLabel, titleCase } from './labels';

// ExifTool's processes (the metadata reads start them) end with the suite, not with jest's worker: each test file has a pool of its own.
afterAll(() => closeExifTool());

const options = { minScore: DEFAULT_THINGS_MIN_SCORE };
const dir = tempDirPerFile('trove-things-');
let pizza: Bitmap;

beforeAll(async () => {
  if (fixturesPresent()) pizza = (await makeImagePreviews(join(FIXTURES, 'IMG_0543.HEIC'), 'image/heic')).bitmap;
});

/** A 1600x1200 picture made by sharp, through the previews as an uploaded JPEG would go. */
async function pattern(name: string, image: sharp.Sharp): Promise<Bitmap> {
  const file = await dir.write(
    `${name}.jpg`,
    await image.resize(1600, 1200, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer(),
  );
  return (await makeImagePreviews(file, 'image/jpeg')).bitmap;
}

describe('seeThings', () => {
  itWithFixtures(
    'says where each object lies, in fractions of the picture: the pizza put left or right in a wide picture is found there',
    async () => {
      const { width, height } = pizza;
      for (const side of ['left', 'right'] as const) {
        const { data, info } = await sharp({
          create: { width: 2 * width, height, channels: 4, background: { r: 128, g: 128, b: 128, alpha: 1 } },
        })
          .composite([
            { input: pizza.data, raw: { width, height, channels: 4 }, left: side === 'left' ? 0 : width, top: 0 },
          ])
          .raw()
          .toBuffer({ resolveWithObject: true });
        const wide = { data, width: info.width, height: info.height, channels: info.channels };
        const seen = await seeThings(wide, options);
        expect(seen.things).toEqual(await detectThings(wide, options));
        const found = seen.objects.find((o) => o.cls === 'pizza');
        expect(found).toBeDefined();
        const { x1, y1, x2, y2 } = found!.box;
        const centre = { x: (x1 + x2) / 2, y: (y1 + y2) / 2 };
        if (side === 'left') expect(centre.x).toBeLessThan(0.5);
        else expect(centre.x).toBeGreaterThan(0.5);
        // The letterbox's bands above and below are not the picture's: the box is measured on the picture.
        expect(centre.y).toBeGreaterThan(0.25);
        expect(centre.y).toBeLessThan(0.75);
        expect(x2 - x1).toBeLessThanOrEqual(0.55);
      }
    },
  );
});

describe('detectThings', () => {
  itWithFixtures('the seed photo (HEIC, RGBA bitmap from the previews) is a pizza', async () => {
    expect(pizza.channels).toBe(4);
    const things = await detectThings(pizza, options);
    // The model's "dining table" (0.27) has the pizza's box: one object under two labels, the better kept.
    expect(things.map((t) => t.label)).toEqual(['Pizza']);
    expect(things[0].score).toBeGreaterThan(DEFAULT_THINGS_MIN_SCORE);
  });

  itWithFixtures('below the threshold other labels appear, each once, best first, in Title Case', async () => {
    const things = await detectThings(pizza, { minScore: 0.15 });
    const labels = things.map((t) => t.label);
    expect(labels[0]).toBe('Pizza');
    expect(labels.length).toBeGreaterThan(1);
    expect(new Set(labels).size).toBe(labels.length);
    for (let i = 1; i < things.length; i++) expect(things[i - 1].score).toBeGreaterThanOrEqual(things[i].score);
  });

  itWithFixtures('a picture and its mirror image have the same things, with the same scores', async () => {
    const { data, width, height, channels } = pizza;
    const mirror = await sharp(data, { raw: { width, height, channels: channels as 4 } })
      .flop()
      .raw()
      .toBuffer();
    const straight = await detectThings(pizza, { minScore: 0.3 });
    // 0.3, not lower: a large leftover box near the large-thing threshold (0.13 here) may pass on one side only.
    const mirrored = await detectThings({ data: mirror, width, height, channels }, { minScore: 0.3 });
    expect(straight[0].label).toBe('Pizza');
    expect(mirrored.map((t) => t.label)).toEqual(straight.map((t) => t.label));
    for (const [i, t] of mirrored.entries()) expect(t.score).toBeCloseTo(straight[i].score, 2);
  });

  itWithFixtures('a JPEG stored upside down (EXIF orientation 3) is looked at upright', async () => {
    const { data, width, height, channels } = pizza;
    const file = await dir.write(
      'upside-down.jpg',
      await sharp(data, { raw: { width, height, channels: channels as 4 } })
        .rotate(180)
        .jpeg({ quality: 90 })
        .withMetadata({ orientation: 3 })
        .toBuffer(),
    );
    const upright = (await makeImagePreviews(file, 'image/jpeg')).bitmap;
    expect((await detectThings(upright, options))[0]).toMatchObject({ label: 'Pizza' });
  });

  itWithFixtures(
    'jobs.jpeg gets its best guess ("Donut", 0.59) at the default threshold, nothing at 0.65',
    async () => {
      const jobs = (await makeImagePreviews(join(FIXTURES, 'jobs.jpeg'), 'image/jpeg')).bitmap;
      expect((await detectThings(jobs, options)).map((t) => t.label)).toEqual(['Donut']);
      expect(await detectThings(jobs, { minScore: 0.65 })).toEqual([]);
    },
  );

  it.each(['gradient', 'noise', 'white', 'black', 'orange', 'checkerboard'] as const)(
    'a synthetic %s has no things',
    async (name) => {
      expect(await detectThings(await pattern(name, SYNTHETIC_PATTERNS[name]()), options)).toEqual([]);
    },
  );

  it('the camera-like noise photos the tests upload have no things (the model sees a large "umbrella" in them at up to 0.18)', async () => {
    for (let i = 0; i < 8; i++) {
      const file = await dir.write(`noise-${i}.jpg`, await jpegAt(10 + i, 20));
      expect(await detectThings((await makeImagePreviews(file, 'image/jpeg')).bitmap, options)).toEqual([]);
    }
  });

  it("a video's poster frame (the previews' bitmap) is looked at like a photo", async () => {
    const clip = dir.file('clip.mp4');
    await ffmpeg([...testClipArgs({ seconds: 2, audio: false }), ...H264_ARGS, clip]);
    const poster = (await makeVideoPreviews(clip, await extractMetadata(clip, 'video/mp4'))).bitmap;
    expect([poster.width, poster.height]).toEqual([320, 240]);
    expect(await detectThings(poster, options)).toEqual([]);
  });

  itWithFixtures(
    '20 runs in one process give the same things, to the score: nothing is left over from a run',
    async () => {
      const first = await detectThings(pizza, options);
      expect(first.map((t) => t.label)).toEqual(['Pizza']);
      for (let i = 0; i < 20; i++) expect(await detectThings(pizza, options)).toEqual(first);
    },
    120_000,
  );
});

describe('fuseMirrored and bestPerLabel', () => {
  const box = (cls: number, score: number, x1: number, x2: number, y1 = 0, y2 = 100): Box => ({
    cls,
    score,
    x1,
    y1,
    x2,
    y2,
  });

  it("a box's score is the mean of its and its mirror twin's; one the mirror does not confirm has half", () => {
    // In a 100-px input: the mirror's box at 70..90 is the picture's 10..30.
    const fused = fuseMirrored(
      [box(0, 0.8, 10, 30), box(1, 0.6, 50, 60)],
      [box(0, 0.6, 70, 90), box(2, 0.4, 0, 10)],
      100,
    );
    expect(fused.map((b) => [b.cls, b.score, b.x1, b.x2])).toEqual([
      [0, expect.closeTo(0.7) as number, 10, 30],
      [1, 0.3, 50, 60],
      [2, 0.2, 90, 100],
    ]);
    // Another class at the same place is not a twin.
    expect(fuseMirrored([box(0, 0.8, 10, 30)], [box(1, 0.8, 70, 90)], 100).map((b) => b.score)).toEqual([0.4, 0.4]);
  });

  it('a large thing passes from a lower score; each label once, its best, best first, singular', () => {
    const area = 100 * 100;
    const side = Math.ceil(Math.sqrt(LARGE_THING_SHARE * area)) + 1;
    const things = bestPerLabel(
      [
        box(30, 0.22, 0, side, 0, side), // skis, large: passes at 0.35 × 0.43
        box(25, 0.3, 0, 100, 0, 95), // umbrella filling the picture, as in noise: needs 0.35
        box(62, 0.2, 0, 5, 0, 5), // tv, small: does not
        box(0, 0.5, 0, 5, 0, 5),
        box(0, 0.9, 0, 5, 0, 5),
      ],
      area,
      0.35,
    );
    expect(things).toEqual([
      { label: 'Person', score: 0.9 },
      { label: 'Ski', score: 0.22 },
    ]);
    expect(bestPerLabel([box(62, 0.4, 0, 5, 0, 5)], area, 0.35)).toEqual([{ label: 'TV', score: 0.4 }]);
  });

  it('of two labels on the same place only the better is kept; another place, or the same label, stays', () => {
    const cup = box(41, 0.55, 10, 50, 10, 50);
    const vase = box(75, 0.4, 11, 51, 10, 50); // IoU 0.95 with the cup
    const person = box(0, 0.7, 0, 100, 0, 100); // holds the cup: IoU 0.16
    const secondCup = box(41, 0.3, 12, 52, 10, 50);
    expect(oneLabelPerObject([vase, cup, person, secondCup]).map((b) => [b.cls, b.score])).toEqual([
      [0, 0.7],
      [41, 0.55],
      [41, 0.3],
    ]);
  });
});

describe('labels', () => {
  it('what users see is singular and capitalised', () => {
    // Scissors has no singular.
    const plural = COCO_LABELS.map(thingLabel).filter((l) => /s$/.test(l) && !/(ss|us)$/.test(l));
    expect(plural).toEqual(['Scissors']);
    expect(['skis', 'tv', 'hair drier', 'dining table'].map(thingLabel)).toEqual([
      'Ski',
      'TV',
      'Hair Dryer',
      'Dining Table',
    ]);
  });

  it('80 COCO classes, in Title Case', () => {
    expect(COCO_LABELS).toHaveLength(80);
    expect(new Set(COCO_LABELS).size).toBe(80);
    expect(titleCase('dining table')).toBe('Dining Table');
    expect(titleCase(COCO_LABELS[53])).toBe('Pizza');
  });
});
