import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  colourAt,
  cornerImage,
  cr3Like,
  describeWithFixtures,
  dngLike,
  FIXTURES,
  itWithFixtures,
  nefLike,
} from '@trove/kit/testing/media';
import { tempDirPerFile } from '@trove/kit/testing';
import { MediaError } from '../errors';
import { DEFAULT_LIMITS } from '../limits';
import { closeExifTool, extractMetadata } from '../metadata';
import type { Previews, RawPreviewSource } from './image';
import { decodeHeifPrimary } from './heif';
import { applyOrientation, makeImagePreviews } from './image';
import { cutOff, testFrame } from '../../test-support.fake';

// ExifTool's processes (the metadata reads start them) end with the suite, not with jest's worker: each test file has a pool of its own.
afterAll(() => closeExifTool());

const dir = tempDirPerFile();

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

/** Where the corner of colour `colour` of an encoded image is: TL, TR, BL or BR (the red one was the top left). */
async function cornerOf(image: Buffer, colour: 'red' | 'green'): Promise<string> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const corners: Array<[string, number, number]> = [
    ['TL', 2, 2],
    ['TR', width - 3, 2],
    ['BL', 2, height - 3],
    ['BR', width - 3, height - 3],
  ];
  for (const [name, x, y] of corners) if ((await colourAt(image, x, y)) === colour) return name;
  return 'none';
}

