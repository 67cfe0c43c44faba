/**
 * Editing when and where an item was taken: the browser's datetime-local value (local time, no
 * offset) to and from the API's RFC 3339 with offset, and a place read from two fields (or one
 * pasted "lat, lon"). Shared by the info panel and the web server's check of what the browser sends.
 */
import type { MediaItemRequest } from '~/api/types';

/** What the info panel may change; `null` goes back to the file's own. */
export type DatePlaceChange = Pick<MediaItemRequest, 'creationTime' | 'latitude' | 'longitude'>;

const two = (n: number) => String(n).padStart(2, '0');

/** `2019-07-14T16:30:05`: the instant in the browser's time zone, as a datetime-local input shows it. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** Seconds optional; a fraction of one (some browsers add `.000`) is dropped. */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

/** A datetime-local value as RFC 3339 with the browser's offset at that moment (`…T16:30:00+02:00`); null when it is not one. */
export function fromLocalInput(value: string): string | null {
  const m = LOCAL.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((p) => Number(p ?? 0));
  const date = new Date(y, mo - 1, d, h, mi, s);
  // 31 February rolls over to March: not a date.
  if (Number.isNaN(date.getTime()) || date.getDate() !== d || date.getMonth() !== mo - 1) return null;
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  // The local fields of the instant (a time skipped by a clock change moves on, like the browser's own).
  return `${toLocalInput(date.toISOString())}${zone}`;
}

/** "52.37, 4.89" (or "52.37 4.89") pasted into one field: the two numbers, else null. */
export function splitLatLon(text: string): [string, string] | null {
  const m = /^\s*([-+]?\d+(?:\.\d+)?)\s*[,;\s]\s*([-+]?\d+(?:\.\d+)?)\s*$/.exec(text);
  return m ? [m[1], m[2]] : null;
}

const RANGES = { latitude: 90, longitude: 180 } as const;

/** The place from the two fields: both numbers in range, or both empty (no change asked); else what is wrong. */
export function parsePlace(
  latitude: string,
  longitude: string,
): { place: { latitude: number; longitude: number } | null } | { error: string } {
  if (!latitude.trim() && !longitude.trim()) return { place: null };
  if (!latitude.trim() || !longitude.trim()) return { error: 'Enter both latitude and longitude, or neither.' };
  const values = { latitude: Number(latitude), longitude: Number(longitude) };
  for (const key of ['latitude', 'longitude'] as const) {
    const v = values[key];
    if (!Number.isFinite(v) || Math.abs(v) > RANGES[key])
      return { error: `The ${key} must be a number from −${RANGES[key]} to ${RANGES[key]}.` };
  }
  return { place: values };
}

/** What the browser sent, by shape (the API checks the values and says what is wrong): a date or null, a place or both null. */
export function checkChange(body: Record<string, unknown>): DatePlaceChange | string {
  const out: DatePlaceChange = {};
  if ('creationTime' in body) {
    const t = body.creationTime;
    if (t !== null && typeof t !== 'string') return 'creationTime must be a date and time with its offset, or null';
    out.creationTime = t;
  }
  if ('latitude' in body || 'longitude' in body) {
    const { latitude, longitude } = body;
    const bothNull = latitude === null && longitude === null;
    if (!bothNull && (typeof latitude !== 'number' || typeof longitude !== 'number'))
      return 'latitude and longitude go together: both numbers, or both null';
    Object.assign(out, { latitude, longitude });
  }
  return Object.keys(out).length > 0 ? out : 'nothing to change';
}
