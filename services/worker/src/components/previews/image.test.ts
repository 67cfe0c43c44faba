import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { colourAt, cornerImage, cr3Like, describeWithFixtures, dngLike, ffmpeg, FIXTURES, itWithFixtures, nefLike } from '@trove/kit/testing/media';
import { MediaError } from '../errors';
import { DEFAULT_LIMITS } from '../limits';
import { extractMetadata } from '../metadata';
import type { Previews } from './image';
import { applyOrientation, makeImagePreviews } from './image';

let dir: TempDir;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => dir.remove());

/** Decodes both outputs and checks they are what the Previews object says. */
async function expectConsistent(p: Previews): Promise<void> {
  expect(p.previewMimeType).toBe('image/webp');
  expect(p.thumbnailMimeType).toBe('image/webp');
  const preview = await sharp(p.preview).metadata();
  const thumbnail = await sharp(p.thumbnail).metadata();
  expect(preview).toMatchObject({ format: 'webp', width: p.width, height: p.height });
  expect(thumbnail).toMatchObject({ format: 'webp', width: p.thumbnailWidth, height: p.thumbnailHeight });
  expect(Math.max(p.width, p.height)).toBeLessThanOrEqual(2048);
  expect(Math.max(p.thumbnailWidth, p.thumbnailHeight)).toBeLessThanOrEqual(512);
  expect(p.placeholder).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  expect(Buffer.from(p.placeholder, 'base64').length).toBeGreaterThanOrEqual(5);
}

/** Where the red (originally top-left) corner ended up. */
async function redCorner(image: Buffer): Promise<string> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const corners: Array<[string, number, number]> = [
    ['top-left', 2, 2],
    ['top-right', width - 3, 2],
    ['bottom-left', 2, height - 3],
    ['bottom-right', width - 3, height - 3],
  ];
  for (const [name, x, y] of corners) if ((await colourAt(image, x, y)) === 'red') return name;
  return 'none';
}

describeWithFixtures('real phone photos', () => {
  it('jobs.jpeg (1330x2364): preview and thumbnail fit 2048 and 512 px, same aspect', async () => {
    const p = await makeImagePreviews(join(FIXTURES, 'jobs.jpeg'), 'image/jpeg');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([1152, 2048]);
    expect([p.thumbnailWidth, p.thumbnailHeight]).toEqual([288, 512]);
  });

  it('IMG_0543.HEIC (HEVC, 4032x3024): decoded through heic-decode', async () => {
    const p = await makeImagePreviews(join(FIXTURES, 'IMG_0543.HEIC'), 'image/heic');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([2048, 1536]);
    expect([p.thumbnailWidth, p.thumbnailHeight]).toEqual([512, 384]);
  });
});

