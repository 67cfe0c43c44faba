/**
 * `trove export DIR`: the signed-in user's originals, each with its sidecar, plus `albums.json` and
 * `trove-export.json` (see layout.ts). Trashed items are not exported; hidden ones are (with `hidden: true`); a Live
 * Photo's motion part lies beside its still.
 *
 * Re-runnable: an item already on disk (found through its sidecar's id) is downloaded again only when its file is
 * missing or of another size; its sidecar is rewritten only when what it says changed. Each original is written to a
 * hidden temporary name and renamed when whole, so a kill never leaves a half file under the real name.
 */
import { createHash } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pool } from '../batch';
import type { ExportSummary, Reporter } from '../report';
import { HttpError } from '../retry';
import type { LibraryApi, MediaItem } from './library';
import {
  ALBUMS_FILE,
  EXPORT_FILE,
  FORMAT,
  Names,
  SIDECAR_SUFFIX,
  VERSION,
  monthFolder,
  parseSidecar,
  plan,
  safeName,
  sidecarOf,
  sidecarText,
} from './layout';
import type { AlbumEntry, ExportManifest, OnDisk, Sidecar } from './layout';

/** What the export needs of the server (LibraryApi, or a fake). */
export type ExportSource = Pick<
  LibraryApi,
  | 'account'
  | 'visibleItems'
  | 'hiddenItems'
  | 'trashCount'
  | 'item'
  | 'albums'
  | 'albumItems'
  | 'people'
  | 'personItems'
  | 'itemPeople'
  | 'original'
>;

export interface ExportOptions {
  concurrency: number;
  server: string;
}

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Writes `text` whole: a temporary file renamed over the real name. */
async function writeWhole(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.part`);
  await writeFile(temporary, text);
  await rename(temporary, file);
}

/** The sidecars of earlier runs under `dir` (by item id), and every path in use there (so nothing is overwritten). */
async function readExisting(dir: string): Promise<{ byId: Map<string, OnDisk>; names: Names }> {
  const byId = new Map<string, OnDisk>();
  const names = new Names();
  const visit = async (rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      names.take(child);
      if (e.isDirectory() && !e.name.startsWith('.')) await visit(child);
      if (!e.isFile() || !e.name.endsWith(SIDECAR_SUFFIX)) continue;
      const text = await readFile(path.join(dir, child), 'utf8');
      const sidecar = parseSidecar(text);
      if (!sidecar) continue;
      const fileRel = child.slice(0, -SIDECAR_SUFFIX.length);
      const fileName = e.name.slice(0, -SIDECAR_SUFFIX.length);
      const fileSize = files.has(fileName) ? (await stat(path.join(dir, fileRel))).size : undefined;
      byId.set(sidecar.id, { rel: fileRel, sidecar, sidecarText: text, fileSize });
    }
  };
  await visit('');
  return { byId, names };
}

/** One item to write: its path, and the sidecar facts found about it. */
interface Placed {
  item: MediaItem;
  rel: string;
  onDisk?: OnDisk;
  livePhoto?: Sidecar['livePhoto'];
}

/**
 * Where each item goes: its earlier path while that is still in the right month folder, else a free name there.
 * Motion parts go to their still's folder. Items are placed oldest first (ties by id), so names are stable.
 */
export function place(
  stills: MediaItem[],
  motions: Map<string, MediaItem>,
  byId: Map<string, OnDisk>,
  names: Names,
): Placed[] {
  const out: Placed[] = [];
  const sorted = [...stills].sort((a, b) =>
    a.creationTime === b.creationTime ? (a.id < b.id ? -1 : 1) : a.creationTime < b.creationTime ? -1 : 1,
  );
  const all = sorted.flatMap((s) => {
    const m = s.motionMediaItemId ? motions.get(s.motionMediaItemId) : undefined;
    return m
      ? [
          { item: s, still: undefined },
          { item: m, still: s },
        ]
      : [{ item: s, still: undefined }];
  });
  const folderOf = new Map<string, string>();
  for (const { item, still } of all) folderOf.set(item.id, monthFolder((still ?? item).creationTime));
  // Paths kept from earlier runs first; `names` holds every path on disk, so a new item never takes one of them.
  const placed = new Map<string, string>();
  for (const { item } of all) {
    const onDisk = byId.get(item.id);
    if (onDisk && path.posix.dirname(onDisk.rel) === folderOf.get(item.id)) placed.set(item.id, onDisk.rel);
  }
  for (const { item } of all) {
    if (!placed.has(item.id))
      placed.set(item.id, names.claim(folderOf.get(item.id)!, safeName(item.filename, item.id)));
  }
  for (const { item, still } of all) {
    const partner = still ?? (item.motionMediaItemId ? motions.get(item.motionMediaItemId) : undefined);
    const partnerRel = partner ? placed.get(partner.id) : undefined;
    const livePhoto = partnerRel
      ? still
        ? { still: path.posix.basename(partnerRel) }
        : { motion: path.posix.basename(partnerRel) }
      : undefined;
    out.push({ item, rel: placed.get(item.id)!, onDisk: byId.get(item.id), livePhoto });
  }
  return out;
}

/** Downloads the original to a hidden temporary beside `file`, checks its size, renames it; answers its SHA-256. */
async function download(library: ExportSource, item: MediaItem, file: string, report: Reporter): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.part`);
  const hash = createHash('sha256');
  let size = 0;
  try {
    const body = await library.original(item.id);
    const count = new Transform({
      transform(piece: Buffer, _enc, done) {
        hash.update(piece);
        size += piece.length;
        report.sent(piece.length);
        done(null, piece);
      },
    });
    await pipeline(body, count, createWriteStream(temporary));
    if (size !== item.size) throw new Error(`download cut short: ${size} of ${item.size} bytes`);
    await rename(temporary, file);
    return hash.digest('hex');
  } catch (err) {
    report.sent(-size);
    await rm(temporary, { force: true });
    throw err;
  }
}

