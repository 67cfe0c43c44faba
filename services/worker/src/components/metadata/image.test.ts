import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { tempDirPerFile } from '@trove/kit/testing';
import { MediaError } from '../errors';
import {
  cornerImage,
  cr3Like,
  describeWithFixtures,
  dngLike,
  FIXTURES,
  HEIC_FIXTURE_FACTS,
  itWithFixtures,
  jpegWithExif,
  nefLike,
  noiseImage,
  orfLike,
} from '@trove/kit/testing/media';
import { closeExifTool, extractMetadata } from './index';
import { cutOff, testFrame } from '../../test-support.fake';

const dir = tempDirPerFile();
afterAll(() => closeExifTool());

const xmpPacket = (body: string) =>
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">${body}</rdf:RDF></x:xmpmeta>`;

describeWithFixtures('real phone photos (../shared/fixtures/photos)', () => {
  it('IMG_0543.HEIC: iPhone 12 mini, its camera settings, local time with offset, GPS, Live Photo id', async () => {
    const meta = await extractMetadata(join(FIXTURES, 'IMG_0543.HEIC'), 'image/heic');
    expect(meta).toMatchObject({
      ...HEIC_FIXTURE_FACTS,
      creationTimeSource: 'exif',
      orientation: 1,
      contentIdentifier: '599FEB0A-F64C-4A67-ABBE-2AE1A96A20EA',
      motionPhoto: false,
      xmpProjectionType: null,
      durationSeconds: null,
      videoCodec: null,
    });
    expect(meta.latitude).toBeCloseTo(19.0609, 4);
    expect(meta.longitude).toBeCloseTo(72.8269, 4);
  });

  it('jobs.jpeg: iPhone 15 Pro, portrait 1330x2364, GPS, not a Live Photo', async () => {
    const meta = await extractMetadata(join(FIXTURES, 'jobs.jpeg'), 'image/jpeg');
    expect(meta).toMatchObject({
      cameraMake: 'Apple',
      cameraModel: 'iPhone 15 Pro',
      creationTime: '2024-06-08T15:40:54.820+05:30',
      creationTimeSource: 'exif',
      width: 1330,
      height: 2364,
      apertureFNumber: '1.78',
      focalLength: '6.765',
      isoEquivalent: '160',
      exposureTime: '0.00826446',
      contentIdentifier: null,
      softwareHint: '17.4.1',
    });
    expect(meta.latitude).toBeCloseTo(11.0221, 4);
    expect(meta.longitude).toBeCloseTo(76.7419, 4);
  });
});

