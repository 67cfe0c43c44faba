/**
 * The layout of a `trove export` folder, as plain functions (no I/O), shared by `trove export` and `trove import`:
 *
 *   DIR/trove-export.json              what it is: format, version, server, user, time
 *   DIR/albums.json                    the albums: name, description, hidden, items (file paths, in order), cover
 *   DIR/<YYYY>/<MM>/<filename>         each original, in the month it was taken (UTC); a Live Photo's motion part
 *   DIR/<YYYY>/<MM>/<filename>.trove.json   beside its still; and beside each file, its sidecar
 *
 * File names are the uploaded ones made safe (no folders, no control characters, nothing a common file system
 * refuses) and unique in their folder regardless of case (`IMG_1.jpg`, `IMG_1 (2).jpg`), so the folder can be copied
 * to any disk. An item keeps its path from one run to the next (found again through its sidecar's `id`).
 */
import path from 'node:path';

export const EXPORT_FILE = 'trove-export.json';
export const ALBUMS_FILE = 'albums.json';
export const SIDECAR_SUFFIX = '.trove.json';
export const FORMAT = 'trove-export';
export const VERSION = 1;

/** `DIR/trove-export.json`. */
export interface ExportManifest {
  format: typeof FORMAT;
  version: number;
  server: string;
  user: { id: string; username: string };
  exportedAt: string;
  items: number;
}

/** One entry of `DIR/albums.json`. */
export interface AlbumEntry {
  name: string;
  description: string | null;
  hidden: boolean;
  /** Paths relative to DIR (`/` separated), in the album's order. */
  items: string[];
  cover: string | null;
}

/** `<file>.trove.json`: what Trove knows of the file that the file may not hold. */
export interface Sidecar {
  format: 'trove-sidecar';
  version: number;
  /** The item's id in the library it was exported from (how a re-run finds its file again). */
  id: string;
  /** The name it was uploaded with. */
  filename: string;
  mimeType: string;
  size: number;
  /** SHA-256 of the file, lowercase hex. */
  sha256: string;
  /** The item's `updatedAt` when exported. */
  updatedAt: string;
  /** When it was taken, as the library shows it (the user's date when they set one, else the file's). */
  creationTime: string;
  position: { latitude: number; longitude: number } | null;
  description: string | null;
  favourite: boolean;
  hidden: boolean;
  /** Names of the albums holding it. */
  albums: string[];
  /** Names of the people recognised in it (named people only). */
  people: string[];
  /** A Live Photo: the still names its motion part's file, the motion part its still's (both beside each other). */
  livePhoto?: { motion: string } | { still: string };
}

/** What of a media item the layout needs. */
export interface ItemFacts {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  updatedAt: string;
  creationTime: string;
  latitude: number | null;
  longitude: number | null;
  description: string | null;
  favourite: boolean;
  hidden: boolean;
}

const MAX_NAME_BYTES = 200;

/**
 * A file name safe on any disk: the last path segment only, control characters and `<>:"/\|?*` replaced, no leading
 * dot (hidden files are left out by `trove upload`) nor trailing dot or space, at most 200 bytes, never a sidecar's.
 */
export function safeName(filename: string, fallback: string): string {
  let name = filename.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_').trim();
  name = name.replace(/^\.+/, '').replace(/[. ]+$/, '');
  if (name.toLowerCase().endsWith(SIDECAR_SUFFIX)) name += '_';
  if (!name) name = fallback;
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) {
    const ext = path.extname(name).slice(0, 16);
    let base = name.slice(0, name.length - ext.length);
    while (Buffer.byteLength(base + ext) > MAX_NAME_BYTES) base = base.slice(0, -1);
    name = base + ext;
  }
  return name;
}

/** `YYYY/MM` of the UTC month it was taken in (`unknown-date` when the date does not parse). */
export function monthFolder(creationTime: string): string {
  const d = new Date(creationTime);
  if (Number.isNaN(d.getTime())) return 'unknown-date';
  return `${d.getUTCFullYear().toString().padStart(4, '0')}/${(d.getUTCMonth() + 1).toString().padStart(2, '0')}`;
}

