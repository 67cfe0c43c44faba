/**
 * The fields the worker stores equal what ExifTool itself says of the same file (`exiftool -j -n -G1`), on files
 * the test makes (sharp, ffmpeg) and tags with ExifTool, one per format and per pattern that real cameras
 * showed (issue 27): JPEG XL, AVCHD/M2TS and MPEG-TS, a GPS IFD without GPSVersionID, AVIF and PNG EXIF, GPS
 * only in XMP, a NUL in the model, orientation 5/7 in a HEIF-family file with an auxiliary image, a JPEG
 * without its end marker, dates in file names, the zone from the position.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { ffmpeg, H264_ARGS, noiseImage } from '@trove/kit/testing/media';
import { tempDirPerFile } from '@trove/kit/testing';
import { avchdStream, exiftoolCli, exiftoolJson } from './exiftool-cli.fake';
import { closeExifTool, extractMetadata } from './index';
import type { MediaMetadata } from './types';
import { cutOff } from '../../test-support.fake';

const dir = tempDirPerFile('trove-exiftool-agreement-');
afterAll(() => closeExifTool());

/** `exiftool ARGS -o out in`: a copy of `input` with the tags written. */
async function tagged(input: string, out: string, args: string[]): Promise<string> {
  const dest = dir.file(out);
  await exiftoolCli(['-q', '-m', ...args, '-o', dest, input]);
  return dest;
}

/** ExifTool's arguments that write these tags: `-TAG=VALUE` each. */
const tagArgs = (tags: Record<string, string | number>) =>
  Object.entries(tags).map(([tag, value]) => `-${tag}=${value}`);

/** A camera's make and model and when it took the picture (EXIF, local time without an offset). */
const camera = (Make: string, Model: string, DateTimeOriginal: string) => tagArgs({ Make, Model, DateTimeOriginal });

/** A position in the GPS IFD, from signed degrees. */
const gps = (latitude: number, longitude: number) =>
  tagArgs({
    GPSLatitude: Math.abs(latitude),
    GPSLatitudeRef: latitude < 0 ? 'S' : 'N',
    GPSLongitude: Math.abs(longitude),
    GPSLongitudeRef: longitude < 0 ? 'W' : 'E',
  });

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 180, g: 90, b: 40 } } });

/**
 * The MediaItem fields as ExifTool gives them (the evaluation set's rules): camera from IFD0, exposure from
 * ExifIFD, position from Composite (else XMP-exif's signed degrees without a GPS IFD), the original date (EXIF, else XMP) as local
 * wall-clock time.
 */
function fromExifTool(t: Record<string, unknown>) {
  const n = (v: unknown) => (typeof v === 'number' ? v : null);
  const original = t['ExifIFD:DateTimeOriginal'] ?? t['XMP-exif:DateTimeOriginal'];
  const date = typeof original === 'string' ? original : null;
  return {
    cameraMake: (t['IFD0:Make'] as string | undefined)?.trim() ?? null,
    cameraModel: (t['IFD0:Model'] as string | undefined)?.trim() ?? null,
    // XMP's position counts where the file has no GPS IFD latitude (ExifTool's Composite:GPSPosition has it then).
    latitude: n(t['Composite:GPSLatitude']) ?? ('GPS:GPSLatitude' in t ? null : n(t['XMP-exif:GPSLatitude'])),
    longitude: n(t['Composite:GPSLongitude']) ?? ('GPS:GPSLatitude' in t ? null : n(t['XMP-exif:GPSLongitude'])),
    focalLength: n(t['ExifIFD:FocalLength']),
    apertureFNumber: n(t['ExifIFD:FNumber']),
    isoEquivalent: n(t['ExifIFD:ISO']),
    exposureTime: n(t['ExifIFD:ExposureTime']),
    wallClock: date && date.replace(/^(\d{4}):(\d{2}):(\d{2}) /, '$1-$2-$3T').slice(0, 19),
  };
}

/** The worker's fields in the same shape; numbers as numbers (the contract writes them as decimal strings). */
function fromWorker(m: MediaMetadata) {
  const n = (v: string | null) => (v === null ? null : Number(v));
  return {
    cameraMake: m.cameraMake,
    cameraModel: m.cameraModel,
    latitude: m.latitude,
    longitude: m.longitude,
    focalLength: n(m.focalLength),
    apertureFNumber: n(m.apertureFNumber),
    isoEquivalent: n(m.isoEquivalent),
    exposureTime: n(m.exposureTime),
    wallClock: m.creationTime && m.creationTime.slice(0, 19),
  };
}

