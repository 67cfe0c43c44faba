/**
 * `trove upload`: walk, hash, ask the server which it has, send the rest, file them in albums.
 *
 * A re-run finishes an interrupted one without sending anything twice: what the server holds is asked by content
 * (SHA-256), and an item only exists once its upload was whole (the gateway keeps nothing of a cut-off body), so a
 * file killed mid-way is simply sent again. Album filing (and `trove import takeout`'s metadata) is repeated for every
 * file, the already-uploaded included, so a run killed between the upload and the album call leaves nothing out.
 *
 * Work goes in batches of ≤ 1,000 files (the `exist` call's limit), the first one small so that sending starts at
 * once, each next one twice as large: while a batch uploads, the next is hashed and asked about, and its uploads join the same `--concurrency` lanes.
 */
import path from 'node:path';
import { fileSource } from './api';
import type { UploadSource } from './api';
import { chunk, limiter, pool } from './batch';
import { walk } from './walk';
import { sha256Of } from './hash';
import type { Reporter, Summary } from './report';
import { HttpError } from './retry';

/** What the upload needs of the server (TroveApi, or a fake). */
export interface Library {
  existing(sha256: string[]): Promise<Map<string, string>>;
  upload(source: UploadSource, onBytes: (n: number) => void): Promise<{ id: string; duplicate: boolean }>;
  albums(): Promise<Array<{ id: string; name: string }>>;
  createAlbum(name: string): Promise<{ id: string; name: string }>;
  addToAlbum(albumId: string, mediaItems: string[]): Promise<void>;
}

/** One file to bring in. */
export interface Item {
  /** How the reports name it (its path). */
  key: string;
  source: UploadSource;
  /** The albums it goes in. */
  albums: string[];
  /** Its SHA-256 when known already (a Takeout `.tgz` entry, hashed as the archive was listed): not read again. */
  sha256?: string;
  /** Done with the item's id once it is in the library (sent now or before): a Takeout sidecar's metadata. */
  after?: (id: string) => Promise<void>;
}

export interface UploadOptions {
  /** Every file into this album (made when the caller has none of that name). */
  album?: string;
  /** Each file into an album named after the folder holding it. */
  albumPerFolder?: boolean;
  concurrency: number;
  /** Walk, hash and ask, but send nothing. */
  dryRun?: boolean;
  /** Files per exist call (≤ 1,000). */
  batchSize?: number;
}

export const EXIST_BATCH = 1000;

const batchSize = (options: UploadOptions): number => Math.min(options.batchSize ?? EXIST_BATCH, EXIST_BATCH);

/** A source's SHA-256: its own faster way where it has one (a file), else read through its stream. */
const digestOf = (source: UploadSource): Promise<string> => source.sha256?.() ?? source.open().then(sha256Of);

type Hashed = { item: Item; sha256: string } | { item: Item; error: Error };

/** Finds albums by name (the caller's first of that name), making the missing ones; one lookup of the list per run. */
class Albums {
  private byName?: Map<string, string>;
  constructor(private readonly library: Library) {}
  async id(name: string): Promise<string> {
    if (!this.byName) {
      this.byName = new Map();
      for (const a of await this.library.albums()) if (!this.byName.has(a.name)) this.byName.set(a.name, a.id);
    }
    let id = this.byName.get(name);
    if (!id) {
      id = (await this.library.createAlbum(name)).id;
      this.byName.set(name, id);
    }
    return id;
  }
}

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export interface UploadSummary extends Summary {
  /** With --dry-run: the files that would be sent. */
  new?: number;
  /** Albums or metadata that could not be set (their files are in the library: a re-run sets them). */
  laterErrors?: number;
}

export async function upload(
  paths: string[],
  library: Library,
  report: Reporter,
  options: UploadOptions,
): Promise<UploadSummary> {
  const found = await walk(paths);
  const totalBytes = found.files.reduce((n, f) => n + f.size, 0);
  report.found(found.files.length, totalBytes, { hidden: found.hidden, 'not photos or videos': found.unsupported });
  const items = found.files.map((file): Item => ({
    key: file.path,
    source: fileSource(file.path, file.size),
    albums: options.album ? [options.album] : options.albumPerFolder ? [path.basename(file.folder) || file.folder] : [],
  }));
  return sendAll(items, library, report, options);
}

