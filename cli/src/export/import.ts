/**
 * `trove import DIR`: a `trove export` folder (recognised by its `trove-export.json`) brought into the signed-in
 * account. The originals go through the upload pipeline (asked by SHA-256 first, so a re-run sends nothing twice);
 * then each item gets its sidecar's favourite, hidden, description, date and position, set only where the item
 * differs (a re-run changes nothing), and the albums of `albums.json` are made (by name, when missing) and filled in
 * their order, with their description and cover. People cannot be named through the API by item, so their names stay
 * in the sidecars.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileSource } from '../api';
import { chunk } from '../batch';
import type { Reporter } from '../report';
import { EXIST_BATCH, sendAll } from '../upload';
import type { Item, Library, UploadOptions, UploadSummary } from '../upload';
import type { LibraryApi, MediaItem } from './library';
import { ALBUMS_FILE, EXPORT_FILE, FORMAT, SIDECAR_SUFFIX, VERSION, parseSidecar } from './layout';
import type { AlbumEntry, ExportManifest, Sidecar } from './layout';

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file}: ${reason(err)}`);
  }
}

/** The export's description; an error saying what the folder is not. */
export async function readManifest(dir: string): Promise<ExportManifest> {
  const m = (await readJson(path.join(dir, EXPORT_FILE))) as Partial<ExportManifest> | undefined;
  if (!m || m.format !== FORMAT) throw new Error(`${dir} is not a trove export (no ${EXPORT_FILE} in it)`);
  if (typeof m.version !== 'number' || m.version > VERSION) {
    throw new Error(`${dir} is an export of format version ${m.version}: this trove reads ${VERSION} (update trove)`);
  }
  return m as ExportManifest;
}

/** The sidecars under `dir` whose file is beside them: relative path → sidecar. */
export async function readSidecars(dir: string): Promise<Array<{ rel: string; sidecar: Sidecar; size: number }>> {
  const out: Array<{ rel: string; sidecar: Sidecar; size: number }> = [];
  const visit = async (rel: string): Promise<void> => {
    const entries: Dirent[] = await readdir(path.join(dir, rel), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : 1));
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await visit(child);
      else if (e.isFile() && e.name.endsWith(SIDECAR_SUFFIX) && files.has(e.name.slice(0, -SIDECAR_SUFFIX.length))) {
        const sidecar = parseSidecar(await readFile(path.join(dir, child), 'utf8'));
        const fileRel = child.slice(0, -SIDECAR_SUFFIX.length);
        if (sidecar) out.push({ rel: fileRel, sidecar, size: (await stat(path.join(dir, fileRel))).size });
      }
    }
  };
  await visit('');
  return out;
}

/** The fields of a PUT that make `item` say what `sidecar` says; empty when it does already. */
export function changesFor(
  sidecar: Sidecar,
  item: Pick<MediaItem, 'description' | 'favourite' | 'hidden' | 'creationTime' | 'latitude' | 'longitude'>,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if ((sidecar.description ?? '') !== (item.description ?? '')) body.description = sidecar.description;
  if (sidecar.favourite !== item.favourite) body.favourite = sidecar.favourite;
  if (sidecar.hidden !== item.hidden) body.hidden = sidecar.hidden;
  if (Date.parse(sidecar.creationTime) !== Date.parse(item.creationTime)) body.creationTime = sidecar.creationTime;
  const p = sidecar.position;
  if (p && (p.latitude !== item.latitude || p.longitude !== item.longitude)) {
    body.latitude = p.latitude;
    body.longitude = p.longitude;
  }
  return body;
}

export async function importExport(
  dir: string,
  api: Library,
  library: Pick<LibraryApi, 'item' | 'updateItem' | 'albums' | 'createAlbum' | 'updateAlbum'>,
  report: Reporter,
  options: UploadOptions,
): Promise<UploadSummary> {
  await readManifest(dir);
  const albums = ((await readJson(path.join(dir, ALBUMS_FILE))) ?? []) as AlbumEntry[];
  const found = await readSidecars(dir);
  report.found(
    found.length,
    found.reduce((n, f) => n + f.size, 0),
    {},
  );
  const idOf = new Map<string, string>();
  const items = found.map(({ rel, sidecar, size }): Item => ({
    key: rel,
    source: { ...fileSource(path.join(dir, ...rel.split('/')), size), name: sidecar.filename },
    albums: [],
    after: async (id) => {
      idOf.set(rel, id);
      // A Live Photo's motion part carries no flags of its own: its still does.
      if (sidecar.livePhoto && 'still' in sidecar.livePhoto) return;
      const body = changesFor(sidecar, await library.item(id));
      if (Object.keys(body).length) await library.updateItem(id, body);
    },
  }));
  const summary = await sendAll(items, api, report, options);
  if (options.dryRun) return summary;

  const existing = await library.albums();
  for (const entry of albums) {
    try {
      const ids = [...new Set(entry.items.map((rel) => idOf.get(rel)).filter((id): id is string => Boolean(id)))];
      let album = existing.find((a) => a.name === entry.name);
      if (!album) {
        album = await library.createAlbum({ name: entry.name, description: entry.description, hidden: entry.hidden });
        existing.push(album);
      } else if ((album.description ?? null) !== entry.description || album.hidden !== entry.hidden) {
        await library.updateAlbum(album.id, { description: entry.description, hidden: entry.hidden });
      }
      for (const batch of chunk(ids, EXIST_BATCH)) await api.addToAlbum(album.id, batch);
      const cover = entry.cover ? idOf.get(entry.cover) : undefined;
      if (cover && album.coverMediaItemId !== cover) await library.updateAlbum(album.id, { coverMediaItemId: cover });
    } catch (err) {
      report.note(`album ${entry.name}: ${reason(err)}`);
      summary.laterErrors = (summary.laterErrors ?? 0) + 1;
    }
  }
  return summary;
}