/** Reads `file` both ways and expects the same fields; resolves with the worker's metadata for more checks. */
async function expectAgreement(file: string, mimeType: string, fileName: string | null = null): Promise<MediaMetadata> {
  const meta = await extractMetadata(file, mimeType, undefined, fileName);
  const want = fromExifTool(await exiftoolJson(file));
  const got = fromWorker(meta);
  // A file without a date of its own: the date from its name is checked by the test.
  if (want.wallClock === null && fileName) got.wallClock = null;
  expect({ ...got, latitude: round(got.latitude), longitude: round(got.longitude) }).toEqual({
    ...want,
    latitude: round(want.latitude),
    longitude: round(want.longitude),
  });
  return meta;
}

const round = (v: number | null) => (v === null ? null : Math.round(v * 1e6) / 1e6);

describe('formats', () => {
  it('JPEG XL (bare codestream from ffmpeg, wrapped by ExifTool to carry EXIF): camera, date, exposure; size turned by orientation 6', async () => {
    const bare = dir.file('bare.jxl');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=96x64', '-frames:v', '1', '-c:v', 'libjxl', bare]);
    expect(await extractMetadata(bare, 'image/jxl')).toMatchObject({
      width: 96,
      height: 64,
      orientation: null,
      cameraMake: null,
      creationTime: null,
    });
    const jxl = await tagged(bare, 'exif.jxl', [
      ...camera('NIKON CORPORATION', 'NIKON D1X', '2004:06:21 23:37:53'),
      ...tagArgs({ FNumber: 5, ExposureTime: 0.008, FocalLength: 42, 'Orientation#': 6 }),
    ]);
    const meta = await expectAgreement(jxl, 'image/jxl');
    expect(meta).toMatchObject({
      width: 64,
      height: 96,
      orientation: 6,
      creationTime: '2004-06-21T23:37:53Z',
      creationTimeSource: 'exif',
    });
  });

  it("AVCHD M2TS (192-byte packets): date with zone, Sony and the model from the H.264 user data; size, rate, ExifTool's duration", async () => {
    const mts = dir.file('00001.mts');
    await avchdStream(
      mts,
      { date: [2019, 4, 24, 22, 24, 11], zoneHours: 2, dst: true, model: 'ILCE-7M3' },
      { m2ts: true },
    );
    const t = await exiftoolJson(mts);
    expect(t).toMatchObject({
      'File:FileType': 'M2TS',
      'H264:DateTimeOriginal': '2019:04:24 22:24:11+02:00 DST',
      'H264:Make': 0x0108,
    });
    expect(String(t['H264:Model']).trim()).toBe('ILCE-7M3');
    const meta = await extractMetadata(mts, 'video/m2ts');
    expect(meta).toMatchObject({
      creationTime: '2019-04-24T22:24:11+02:00',
      creationTimeSource: 'video',
      cameraMake: 'Sony',
      cameraModel: 'ILCE-7M3',
      width: 320,
      height: 180,
      fps: '25',
      videoCodec: 'h264',
      container: 'mpegts',
    });
    expect(meta.durationSeconds).toBeCloseTo(t['M2TS:Duration'] as number, 3);
  });

  it("MPEG-TS (188-byte packets) with the same user data, and one without any: the file name's date", async () => {
    const ts = dir.file('clip.ts');
    await avchdStream(ts, { date: [2021, 12, 31, 23, 59, 58], zoneHours: -5, dst: false, model: 'HDR-CX405' });
    expect(await extractMetadata(ts, 'video/mp2t')).toMatchObject({
      creationTime: '2021-12-31T23:59:58-05:00',
      cameraMake: 'Sony',
      cameraModel: 'HDR-CX405',
      fps: '25',
    });
    const plain = dir.file('plain.ts');
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=30:duration=1', ...H264_ARGS, '-f', 'mpegts', plain]);
    expect(await extractMetadata(plain, 'video/mp2t', undefined, 'VID_20220403_125611.ts')).toMatchObject({
      creationTime: '2022-04-03T12:56:11Z',
      creationTimeSource: 'file',
      cameraMake: null,
      width: 160,
      height: 90,
    });
  });
});

