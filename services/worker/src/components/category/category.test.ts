import { join } from 'node:path';
import { tempDirPerFile } from '@trove/kit/testing';
import { closeExifTool, extractMetadata } from '../metadata';
import type { MediaMetadata } from '../metadata/types';
import { emptyMetadata } from '../metadata/types';
import {
  FIXTURES,
  H264_ARGS,
  itWithFixtures,
  jpegWithExif,
  plainImage,
  HEIC_FIXTURE_PAIRING_ID,
  ffmpeg,
  testClipArgs,
} from '@trove/kit/testing/media';
import { detectCategory } from './index';
import { appleMovArgs } from '../../test-support.fake';

// ExifTool's processes (the metadata reads start them) end with the suite, not with jest's worker: each test file has a pool of its own.
afterAll(() => closeExifTool());

const dir = tempDirPerFile();

const xmpPacket = (body: string) =>
  `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" ${body}/></rdf:RDF></x:xmpmeta>`;

/** The XMP namespaces the categories are read from. */
const XMP_NAMESPACES = {
  exif: 'http://ns.adobe.com/exif/1.0/',
  GPano: 'http://ns.google.com/photos/1.0/panorama/',
  GCamera: 'http://ns.google.com/photos/1.0/camera/',
};
/** One XMP property as attributes of a description: its namespace declared, then `prefix:name="value"`. */
const xmpProperty = (prefix: keyof typeof XMP_NAMESPACES, name: string, value: string) =>
  `xmlns:${prefix}="${XMP_NAMESPACES[prefix]}" ${prefix}:${name}="${value}"`;

/** Writes `data` as `filename`, reads its metadata and categorises it under that name. */
async function categoryOf(filename: string, mimeType: string, data: Buffer): Promise<string> {
  const file = await dir.write(filename, data);
  return detectCategory(await extractMetadata(file, mimeType), { filename, mimeType });
}

const plainPng = (width: number, height: number) => plainImage(width, height, 'white').png();
/** A plain JPEG of that size, with an XMP packet of `xmp` (its description's attributes) when given. */
const plainJpeg = (width: number, height: number, background: string, xmp?: string) => {
  const jpeg = plainImage(width, height, background).jpeg();
  return (xmp ? jpeg.withXmp(xmpPacket(xmp)) : jpeg).toBuffer();
};

