/**
 * THE mapping from ExifTool's tags (-G1 -n: `Group:Tag` → value) to the MediaItem's fields, with the order in
 * which the sources are trusted. docs/docs/user-guide/features/metadata.mdx ("Which date is taken") gives the
 * same table for users; change both together.
 *
 * Creation time, first usable one wins (all-zero and unparseable dates are skipped):
 *   1. ExifIFD:DateTimeOriginal (+ SubSecTimeOriginal, + OffsetTimeOriginal) — the shutter, in the camera's clock
 *   2. other DateTimeOriginal the camera writes outside EXIF: CanonRaw (CRW), H264 (AVCHD), then the
 *      QuickTime Keys:CreationDate (Apple, with its zone), UserData:DateTimeOriginal, RIFF:DateTimeOriginal
 *      (an AVI's IDIT chunk, as compact cameras write it)
 *   3. XMP-exif:DateTimeOriginal, XMP-photoshop:DateCreated, IPTC DateCreated + TimeCreated
 *   4. a maker note's DateTimeOriginal (FLIR, Reconyx, …)
 *   5. ExifIFD:CreateDate (+ SubSecTimeDigitized, + OffsetTimeDigitized)
 *   6. QuickTime:CreateDate / TrackCreateDate / MediaCreateDate — the container's, UTC by the QuickTime spec
 *   7. XMP-xmp:CreateDate, IFD0:ModifyDate (+ OffsetTime), GPS date and time (UTC), RIFF:DateCreated (an AVI's
 *      INFO ICRD, often a day without a time), an IPTC day without a time
 *   8. a date in the file name (IMG_20220403_125611, PXL_20220403_125611123, Screenshot_2022-04-03-12-56-11,
 *      WhatsApp IMG-20220403-WA0001, 20220403_125611, macOS "Screen Shot 2022-04-03 at 1.56.11 PM")
 *   9. otherwise null: the upload time stands in (contract.ts)
 * A date without a zone gets the zone of the photo's position when it has one (offline lookup of the time zone
 * at that place and time); otherwise it is written with "Z" (a local time in an unknown zone, kept as is).
 *
 * Camera: IFD0:Make/Model, else CanonRaw, QuickTime Keys/UserData/ItemList, XMP-tiff, GoPro, H264 (text cut at a
 * NUL, trimmed). Exposure: ExifIFD:FocalLength (mm), FNumber, ISO (first value), ExposureTime (s).
 * Position: Composite:GPSLatitude/GPSLongitude (ExifTool's from the GPS IFD, QuickTime), else XMP-exif's
 * signed GPSLatitude/GPSLongitude when the file has no GPS IFD latitude, else a QuickTime `lat lon`
 * GPSCoordinates; never (0, 0) or out of range.
 */
import { geoTz } from 'exiftool-vendored/dist/GeoTz';
import type { ExifTags } from './exiftool';
import { decimalString, validCoordinates } from './values';

/** A tag by exact `Group:Name`, or `*:Name` for the first group that has it. */
export function tag(tags: ExifTags, ...names: string[]): unknown {
  for (const name of names) {
    if (name.startsWith('*:')) {
      const suffix = name.slice(1);
      for (const [key, value] of Object.entries(tags)) if (key.endsWith(suffix) && usable(value)) return value;
    } else if (usable(tags[name])) return tags[name];
  }
  return undefined;
}

const usable = (value: unknown) => value !== undefined && value !== null && value !== '';

/** A text tag: cut at the first NUL (fixed-length fields padded or followed by junk), trimmed. */
export function text(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const s = value.replace(/\0[\s\S]*$/, '').trim();
  return s || null;
}

/** A number tag; ExifTool writes several values as "100 100" (ISO), the first counts. */
export function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const first = value.trim().split(/\s+/)[0];
  if (!first) return null;
  const m = /^(-?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(first);
  if (m) return Number(m[2]) ? Number(m[1]) / Number(m[2]) : null;
  const n = Number(first);
  return Number.isFinite(n) ? n : null;
}

/** A date as found: local wall-clock parts, and the offset when the file states one ("Z" for UTC). */
export interface FoundDate {
  local: string;
  offset: string | null;
  tag: string;
}