describe('patterns from real cameras', () => {
  let jpeg: string;
  let png: string;
  beforeAll(async () => {
    jpeg = dir.file('base.jpg');
    await image(64, 48).jpeg().toFile(jpeg);
    png = dir.file('base.png');
    await image(64, 48).png().toFile(png);
  });

  it('Nikon COOLPIX: a GPS IFD without GPSVersionID and an odd GPSImgDirection keeps camera, GPS and date', async () => {
    const withGps = await tagged(jpeg, 'coolpix-gps.jpg', [
      ...camera('NIKON', 'COOLPIX P900', '2019:08:01 10:11:12'),
      ...tagArgs({ FNumber: 3.3, ExposureTime: 0.002, ISO: 100, FocalLength: 4.3 }),
      ...gps(35.6586, 139.7454),
      ...tagArgs({ GPSImgDirection: 359.99, GPSImgDirectionRef: 'M' }),
    ]);
    const file = await tagged(withGps, 'coolpix.jpg', ['-GPS:GPSVersionID=']);
    const t = await exiftoolJson(file);
    expect(t['GPS:GPSVersionID']).toBeUndefined();
    const meta = await expectAgreement(file, 'image/jpeg');
    expect(meta.latitude).toBeCloseTo(35.6586, 4);
    // No offset in the file: the zone of Tokyo, from the position.
    expect(meta.creationTime).toBe('2019-08-01T10:11:12+09:00');
  });

  it('AVIF with EXIF (as Canon and Pentax write it), orientation 5 and 7, an auxiliary (alpha) image: exposure fields kept, size as stored', async () => {
    const avif = dir.file('base.avif');
    await sharp({ create: { width: 64, height: 48, channels: 4, background: { r: 200, g: 50, b: 50, alpha: 0.5 } } })
      .avif()
      .toFile(avif);
    for (const orientation of [5, 7]) {
      const file = await tagged(avif, `canon-${orientation}.avif`, [
        ...camera('Canon', 'Canon EOS R6', '2022:03:04 05:06:07'),
        ...tagArgs({ OffsetTimeOriginal: '+01:00', FNumber: 4, ExposureTime: 0.01, ISO: 800, FocalLength: 35 }),
        ...tagArgs({ 'Orientation#': orientation }),
      ]);
      const meta = await expectAgreement(file, 'image/avif');
      // HEIF-family: irot/imir turn the picture, EXIF orientation is not applied again (none here: stored size).
      expect(meta).toMatchObject({
        orientation,
        width: 64,
        height: 48,
        creationTime: '2022-03-04T05:06:07+01:00',
        isoEquivalent: '800',
      });
    }
  });

  it('PNG: EXIF in an eXIf chunk (ExifTool\'s way) and in ImageMagick\'s "Raw profile type exif" text chunk', async () => {
    const exifPng = await tagged(png, 'exif.png', [
      ...camera('PENTAX', 'PENTAX K-1', '2020:02:02 20:20:20'),
      '-FNumber=8',
      ...gps(-12.5, 100),
    ]);
    expect((await readFile(exifPng)).includes(Buffer.from('eXIf'))).toBe(true);
    await expectAgreement(exifPng, 'image/png');

    // ImageMagick keeps a JPEG's EXIF in a PNG as hex text: "\nexif\n   LEN\n<hex of Exif\0\0 + TIFF>".
    const source = await tagged(jpeg, 'for-profile.jpg', [
      ...camera('Canon', 'Canon PowerShot G7 X', '2018:05:06 07:08:09'),
      ...tagArgs({ ExposureTime: 0.004, ISO: 125 }),
    ]);
    const exif = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), await readTiff(source)]);
    const hex = exif.toString('hex').replace(/(.{72})/g, '$1\n');
    const profile = dir.file('profile.png');
    await writeFile(
      profile,
      withPngChunk(
        await readFile(png),
        'zTXt',
        Buffer.concat([
          Buffer.from('Raw profile type exif\0\0', 'latin1'),
          deflateSync(Buffer.from(`\nexif\n${String(exif.length).padStart(8)}\n${hex}\n`, 'latin1')),
        ]),
      ),
    );
    const t = await exiftoolJson(profile);
    expect(t['IFD0:Model']).toBe('Canon PowerShot G7 X');
    await expectAgreement(profile, 'image/png');
  });

  it('GPS only in XMP, as "26,34.951N" and as degree strings', async () => {
    const file = await tagged(jpeg, 'xmp-gps.jpg', [
      '-XMP-exif:GPSLatitude=26 34.951 N',
      '-XMP-exif:GPSLongitude=80 12.5 W',
      '-XMP-exif:DateTimeOriginal=2017:01:02 03:04:05',
    ]);
    expect(await exiftoolCli(['-b', '-XMP', file])).toContain('26,34.951N');
    const meta = await expectAgreement(file, 'image/jpeg');
    expect(meta.latitude).toBeCloseTo(26.58252, 4);
    expect(meta.longitude).toBeCloseTo(-80.20833, 4);
    const degrees = await image(32, 32)
      .jpeg()
      .withXmp(
        `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48 deg 51' 29.52&quot; N" exif:GPSLongitude="2 deg 17' 40.2&quot; E"/></rdf:RDF></x:xmpmeta>`,
      )
      .toBuffer();
    const paris = await expectAgreement(await dir.write('degrees.jpg', degrees), 'image/jpeg');
    expect(paris.latitude).toBeCloseTo(48.8582, 4);
    expect(paris.longitude).toBeCloseTo(2.2945, 4);
  });

  it('a model padded with a NUL and junk after it ("ION230\\0F") is cut at the NUL', async () => {
    const value = dir.file('model.txt');
    await writeFile(value, Buffer.from('ION230\0F', 'latin1'));
    const file = await tagged(jpeg, 'polaroid.jpg', ['-Make=Polaroid', `-Model<=${value}`]);
    expect((await readFile(file)).includes(Buffer.from('ION230\0F', 'latin1'))).toBe(true);
    expect(await expectAgreement(file, 'image/jpeg')).toMatchObject({ cameraMake: 'Polaroid', cameraModel: 'ION230' });
  });

  it('a JPEG cut off in its picture data (no end marker) keeps every field ExifTool reads from it', async () => {
    const big = dir.file('big.jpg');
    await noiseImage(800, 600).jpeg({ quality: 90 }).toFile(big);
    const file = await tagged(big, 'camera.jpg', [
      ...camera('OLYMPUS IMAGING CORP.', 'E-M5', '2015:05:05 15:05:05'),
      ...tagArgs({ FNumber: 2.8, ExposureTime: 0.0125, ISO: 200, FocalLength: 17 }),
    ]);
    const whole = await readFile(file);
    const cut = await dir.write('cut.jpg', cutOff(whole, 0.7));
    expect(await expectAgreement(cut, 'image/jpeg')).toMatchObject({ width: 800, height: 600, cameraModel: 'E-M5' });
  });

  it("AVI: the date in its INFO list (ICRD, ExifTool's RIFF:DateCreated) is the date taken, never the upload time", async () => {
    const avi = dir.file('MVI_0001.AVI');
    await ffmpeg([
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=0.5:size=64x48:rate=10',
      '-c:v',
      'mpeg4',
      '-metadata',
      'date=2019-05-01',
      avi,
    ]);
    expect((await exiftoolJson(avi))['RIFF:DateCreated']).toBe('2019:05:01');
    const meta = await extractMetadata(avi, 'video/x-msvideo');
    expect([meta.creationTime, meta.creationTimeSource]).toEqual(['2019-05-01T00:00:00Z', 'video']);
  });

  it('no date in the file: the date in its name (phone, Pixel, screenshot, WhatsApp patterns), else none', async () => {
    const names: Array<[string, string | null]> = [
      ['IMG_20220403_125611.jpg', '2022-04-03T12:56:11Z'],
      ['PXL_20230115_093012345.jpg', '2023-01-15T09:30:12Z'],
      ['Screenshot_2022-04-03-12-56-11.png', '2022-04-03T12:56:11Z'],
      ['IMG-20220403-WA0001.jpg', '2022-04-03T00:00:00Z'],
      ['holiday.jpg', null],
    ];
    for (const [name, creationTime] of names) {
      const meta = await expectAgreement(jpeg, 'image/jpeg', name);
      expect([name, meta.creationTime, meta.creationTimeSource]).toEqual([
        name,
        creationTime,
        creationTime ? 'file' : null,
      ]);
    }
  });
});

/** The TIFF block of a JPEG's APP1 Exif segment, as ImageMagick copies it. */
async function readTiff(jpegFile: string): Promise<Buffer> {
  const data = await readFile(jpegFile);
  for (let p = 2; p + 4 < data.length;) {
    const length = data.readUInt16BE(p + 2);
    if (data[p + 1] === 0xe1 && data.toString('latin1', p + 4, p + 10) === 'Exif\0\0')
      return data.subarray(p + 10, p + 2 + length);
    p += 2 + length;
  }
  throw new Error(`${jpegFile}: no Exif segment`);
}

/** `png` with one more chunk before IEND (CRC computed). */
function withPngChunk(png: Buffer, type: string, data: Buffer): Buffer {
  const iend = png.lastIndexOf(Buffer.from('IEND', 'latin1')) - 4;
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([png.subarray(0, iend), head, data, crc, png.subarray(iend)]);
}

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}
