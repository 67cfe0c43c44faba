import { readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import {
  cornerImage,
  cr3Like,
  dngLike,
  ffmpeg,
  H264_ARGS,
  nefLike,
  orfLike,
  testClipArgs,
} from '@trove/kit/testing/media';
import { tempDirPerFile } from '@trove/kit/testing';
import { FileBytes } from './file-bytes';
import { assertImageComplete } from './integrity';
import { isobmffFileIsComplete, readBoxes } from './isobmff';
import { isDisplayableJpeg, readJpeg } from './jpeg';
import { cr3MetadataTiffs, findEmbeddedJpegs, rawOrientation } from './raw';
import { Tag, TiffReader } from './tiff';

const dir = tempDirPerFile();
let jpeg: Buffer;
let progressive: Buffer;

beforeAll(async () => {
  jpeg = await (await cornerImage(240, 160)).jpeg().toBuffer();
  progressive = await (await cornerImage(240, 160)).jpeg({ progressive: true }).toBuffer();
});

describe('readJpeg', () => {
  it('finds the end of a complete baseline and progressive JPEG', () => {
    expect(readJpeg(jpeg)).toEqual({ end: jpeg.length, frameMarker: 0xc0, firstScan: expect.any(Number) });
    expect(readJpeg(progressive)).toEqual({
      end: progressive.length,
      frameMarker: 0xc2,
      firstScan: expect.any(Number),
    });
    // The first scan starts with its SOS marker, after every table the picture needs.
    const scan = readJpeg(jpeg)?.firstScan ?? 0;
    expect([jpeg[scan], jpeg[scan + 1]]).toEqual([0xff, 0xda]);
    expect(jpeg.subarray(0, scan).includes(Buffer.from([0xff, 0xda]))).toBe(false);
  });

  it('finds the end of a JPEG followed by other data', () => {
    const withTrailer = Buffer.concat([jpeg, Buffer.from('MotionPhoto_Data and a video')]);
    expect(readJpeg(withTrailer)?.end).toBe(jpeg.length);
  });

  it('returns null for a cut-off JPEG, wherever it is cut', () => {
    for (const keep of [2, 20, Math.floor(jpeg.length / 2), jpeg.length - 1])
      expect(readJpeg(jpeg.subarray(0, keep))).toBeNull();
  });

  it('tells lossless JPEG (raw sensor data) from pictures', () => {
    expect(isDisplayableJpeg({ end: 10, frameMarker: 0xc3, firstScan: 5 })).toBe(false);
    expect(isDisplayableJpeg({ end: 10, frameMarker: 0xc0, firstScan: 5 })).toBe(true);
  });
});

describe('ISO-BMFF boxes', () => {
  it('walks the top level of an MP4 and notices when it is cut', async () => {
    const mp4 = dir.file('clip.mp4');
    await ffmpeg([...testClipArgs({ seconds: 1, size: '64x48' }), ...H264_ARGS, '-c:a', 'aac', mp4]);
    expect(await isobmffFileIsComplete(mp4)).toBe(true);
    const bytes = await readFile(mp4);
    expect(readBoxes(bytes).map((b) => b.type)).toEqual(expect.arrayContaining(['ftyp', 'moov', 'mdat']));
    const cut = dir.file('cut.mp4');
    await writeFile(cut, bytes.subarray(0, bytes.length - 100));
    expect(await isobmffFileIsComplete(cut)).toBe(false);
  });
});

describe('assertImageComplete', () => {
  /** The check reads the file from disk, as the worker has it. */
  const check = async (bytes: Buffer, mimeType: string, name: string) => {
    const file = await dir.write(name, bytes);
    return FileBytes.with(file, (f) => assertImageComplete(f, mimeType, name));
  };

  it('accepts complete files and rejects truncated ones with a clear message', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
      .png()
      .toBuffer();
    const webp = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
      .webp()
      .toBuffer();
    await expect(check(jpeg, 'image/jpeg', 'a.jpg')).resolves.toBeNull();
    await expect(check(png, 'image/png', 'a.png')).resolves.toBeNull();
    await expect(check(webp, 'image/webp', 'a.webp')).resolves.toBeNull();
    await expect(check(jpeg.subarray(0, 20), 'image/jpeg', 'a.jpg')).rejects.toThrow(
      /a\.jpg: JPEG is malformed or cut off before its picture data/,
    );
    await expect(check(png.subarray(0, png.length - 12), 'image/png', 'a.png')).rejects.toThrow(/PNG is truncated/);
    await expect(check(webp.subarray(0, webp.length - 4), 'image/webp', 'a.webp')).rejects.toThrow(/WebP is truncated/);
    await expect(check(Buffer.alloc(0), 'image/jpeg', 'empty.jpg')).rejects.toThrow(/empty/);
  });

  it('walks a JPEG on disk across its read windows, and stops at its end whatever follows', async () => {
    // Noise compresses badly: a JPEG of several megabytes, so its walk spans several windows.
    const big = await sharp(
      Buffer.alloc(3000 * 2000 * 3).map((_, i) => (i * 2654435761) >>> 24),
      { raw: { width: 3000, height: 2000, channels: 3 } },
    )
      .jpeg({ quality: 100 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024);
    await expect(check(big, 'image/jpeg', 'big.jpg')).resolves.toBeNull();
    await expect(
      check(Buffer.concat([big, Buffer.alloc(5 * 1024 * 1024, 0x5a)]), 'image/jpeg', 'tail.jpg'),
    ).resolves.toBeNull();
    // Cut off in its picture data: shown as far as it goes, with a warning.
    await expect(check(big.subarray(0, big.length - 2), 'image/jpeg', 'cut.jpg')).resolves.toEqual({
      kind: 'truncated-jpeg',
      message: expect.stringMatching(/^cut\.jpg: JPEG ends without its end-of-image marker/),
    });
    const scan = big.indexOf(Buffer.from([0xff, 0xda]));
    await expect(check(big.subarray(0, scan), 'image/jpeg', 'head.jpg')).rejects.toThrow(
      /head\.jpg: JPEG is malformed or cut off before its picture data/,
    );
  });
});

describe('FileBytes', () => {
  it('reads pieces, finds a needle across window boundaries, and reads the whole file on request', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 0x61);
    const needle = Buffer.from('MotionPhoto_Data');
    needle.copy(bytes, 1024 * 1024 - 5); // straddles the first window boundary
    const path = await dir.write('bytes.bin', bytes);
    await FileBytes.with(path, async (file) => {
      expect(file.size).toBe(bytes.length);
      expect((await file.read(1024 * 1024 - 5, 16)).toString()).toBe('MotionPhoto_Data');
      expect(await file.read(bytes.length - 2, 10)).toHaveLength(2);
      expect(await file.read(bytes.length, 10)).toHaveLength(0);
      expect(await file.includes(needle)).toBe(true);
      expect(await file.includes(needle, 1024 * 1024)).toBe(false);
      expect(await file.includes(Buffer.from('absent'))).toBe(false);
      expect((await file.readAll()).equals(bytes)).toBe(true);
    });
  });
});