describeWithFixtures('real phone photos', () => {
  it('jobs.jpeg (1330x2364): preview and thumbnail fit 2048 and 512 px, same aspect', async () => {
    const p = await makeImagePreviews(join(FIXTURES, 'jobs.jpeg'), 'image/jpeg');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([1152, 2048]);
    expect([p.thumbnailWidth, p.thumbnailHeight]).toEqual([288, 512]);
  });

  it('IMG_0543.HEIC (HEVC, 4032x3024): decoded through libheif (wasm)', async () => {
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
    expect(await cornerOf(p.preview, 'red')).toBe('TR'); // rotated 90° clockwise
  });

  it('applyOrientation does what decoders do with each EXIF orientation', async () => {
    const plain = await (await cornerImage(120, 80)).png().toBuffer();
    for (let o = 1; o <= 8; o++) {
      const tagged = await sharp(plain).jpeg({ quality: 95 }).withMetadata({ orientation: o }).toBuffer();
      const byDecoder = await sharp(tagged, { autoOrient: true }).png().toBuffer();
      const ours = await applyOrientation(sharp(plain), o).png().toBuffer();
      expect([o, await cornerOf(ours, 'red')]).toEqual([o, await cornerOf(byDecoder, 'red')]);
      expect((await sharp(ours).metadata()).width).toBe((await sharp(byDecoder).metadata()).width);
    }
  });

  it('never upscales, and keeps transparency', async () => {
    const png = await sharp({
      create: { width: 100, height: 50, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 0.5 } },
    })
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
    const p = await makeImagePreviews(await testFrame(dir.file('a.bmp')), 'image/bmp');
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

/**
 * Where the stored picture's red (top-left) and green (top-right) corners are displayed under each
 * EXIF orientation, from the tag's definition (where row 0 and column 0 go), not from a decoder.
 */
const DISPLAYED_CORNERS: Record<number, [string, string]> = {
  1: ['TL', 'TR'],
  2: ['TR', 'TL'],
  3: ['BR', 'BL'],
  4: ['BL', 'BR'],
  5: ['TL', 'BL'],
  6: ['TR', 'BR'],
  7: ['BR', 'TR'],
  8: ['BL', 'TL'],
};

describe('orientation: what a viewer shows', () => {
  let plain: Buffer;
  beforeAll(async () => {
    plain = await (await cornerImage(240, 160)).png().toBuffer();
  });

  it.each(['jpeg', 'png', 'webp', 'tiff'] as const)(
    '%s with EXIF orientation 1–8: displayed size (5–8 swap) and upright preview and thumbnail',
    async (format) => {
      for (let o = 1; o <= 8; o++) {
        const tagged = await sharp(plain)[format]().withMetadata({ orientation: o }).toBuffer();
        expect((await sharp(tagged).metadata()).orientation).toBe(o); // the input is what the test means
        const p = await makeImagePreviews(await dir.write(`o${o}.${format}`, tagged), `image/${format}`);
        await expectConsistent(p);
        const swap = o >= 5;
        expect([format, o, p.width, p.height]).toEqual([format, o, swap ? 160 : 240, swap ? 240 : 160]);
        expect([format, o, await cornerOf(p.preview, 'red'), await cornerOf(p.preview, 'green')]).toEqual([
          format,
          o,
          ...DISPLAYED_CORNERS[o],
        ]);
        expect([format, o, await cornerOf(p.thumbnail, 'red'), await cornerOf(p.thumbnail, 'green')]).toEqual([
          format,
          o,
          ...DISPLAYED_CORNERS[o],
        ]);
      }
    },
  );

  it('AVIF: the irot/imir transforms are applied once, the EXIF orientation beside them not again', async () => {
    for (const o of [3, 6, 8]) {
      // libvips writes the orientation as irot/imir and keeps it in the EXIF too, as phones do.
      const avif = await sharp(plain).avif({ effort: 0 }).withMetadata({ orientation: o }).toBuffer();
      expect(avif.includes(Buffer.from('irot'))).toBe(true);
      const p = await makeImagePreviews(await dir.write(`o${o}.avif`, avif), 'image/avif');
      await expectConsistent(p);
      const swap = o >= 5;
      expect([o, p.width, p.height]).toEqual([o, swap ? 160 : 240, swap ? 240 : 160]);
      expect([o, await cornerOf(p.preview, 'red'), await cornerOf(p.preview, 'green')]).toEqual([
        o,
        ...DISPLAYED_CORNERS[o],
      ]);
    }
  });
});

describe('HEIF decoders', () => {
  it("a HEIF that neither libvips nor libheif reads is corrupt, with both decoders' reasons", async () => {
    const avif = await (await cornerImage(200, 100)).avif({ effort: 0 }).toBuffer();
    // The boxes still fill the file (the completeness check passes), the item properties are garbage.
    const ipco = avif.indexOf(Buffer.from('ipco'));
    const broken = Buffer.from(avif);
    broken.fill(0x55, ipco + 4, ipco + 60);
    const err = await makeImagePreviews(await dir.write('broken.heic', broken), 'image/heic').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({
      kind: 'corrupt',
      message: expect.stringMatching(/^broken\.heic: cannot decode the HEIF: libheif: .+; libvips: .+/),
    });
  });

  it("libheif's own reason reaches the error: bytes that are no HEIF are corrupt, not a crash", async () => {
    const jpeg = await (await cornerImage(64, 48)).jpeg().toBuffer();
    await expect(decodeHeifPrimary(jpeg, 'not.heic', 50e6)).rejects.toMatchObject({
      name: 'MediaError',
      kind: 'corrupt',
      message: expect.stringMatching(/^not\.heic: cannot decode HEIF: .*ftyp/),
    });
  });

  itWithFixtures(
    'a HEVC HEIC that libvips cannot decode (no HEVC decoder) goes to libheif, which decodes its primary image',
    async () => {
      const heic = await readFile(join(FIXTURES, 'IMG_0543.HEIC'));
      const header = await sharp(heic).metadata();
      expect(header.compression).toBe('hevc');
      const p = await makeImagePreviews(await dir.write('phone.heic', heic), 'image/heic');
      expect([p.width, p.height]).toEqual([2048, 1536]);
      expect(p.warnings).toEqual([]);
    },
  );
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
    expect(await cornerOf(p.preview, 'red')).toBe('TR');
  });

  it('CR3: the PRVW JPEG, turned by CMT1 orientation 8', async () => {
    const p = await makeImagePreviews(await dir.write('a.cr3', cr3Like(preview, 8)), 'image/x-canon-cr3');
    await expectConsistent(p);
    expect([p.width, p.height]).toEqual([200, 300]);
    expect(await cornerOf(p.preview, 'red')).toBe('BL');
  });

  it('NEF: the JPEGInterchangeFormat preview', async () => {
    const p = await makeImagePreviews(await dir.write('a.nef', nefLike(preview)), 'image/x-nikon-nef');
    expect([p.width, p.height]).toEqual([300, 200]);
    expect(await cornerOf(p.preview, 'red')).toBe('TL');
  });

  it('a raw without a JPEG preview falls back to an ordinary RGB IFD0, and without that is unsupported', async () => {
    // The only JPEG is lossless (SOF3), like raw sensor data: not a picture.
    const lossless = Buffer.from([0xff, 0xd8, 0xff, 0xc3, 0, 4, 0, 0, 0xff, 0xd9]);
    const p = await makeImagePreviews(await dir.write('rgb-thumb.dng', dngLike(lossless, 1)), 'image/x-adobe-dng');
    expect([p.width, p.height]).toEqual([16, 12]);
    const junk = await dir.write(
      'junk.orf',
      Buffer.concat([Buffer.from('IIRO\x08\0\0\0\0\0\0\0', 'latin1'), Buffer.alloc(1000, 3)]),
    );
    await expect(makeImagePreviews(junk, 'image/x-olympus-orf')).rejects.toMatchObject({
      name: 'MediaError',
      kind: 'unsupported',
    });
  });
});

describe("raw preview source (the port ExifTool's JpgFromRaw/PreviewImage extraction plugs into)", () => {
  let small: Buffer;
  let large: Buffer;
  beforeAll(async () => {
    small = await (await cornerImage(300, 200)).jpeg().toBuffer();
    large = await (await cornerImage(1200, 800)).jpeg().toBuffer();
  });

  it('its preview is used first, turned by the orientation it reports', async () => {
    const file = await dir.write('source.nef', nefLike(small));
    const asked: string[] = [];
    const rawPreview: RawPreviewSource = async (path) => {
      asked.push(path);
      return { jpeg: large, orientation: 6 };
    };
    const p = await makeImagePreviews(file, 'image/x-nikon-nef', DEFAULT_LIMITS, { rawPreview });
    await expectConsistent(p);
    expect(asked).toEqual([file]);
    expect([p.width, p.height]).toEqual([800, 1200]);
    expect([await cornerOf(p.preview, 'red'), await cornerOf(p.preview, 'green')]).toEqual(DISPLAYED_CORNERS[6]);
  });

  it("no preview, a failing source or a preview that does not decode: our own reader's preview instead", async () => {
    const file = await dir.write('fallback.dng', dngLike(small, 8));
    const sources: RawPreviewSource[] = [
      async () => null,
      () => Promise.reject(new Error('exiftool crashed')),
      async () => ({ jpeg: Buffer.from('not a jpeg'), orientation: 1 }),
    ];
    for (const rawPreview of sources) {
      const p = await makeImagePreviews(file, 'image/x-adobe-dng', DEFAULT_LIMITS, { rawPreview });
      expect([p.width, p.height]).toEqual([200, 300]);
      expect(await cornerOf(p.preview, 'red')).toBe('BL');
    }
  });

  it('nothing decodes anywhere: unsupported, with the reasons', async () => {
    const junk = await dir.write(
      'junk.arw',
      Buffer.concat([Buffer.from('II*\0\x08\0\0\0\0\0', 'latin1'), Buffer.alloc(1000, 3)]),
    );
    const rawPreview: RawPreviewSource = async () => ({ jpeg: Buffer.from('not a jpeg'), orientation: null });
    const err = await makeImagePreviews(junk, 'image/x-sony-arw', DEFAULT_LIMITS, { rawPreview }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({
      name: 'MediaError',
      kind: 'unsupported',
      message: expect.stringMatching(/^junk\.arw: the raw file has no embedded preview that can be decoded \(.+\)$/),
    });
  });
});

describe('broken files', () => {
  itWithFixtures(
    'a JPEG cut off before its end marker decodes as far as it goes, with a warning; cut off in its headers it is corrupt',
    async () => {
      const whole = await readFile(join(FIXTURES, 'jobs.jpeg'));
      const cut = await makeImagePreviews(await dir.write('cut.jpg', cutOff(whole, 0.7)), 'image/jpeg');
      await expectConsistent(cut);
      expect([cut.width, cut.height]).toEqual([1152, 2048]);
      expect(cut.warnings).toEqual([expect.stringMatching(/^cut\.jpg: JPEG ends without its end-of-image marker/)]);
      // The top of the picture arrived: it is the photo's, not the grey libjpeg pads the missing rows with.
      const full = await makeImagePreviews(join(FIXTURES, 'jobs.jpeg'), 'image/jpeg');
      expect(full.warnings).toEqual([]);
      expect(cut.bitmap.data.subarray(0, 3 * 1152 * 100)).toEqual(full.bitmap.data.subarray(0, 3 * 1152 * 100));

      const head = await dir.write('head.jpg', whole.subarray(0, whole.indexOf(Buffer.from([0xff, 0xda]))));
      const err = await makeImagePreviews(head, 'image/jpeg').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MediaError);
      expect(err).toMatchObject({
        kind: 'corrupt',
        message: 'head.jpg: JPEG is malformed or cut off before its picture data',
      });
    },
  );

  it('garbage with an image type rejects with a MediaError', async () => {
    const file = await dir.write(
      'noise.png',
      Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(100, 7)]),
    );
    await expect(makeImagePreviews(file, 'image/png')).rejects.toBeInstanceOf(MediaError);
  });

  itWithFixtures(
    'a HEIC whose header claims 20000x20000 (more than sharp reads the header of) is refused as too large before any pixel is decoded',
    async () => {
      const heic = Buffer.from(await readFile(join(FIXTURES, 'IMG_0543.HEIC')));
      // The primary image's spatial extent (the ispe property of 4032x3024, not those of its 512x512 tiles) → 20000x20000, 1.6 GB of RGBA.
      const ispe = heic.indexOf(Buffer.from([...Buffer.from('ispe'), 0, 0, 0, 0, 0, 0, 0x0f, 0xc0, 0, 0, 0x0b, 0xd0]));
      expect(ispe).toBeGreaterThan(0);
      heic.writeUInt32BE(20000, ispe + 8);
      heic.writeUInt32BE(20000, ispe + 12);
      const file = await dir.write('huge.heic', heic);
      await expect(makeImagePreviews(file, 'image/heic')).rejects.toMatchObject({
        name: 'MediaError',
        kind: 'too-large',
        message:
          "huge.heic: 20000x20000 is more than the 50 megapixels a picture may have here (the worker's memory per item)",
      });
      await expect(extractMetadata(file, 'image/heic')).rejects.toMatchObject({
        name: 'MediaError',
        kind: 'too-large',
      });
    },
  );

  itWithFixtures('a photo over the size limit is refused before it is read', async () => {
    const file = join(FIXTURES, 'jobs.jpeg');
    const limits = { ...DEFAULT_LIMITS, maxImageBytes: 1000 };
    await expect(makeImagePreviews(file, 'image/jpeg', limits)).rejects.toMatchObject({
      name: 'MediaError',
      kind: 'too-large',
      message: expect.stringMatching(/^jobs\.jpeg: .* MiB is more than the 0\.001 MiB a photo may have$/),
    });
    await expect(extractMetadata(file, 'image/jpeg', limits)).rejects.toMatchObject({ kind: 'too-large' });
  });
});
