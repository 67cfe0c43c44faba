/**
 * `trove import takeout PATH...`: a Google Photos Takeout brought in with what its sidecars say.
 *
 * - every photo and video under `Google Photos/` is uploaded like `trove upload` does (by content: a re-run, or the
 *   same photo in an album folder and in its "Photos from YYYY" folder, sends it once);
 * - its sidecar gives its description, `favorited` → favourite and `archived` → hidden, set after the upload (and
 *   again on a re-run); `trashed` photos are not imported;
 * - an album folder (titled by its `metadata.json`) becomes an album of its files; "Photos from YYYY" does not;
 * - `-edited` copies are uploaded beside their originals (with the original's sidecar).
 * - its sidecar's date (`photoTakenTime`) and position (`geoData`, else `geoDataExif`) fill in what the file lacks,
 *   once the server has read the file (see `fillIn`).
 */
import { posix } from 'node:path';
import type { TroveApi, UploadSource } from '../api';
import { isSupportedName } from '../extensions';
import type { Reporter } from '../report';
import { sendAll } from '../upload';
import type { Item, UploadOptions, UploadSummary, Library } from '../upload';
import { albumOfFolder, matchSidecars, parseSidecar } from './sidecars';
import type { Sidecar } from './sidecars';
import { inArchiveOrder, openTakeout } from './source';
import type { TakeoutEntry } from './source';

async function readJson(entry: TakeoutEntry): Promise<unknown> {
  const chunks: Buffer[] = [];
  try {
    for await (const piece of await entry.open()) chunks.push(piece as Buffer);
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

/** What `fillIn` reads of a processed item. */
export interface ProcessedItem {
  creationTime: string;
  createdAt: string;
  updatedAt: string;
  latitude: number | null;
}

/**
 * What the sidecar fills in that the processed item lacks: its position when the file had none, and its date
 * when the file had none. The server then dates an item by the file's modification time, which is that of the
 * stored upload: between the upload (`createdAt`) and its processing (`updatedAt`, before any change of ours).
 */
export function fillIn(
  sidecar: Sidecar,
  item: ProcessedItem,
): { creationTime?: string; latitude?: number; longitude?: number } | null {
  const body: { creationTime?: string; latitude?: number; longitude?: number } = {};
  if (sidecar.latitude !== undefined && sidecar.longitude !== undefined && item.latitude === null)
    Object.assign(body, { latitude: sidecar.latitude, longitude: sidecar.longitude });
  const dated = Date.parse(item.creationTime);
  const undated =
    dated >= Date.parse(item.createdAt) - UPLOAD_CLOCK_SLACK_MS &&
    dated <= Date.parse(item.updatedAt) + UPLOAD_CLOCK_SLACK_MS;
  if (sidecar.takenAt && undated) body.creationTime = sidecar.takenAt;
  return Object.keys(body).length ? body : null;
}

/** Clocks of the CLI's server and its worker may differ a little. */
const UPLOAD_CLOCK_SLACK_MS = 60_000;
/** How long an item's processing is waited for before its sidecar's date and position are left out. */
const PROCESSING_WAIT_MS = 10 * 60_000;

/** The item once the server has read its file (READY or FAILED); undefined when that takes too long. */
async function processed(api: TroveApi, id: string): Promise<(ProcessedItem & { status?: string }) | undefined> {
  const deadline = Date.now() + PROCESSING_WAIT_MS;
  for (;;) {
    const { data } = await api.client.GET('/v1/mediaItems/{id}', { params: { path: { id } } });
    if (data && data.status !== 'PROCESSING' && data.status !== 'UNSPECIFIED') return data;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 1000));
  }
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
  apply: (id: string, update: NonNullable<ReturnType<typeof updateOf>>, sidecar: Sidecar) => Promise<void>,
): Promise<TakeoutPlan> {
  const byFolder = new Map<string, TakeoutEntry[]>();
  for (const e of entries) {
    const folder = posix.dirname(e.path);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), e]);
  }
  const plan: TakeoutPlan = { items: [], trashed: 0, other: 0 };
  const planned: Array<{ item: Item; entry: TakeoutEntry }> = [];
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
      const fills = sidecar && (sidecar.takenAt !== undefined || sidecar.latitude !== undefined);
      const source: UploadSource = { name, size: entry.size, open: entry.open };
      const item: Item = {
        key: entry.path,
        source,
        albums: album ? [album] : [],
        ...(entry.sha256 ? { sha256: entry.sha256 } : {}),
        ...(sidecar && (update || fills) ? { after: (id: string) => apply(id, update ?? {}, sidecar) } : {}),
      };
      planned.push({ item, entry });
    }
  }
  plan.items = inArchiveOrder(planned, (p) => p.entry).map((p) => p.item);
  return plan;
}

export async function importTakeout(
  inputs: string[],
  api: TroveApi & Library,
  report: Reporter,
  options: UploadOptions,
): Promise<UploadSummary> {
  if (inputs.some((i) => /\.(tgz|tar\.gz)$/i.test(i))) {
    report.note('reading the .tgz parts through once (listing and hashing their files) before sending');
  }
  const takeout = await openTakeout(inputs);
  try {
    const put = async (id: string, body: Record<string, unknown>) => {
      const { response, error } = await api.client.PUT('/v1/mediaItems/{id}', { params: { path: { id } }, body });
      if (!response.ok) {
        throw new Error(`metadata: ${response.status} ${(error as { message?: string } | undefined)?.message ?? ''}`);
      }
    };
    const plan = await planTakeout(takeout.entries, async (id, update, sidecar) => {
      if (Object.keys(update).length) await put(id, update);
      if (sidecar.takenAt === undefined && sidecar.latitude === undefined) return;
      // The date and position fill in what the file lacks: known once the server has read it.
      const item = await processed(api, id);
      if (!item) throw new Error('still processing: its Takeout date and position were not applied (run again)');
      const fill = fillIn(sidecar, item);
      if (fill) await put(id, fill);
    });
    const bytes = plan.items.reduce((n, i) => n + i.source.size, 0);
    report.found(plan.items.length, bytes, { 'in the trash': plan.trashed, 'not photos or videos': plan.other });
    return await sendAll(plan.items, api, report, options);
  } finally {
    await takeout.close();
  }
}
