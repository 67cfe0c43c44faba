/**
 * The things detector with the real CenterNet model, on the pictures the previews component
 * decodes: the seed phone photo, synthetic patterns (nothing in them to find), a video's poster.
 */
import { join } from 'node:path';
import { makeImagePreviews, makeVideoPreviews } from '../previews';
import { extractMetadata } from '../metadata';
import type { Bitmap } from '../bitmap';
import {
  FIXTURES,
  ffmpeg,
  H264_ARGS,
  fixturesPresent,
  itWithFixtures,
  SYNTHETIC_PATTERNS,
  testClipArgs,
} from '@trove/kit/testing/media';
import type { sharp } from '../previews/sharp';
import { tf } from '../vision';
import { DEFAULT_THINGS_MIN_SCORE, detectThings } from '.';
import { COCO_LABELS, titleCase } from './labels';
import { tempDirPerFile } from '../../test-support.fake';

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

describe('detectThings', () => {
  itWithFixtures('the seed photo (HEIC, RGBA bitmap from the previews) is a pizza, and only that', async () => {
    expect(pizza.channels).toBe(4);
    const things = await detectThings(pizza, options);
    expect(things.map((t) => t.label)).toEqual(['Pizza']);
    // Measured 0.62; the next best label (Dining Table) is at 0.25.
    expect(things[0].score).toBeGreaterThan(0.6);
    expect(things[0].score).toBeLessThan(0.65);
  });

  itWithFixtures('below the threshold the other labels appear, each once, best first, in Title Case', async () => {
    const things = await detectThings(pizza, { minScore: 0.2 });
    expect(things.map((t) => t.label)).toEqual(['Pizza', 'Dining Table']);
    expect(things[0].score).toBeGreaterThan(things[1].score);
  });

  itWithFixtures(
    'jobs.jpeg gets its best guess ("Donut", 0.54) at the default threshold, nothing at 0.55',
    async () => {
      const jobs = (await makeImagePreviews(join(FIXTURES, 'jobs.jpeg'), 'image/jpeg')).bitmap;
      expect((await detectThings(jobs, options)).map((t) => t.label)).toEqual(['Donut']);
      expect(await detectThings(jobs, { minScore: 0.55 })).toEqual([]);
    },
  );

  it.each(['gradient', 'noise', 'white', 'black', 'orange', 'checkerboard'] as const)(
    'a synthetic %s has no things',
    async (name) => {
      expect(await detectThings(await pattern(name, SYNTHETIC_PATTERNS[name]()), options)).toEqual([]);
    },
  );

  it("a video's poster frame (the previews' bitmap) is looked at like a photo", async () => {
    const clip = dir.file('clip.mp4');
    await ffmpeg([...testClipArgs({ seconds: 2, audio: false }), ...H264_ARGS, clip]);
    const poster = (await makeVideoPreviews(clip, await extractMetadata(clip, 'video/mp4'))).bitmap;
    expect([poster.width, poster.height]).toEqual([320, 240]);
    expect(await detectThings(poster, options)).toEqual([]);
  });

  itWithFixtures(
    '20 runs in one process leave the number of tensors as it was: nothing leaks',
    async () => {
      await detectThings(pizza, options);
      const before = tf.memory().numTensors;
      for (let i = 0; i < 20; i++) expect((await detectThings(pizza, options)).map((t) => t.label)).toEqual(['Pizza']);
      expect(tf.memory().numTensors).toBe(before);
    },
    120_000,
  );
});

describe('labels', () => {
  it('80 COCO classes, in Title Case', () => {
    expect(COCO_LABELS).toHaveLength(80);
    expect(new Set(COCO_LABELS).size).toBe(80);
    expect(titleCase('dining table')).toBe('Dining Table');
    expect(titleCase(COCO_LABELS[53])).toBe('Pizza');
  });
});