describe('generated images', () => {
  it('JPEG with EXIF orientation 6: displayed size swapped, southern/western GPS negative, exact number strings', async () => {
    const jpeg = await (
      await cornerImage(600, 400)
    )
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: 'TestCam', Model: 'Model X', Software: 'trove-test' },
        IFD2: {
          DateTimeOriginal: '2021:07:04 10:20:30',
          OffsetTimeOriginal: '-04:00',
          FNumber: '28/10',
          ExposureTime: '1/250',
          ISOSpeedRatings: '200',
          FocalLength: '50/1',
        },
        IFD3: {
          GPSLatitudeRef: 'S',
          GPSLatitude: '33/1 52/1 768/100',
          GPSLongitudeRef: 'W',
          GPSLongitude: '70/1 40/1 0/1',
        },
      })
      .toBuffer();
    const meta = await extractMetadata(await dir.write('rotated.jpg', jpeg), 'image/jpeg');
    expect(meta).toMatchObject({
      width: 400,
      height: 600,
      orientation: 6,
      cameraMake: 'TestCam',
      cameraModel: 'Model X',
      softwareHint: 'trove-test',
      apertureFNumber: '2.8',
      exposureTime: '0.004',
      isoEquivalent: '200',
      focalLength: '50',
      creationTime: '2021-07-04T10:20:30-04:00',
      creationTimeSource: 'exif',
      motionPhoto: false,
      contentIdentifier: null,
    });
    expect(meta.latitude).toBeCloseTo(-33.8688, 4);
    expect(meta.longitude).toBeCloseTo(-70.6667, 4);
  });

  it('JPEGs larger than exifr reads at once: every one of 24 keeps its EXIF (about one in five lost it when exifr read the file in chunks)', async () => {
    const jpegs = await Promise.all(
      Array.from({ length: 24 }, () =>
        jpegWithExif(
          noiseImage(1200, 900),
          { IFD0: { Make: 'Trove', Model: 'Test Camera' }, IFD2: { DateTimeOriginal: '2022:11:23 12:00:00' } },
          92,
        ),
      ),
    );
    const read = await Promise.all(
      jpegs.map(async (jpeg, i) => extractMetadata(await dir.write(`noise-${i}.jpg`, jpeg), 'image/jpeg')),
    );
    expect(read.map((m) => [m.cameraMake, m.creationTime])).toEqual(jpegs.map(() => ['Trove', '2022-11-23T12:00:00Z']));
  });

  it('PNG screenshot: XMP UserComment read, no camera, no date at all', async () => {
    const png = await sharp({
      create: { width: 390, height: 844, channels: 4, background: { r: 250, g: 250, b: 250, alpha: 1 } },
    })
      .png()
      .withXmp(
        xmpPacket(
          '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"><exif:UserComment><rdf:Alt><rdf:li xml:lang="x-default">Screenshot</rdf:li></rdf:Alt></exif:UserComment></rdf:Description>',
        ),
      )
      .toBuffer();
    const file = await dir.write('IMG_1234.PNG', png);
    const meta = await extractMetadata(file, 'image/png');
    // No date in the file nor its name: none (the contract puts the upload time in).
    expect(meta).toMatchObject({
      width: 390,
      height: 844,
      userComment: 'Screenshot',
      cameraMake: null,
      cameraModel: null,
      creationTime: null,
      creationTimeSource: null,
      latitude: null,
    });
  });

  it('a PNG whose XMP is a megabyte of unclosed elements is read in seconds, not minutes, its sound properties still found', async () => {
    // Each unclosed <a:UserComment> once made the reader search the rest of the packet for its end: minutes per file.
    const flood = '<a:UserComment>x'.repeat(64 * 1024);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: 'white' } })
      .png()
      .withXmp(
        xmpPacket(
          `<rdf:Description rdf:about="" xmlns:a="urn:a" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="Flooder 1.0">${flood}</rdf:Description>`,
        ),
      )
      .toBuffer();
    const file = await dir.write('flood.png', png);
    const started = Date.now();
    const meta = await extractMetadata(file, 'image/png');
    // The quadratic scan took minutes on this input; a linear one takes milliseconds (bound with room for a loaded machine).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(meta).toMatchObject({ width: 64, height: 64, softwareHint: 'Flooder 1.0', userComment: null });
  }, 30_000);

  it('WebP: EXIF read through the decoder, since exifr does not read WebP', async () => {
    const webp = await sharp({ create: { width: 300, height: 200, channels: 3, background: 'teal' } })
      .webp()
      .withExif({
        IFD0: { Make: 'Pixel Maker', Model: 'P1' },
        IFD2: { DateTimeOriginal: '2019:12:31 23:00:00', ExposureTime: '1/60' },
      })
      .toBuffer();
    const meta = await extractMetadata(await dir.write('a.webp', webp), 'image/webp');
    expect(meta).toMatchObject({
      width: 300,
      height: 200,
      cameraMake: 'Pixel Maker',
      cameraModel: 'P1',
      creationTime: '2019-12-31T23:00:00Z',
      exposureTime: '0.0166667',
    });
  });

  it('panorama and motion-photo XMP, and the Samsung motion-photo trailer', async () => {
    const base = sharp({ create: { width: 1200, height: 300, channels: 3, background: 'navy' } });
    const pano = await base
      .clone()
      .jpeg()
      .withXmp(
        xmpPacket(
          '<rdf:Description rdf:about="" xmlns:GPano="http://ns.google.com/photos/1.0/panorama/" GPano:ProjectionType="equirectangular" GPano:UsePanoramaViewer="True"/>',
        ),
      )
      .toBuffer();
    const motion = await base
      .clone()
      .jpeg()
      .withXmp(
        xmpPacket(
          '<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1"/>',
        ),
      )
      .toBuffer();
    const samsung = Buffer.concat([
      await base.clone().jpeg().toBuffer(),
      Buffer.from('MotionPhoto_Data'),
      Buffer.alloc(256, 1),
    ]);
    expect(await extractMetadata(await dir.write('pano.jpg', pano), 'image/jpeg')).toMatchObject({
      xmpProjectionType: 'equirectangular',
      motionPhoto: false,
      width: 1200,
      height: 300,
    });
    expect(await extractMetadata(await dir.write('motion.jpg', motion), 'image/jpeg')).toMatchObject({
      motionPhoto: true,
      xmpProjectionType: null,
    });
    expect(await extractMetadata(await dir.write('samsung.jpg', samsung), 'image/jpeg')).toMatchObject({
      motionPhoto: true,
    });
  });

  it('BMP (which the prebuilt libvips cannot read): size from its header', async () => {
    expect(await extractMetadata(await testFrame(dir.file('a.bmp')), 'image/bmp')).toMatchObject({
      width: 64,
      height: 48,
      cameraMake: null,
      creationTimeSource: null,
    });
  });
});

