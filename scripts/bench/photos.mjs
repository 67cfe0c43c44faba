// The benchmark's photos: camera-sized JPEGs with EXIF and GPS, made here (nothing is downloaded).
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { require, root } from '../bench-common.mjs';

const sharp = require('sharp');

/**
 * A 12-megapixel, photo-like JPEG (smooth random colour fields, some grain) with camera EXIF and
 * GPS; every other one (even i) shows the group photo across its width, so that there are faces to find.
 */
async function cameraPhoto(i, groupPhoto) {
  const small = await sharp(randomBytes(40 * 30 * 3), { raw: { width: 40, height: 30, channels: 3 } })
    .resize(4000, 3000, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const grain = randomBytes(small.length);
  for (let j = 0; j < small.length; j++) small[j] = Math.min(255, Math.max(0, small[j] + ((grain[j] & 15) - 8)));
  const day = String((i % 28) + 1).padStart(2, '0');
  const picture = sharp(small, { raw: { width: 4000, height: 3000, channels: 3 } });
  return (i % 2 === 0 ? picture.composite([{ input: groupPhoto, gravity: 'centre' }]) : picture)
    .jpeg({ quality: 88 })
    .withExif({
      IFD0: { Make: 'BenchCam', Model: 'B-12' },
      IFD2: {
        DateTimeOriginal: `2023:05:${day} 10:${String(i % 60).padStart(2, '0')}:00`,
        FNumber: '18/10',
        ExposureTime: '1/125',
        ISOSpeedRatings: '100',
        FocalLength: '35/1',
      },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2952/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 17/1 402/10',
      },
    })
    .toBuffer();
}

/** `count` photos written into `dir`: [{ name, path, data }]. */
export async function makePhotos(dir, count) {
  // The group photo of the shared test fixtures (11 faces; ../shared/fixtures/photos beside the checkout, or
  // TROVE_FIXTURES_DIR), scaled to the camera's width.
  const fixtures = process.env.TROVE_FIXTURES_DIR ?? join(root, '..', 'shared', 'fixtures', 'photos');
  const groupPhoto = await sharp(await readFile(join(fixtures, 'faces.jpg')))
    .resize(4000)
    .toBuffer();
  const files = [];
  for (let i = 0; i < count; i++) {
    const name = `IMG_${String(i).padStart(4, '0')}.jpg`;
    const data = await cameraPhoto(i, groupPhoto);
    await writeFile(join(dir, name), data);
    files.push({ name, path: join(dir, name), data });
  }
  return files;
}

/** Runs `fn` over `items`, `parallel` at a time. */
export async function pool(items, parallel, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}

export const MB = 1e6;
export const MiB = 1024 * 1024;
export const seconds = (started) => (performance.now() - started) / 1000;
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