/** Moves an earlier run's file and sidecar to a new path (the item's date changed month). */
async function move(dir: string, from: string, to: string): Promise<void> {
  await mkdir(path.dirname(path.join(dir, to)), { recursive: true });
  for (const suffix of ['', SIDECAR_SUFFIX]) {
    await rename(path.join(dir, from + suffix), path.join(dir, to + suffix)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
  }
}

export async function exportLibrary(
  dir: string,
  library: ExportSource,
  report: Reporter,
  options: ExportOptions,
): Promise<ExportSummary> {
  const summary: ExportSummary = { exported: 0, unchanged: 0, failed: 0 };
  await mkdir(dir, { recursive: true });
  const account = await library.account().catch((err: unknown) => {
    if (err instanceof HttpError && err.status === 401) {
      throw new Error('the server refused the API key (revoked, or of another server): run trove login again');
    }
    throw err;
  });

  // The library: visible and hidden items (trash left out by both lists), then the motion parts of Live Photos.
  const [visible, hidden, trashed, albums, people] = await Promise.all([
    library.visibleItems(),
    library.hiddenItems(),
    library.trashCount(),
    library.albums(),
    library.people(),
  ]);
  const stills = [...new Map([...visible, ...hidden].map((i) => [i.id, i])).values()];
  const motions = new Map<string, MediaItem>();
  await pool(
    stills.filter((s) => s.motionMediaItemId),
    options.concurrency,
    async (s) => {
      try {
        const m = await library.item(s.motionMediaItemId!);
        if (!m.deleted) motions.set(m.id, m);
      } catch (err) {
        report.note(`${s.filename}: its Live Photo motion part: ${reason(err)}`);
      }
    },
  );

  // Albums and people of each item.
  const albumItems = await pool(albums, options.concurrency, (a) => library.albumItems(a.id));
  const albumsOf = new Map<string, string[]>();
  albums.forEach((a, i) => {
    for (const item of albumItems[i]) albumsOf.set(item.id, [...(albumsOf.get(item.id) ?? []), a.name]);
  });
  const peopleOf = new Map<string, string[]>();
  const personItems = await pool(people, options.concurrency, (p) => library.personItems(p.id));
  people.forEach((p, i) => {
    for (const id of personItems[i]) peopleOf.set(id, [...(peopleOf.get(id) ?? []), p.name]);
  });
  // People lists leave hidden items out: asked item by item.
  await pool(hidden, options.concurrency, async (item) => peopleOf.set(item.id, await library.itemPeople(item.id)));

  const { byId, names } = await readExisting(dir);
  const placed = place(stills, motions, byId, names);
  report.found(
    placed.length,
    placed.reduce((n, p) => n + p.item.size, 0),
    { 'in the trash (not exported)': trashed },
  );

  const pathOf = new Map<string, string>();
  await pool(placed, options.concurrency, async ({ item, rel, onDisk, livePhoto }) => {
    const file = path.join(dir, ...rel.split('/'));
    const wanted = (sha256: string) =>
      sidecarText(
        sidecarOf(item, sha256, {
          albums: albumsOf.get(item.id) ?? [],
          people: peopleOf.get(item.id) ?? [],
          livePhoto,
        }),
      );
    try {
      let wrote = false;
      if (onDisk && onDisk.rel !== rel) {
        await move(dir, onDisk.rel, rel);
        wrote = true;
      }
      const todo = plan(item, onDisk, wanted);
      let sha256 = onDisk?.sidecar.sha256 ?? '';
      if (todo === 'download') sha256 = await download(library, item, file, report);
      else report.sent(item.size);
      if (todo !== 'unchanged' || wrote) {
        await writeWhole(file + SIDECAR_SUFFIX, wanted(sha256));
        wrote = true;
      }
      pathOf.set(item.id, rel);
      if (wrote) summary.exported++;
      else summary.unchanged++;
      // Bytes were counted as they went (or just above): `exported` adds none.
      report.done(rel, wrote ? 'exported' : 'unchanged', 0);
    } catch (err) {
      summary.failed++;
      report.done(rel, 'failed', 0, reason(err));
    }
  });

  const manifest: AlbumEntry[] = albums.map((a, i) => {
    const items = albumItems[i].map((item) => pathOf.get(item.id)).filter((p): p is string => Boolean(p));
    return {
      name: a.name,
      description: a.description || null,
      hidden: a.hidden,
      items,
      cover: (a.coverMediaItemId && pathOf.get(a.coverMediaItemId)) || null,
    };
  });
  await writeWhole(path.join(dir, ALBUMS_FILE), JSON.stringify(manifest, null, 2) + '\n');
  const about: ExportManifest = {
    format: FORMAT,
    version: VERSION,
    server: options.server,
    user: { id: account.id, username: account.username },
    exportedAt: new Date().toISOString(),
    items: pathOf.size,
  };
  await writeWhole(path.join(dir, EXPORT_FILE), JSON.stringify(about, null, 2) + '\n');
  if (trashed) report.note(`${trashed} items in the trash were not exported (restore them first to export them)`);
  return summary;
}