describe('raw-like files written by the test', () => {
  let preview: Buffer;
  beforeAll(async () => {
    preview = await (await cornerImage(300, 200)).jpeg().toBuffer();
  });

  const rawFacts = {
    exposureTime: '0.005',
    apertureFNumber: '5.6',
    isoEquivalent: '400',
    focalLength: '35',
    creationTime: '2020-02-29T23:59:58+01:00',
    creationTimeSource: 'exif',
  };

  it.each([
    {
      title: 'DNG: EXIF and GPS through exifr, size from the raw IFD (DefaultCropSize) turned by orientation 6',
      name: 'a.dng',
      raw: (jpeg: Buffer) => dngLike(jpeg, 6),
      mimeType: 'image/x-adobe-dng',
      fields: { cameraMake: 'Trove Cameras', cameraModel: 'RawMaker 1', orientation: 6, width: 400, height: 600 },
    },
    {
      title: 'CR3: EXIF, GPS and size from the CMT boxes',
      name: 'a.cr3',
      raw: (jpeg: Buffer) => cr3Like(jpeg, 8),
      mimeType: 'image/x-canon-cr3',
      fields: { cameraMake: 'Canon', cameraModel: 'Canon EOS R5', orientation: 8, width: 5464, height: 8192 },
    },
  ])('$title', async ({ name, raw, mimeType, fields }) => {
    const meta = await extractMetadata(await dir.write(name, raw(preview)), mimeType);
    expect(meta).toMatchObject({ ...rawFacts, ...fields });
    expect(meta.latitude).toBeCloseTo(48.8582, 4);
    expect(meta.longitude).toBeCloseTo(2.2945, 4);
  });

  it('NEF and ORF (private TIFF magic): EXIF read', async () => {
    expect(await extractMetadata(await dir.write('a.nef', nefLike(preview)), 'image/x-nikon-nef')).toMatchObject({
      ...rawFacts,
      cameraMake: 'NIKON CORPORATION',
      cameraModel: 'NIKON Z 6',
    });
    expect(await extractMetadata(await dir.write('a.orf', orfLike(preview)), 'image/x-olympus-orf')).toMatchObject({
      ...rawFacts,
      cameraMake: 'OLYMPUS CORPORATION',
      cameraModel: 'E-M1',
    });
  });
});

describe('broken files', () => {
  itWithFixtures(
    'reads a JPEG cut off in its picture data as viewers do, and rejects one cut off in its headers naming the file',
    async () => {
      const whole = await readFile(join(FIXTURES, 'jobs.jpeg'));
      const cut = await extractMetadata(await dir.write('cut.jpg', cutOff(whole, 1 / 2)), 'image/jpeg');
      expect(cut).toMatchObject({ cameraMake: 'Apple', cameraModel: 'iPhone 15 Pro', width: 1330, height: 2364 });
      const err = await extractMetadata(await dir.write('headers.jpg', whole.subarray(0, 64)), 'image/jpeg').catch(
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(MediaError);
      expect(err).toMatchObject({ kind: 'corrupt', message: expect.stringMatching(/headers\.jpg/) });
    },
  );

  itWithFixtures('rejects a truncated HEIC', async () => {
    const whole = await readFile(join(FIXTURES, 'IMG_0543.HEIC'));
    const file = await dir.write('cut.heic', whole.subarray(0, 100_000));
    await expect(extractMetadata(file, 'image/heic')).rejects.toMatchObject({ name: 'MediaError', kind: 'corrupt' });
  });

  it('rejects bytes that are not an image, and a missing file', async () => {
    const file = await dir.write('noise.webp', Buffer.from('RIFF\x10\0\0\0WEBPVP8 nonsense nonsense', 'latin1'));
    await expect(extractMetadata(file, 'image/webp')).rejects.toBeInstanceOf(MediaError);
    await expect(extractMetadata(dir.file('missing.jpg'), 'image/jpeg')).rejects.toMatchObject({ kind: 'tool' });
  });
});