describe('generated images', () => {
  it('a 600x400 JPEG with EXIF orientation 6 gives portrait, upright outputs', async () => {
    const jpeg = await (await cornerImage(600, 400)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const p = await makeImagePreviews(await dir.write('o6.jpg', jpeg), 'image/jpeg');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([400, 600]);
    expect(await redCorner(p.preview)).toBe('top-right'); // rotated 90° clockwise
  });

  it('applyOrientation does what decoders do with each EXIF orientation', async () => {
    const plain = await (await cornerImage(120, 80)).png().toBuffer();
    for (let o = 1; o <= 8; o++) {
      const tagged = await sharp(plain).jpeg({ quality: 95 }).withMetadata({ orientation: o }).toBuffer();
      const byDecoder = await sharp(tagged, { autoOrient: true }).png().toBuffer();
      const ours = await applyOrientation(sharp(plain), o).png().toBuffer();
      expect([o, await redCorner(ours)]).toEqual([o, await redCorner(byDecoder)]);
      expect((await sharp(ours).metadata()).width).toBe((await sharp(byDecoder).metadata()).width);
    }
  });

  it('never upscales, and keeps transparency', async () => {
    const png = await sharp({ create: { width: 100, height: 50, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const p = await makeImagePreviews(await dir.write('small.png', png), 'image/png');
    await expectConsistent(p);
    expect([p.width, p.height, p.thumbnailWidth, p.thumbnailHeight]).toEqual([100, 50, 100, 50]);
    expect((await sharp(p.preview).metadata()).hasAlpha).toBe(true);
  });

  it('a wide panorama is bounded by its long edge', async () => {
    const pano = await sharp({ create: { width: 3000, height: 500, channels: 3, background: 'skyblue' } })
      .jpeg()
      .toBuffer();
    const p = await makeImagePreviews(await dir.write('pano.jpg', pano), 'image/jpeg');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([2048, 341]);
    expect([p.thumbnailWidth, p.thumbnailHeight]).toEqual([512, 85]);
  });

  it('BMP goes through ffmpeg, since the prebuilt libvips has no BMP loader', async () => {
    const bmp = dir.file('a.bmp');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', bmp]);
    const p = await makeImagePreviews(bmp, 'image/bmp');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([64, 48]);
  });

  it('AVIF goes through sharp itself', async () => {
    const avif = await (await cornerImage(200, 100)).avif({ effort: 0 }).toBuffer();
    const p = await makeImagePreviews(await dir.write('a.avif', avif), 'image/avif');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([200, 100]);
  });
});

describe('raw-like files', () => {
  let preview: Buffer;
  beforeAll(async () => {
    preview = await (await cornerImage(300, 200)).jpeg().toBuffer();
  });

  it('DNG: the JPEG preview strip, turned by the raw orientation 6', async () => {
    const p = await makeImagePreviews(await dir.write('a.dng', dngLike(preview, 6)), 'image/x-adobe-dng');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([200, 300]);
    expect(await redCorner(p.preview)).toBe('top-right');
  });

  it('CR3: the PRVW JPEG, turned by CMT1 orientation 8', async () => {
    const p = await makeImagePreviews(await dir.write('a.cr3', cr3Like(preview, 8)), 'image/x-canon-cr3');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([200, 300]);
    expect(await redCorner(p.preview)).toBe('bottom-left');
  });

  it('NEF: the JPEGInterchangeFormat preview', async () => {
    const p = await makeImagePreviews(await dir.write('a.nef', nefLike(preview)), 'image/x-nikon-nef');
    expect([p.width, p.height]).toEqual([300, 200]);
    expect(await redCorner(p.preview)).toBe('top-left');
  });

  it('a raw without a JPEG preview falls back to an ordinary RGB IFD0, and without that is unsupported', async () => {
    // The only JPEG is lossless (SOF3), like raw sensor data: not a picture.
    const lossless = Buffer.from([0xff, 0xd8, 0xff, 0xc3, 0, 4, 0, 0, 0xff, 0xd9]);
    const p = await makeImagePreviews(await dir.write('rgb-thumb.dng', dngLike(lossless, 1)), 'image/x-adobe-dng');
    expect([p.width, p.height]).toEqual([16, 12]);
    const junk = await dir.write('junk.orf', Buffer.concat([Buffer.from('IIRO\x08\0\0\0\0\0\0\0', 'latin1'), Buffer.alloc(1000, 3)]));
    await expect(makeImagePreviews(junk, 'image/x-olympus-orf')).rejects.toMatchObject({ name: 'MediaError', kind: 'unsupported' });
  });
});

describe('broken files', () => {
  itWithFixtures('a truncated JPEG rejects with a MediaError instead of a grey-padded preview', async () => {
    const whole = await readFile(join(FIXTURES, 'jobs.jpeg'));
    const file = await dir.write('cut.jpg', whole.subarray(0, Math.floor(whole.length * 0.7)));
    const err = await makeImagePreviews(file, 'image/jpeg').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({ kind: 'corrupt', message: expect.stringMatching(/cut\.jpg/) });
  });

  it('garbage with an image type rejects with a MediaError', async () => {
    const file = await dir.write('noise.png', Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(100, 7)]));
    await expect(makeImagePreviews(file, 'image/png')).rejects.toBeInstanceOf(MediaError);
  });

  itWithFixtures('a HEIC whose header claims 20000x20000 (more than sharp reads the header of) is refused as too large before any pixel is decoded', async () => {
    const heic = Buffer.from(await readFile(join(FIXTURES, 'IMG_0543.HEIC')));
    // The primary image's spatial extent (the ispe property of 4032x3024, not those of its 512x512 tiles) → 20000x20000, 1.6 GB of RGBA.
    const ispe = heic.indexOf(Buffer.from([...Buffer.from('ispe'), 0, 0, 0, 0, 0, 0, 0x0f, 0xc0, 0, 0, 0x0b, 0xd0]));
    expect(ispe).toBeGreaterThan(0);
    heic.writeUInt32BE(20000, ispe + 8);
    heic.writeUInt32BE(20000, ispe + 12);
    const file = await dir.write('huge.heic', heic);
    await expect(makeImagePreviews(file, 'image/heic')).rejects.toMatchObject({ name: 'MediaError', kind: 'too-large', message: 'huge.heic: 20000x20000 exceeds the pixel limit' });
    await expect(extractMetadata(file, 'image/heic')).rejects.toMatchObject({ name: 'MediaError', kind: 'too-large' });
  });

  itWithFixtures('a photo over the size limit is refused before it is read', async () => {
    const file = join(FIXTURES, 'jobs.jpeg');
    const limits = { ...DEFAULT_LIMITS, maxImageBytes: 1000 };
    await expect(makeImagePreviews(file, 'image/jpeg', limits)).rejects.toMatchObject({ name: 'MediaError', kind: 'too-large', message: expect.stringMatching(/^jobs\.jpeg: .* MiB is more than the 0\.001 MiB a photo may have$/) });
    await expect(extractMetadata(file, 'image/jpeg', limits)).rejects.toMatchObject({ kind: 'too-large' });
  });
});
