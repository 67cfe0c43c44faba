/**
 * Google Takeout's JSON sidecars: which one belongs to which photo, and what it says.
 *
 * Takeout writes `<name>.json` (older exports) or `<name>.supplemental-metadata.json` beside each file, but cuts a
 * long sidecar name short (to about 46 characters before `.json`: `PXL_20230312_123456789.jpg.supplemental-metad.json`,
 * and for very long names into the photo's own name), and numbers a second file of the same name as `IMG_1(1).jpg`
 * with its sidecar `IMG_1.jpg(1).json` / `IMG_1.jpg.supplemental-metadata(1).json` (the number after the name it
 * copies). An `IMG_1-edited.jpg` has no sidecar of its own: it shares its original's.
 */
import path from 'node:path';

const SUPPLEMENTAL = '.supplemental-metadata';
/** Names this long may have been cut short by Takeout. */
const TRUNCATED_AT_LEAST = 40;

/** `IMG_1(2).jpg` → `{ base: 'IMG_1.jpg', counter: '(2)' }`. */
function splitCounter(name: string): { base: string; counter: string } {
  const m = /^(.+)(\(\d+\))(\.[^.]+)$/.exec(name);
  return m ? { base: m[1] + m[3], counter: m[2] } : { base: name, counter: '' };
}

/** How well sidecar stem `s` names media `base` (0: not at all); longer matches are better. */
function score(stem: string, base: string): number {
  const full = base + SUPPLEMENTAL;
  if (stem === full || stem === base) return stem.length + 1000;
  // `.supplemental-metadata` cut short, or the whole name cut short.
  if (full.startsWith(stem) && (stem.startsWith(base + '.') || stem.length >= TRUNCATED_AT_LEAST)) return stem.length;
  // The oldest exports: `IMG_1.json` for `IMG_1.jpg`.
  const { name: withoutExtension } = path.parse(base);
  if (stem === withoutExtension) return 1;
  return 0;
}

/**
 * For the files of one folder (names only), each media file's sidecar: media name → sidecar name. `isMedia` tells
 * which names are photos and videos; every `.json` but `metadata.json` (an album's) is a candidate sidecar.
 */
export function matchSidecars(names: readonly string[], isMedia: (name: string) => boolean): Map<string, string> {
  const sidecars = names.filter((n) => n.toLowerCase().endsWith('.json') && n !== 'metadata.json');
  const out = new Map<string, string>();
  for (const name of names) {
    if (!isMedia(name)) continue;
    const { base, counter } = splitCounter(name);
    const parsed = path.parse(base);
    const bases = [base];
    // `IMG_1-edited.jpg` → its original `IMG_1.jpg`'s sidecar.
    if (parsed.name.endsWith('-edited')) bases.push(parsed.name.slice(0, -'-edited'.length) + parsed.ext);
    let best: { sidecar: string; score: number } | undefined;
    for (const b of bases) {
      for (const sidecar of sidecars) {
        let stem = sidecar.slice(0, -'.json'.length);
        if (counter) {
          if (!stem.endsWith(counter)) continue;
          stem = stem.slice(0, -counter.length);
        } else if (/\(\d+\)$/.test(stem) && !b.endsWith(stem.slice(stem.lastIndexOf('(')))) continue;
        const s = score(stem, b);
        if (s > 0 && (!best || s > best.score)) best = { sidecar, score: s };
      }
      if (best) break;
    }
    // A `(1)` copy with no numbered sidecar: the plain one (some exports number only the photo).
    if (!best && counter) {
      const plain = matchSidecars([base, ...sidecars], (n) => n === base).get(base);
      if (plain) best = { sidecar: plain, score: 1 };
    }
    if (best) out.set(name, best.sidecar);
  }
  return out;
}

/** What a sidecar says of its photo. */
export interface Sidecar {
  /** When it was taken (ISO 8601, UTC), from `photoTakenTime`. */
  takenAt?: string;
  latitude?: number;
  longitude?: number;
  description?: string;
  favourite: boolean;
  /** Archived in Google Photos: hidden in Trove. */
  archived: boolean;
  /** In Google Photos' trash: not imported. */
  trashed: boolean;
}

type Geo = { latitude?: unknown; longitude?: unknown };
const position = (geo: Geo | undefined): { latitude: number; longitude: number } | undefined => {
  if (!geo || typeof geo.latitude !== 'number' || typeof geo.longitude !== 'number') return undefined;
  // Takeout writes 0,0 for "no position".
  if (geo.latitude === 0 && geo.longitude === 0) return undefined;
  if (Math.abs(geo.latitude) > 90 || Math.abs(geo.longitude) > 180) return undefined;
  return { latitude: geo.latitude, longitude: geo.longitude };
};

export function parseSidecar(json: unknown): Sidecar {
  const o = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const taken = (o.photoTakenTime as { timestamp?: unknown } | undefined)?.timestamp;
  const seconds = typeof taken === 'string' || typeof taken === 'number' ? Number(taken) : NaN;
  const where = position(o.geoData as Geo) ?? position(o.geoDataExif as Geo);
  const description = typeof o.description === 'string' && o.description.trim() ? o.description : undefined;
  return {
    ...(Number.isFinite(seconds) && seconds > 0 ? { takenAt: new Date(seconds * 1000).toISOString() } : {}),
    ...(where ?? {}),
    ...(description ? { description } : {}),
    favourite: o.favorited === true,
    archived: o.archived === true,
    trashed: o.trashed === true,
  };
}

/** The album a Takeout folder stands for: its `metadata.json` title, else its name; none for "Photos from YYYY". */
export function albumOfFolder(folder: string, metadata?: unknown): string | undefined {
  if (/^Photos from \d{4}$/.test(folder)) return undefined;
  const title = (metadata as { title?: unknown } | undefined)?.title;
  return typeof title === 'string' && title.trim() ? title : folder;
}