const DATE =
  /^(\d{4})[:-](\d{2})[:-](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?\s*(?:DST)?$/i;

/** ExifTool's "2022:04:03 12:56:11.991+05:30" (or an ISO-like form) as its parts; null for zeros, junk, 1904/1970 "unset" dates. */
export function parseDate(
  value: unknown,
  tagName: string,
  subSec?: unknown,
  offset?: unknown,
  opts: { utc?: boolean } = {},
): FoundDate | null {
  if (typeof value !== 'string') return null;
  const m = DATE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac, zone] = m;
  if (!validParts(+y, +mo, +d, +h, +mi, +s)) return null;
  if (opts.utc && +y <= 1970) return null;
  const sub =
    frac ??
    (typeof subSec === 'number' || typeof subSec === 'string' ? String(subSec).trim().replace(/\D.*$/, '') : '');
  const ms = sub ? `.${sub.slice(0, 3).padEnd(3, '0')}` : '';
  const stated =
    normaliseOffset(zone) ?? normaliseOffset(typeof offset === 'string' ? offset : null) ?? (opts.utc ? 'Z' : null);
  return { local: `${y}-${mo}-${d}T${h}:${mi}:${s}${ms}`, offset: stated, tag: tagName };
}

function validParts(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (y < 1800 || y > 2200 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

function normaliseOffset(offset: string | null | undefined): string | null {
  if (!offset) return null;
  const s = offset.trim();
  if (/^z$/i.test(s)) return 'Z';
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(s);
  if (!m || Number(m[2]) > 14 || Number(m[3]) > 59) return null;
  return `${m[1]}${m[2]}:${m[3]}`;
}

/** The creation-time sources in order (see the file comment). Each reads its tags and gives a date or null. */
const DATE_SOURCES: Array<(t: ExifTags) => FoundDate | null> = [
  (t) =>
    parseDate(
      t['ExifIFD:DateTimeOriginal'],
      'ExifIFD:DateTimeOriginal',
      t['ExifIFD:SubSecTimeOriginal'],
      t['ExifIFD:OffsetTimeOriginal'],
    ),
  (t) => parseDate(t['CanonRaw:DateTimeOriginal'], 'CanonRaw:DateTimeOriginal'),
  (t) => parseDate(t['H264:DateTimeOriginal'], 'H264:DateTimeOriginal'),
  (t) => parseDate(t['Keys:CreationDate'], 'Keys:CreationDate'),
  (t) => parseDate(t['UserData:DateTimeOriginal'], 'UserData:DateTimeOriginal'),
  (t) => parseDate(t['RIFF:DateTimeOriginal'], 'RIFF:DateTimeOriginal'),
  (t) => parseDate(t['XMP-exif:DateTimeOriginal'], 'XMP-exif:DateTimeOriginal'),
  (t) => parseDate(t['XMP-photoshop:DateCreated'], 'XMP-photoshop:DateCreated'),
  (t) => iptcDate(t),
  (t) => makerNoteDate(t),
  (t) =>
    parseDate(
      t['ExifIFD:CreateDate'],
      'ExifIFD:CreateDate',
      t['ExifIFD:SubSecTimeDigitized'],
      t['ExifIFD:OffsetTimeDigitized'],
    ),
  (t) => firstDate(t, ['QuickTime:CreateDate', 'Track1:TrackCreateDate', 'Track1:MediaCreateDate'], { utc: true }),
  (t) => parseDate(t['XMP-xmp:CreateDate'], 'XMP-xmp:CreateDate'),
  (t) => parseDate(t['IFD0:ModifyDate'], 'IFD0:ModifyDate', t['ExifIFD:SubSecTime'], t['ExifIFD:OffsetTime']),
  (t) =>
    parseDate(t['Composite:GPSDateTime'] ?? t['XMP-exif:GPSDateTime'], 'GPSDateTime', undefined, undefined, {
      utc: true,
    }),
  (t) => parseDate(t['RIFF:DateCreated'], 'RIFF:DateCreated'),
  (t) => iptcDate(t, true),
];

function firstDate(t: ExifTags, names: string[], opts: { utc?: boolean } = {}): FoundDate | null {
  for (const name of names) {
    const found = parseDate(t[name], name, undefined, undefined, opts);
    if (found) return found;
  }
  return null;
}

/** IPTC DateCreated + TimeCreated ("12:56:11+05:30"); a day without a time only `dayOnly`, after every full date. */
function iptcDate(t: ExifTags, dayOnly = false): FoundDate | null {
  const date = t['IPTC:DateCreated'];
  if (typeof date !== 'string') return null;
  const time = t['IPTC:TimeCreated'];
  if (typeof time !== 'string') return dayOnly ? parseDate(date, 'IPTC:DateCreated') : null;
  return parseDate(`${date} ${time}`, 'IPTC:DateCreated');
}

/** EXIF groups and containers that are not maker notes: their DateTimeOriginal is read above, or not at all. */
const NOT_MAKER_NOTES =
  /^(ExifIFD|IFD\d|SubIFD\d*|XMP-.*|IPTC|CanonRaw|H264|Keys|UserData|ItemList|QuickTime|Composite|File|System|ExifTool|GPS|InteropIFD|PNG|RIFF|Track\d+)$/;

function makerNoteDate(t: ExifTags): FoundDate | null {
  for (const [key, value] of Object.entries(t)) {
    const [group, name] = key.split(':');
    if (name !== 'DateTimeOriginal' || !group || NOT_MAKER_NOTES.test(group)) continue;
    const found = parseDate(value, key);
    if (found) return found;
  }
  return null;
}

/**
 * macOS screenshots and WhatsApp Desktop: "Screen Shot 2022-04-03 at 1.56.11 PM", "… at 9.05.01\u202fAM" (a narrow
 * no-break space since macOS 13), or a 24-hour "at 13.56.11": the hour may have one digit and a 12-hour clock.
 */
const AT_TIME_NAME =
  /((?:19|20)\d{2})-(\d{2})-(\d{2}) at (\d{1,2})[.:](\d{2})[.:](\d{2})(?:[\s\u202f\u00a0]*([AP])\.?M\.?(?![a-z]))?/i;

/** A date in a phone's or app's file name; local time, no zone. */
export function fileNameDate(fileName: string): FoundDate | null {
  const base = fileName.replace(/^.*[\\/]/, '');
  const at = AT_TIME_NAME.exec(base);
  if (at) {
    const [, y, mo, d, hour, mi, s, half] = at;
    let h = Number(hour);
    if (half && (h < 1 || h > 12)) return null;
    if (half) h = (h % 12) + (half.toUpperCase() === 'P' ? 12 : 0);
    if (validParts(+y, +mo, +d, h, +mi, +s) && +y >= 1990)
      return { local: `${y}-${mo}-${d}T${String(h).padStart(2, '0')}:${mi}:${s}`, offset: null, tag: 'FileName' };
  }
  const m =
    /(?:^|[^\d])((?:19|20)\d{2})[-_.]?(\d{2})[-_.]?(\d{2})(?:[-_ T.]?(?:at[ _])?(\d{2})[-_.:h]?(\d{2})[-_.:m]?(\d{2}))?(?!\d{1,2}(?:\D|$))/i.exec(
      base,
    );
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  if (!validParts(+y, +mo, +d, +h, +mi, +s) || +y < 1990) return null;
  return { local: `${y}-${mo}-${d}T${h}:${mi}:${s}`, offset: null, tag: 'FileName' };
}

/** The position ExifTool found, signed degrees; null when absent, (0, 0) or out of range. */
export function positionOf(t: ExifTags): { latitude: number; longitude: number } | null {
  const lat = num(t['Composite:GPSLatitude']);
  const lon = num(t['Composite:GPSLongitude']);
  if (lat !== null && lon !== null) return validCoordinates(lat, lon);
  // GPS only in XMP ("26,34.951N"): ExifTool builds no Composite:GPSLatitude from it (its GPSPosition has it), but
  // -n gives XMP's signed degrees. Not when the file has a GPS IFD latitude at all: one left empty (a Nikon GP-1
  // without a fix, its XMP filled in later by an editor) is no position to ExifTool, and so none here.
  const xmpLat = num(t['XMP-exif:GPSLatitude']);
  const xmpLon = num(t['XMP-exif:GPSLongitude']);
  if (xmpLat !== null && xmpLon !== null && !('GPS:GPSLatitude' in t)) return validCoordinates(xmpLat, xmpLon);
  // QuickTime's "lat lon alt". Not Composite:GPSPosition: ExifTool builds it from unsigned maker-note values too.
  const pair = tag(t, 'Keys:GPSCoordinates', 'UserData:GPSCoordinates', 'ItemList:GPSCoordinates');
  if (typeof pair === 'string') {
    const [a, b] = pair
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    return validCoordinates(a ?? null, b ?? null);
  }
  return null;
}

/** The UTC offset ("+02:00") in force at `local` wall-clock time where the photo was taken, from its position. */
export function offsetAt(position: { latitude: number; longitude: number }, local: string): string | null {
  let zone: string | undefined;
  try {
    zone = geoTz(position.latitude, position.longitude);
  } catch {
    return null;
  }
  if (!zone) return null;
  const asUtc = Date.parse(`${local}Z`);
  if (!Number.isFinite(asUtc)) return null;
  // The offset at the instant the wall-clock time denotes: guess with the offset at the wall time read as UTC, then correct once.
  const first = zoneOffsetMinutes(zone, asUtc);
  if (first === null) return null;
  const minutes = zoneOffsetMinutes(zone, asUtc - first * 60_000) ?? first;
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function zoneOffsetMinutes(zone: string, instant: number): number | null {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(instant))
      .find((p) => p.type === 'timeZoneName')?.value;
    if (!name) return null;
    if (name === 'GMT') return 0;
    const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : null;
  } catch {
    return null;
  }
}

/** The creation time as the contract writes it, and which tag gave it; the zone from the position when the file states none. */
export function creationTimeOf(
  t: ExifTags,
  fileName: string | null,
  position: { latitude: number; longitude: number } | null,
): FoundDate | null {
  let found: FoundDate | null = null;
  for (const source of DATE_SOURCES) {
    found = source(t);
    if (found) break;
  }
  found ??= fileName ? fileNameDate(fileName) : null;
  if (!found) return null;
  if (!found.offset && position) found = { ...found, offset: offsetAt(position, found.local) };
  return found;
}

/** "2022-04-03T12:56:11.991+05:30"; a local time in an unknown zone is written with "Z". */
export const isoOf = (date: FoundDate) => `${date.local}${date.offset ?? 'Z'}`;

const H264_MAKERS: Record<number, string> = { 0x0103: 'Panasonic', 0x0108: 'Sony', 0x1011: 'Canon', 0x1104: 'JVC' };

const MAKE_TAGS = [
  'IFD0:Make',
  'CanonRaw:Make',
  'Keys:Make',
  'UserData:Make',
  'ItemList:Make',
  'XMP-tiff:Make',
  'GoPro:Make',
];
const MODEL_TAGS = [
  'IFD0:Model',
  'CanonRaw:Model',
  'Keys:Model',
  'UserData:Model',
  'ItemList:Model',
  'XMP-tiff:Model',
  'GoPro:Model',
  'H264:Model',
];

/** Camera make and model. */
export function cameraOf(t: ExifTags): { make: string | null; model: string | null } {
  let make: string | null = null;
  for (const name of MAKE_TAGS) if ((make = text(t[name]))) break;
  if (!make) {
    const h264 = t['H264:Make'];
    make = typeof h264 === 'number' ? (H264_MAKERS[h264] ?? null) : text(h264);
  }
  let model: string | null = null;
  for (const name of MODEL_TAGS) if ((model = text(t[name]))) break;
  return { make, model };
}

/** The exposure fields as the contract's decimal strings. */
export function exposureOf(t: ExifTags): {
  focalLength: string | null;
  apertureFNumber: string | null;
  isoEquivalent: string | null;
  exposureTime: string | null;
} {
  const positive = (v: unknown) => {
    const n = num(v);
    return n !== null && n > 0 ? n : null;
  };
  return {
    focalLength: decimalString(positive(t['ExifIFD:FocalLength'])),
    apertureFNumber: decimalString(positive(t['ExifIFD:FNumber'])),
    isoEquivalent: decimalString(positive(t['ExifIFD:ISO'])),
    exposureTime: decimalString(positive(t['ExifIFD:ExposureTime'])),
  };
}