/** Hashes, asks, sends and files `items` (see above); answers the counts. */
export async function sendAll(
  items: Item[],
  library: Library,
  report: Reporter,
  options: UploadOptions,
): Promise<UploadSummary> {
  const summary: UploadSummary = { uploaded: 0, skipped: 0, failed: 0 };
  const albums = new Albums(library);
  // Content being sent in this run: digest → the item id it got (undefined when it failed).
  const sending = new Map<string, Promise<string | undefined>>();
  const concurrency = Math.max(1, options.concurrency);
  const hash = (batch: Item[]): Promise<Hashed[]> =>
    pool(batch, concurrency, async (item) => {
      try {
        return { item, sha256: item.sha256 ?? (await digestOf(item.source)) };
      } catch (err) {
        return { item, error: err as Error };
      }
    });

  // A small first batch, so that sending starts after a few files are hashed, not a thousand; then each batch twice
  // the one before (up to the exist call's limit), so that the next batch is hashed and asked about while this one
  // uploads. One jump from 8 to 1,000 left the upload lanes idle while 1,000 files were hashed.
  const batches: Item[][] = [];
  for (let at = 0, size = Math.min(batchSize(options), Math.max(8, concurrency * 2)); at < items.length;) {
    batches.push(items.slice(at, at + size));
    at += size;
    size = Math.min(batchSize(options), size * 2);
  }
  const send = limiter(concurrency);
  // Each batch's uploads, then its album filing; at most two batches in flight, so hashing runs only a batch ahead.
  const inFlight: Array<Promise<void>> = [];
  let hashing = batches.length ? hash(batches[0]) : undefined;
  for (let b = 0; b < batches.length; b++) {
    const hashed = await hashing!;
    if (inFlight.length >= 2) await inFlight[inFlight.length - 2];
    hashing = b + 1 < batches.length ? hash(batches[b + 1]) : undefined;

    const ready: Array<{ item: Item; sha256: string }> = [];
    for (const h of hashed) {
      if ('error' in h) {
        summary.failed++;
        report.done(h.item.key, 'failed', h.item.source.size, `cannot read: ${h.error.message}`);
      } else ready.push(h);
    }
    let have: Map<string, string>;
    try {
      have = ready.length ? await library.existing([...new Set(ready.map((r) => r.sha256))]) : new Map();
    } catch (err) {
      // A key the server refuses fails every file alike: stop and say what to do.
      if (err instanceof HttpError && err.status === 401) {
        throw new Error('the server refused the API key (revoked, or of another server): run trove login again');
      }
      for (const r of ready) report.done(r.item.key, 'failed', r.item.source.size, reason(err));
      summary.failed += ready.length;
      continue;
    }

    // Item id of each file done (uploaded or already there), for the albums.
    const filed: Array<{ item: Item; id: string }> = [];
    const tasks = ready.map(({ item, sha256 }) => {
      const existingId = have.get(sha256);
      if (existingId) {
        summary.skipped++;
        report.done(item.key, 'skipped', item.source.size);
        filed.push({ item, id: existingId });
        return Promise.resolve();
      }
      // The same content twice: sent once, the copies wait for it.
      const earlier = sending.get(sha256);
      if (earlier) {
        return earlier.then((id) => {
          if (id) {
            summary.skipped++;
            report.done(item.key, 'skipped', item.source.size);
            filed.push({ item, id });
          } else {
            summary.failed++;
            report.done(item.key, 'failed', item.source.size, 'its copy with the same content failed');
          }
        });
      }
      if (options.dryRun) {
        report.done(item.key, 'new', item.source.size);
        summary.new = (summary.new ?? 0) + 1;
        return Promise.resolve();
      }
      const attempt = send(() => library.upload(item.source, (n) => report.sent(n))).then(
        (r) => ({ ok: true as const, ...r }),
        (err: unknown) => ({ ok: false as const, err }),
      );
      sending.set(
        sha256,
        attempt.then((r) => (r.ok ? r.id : undefined)),
      );
      return attempt.then((result) => {
        if (result.ok) {
          filed.push({ item, id: result.id });
          if (result.duplicate) {
            summary.skipped++;
            report.done(item.key, 'skipped', item.source.size);
          } else {
            summary.uploaded++;
            report.done(item.key, 'uploaded', item.source.size);
          }
        } else if (
          result.err instanceof HttpError &&
          result.err.status === 400 &&
          /unsupported file type/.test(result.err.message)
        ) {
          // The name said photo or video, the content did not (a TypeScript `.ts`, a renamed document): not a failure.
          report.done(item.key, 'unsupported', item.source.size, reason(result.err));
        } else {
          summary.failed++;
          report.done(item.key, 'failed', item.source.size, reason(result.err));
        }
      });
    });
    inFlight.push(
      Promise.all(tasks).then(() =>
        options.dryRun ? undefined : fileInAlbums(filed, albums, library, report, summary),
      ),
    );
  }
  await Promise.all(inFlight);
  return summary;
}

async function fileInAlbums(
  filed: Array<{ item: Item; id: string }>,
  albums: Albums,
  library: Library,
  report: Reporter,
  summary: UploadSummary,
): Promise<void> {
  for (const { item, id } of filed) {
    if (!item.after) continue;
    try {
      await item.after(id);
    } catch (err) {
      report.note(`${item.key}: ${reason(err)}`);
      summary.laterErrors = (summary.laterErrors ?? 0) + 1;
    }
  }
  const byAlbum = new Map<string, Array<{ item: Item; id: string }>>();
  for (const f of filed) for (const name of f.item.albums) byAlbum.set(name, [...(byAlbum.get(name) ?? []), f]);
  for (const [name, entries] of byAlbum) {
    // Album order follows the walk's (names sorted), not the order uploads happened to finish in.
    entries.sort((a, b) => (a.item.key < b.item.key ? -1 : a.item.key > b.item.key ? 1 : 0));
    try {
      const id = await albums.id(name);
      for (const ids of chunk([...new Set(entries.map((e) => e.id))], EXIST_BATCH)) await library.addToAlbum(id, ids);
    } catch (err) {
      // The items are in the library; only their album is missing. A re-run files them (they count as skipped then).
      report.note(`album ${name}: ${reason(err)}`);
      summary.laterErrors = (summary.laterErrors ?? 0) + 1;
    }
  }
}