describe('detectCategory on real and generated files', () => {
  itWithFixtures(
    'the HEIC fixture, the still of a Live Photo, is an ordinary photo on its own (media pairs it); so is jobs.jpeg',
    async () => {
      const heic = await extractMetadata(join(FIXTURES, 'IMG_0543.HEIC'), 'image/heic');
      const jpeg = await extractMetadata(join(FIXTURES, 'jobs.jpeg'), 'image/jpeg');
      expect(heic.contentIdentifier).toBe(HEIC_FIXTURE_PAIRING_ID);
      expect(detectCategory(heic, { filename: 'IMG_0543.HEIC', mimeType: 'image/heic' })).toBe('default');
      expect(detectCategory(jpeg, { filename: 'jobs.jpeg', mimeType: 'image/jpeg' })).toBe('default');
    },
  );

  it('screenshots: by name or by what the file says, never with a camera', async () => {
    expect(
      await categoryOf('Screenshot 2024-01-05 at 10.11.12.png', 'image/png', await plainPng(1440, 900).toBuffer()),
    ).toBe('screenshot');
    expect(
      await categoryOf('Bildschirmfoto 2024-01-05 um 10.11.12.png', 'image/png', await plainPng(1440, 900).toBuffer()),
    ).toBe('screenshot');
    expect(await categoryOf('Capture d’écran 2024-01-05.png', 'image/png', await plainPng(1440, 900).toBuffer())).toBe(
      'screenshot',
    );
    const iosScreenshot = await plainPng(1170, 2532)
      .withXmp(xmpPacket(xmpProperty('exif', 'UserComment', 'Screenshot')))
      .toBuffer();
    expect(await categoryOf('IMG_1234.PNG', 'image/png', iosScreenshot)).toBe('screenshot');
    expect(await categoryOf('IMG_1235.PNG', 'image/png', await plainPng(1170, 2532).toBuffer())).toBe('default');
    const cameraPhoto = await jpegWithExif(plainImage(400, 300, 'green'), { IFD0: { Make: 'Canon', Model: 'EOS R5' } });
    expect(await categoryOf('screenshot.jpg', 'image/jpeg', cameraPhoto)).toBe('default');
  });

  it('a long scrolling screenshot is a screenshot, not a panorama', async () => {
    expect(await categoryOf('Screenshot_20240105-101112.png', 'image/png', await plainPng(400, 3000).toBuffer())).toBe(
      'screenshot',
    );
  });

  it('panoramas: by projection type, or by an aspect ratio of 2.5:1 or more', async () => {
    const sphere = await plainJpeg(800, 400, 'blue', xmpProperty('GPano', 'ProjectionType', 'equirectangular'));
    expect(await categoryOf('PANO_0001.jpg', 'image/jpeg', sphere)).toBe('panorama');
    const wide = await plainJpeg(1000, 400, 'blue');
    expect(await categoryOf('IMG_2000.jpg', 'image/jpeg', wide)).toBe('panorama');
    const notWide = await plainJpeg(990, 400, 'blue');
    expect(await categoryOf('IMG_2001.jpg', 'image/jpeg', notWide)).toBe('default');
  });

  it('motion photos: Google XMP', async () => {
    const motion = await plainJpeg(400, 300, 'red', xmpProperty('GCamera', 'MotionPhoto', '1'));
    expect(await categoryOf('PXL_20240105_101112.MP.jpg', 'image/jpeg', motion)).toBe('motion');
  });

  it('videos: slow motion by capture rate, by a high frame rate; the motion part of a Live Photo is an ordinary video', async () => {
    const slow = dir.file('slow.mp4');
    await ffmpeg([...testClipArgs({ seconds: 0.5, size: '64x48', rate: 120, audio: false }), ...H264_ARGS, slow]);
    const slowMeta = await extractMetadata(slow, 'video/mp4');
    expect(detectCategory(slowMeta, { filename: 'slow.mp4', mimeType: 'video/mp4' })).toBe('slow');

    const normal = dir.file('normal.mp4');
    await ffmpeg([...testClipArgs({ seconds: 0.5, size: '64x48', audio: false }), ...H264_ARGS, normal]);
    expect(
      detectCategory(await extractMetadata(normal, 'video/mp4'), { filename: 'normal.mp4', mimeType: 'video/mp4' }),
    ).toBe('default');

    const live = dir.file('IMG_0543.MOV');
    await ffmpeg([
      '-i',
      normal,
      '-c',
      'copy',
      ...appleMovArgs({ 'content.identifier': HEIC_FIXTURE_PAIRING_ID }),
      live,
    ]);
    const liveMeta = await extractMetadata(live, 'video/quicktime');
    expect(liveMeta.contentIdentifier).toBe(HEIC_FIXTURE_PAIRING_ID);
    expect(detectCategory(liveMeta, { filename: 'IMG_0543.MOV', mimeType: 'video/quicktime' })).toBe('default');
  });
});

describe('detectCategory rules on constructed metadata', () => {
  const photo = { filename: 'IMG_1.JPG', mimeType: 'image/jpeg' };
  const video = { filename: 'IMG_1.MOV', mimeType: 'video/quicktime' };
  const meta = (fields: Partial<MediaMetadata>): MediaMetadata => ({ ...emptyMetadata(), ...fields });

  it('slow: an iPhone slo-mo that plays at 30 fps but was captured at 240', () => {
    expect(detectCategory(meta({ fps: '30', captureFps: '240', durationSeconds: 5 }), video)).toBe('slow');
    expect(detectCategory(meta({ fps: '120', durationSeconds: null }), video)).toBe('default');
    expect(detectCategory(meta({ fps: '60', captureFps: '60', durationSeconds: 5 }), video)).toBe('default');
  });

  it('precedence: motion over panorama over screenshot; a Live Photo pairing id alone changes nothing', () => {
    const everything = meta({
      contentIdentifier: 'X',
      motionPhoto: true,
      xmpProjectionType: 'cylindrical',
      width: 4000,
      height: 1000,
      userComment: 'Screenshot',
    });
    expect(detectCategory(everything, photo)).toBe('motion');
    expect(detectCategory(meta({ contentIdentifier: 'X' }), photo)).toBe('default');
    expect(detectCategory(meta({ contentIdentifier: 'X' }), video)).toBe('default');
    expect(detectCategory({ ...everything, contentIdentifier: null }, photo)).toBe('motion');
    expect(detectCategory({ ...everything, contentIdentifier: null, motionPhoto: false }, photo)).toBe('panorama');
    expect(
      detectCategory({ ...everything, contentIdentifier: null, motionPhoto: false, xmpProjectionType: null }, photo),
    ).toBe('screenshot');
  });

  it('photo-only rules do not apply to videos, and a wide photo may be portrait', () => {
    expect(detectCategory(meta({ width: 4000, height: 1000, motionPhoto: true }), video)).toBe('default');
    expect(detectCategory(meta({ width: 1000, height: 2500 }), photo)).toBe('panorama');
    expect(detectCategory(meta({ width: null, height: null }), photo)).toBe('default');
  });
});
