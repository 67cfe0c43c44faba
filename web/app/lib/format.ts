/** How numbers, sizes, dates and camera settings read in the UI (English, the user's time zone). */
import type { MediaItem } from '~/api/types';

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1).replace(/\.0$/, '')} ${units[u]}`;
}

/** A local calendar day key `YYYY-MM-DD`. */
export function dayKey(date: Date): string {
  const y = date.getFullYear();
  const m = String(date.getMonth() + 1).padStart(2, '0');
  const d = String(date.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** "Today", "Yesterday", "Mon, 24 Jun" this year, "Mon, 24 Jun 2023" before. */
export function dayLabel(key: string, now: Date = new Date()): string {
  const [y, m, d] = key.split('-').map(Number);
  const date = new Date(y, m - 1, d);
  const today = dayKey(now);
  const yesterday = dayKey(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  if (key === today) return 'Today';
  if (key === yesterday) return 'Yesterday';
  const opts: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' };
  if (y !== now.getFullYear()) opts.year = 'numeric';
  return new Intl.DateTimeFormat('en-GB', opts).format(date);
}

/** `timeZone`: an IANA name (the server renders in UTC what the browser then shows in its own zone). */
export function formatDateTime(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(d);
}

/** "1/250 s" for short exposures, "2.5 s" for long ones. */
export function formatExposure(seconds: string | null): string | null {
  if (!seconds) return null;
  const s = Number(seconds);
  if (!Number.isFinite(s) || s <= 0) return null;
  if (s >= 1) return `${Number(s.toFixed(1))} s`;
  return `1/${Math.round(1 / s)} s`;
}

/** "ƒ/1.8 · 1/250 s · 4.2 mm · ISO 640", from what is known. */
export function exposureSummary(
  item: Pick<MediaItem, 'apertureFNumber' | 'exposureTime' | 'focalLength' | 'isoEquivalent'>,
): string | null {
  const parts = [
    item.apertureFNumber ? `ƒ/${Number(item.apertureFNumber)}` : null,
    formatExposure(item.exposureTime),
    item.focalLength ? `${Number(item.focalLength)} mm` : null,
    item.isoEquivalent ? `ISO ${Number(item.isoEquivalent)}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join(' · ') : null;
}

export function cameraSummary(item: Pick<MediaItem, 'cameraMake' | 'cameraModel'>): string | null {
  const make = item.cameraMake?.trim();
  const model = item.cameraModel?.trim();
  if (make && model) return model.toLowerCase().startsWith(make.toLowerCase()) ? model : `${make} ${model}`;
  return make || model || null;
}

/** "4032 × 3024 · 12.2 MP". */
export function dimensionsSummary(item: Pick<MediaItem, 'width' | 'height'>): string | null {
  if (!item.width || !item.height) return null;
  const mp = (item.width * item.height) / 1e6;
  return `${item.width} × ${item.height}${mp >= 0.1 ? ` · ${mp.toFixed(1)} MP` : ''}`;
}

export function formatCoordinates(lat: number | null, lon: number | null): string | null {
  if (lat === null || lon === null) return null;
  const ns = lat >= 0 ? 'N' : 'S';
  const ew = lon >= 0 ? 'E' : 'W';
  return `${Math.abs(lat).toFixed(5)}° ${ns}, ${Math.abs(lon).toFixed(5)}° ${ew}`;
}

/** What a tile or the viewer says about an item to people who cannot see it. */
export function altText(item: Pick<MediaItem, 'description' | 'mediaItemType' | 'creationTime' | 'filename'>): string {
  const kind = item.mediaItemType === 'video' ? 'Video' : 'Photo';
  const when = formatDateTime(item.creationTime);
  if (item.description?.trim()) return `${kind}: ${item.description.trim()}${when ? ` (${when})` : ''}`;
  // A shared album's item has no file name for its visitors.
  if (!item.filename) return `${kind}${when ? ` ${when}` : ''}`;
  return `${kind} ${item.filename}${when ? `, ${when}` : ''}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;
}

/** "30 days", "1 day", "12 hours", "5 minutes": a retention period as people say it. */
export function formatDuration(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) return plural(seconds / size, name);
  }
  for (const [size, name] of units) {
    if (seconds >= size) return plural(Math.round(seconds / size), name);
  }
  return plural(seconds, 'second');
}

/** Bytes in decimal gigabytes, as disks are sold: "287.9 GB". */
export function formatGigabytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  const gb = n / 1e9;
  return `${gb >= 100 ? Math.round(gb).toLocaleString('en-GB') : gb.toFixed(1)} GB`;
}