describe('raw containers', () => {
  it('reads IFD0, SubIFDs and typed values of a DNG-like file', () => {
    const dng = dngLike(jpeg, 6);
    const tiff = TiffReader.open(dng);
    expect(tiff).not.toBeNull();
    const ifds = tiff!.ifds();
    expect(ifds).toHaveLength(3); // IFD0 + raw + preview
    const ifd0 = tiff!.ifd0()!;
    expect(tiff!.number(ifd0, Tag.Orientation)).toBe(6);
    // IFD0 a reduced image (NewSubfileType 1, as DNGs have it), the raw (0) and the preview (1) SubIFDs.
    expect(ifds.map((ifd) => tiff!.number(ifd, Tag.NewSubfileType) ?? 0)).toEqual([1, 0, 1]);
    expect(rawOrientation(dng)).toBe(6);
  });

  it('finds the JPEG preview strip of a DNG, the JPEGInterchangeFormat of a NEF, and by scanning in an ORF', () => {
    for (const file of [dngLike(jpeg, 1), nefLike(jpeg), orfLike(jpeg)]) {
      const [found] = findEmbeddedJpegs(file);
      expect(found).toBeDefined();
      expect(Buffer.compare(file.subarray(found.offset, found.offset + found.length), jpeg)).toBe(0);
    }
  });

  it('ranks several previews largest first', async () => {
    const big = await (await cornerImage(640, 480)).jpeg().toBuffer();
    const found = findEmbeddedJpegs(orfLike(Buffer.concat([jpeg, Buffer.alloc(32), big])));
    expect(found.map((f) => f.length)).toEqual([big.length, jpeg.length]);
  });

  it('reads the CMT boxes and the PRVW preview of a CR3-like file', () => {
    const cr3 = cr3Like(jpeg, 8);
    const boxes = cr3MetadataTiffs(cr3);
    expect(Object.keys(boxes).sort()).toEqual(['CMT1', 'CMT2', 'CMT4']);
    expect(rawOrientation(cr3)).toBe(8);
    const [found] = findEmbeddedJpegs(cr3);
    expect(Buffer.compare(cr3.subarray(found.offset, found.offset + found.length), jpeg)).toBe(0);
  });

  it('finds nothing in a file without previews', () => {
    expect(findEmbeddedJpegs(Buffer.alloc(10000, 0xff))).toEqual([]);
    expect(TiffReader.open(Buffer.from('not a tiff at all'))).toBeNull();
  });
});
