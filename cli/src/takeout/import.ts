/**
 * `trove import takeout PATH...`: a Google Photos Takeout brought in with what its sidecars say.
 *
 * - every photo and video under `Google Photos/` is uploaded like `trove upload` does (by content: a re-run, or the
 *   same photo in an album folder and in its "Photos from YYYY" folder, sends it once);
 * - its sidecar gives its description, `favorited` → favourite and `archived` → hidden, set after the upload (and
 *   again on a re-run); `trashed` photos are not imported;
 * - an album folder (titled by its `metadata.json`) becomes an album of its files; "Photos from YYYY" does not;
 * - `-edited` copies are uploaded beside their originals (with the original's sidecar).
 * Not yet: the sidecar's date and position (`photoTakenTime`, `geoData`). The server keeps a date and place set by
 * the user now (`PUT /v1/mediaItems/{id}`), but they must only fill in what the file lacks, which means waiting for
 * the item's processing first; until then the file's own are used.
 */
import { posix } from 'node:path';
import type { TroveApi, UploadSource } from '../api';
import { isSupportedName } from '../extensions';
import type { Reporter } from '../report';
import { sendAll } from '../upload';
import type { Item, UploadOptions, UploadSummary, Library } from '../upload';
import { albumOfFolder, matchSidecars, parseSidecar } from './sidecars';
import type { Sidecar } from './sidecars';
import { openTakeout } from './source';
import type { TakeoutEntry } from './source';

async function readJson(entry: TakeoutEntry): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const piece of await entry.open()) chunks.push(piece as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The metadata call for a sidecar: only what it sets (nothing to send when it sets nothing). */
export function updateOf(sidecar: Sidecar): { description?: string; favourite?: boolean; hidden?: boolean } | null {
  const body = {
    ...(sidecar.description ? { description: sidecar.description } : {}),
    ...(sidecar.favourite ? { favourite: true } : {}),
    ...(sidecar.archived ? { hidden: true } : {}),
  };
  return Object.keys(body).length ? body : null;
}

export interface TakeoutPlan {
  items: Item[];
  trashed: number;
  /** Files that are neither photos, videos nor sidecars (and everything outside Google Photos). */
  other: number;
}

/** What to bring in from the entries: items with their albums and metadata, and the counts left out. */
export async function planTakeout(
  entries: TakeoutEntry[],
  apply: (id: string, update: NonNullable<ReturnType<typeof updateOf>>) => Promise<void>,
): Promise<TakeoutPlan> {
  const byFolder = new Map<string, TakeoutEntry[]>();
  for (const e of entries) {
    const folder = posix.dirname(e.path);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), e]);
  }
  const plan: TakeoutPlan = { items: [], trashed: 0, other: 0 };
  for (const [folder, files] of [...byFolder].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const names = files.map((f) => posix.basename(f.path));
    const byName = new Map(files.map((f) => [posix.basename(f.path), f]));
    const sidecars = matchSidecars(names, isSupportedName);
    const metadata = byName.get('metadata.json');
    const album = albumOfFolder(posix.basename(folder), metadata ? await readJson(metadata) : undefined);
    const media = names.filter(isSupportedName).sort();
    plan.other += names.filter((n) => !isSupportedName(n) && !n.toLowerCase().endsWith('.json')).length;
    for (const name of media) {
      const entry = byName.get(name)!;
      const sidecarName = sidecars.get(name);
      const sidecar = sidecarName ? parseSidecar(await readJson(byName.get(sidecarName)!)) : undefined;
      if (sidecar?.trashed) {
        plan.trashed++;
        continue;
      }
      const update = sidecar ? updateOf(sidecar) : null;
      const source: UploadSource = { name, size: entry.size, open: entry.open };
      plan.items.push({
        key: entry.path,
        source,
        albums: album ? [album] : [],
        ...(update ? { after: (id: string) => apply(id, update) } : {}),
      });
    }
  }
  return plan;
}

export async function importTakeout(
  inputs: string[],
  api: TroveApi & Library,
  report: Reporter,
  options: UploadOptions,
): Promise<UploadSummary> {
  const takeout = await openTakeout(inputs);
  try {
    const plan = await planTakeout(takeout.entries, async (id, body) => {
      const { response, error } = await api.client.PUT('/v1/mediaItems/{id}', { params: { path: { id } }, body });
      if (!response.ok) {
        throw new Error(`metadata: ${response.status} ${(error as { message?: string } | undefined)?.message ?? ''}`);
      }
    });
    const bytes = plan.items.reduce((n, i) => n + i.source.size, 0);
    report.found(plan.items.length, bytes, { 'in the trash': plan.trashed, 'not photos or videos': plan.other });
    return await sendAll(plan.items, api, report, options);
  } finally {
    await takeout.close();
  }
}
