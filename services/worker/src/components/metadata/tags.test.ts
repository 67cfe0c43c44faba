/**
 * The ExifTool tag → MediaItem field table (tags.ts, from-tags.ts) on synthesized tag objects, as ExifTool
 * gives them with -G1 -n; and the real ExifTool (pool, time limit) on files the test makes.
 */
import { writeFile } from 'node:fs/promises';
import { tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { MediaError } from '../errors';
import { existsSync } from 'node:fs';
import { cornerImage, dngLike, jpegWithExif, plainImage } from '@trove/kit/testing/media';
import {
  closeExifTool,
  configureExifTool,
  DEFAULT_EXIFTOOL_PROCS,
  DEFAULT_EXIFTOOL_TIMEOUT_SECONDS,
  exifToolRawPreview,
  readTags,
} from './exiftool';
import { metadataFromTags } from './from-tags';
import { cameraOf, creationTimeOf, fileNameDate, isoOf, offsetAt, positionOf } from './tags';

const created = (tags: Record<string, unknown>, fileName: string | null = null) => {
  const found = creationTimeOf(tags, fileName, positionOf(tags));
  return found && { iso: isoOf(found), tag: found.tag };
};

describe('creation time precedence', () => {
  it('DateTimeOriginal with sub-seconds and its offset first', () => {
    expect(
      created({
        'ExifIFD:DateTimeOriginal': '2022:04:03 12:56:11',
        'ExifIFD:SubSecTimeOriginal': '991',
        'ExifIFD:OffsetTimeOriginal': '+05:30',
        'ExifIFD:CreateDate': '2021:01:01 00:00:00',
      }),
    ).toEqual({ iso: '2022-04-03T12:56:11.991+05:30', tag: 'ExifIFD:DateTimeOriginal' });
  });
  it('all-zero DateTimeOriginal skipped for CreateDate, then XMP, then QuickTime (UTC), then the file name', () => {
    expect(
      created({ 'ExifIFD:DateTimeOriginal': '0000:00:00 00:00:00', 'ExifIFD:CreateDate': '2021:05:06 07:08:09' })?.tag,
    ).toBe('ExifIFD:CreateDate');
    expect(
      created({ 'XMP-exif:DateTimeOriginal': '2020:01:02 03:04:05', 'ExifIFD:CreateDate': '2021:05:06 07:08:09' })?.tag,
    ).toBe('XMP-exif:DateTimeOriginal');
    expect(
      created({ 'Keys:CreationDate': '2021:04:10 11:43:59+01:00', 'QuickTime:CreateDate': '2021:04:10 10:44:00' }),
    ).toEqual({ iso: '2021-04-10T11:43:59+01:00', tag: 'Keys:CreationDate' });
    expect(created({ 'QuickTime:CreateDate': '2019:11:18 15:45:32' })).toEqual({
      iso: '2019-11-18T15:45:32Z',
      tag: 'QuickTime:CreateDate',
    });
    expect(created({ 'QuickTime:CreateDate': '1904:01:01 00:00:00' }, 'IMG_20220403_125611.jpg')).toEqual({
      iso: '2022-04-03T12:56:11Z',
      tag: 'FileName',
    });
    expect(created({}, 'notes.jpg')).toBeNull();
  });
  it('a maker-note date before CreateDate; a day-only IPTC date after ModifyDate', () => {
    expect(
      created({ 'FLIR:DateTimeOriginal': '2021:05:16 12:27:36.000-07:00', 'ExifIFD:CreateDate': '2021:01:01 00:00:00' })
        ?.iso,
    ).toBe('2021-05-16T12:27:36.000-07:00');
    expect(created({ 'IPTC:DateCreated': '2004:02:20', 'IFD0:ModifyDate': '2004:02:20 08:07:49' })?.tag).toBe(
      'IFD0:ModifyDate',
    );
    expect(
      created({
        'IPTC:DateCreated': '2004:02:20',
        'IPTC:TimeCreated': '08:07:49+01:00',
        'IFD0:ModifyDate': '2005:02:20 08:07:49',
      })?.iso,
    ).toBe('2004-02-20T08:07:49+01:00');
  });
  it("an AVI's IDIT (RIFF:DateTimeOriginal) before CreateDate; its INFO date (RIFF:DateCreated) before the file name", () => {
    expect(created({ 'RIFF:DateTimeOriginal': '2009:07:14 18:22:05', 'RIFF:DateCreated': '2009:07:15' })?.tag).toBe(
      'RIFF:DateTimeOriginal',
    );
    expect(created({ 'RIFF:DateCreated': '2009:07:15' }, 'IMG_20220403_125611.avi')).toEqual({
      iso: '2009-07-15T00:00:00Z',
      tag: 'RIFF:DateCreated',
    });
  });
  it('the zone from the position when the file states none, daylight saving included', () => {
    const paris = {
      'ExifIFD:DateTimeOriginal': '2019:06:24 18:15:12',
      'Composite:GPSLatitude': 48.8582,
      'Composite:GPSLongitude': 2.2945,
    };
    expect(created(paris)?.iso).toBe('2019-06-24T18:15:12+02:00');
    expect(created({ ...paris, 'ExifIFD:DateTimeOriginal': '2019:01:24 18:15:12' })?.iso).toBe(
      '2019-01-24T18:15:12+01:00',
    );
    expect(offsetAt({ latitude: 19.0609, longitude: 72.8269 }, '2022-04-03T12:56:11')).toBe('+05:30');
    // A stated offset is kept.
    expect(created({ ...paris, 'ExifIFD:OffsetTimeOriginal': '+05:30' })?.iso).toBe('2019-06-24T18:15:12+05:30');
  });
});

describe('file-name dates', () => {
  it.each([
    ['IMG_20220403_125611.jpg', '2022-04-03T12:56:11'],
    ['PXL_20220403_125611123.jpg', '2022-04-03T12:56:11'],
    ['Screenshot_2022-04-03-12-56-11.png', '2022-04-03T12:56:11'],
    ['IMG-20220403-WA0001.jpg', '2022-04-03T00:00:00'],
    ['Screen Shot 2022-04-03 at 1.56.11 PM.png', '2022-04-03T13:56:11'],
    ['Screen Shot 2022-04-03 at 11.56.11 PM.png', '2022-04-03T23:56:11'],
    ['Screenshot 2023-04-03 at 9.05.01\u202fAM.png', '2023-04-03T09:05:01'],
    ['Screen Shot 2022-04-03 at 12.05.01 AM.png', '2022-04-03T00:05:01'],
    ['Screenshot 2022-04-03 at 13.56.11.png', '2022-04-03T13:56:11'],
    ['WhatsApp Image 2022-04-03 at 9.56.11 PM.jpeg', '2022-04-03T21:56:11'],
    ['20220403_125611.mp4', '2022-04-03T12:56:11'],
    ['VID_20220403_125611.mp4', '2022-04-03T12:56:11'],
  ])('%s → %s', (name, local) => expect(fileNameDate(name)?.local).toBe(local));
  it.each(['DSC_0001.JPG', 'IMG_1234.jpg', 'IMG_20221403_125611.jpg', 'photo.jpg'])('%s → none', (name) =>
    expect(fileNameDate(name)).toBeNull(),
  );
});

describe('camera, position and exposure', () => {
  it('text cut at a NUL and trimmed; makes from QuickTime and H264 when EXIF has none', () => {
    expect(cameraOf({ 'IFD0:Make': 'Polaroid ', 'IFD0:Model': 'ION230\u0000F' })).toEqual({
      make: 'Polaroid',
      model: 'ION230',
    });
    expect(cameraOf({ 'Keys:Make': 'Apple', 'Keys:Model': 'iPhone 6s' })).toEqual({
      make: 'Apple',
      model: 'iPhone 6s',
    });
    expect(cameraOf({ 'H264:Make': 0x0108, 'H264:Model': 'ILCE-7M3' })).toEqual({ make: 'Sony', model: 'ILCE-7M3' });
  });
  it('position from ExifTool composite (GPS IFD), XMP when there is no GPS IFD latitude, QuickTime coordinates; never (0, 0)', () => {
    expect(positionOf({ 'Composite:GPSLatitude': 26.58251, 'Composite:GPSLongitude': -80.1 })).toEqual({
      latitude: 26.58251,
      longitude: -80.1,
    });
    expect(positionOf({ 'Keys:GPSCoordinates': '19.0609 72.8269 21.8' })).toEqual({
      latitude: 19.0609,
      longitude: 72.8269,
    });
    expect(positionOf({ 'Composite:GPSLatitude': 0, 'Composite:GPSLongitude': 0 })).toBeNull();
    expect(positionOf({ 'Composite:GPSPosition': '34.07 118.25' })).toBeNull();
    // XMP only: its signed degrees. A GPS IFD whose latitude is empty (no fix) wins over XMP, as in ExifTool.
    expect(positionOf({ 'XMP-exif:GPSLatitude': 26.58252, 'XMP-exif:GPSLongitude': -80.2 })).toEqual({
      latitude: 26.58252,
      longitude: -80.2,
    });
    expect(
      positionOf({
        'GPS:GPSLatitude': '',
        'GPS:GPSLatitudeRef': 'N',
        'Composite:GPSLatitude': '',
        'XMP-exif:GPSLatitude': 48.89,
        'XMP-exif:GPSLongitude': 21.04,
      }),
    ).toBeNull();
  });
  it('exposure fields as decimal strings, ISO the first value', () => {
    const meta = metadataFromTags(
      {
        'ExifIFD:FocalLength': 4.25,
        'ExifIFD:FNumber': 1.8,
        'ExifIFD:ISO': '40 40',
        'ExifIFD:ExposureTime': 0.00826446281,
        'IFD0:Orientation': 6,
      },
      null,
    );
    expect(meta).toMatchObject({
      focalLength: '4.25',
      apertureFNumber: '1.8',
      isoEquivalent: '40',
      exposureTime: '0.00826446',
      orientation: 6,
      creationTime: null,
    });
  });
});

describe('the real ExifTool', () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await tempDir('trove-exiftool-');
  });
  afterAll(async () => {
    await closeExifTool();
    configureExifTool({ procs: DEFAULT_EXIFTOOL_PROCS, timeoutSeconds: DEFAULT_EXIFTOOL_TIMEOUT_SECONDS });
    await dir.remove();
  });

  it('reads EXIF the test wrote, and never writes to the original', async () => {
    const jpeg = await jpegWithExif(plainImage(40, 30, 'red'), {
      IFD0: { Make: 'Trove', Model: 'Test Cam' },
      IFD2: { DateTimeOriginal: '2021:07:10 20:39:25', OffsetTimeOriginal: '+01:00' },
    });
    const file = dir.file('exif.jpg');
    await writeFile(file, jpeg);
    const meta = metadataFromTags(await readTags(file), 'exif.jpg');
    expect(meta).toMatchObject({
      cameraMake: 'Trove',
      cameraModel: 'Test Cam',
      creationTime: '2021-07-10T20:39:25+01:00',
    });
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(file)).equals(jpeg)).toBe(true);
  });

  it("a raw's largest embedded JPEG and its orientation, the temporary copy removed; none in a raw without one", async () => {
    const small = await (await cornerImage(160, 120)).jpeg().toBuffer();
    const large = await (await cornerImage(300, 200)).jpeg().toBuffer();
    const dng = dir.file('a.dng');
    await writeFile(dng, dngLike(large, 6));
    expect(await exifToolRawPreview(dng)).toEqual({ jpeg: large, orientation: 6 });
    expect(existsSync(`${dng}.embedded-preview.jpg`)).toBe(false);
    const none = dir.file('none.jpg');
    await writeFile(none, small);
    expect(await exifToolRawPreview(none)).toBeNull();
  });

  it('a read past the time limit is stopped and fails with a reason', async () => {
    await closeExifTool();
    // Far below ExifTool's own time for any file: the read cannot finish in time.
    configureExifTool({ timeoutSeconds: 0.001 });
    const file = dir.file('slow.jpg');
    await writeFile(file, await plainImage(4000, 3000, 'blue').jpeg().toBuffer());
    const err = await readTags(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect((err as MediaError).message).toMatch(/took longer than/);
    await closeExifTool();
    configureExifTool({ timeoutSeconds: DEFAULT_EXIFTOOL_TIMEOUT_SECONDS });
    expect((await readTags(file))['File:ImageWidth']).toBe(4000);
  });
});
