/**
 * Normalisation of metadata values into what MediaMetadata promises: decimal strings without
 * fractions or trailing zeros, ISO 8601 times, signed coordinates.
 */

/** 6 significant digits, then no trailing zeros and never exponent notation: 0.04 → "0.04", 1/3 → "0.333333". */
export function decimalString(value: number | null | undefined): string | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const rounded = Number(value.toPrecision(6));
  let s = String(rounded);
  if (s.includes('e')) s = rounded.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}

/** A number from ExifTool/ffprobe output that may be a number, a numeric string, an array or "N/A". */
export function toNumber(value: unknown): number | null {
  if (Array.isArray(value)) return toNumber(value[0]);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return null;
}

/** "30000/1001" → 29.97…; "0/0" → null. */
export function fraction(value: unknown): number | null {
  if (typeof value !== 'string') return toNumber(value);
  const m = /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(value.trim());
  if (!m) return toNumber(value);
  const d = Number(m[2]);
  return d ? Number(m[1]) / d : null;
}

export function nonEmptyString(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const s = value.replace(/\0+$/, '').trim();
  return s || null;
}

const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** "+0530" / "+05:30" → "+05:30"; "Z" stays "Z"; anything else → null. */
export function normaliseOffset(offset: string | null | undefined): string | null {
  if (!offset) return null;
  const s = offset.trim();
  if (s === 'Z') return 'Z';
  const m = OFFSET.exec(s);
  if (!m || Number(m[2]) > 14 || Number(m[3]) > 59) return null;
  return `${m[1]}${m[2]}:${m[3]}`;
}

/**
 * An EXIF "YYYY:MM:DD HH:MM:SS" with its sub-seconds and OffsetTime* as ISO 8601, in the local time
 * the camera recorded. EXIF has no zone of its own: without an OffsetTime tag the local time is
 * taken as UTC ("Z"), which at worst misplaces a photo by the photographer's UTC offset.
 */
export function exifDateTime(value: unknown, subSeconds?: unknown, offset?: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  if (!validDateParts(+y, +mo, +d, +h, +mi, +s)) return null;
  const sub =
    typeof subSeconds === 'string' || typeof subSeconds === 'number'
      ? String(subSeconds).trim().replace(/\D.*$/, '').slice(0, 3)
      : '';
  const zone = normaliseOffset(typeof offset === 'string' ? offset : null) ?? 'Z';
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${sub ? `.${sub}` : ''}${zone}`;
}

function validDateParts(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (y < 1800 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/**
 * An ISO-like date from XMP or a QuickTime tag ("2022-04-03T12:56:11+0530", "2024-06-08T15:40:54.820",
 * "2023-05-06T07:08:09.000000Z") as ISO 8601 keeping its local time and offset; no offset → UTC.
 * Times at or before 1970-01-01 are the "not set" values of cameras and muxers (QuickTime counts from 1904).
 */
export function isoDateTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(
    value.trim(),
  );
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00', frac, zone] = m;
  if (!validDateParts(+y, +mo, +d, +h, +mi, +s) || +y <= 1970) return null;
  const offset = normaliseOffset(zone) ?? 'Z';
  const ms = frac ? `.${frac.slice(0, 3).padEnd(3, '0')}` : '';
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${offset}`;
}

/** Latitude/longitude in range, and not the (0, 0) that devices without a fix write. */
export function validCoordinates(
  lat: number | null,
  lon: number | null,
): { latitude: number; longitude: number } | null {
  if (lat === null || lon === null || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  if (Math.abs(lat) > 90 || Math.abs(lon) > 180 || (lat === 0 && lon === 0)) return null;
  return { latitude: lat, longitude: lon };
}

/** ISO 6709 as phones write it in videos: "+19.0609+072.8269/" or "+19.0609+072.8269+021.825/". */
export function parseIso6709(value: unknown): { latitude: number; longitude: number } | null {
  if (typeof value !== 'string') return null;
  const m = /^([+-]\d{1,2}(?:\.\d+)?)([+-]\d{1,3}(?:\.\d+)?)/.exec(value.trim());
  return m ? validCoordinates(Number(m[1]), Number(m[2])) : null;
}

/**
 * EXIF UserComment: 8 bytes naming the character code, then the text. UNICODE is UTF-16 in the
 * file's byte order, which is not passed on, so the order is guessed from where the zero bytes are.
 */
export function decodeUserComment(value: unknown): string | null {
  if (typeof value === 'string') return nonEmptyString(value);
  if (!(value instanceof Uint8Array) || value.length <= 8) return null;
  const code = Buffer.from(value.subarray(0, 8)).toString('latin1').replace(/\0+$/, '').trim().toUpperCase();
  const text = Buffer.from(value.subarray(8));
  if (code === 'UNICODE') {
    let evenZeros = 0;
    let oddZeros = 0;
    for (let i = 0; i + 1 < text.length; i += 2) {
      if (text[i] === 0) evenZeros++;
      if (text[i + 1] === 0) oddZeros++;
    }
    const even = text.subarray(0, text.length - (text.length % 2));
    const utf16le = oddZeros >= evenZeros ? even : Buffer.from(even).swap16();
    return nonEmptyString(utf16le.toString('utf16le').replace(/\0[\s\S]*$/, ''));
  }
  return nonEmptyString(text.toString(code === 'ASCII' ? 'latin1' : 'utf8').replace(/\0[\s\S]*$/, ''));
}
