/**
 * Pictures made on the spot with sharp: a picture whose corners tell its orientation, noise that
 * makes every file different, and the camera JPEG and screenshot PNG the suites upload.
 */
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';

/** The EXIF blocks sharp writes (`withExif`): IFD0 the camera, IFD2 the exposure, IFD3 GPS. */
export type Exif = Parameters<sharp.Sharp['withExif']>[0];

/**
 * A picture whose corners differ, so that rotations and mirrors are visible in pixels:
 * red top-left, green top-right, blue bottom-left, white bottom-right, on grey.
 */
export async function cornerImage(width: number, height: number): Promise<sharp.Sharp> {
  const w = Math.floor(width / 4);
  const h = Math.floor(height / 4);
  const square = (r: number, g: number, b: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: { r, g, b } } })
      .png()
      .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } }).composite([
    { input: await square(255, 0, 0), left: 0, top: 0 },
    { input: await square(0, 255, 0), left: width - w, top: 0 },
    { input: await square(0, 0, 255), left: 0, top: height - h },
    { input: await square(255, 255, 255), left: width - w, top: height - h },
  ]);
}

/** Dominant colour name of the pixel at (x, y) of an encoded image. */
export async function colourAt(
  image: Buffer,
  x: number,
  y: number,
): Promise<'red' | 'green' | 'blue' | 'white' | 'grey' | 'other'> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
  const near = (v: number, t: number) => Math.abs(v - t) < 60;
  if (near(r, 255) && near(g, 0) && near(b, 0)) return 'red';
  if (near(r, 0) && near(g, 255) && near(b, 0)) return 'green';
  if (near(r, 0) && near(g, 0) && near(b, 255)) return 'blue';
  if (near(r, 255) && near(g, 255) && near(b, 255)) return 'white';
  if (near(r, 128) && near(g, 128) && near(b, 128)) return 'grey';
  return 'other';
}

/** Random RGB pixels: every call makes different content (an upload is never a duplicate) that takes real work to encode. */
export function noiseImage(width: number, height: number): sharp.Sharp {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });
}

export async function noiseJpeg(width = 1600, height = 1200): Promise<Buffer> {
  return noiseImage(width, height).jpeg({ quality: 85 }).toBuffer();
}

export async function noisePng(width = 96, height = 64): Promise<Buffer> {
  return noiseImage(width, height).png().toBuffer();
}

/** A plain-colour picture (cheap to make and to process). */
export function plainImage(width: number, height: number, colour: string): sharp.Sharp {
  return sharp({ create: { width, height, channels: 3, background: colour } });
}

const svg = (body: string) =>
  sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">${body}</svg>`));

/**
 * 1600×1200 pictures with nothing in them for a detector to find (no object, no face), by name:
 * what the vision components must stay silent on.
 */
export const SYNTHETIC_PATTERNS = {
  gradient: () =>
    svg(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>',
    ),
  noise: () =>
    sharp({
      create: {
        width: 1600,
        height: 1200,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    }),
  white: () => plainImage(1600, 1200, '#ffffff'),
  black: () => plainImage(1600, 1200, '#000000'),
  orange: () => plainImage(1600, 1200, '#e07020'),
  checkerboard: () =>
    svg(
      '<defs><pattern id="c" width="200" height="200" patternUnits="userSpaceOnUse"><rect width="200" height="200" fill="#fff"/><rect width="100" height="100" fill="#000"/><rect x="100" y="100" width="100" height="100" fill="#000"/></pattern></defs><rect width="100%" height="100%" fill="url(#c)"/>',
    ),
  'concentric circles': () =>
    svg(
      [...Array(12).keys()]
        .map((i) => `<circle cx="800" cy="600" r="${550 - i * 45}" fill="${i % 2 ? '#fff' : '#222'}"/>`)
        .join(''),
    ),
} satisfies Record<string, () => sharp.Sharp>;

export type SyntheticPattern = keyof typeof SYNTHETIC_PATTERNS;

/** `date` as EXIF writes dates and times: `YYYY:MM:DD HH:MM:SS` (local fields, no zone). */
export function exifDateTime(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}:${p(date.getMonth() + 1)}:${p(date.getDate())} ${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

/** `image` as a JPEG carrying `exif`. */
export async function jpegWithExif(image: sharp.Sharp, exif: Exif, quality = 90): Promise<Buffer> {
  return image.jpeg({ quality }).withExif(exif).toBuffer();
}

/**
 * A 1200x800 corner-picture JPEG by camera "TroveCam T1 Mark II" (f/2.8, 1/250 s, ISO 200, 50 mm),
 * taken 24 June 2019 18:15:12 +02:00 in Amsterdam (52.3702 N, 4.8952 E).
 */
export async function cameraJpeg(): Promise<Buffer> {
  return jpegWithExif(await cornerImage(1200, 800), {
    IFD0: { Make: 'TroveCam', Model: 'T1 Mark II' },
    IFD2: {
      DateTimeOriginal: '2019:06:24 18:15:12',
      OffsetTimeOriginal: '+02:00',
      FNumber: '28/10',
      ExposureTime: '1/250',
      ISOSpeedRatings: '200',
      FocalLength: '50/1',
    },
    IFD3: {
      GPSLatitudeRef: 'N',
      GPSLatitude: '52/1 22/1 1272/100',
      GPSLongitudeRef: 'E',
      GPSLongitude: '4/1 53/1 4272/100',
    },
  });
}

/** The EXIF GPS block (IFD3) of a position in degrees, as cameras write it (degrees, minutes, seconds). */
export function gpsExif(latitude: number, longitude: number): NonNullable<Exif['IFD3']> {
  const dms = (deg: number) => {
    const abs = Math.abs(deg);
    const d = Math.floor(abs);
    const m = Math.floor((abs - d) * 60);
    const s = Math.round(((abs - d) * 60 - m) * 60 * 100);
    return `${d}/1 ${m}/1 ${s}/100`;
  };
  return {
    GPSLatitudeRef: latitude >= 0 ? 'N' : 'S',
    GPSLatitude: dms(latitude),
    GPSLongitudeRef: longitude >= 0 ? 'E' : 'W',
    GPSLongitude: dms(longitude),
  };
}

/** A 320x240 JPEG of noise (new content every time) by "TroveCam T1", taken 1 June 2024 12:00 +02:00 at `latitude`, `longitude`. */
export async function jpegAt(latitude: number, longitude: number): Promise<Buffer> {
  return jpegWithExif(
    noiseImage(320, 240),
    {
      IFD0: { Make: 'TroveCam', Model: 'T1' },
      IFD2: { DateTimeOriginal: '2024:06:01 12:00:00', OffsetTimeOriginal: '+02:00' },
      IFD3: gpsExif(latitude, longitude),
    },
    80,
  );
}

/** A phone-sized (390x844) RGBA PNG with nothing in it but pixels: with a screenshot-like name it is a screenshot. */
export async function screenshotPng(): Promise<Buffer> {
  return sharp({ create: { width: 390, height: 844, channels: 4, background: { r: 240, g: 240, b: 250, alpha: 1 } } })
    .composite([{ input: await plainImage(390, 60, 'navy').png().toBuffer(), left: 0, top: 0 }])
    .png()
    .toBuffer();
}