/** The path relative to DIR of a name in a folder, `/` separated whatever the platform. */
export const relPath = (folder: string, name: string): string => `${folder}/${name}`;

/** The names already in use, by folder, compared without case (`IMG.JPG` and `img.jpg` clash on macOS and Windows). */
export class Names {
  private readonly taken = new Set<string>();

  /** Marks a path (relative to DIR) as used. */
  take(rel: string): void {
    this.taken.add(rel.toLowerCase());
  }

  has(rel: string): boolean {
    return this.taken.has(rel.toLowerCase());
  }

  /** A free path for `name` in `folder` (file and sidecar both free), taken at once: `name`, `name (2)`, … */
  claim(folder: string, name: string): string {
    const ext = path.extname(name);
    const base = name.slice(0, name.length - ext.length);
    for (let n = 1; ; n++) {
      const candidate = relPath(folder, n === 1 ? name : `${base} (${n})${ext}`);
      if (!this.has(candidate) && !this.has(candidate + SIDECAR_SUFFIX)) {
        this.take(candidate);
        this.take(candidate + SIDECAR_SUFFIX);
        return candidate;
      }
    }
  }
}

/** The sidecar of an item (`sha256` of the file on disk; albums, people and the Live Photo link as found). */
export function sidecarOf(
  item: ItemFacts,
  sha256: string,
  extra: { albums: string[]; people: string[]; livePhoto?: Sidecar['livePhoto'] },
): Sidecar {
  return {
    format: 'trove-sidecar',
    version: VERSION,
    id: item.id,
    filename: item.filename,
    mimeType: item.mimeType,
    size: item.size,
    sha256,
    updatedAt: item.updatedAt,
    creationTime: item.creationTime,
    position:
      item.latitude !== null && item.longitude !== null ? { latitude: item.latitude, longitude: item.longitude } : null,
    description: item.description || null,
    favourite: item.favourite,
    hidden: item.hidden,
    albums: [...extra.albums].sort(),
    people: [...new Set(extra.people)].sort(),
    ...(extra.livePhoto ? { livePhoto: extra.livePhoto } : {}),
  };
}

/** A sidecar's text as written: stable key order, two-space indent, a final newline (so equal means unchanged). */
export const sidecarText = (sidecar: Sidecar): string => JSON.stringify(sidecar, null, 2) + '\n';

/** What a sidecar read back from disk is, when it is one of ours. */
export function parseSidecar(text: string): Sidecar | undefined {
  let o: unknown;
  try {
    o = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!o || typeof o !== 'object') return undefined;
  const s = o as Partial<Sidecar>;
  if (s.format !== 'trove-sidecar' || typeof s.id !== 'string' || typeof s.size !== 'number') return undefined;
  if (typeof s.sha256 !== 'string' || typeof s.creationTime !== 'string') return undefined;
  return s as Sidecar;
}

/** What is on disk of an item from an earlier run. */
export interface OnDisk {
  /** Path relative to DIR. */
  rel: string;
  sidecar: Sidecar;
  sidecarText: string;
  /** Size of the file beside the sidecar; undefined when it is missing. */
  fileSize?: number;
}

/**
 * What a run does for an item: `download` its original (new, or the file on disk is missing or of another size: a kill
 * before the rename leaves only a hidden temporary), write its `sidecar` only (the original is there, as its id's
 * original never changes), or nothing.
 */
export function plan(
  item: Pick<ItemFacts, 'id' | 'size'>,
  onDisk: OnDisk | undefined,
  wanted: (sha256: string) => string,
): 'download' | 'sidecar' | 'unchanged' {
  if (!onDisk || onDisk.sidecar.id !== item.id || onDisk.fileSize !== item.size || onDisk.sidecar.size !== item.size) {
    return 'download';
  }
  return wanted(onDisk.sidecar.sha256) === onDisk.sidecarText ? 'unchanged' : 'sidecar';
}
