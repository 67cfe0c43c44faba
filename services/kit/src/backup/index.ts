import { createHash } from 'node:crypto';
import { createReadStream, type Dirent } from 'node:fs';
import {
  copyFile,
  link,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'libsql';
import { schemaVersion } from '../docstore/sqlite/connection';

/**
 * A backup of an embedded deployment's data directory (`make backup`, `make restore`): the services' SQLite
 * document stores, the generated secrets and the filesystem blob store, with a manifest that a restore verifies.
 *
 * What is left out on purpose: NATS JetStream's state (`<data>/nats`). Its queues hold work that the stores
 * already describe — an item the backup caught while PROCESSING is queued again by media's reconciler of stuck items
 * (TROVE_PROCESSING_STUCK_AFTER_SECONDS) — and its key-value buckets are short-lived (token revocations, crash
 * markers). Copying a live JetStream directory file by file would not be consistent anyway.
 */

export const MANIFEST = 'manifest.json';
export const MANIFEST_FORMAT = 1;
/** What a restore copies back, relative to the data dir and to the backup. */
const DOCSTORE = 'docstore';
const SECRETS = 'secrets';
const BLOBS = 'blobs';
/** The blob store's in-flight writes (see blobstore/fs.ts): never part of a backup. */
const BLOB_TEMP = '.tmp';

export interface StoreEntry {
  /** The service, e.g. `media`. */
  service: string;
  /** Relative to the backup, e.g. `docstore/media.sqlite`. */
  file: string;
  bytes: number;
  sha256: string;
  schemaVersion: number;
  /** Documents per collection. */
  collections: Record<string, number>;
}

export interface Manifest {
  format: number;
  troveVersion: string;
  createdAt: string;
  stores: StoreEntry[];
  secrets: string[];
  /** Files of the blob store (objects and their content-type sidecars) and their bytes. */
  blobs: { count: number; bytes: number; linked: number };
}

export interface BackupOptions {
  dataDir: string;
  /** Where the `trove-<UTC time>` folders go (default `<dataDir>/backups`). */
  backupDir?: string;
  /** How many backups to keep, this one included (default 7). */
  keep?: number;
  troveVersion: string;
  now?: Date;
}

export interface BackupResult {
  path: string;
  manifest: Manifest;
  removed: string[];
}

const NAME = /^trove-\d{8}T\d{6}(\d{3})?Z$/;

/** `trove-20260101T120000123Z`: sorts in time order as text. */
export function backupName(at: Date): string {
  return `trove-${at.toISOString().replace(/[-:.]/g, '')}`;
}

/**
 * Backs up a data directory while the services run. The stores are copied first, then the blobs: a document in the
 * copied store was written after its blob (media stores the original before its item, the worker its renditions
 * before marking the item READY), so every blob a copied document names is already there when the blob walk starts.
 * The reverse order could catch a document whose blob the walk had passed. Blobs written meanwhile are copied too,
 * orphans that nothing references (harmless).
 *
 * The backup is assembled under a hidden name and renamed into place when complete, so an interrupted run never
 * becomes the "previous" backup that the next one links against.
 */
export async function backup(options: BackupOptions): Promise<BackupResult> {
  const dataDir = resolve(options.dataDir);
  const backupDir = resolve(options.backupDir ?? join(dataDir, 'backups'));
  const keep = options.keep ?? 7;
  if (!Number.isInteger(keep) || keep < 1) throw new Error(`keep must be a whole number of at least 1, got ${keep}`);
  const name = backupName(options.now ?? new Date());
  const target = join(backupDir, name);
  const partial = join(backupDir, `.${name}.partial`);
  await mkdir(backupDir, { recursive: true });
  const previous = (await listBackups(backupDir)).at(-1);
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  try {
    const stores = await copyStores(dataDir, partial);
    // A wrong TROVE_DATA_DIR would otherwise give an empty backup that looks like a good one.
    if (!stores.length) throw new Error(`${dataDir} has no document stores (docstore/*.sqlite): nothing to back up`);
    const secrets = await copySecrets(dataDir, partial);
    const blobs = await copyBlobs(
      join(dataDir, BLOBS),
      join(partial, BLOBS),
      previous ? join(backupDir, previous, BLOBS) : undefined,
      backupDir,
    );
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      troveVersion: options.troveVersion,
      createdAt: (options.now ?? new Date()).toISOString(),
      stores,
      secrets,
      blobs,
    };
    await writeFile(join(partial, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await rename(partial, target);
    const removed = await prune(backupDir, keep);
    return { path: target, manifest, removed };
  } catch (err) {
    await rm(partial, { recursive: true, force: true });
    throw err;
  }
}

/** The complete backups in `dir`, oldest first. */
export async function listBackups(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
  return entries
    .filter((e) => e.isDirectory() && NAME.test(e.name))
    .map((e) => e.name)
    .sort();
}

/** Removes the oldest backups beyond `keep`; returns their paths. */
export async function prune(dir: string, keep: number): Promise<string[]> {
  const all = await listBackups(dir);
  const old = all.slice(0, Math.max(0, all.length - keep)).map((n) => join(dir, n));
  for (const path of old) await rm(path, { recursive: true, force: true });
  return old;
}

async function copyStores(dataDir: string, into: string): Promise<StoreEntry[]> {
  const from = join(dataDir, DOCSTORE);
  const files = (await readdir(from).catch(() => [] as string[])).filter((f) => f.endsWith('.sqlite')).sort();
  await mkdir(join(into, DOCSTORE), { recursive: true });
  const out: StoreEntry[] = [];
  for (const file of files) {
    const copy = join(into, DOCSTORE, file);
    // VACUUM INTO reads one snapshot of the live WAL database (a reader never blocks the service writing it) and
    // writes a compact copy; libsql has no backup API (its `backup()` throws "not implemented").
    const db = new Database(join(from, file));
    try {
      db.pragma('busy_timeout = 10000');
      db.prepare('VACUUM INTO ?').run(copy);
    } finally {
      db.close();
    }
    const { collections, version } = describeStore(copy);
    out.push({
      service: basename(file, '.sqlite'),
      file: `${DOCSTORE}/${file}`,
      bytes: (await stat(copy)).size,
      sha256: await sha256(copy),
      schemaVersion: version,
      collections,
    });
  }
  return out;
}

/** Documents per collection and the schema version of a (copied, unshared) store file. */
export function describeStore(file: string): { collections: Record<string, number>; version: number } {
  const db = new Database(file);
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'd:%' ORDER BY name`)
      .raw()
      .all()
      .map((row) => (row as string[])[0]);
    const collections: Record<string, number> = {};
    for (const t of tables)
      collections[t.slice(2)] = Number(
        (
          db
            .prepare(`SELECT count(*) FROM "${t.replace(/"/g, '""')}"`)
            .raw()
            .get() as unknown[]
        )[0],
      );
    return { collections, version: schemaVersion(db) };
  } finally {
    db.close();
  }
}

async function copySecrets(dataDir: string, into: string): Promise<string[]> {
  const from = join(dataDir, SECRETS);
  const names = (await readdir(from, { withFileTypes: true }).catch(() => [] as Dirent[]))
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();
  if (names.length) await mkdir(join(into, SECRETS), { recursive: true, mode: 0o700 });
  for (const n of names) await copyFile(join(from, n), join(into, SECRETS, n));
  return names;
}

/**
 * Copies the blob tree. A file whose size and modification time match the previous backup's copy is hard-linked to
 * it (blobs are written once under their key and replaced only by a rename, which changes the time), so a daily
 * backup of an unchanged library costs directory entries, not bytes. Copies keep the original's times for the next
 * comparison. Sidecars that are symbolic links are recreated as links.
 */
async function copyBlobs(
  from: string,
  into: string,
  previous: string | undefined,
  skip: string,
): Promise<{ count: number; bytes: number; linked: number }> {
  const totals = { count: 0, bytes: 0, linked: 0 };
  const walk = async (rel: string): Promise<void> => {
    const dir = join(from, rel);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => [] as Dirent[]);
    await mkdir(join(into, rel), { recursive: true });
    for (const e of entries) {
      const relPath = rel ? join(rel, e.name) : e.name;
      const src = join(from, relPath);
      const dst = join(into, relPath);
      if (e.isDirectory()) {
        if ((!rel && e.name === BLOB_TEMP) || resolve(src) === skip) continue;
        await walk(relPath);
      } else if (e.isSymbolicLink()) {
        await symlink(await readlink(src), dst);
        totals.count += 1;
      } else if (e.isFile()) {
        // A blob deleted while we walk is simply not in this backup.
        const st = await stat(src).catch(() => undefined);
        if (!st) continue;
        const before = previous ? await lstat(join(previous, relPath)).catch(() => undefined) : undefined;
        if (before?.isFile() && before.size === st.size && sameMs(before.mtimeMs, st.mtimeMs)) {
          await link(join(previous as string, relPath), dst);
          totals.linked += 1;
        } else {
          try {
            await copyFile(src, dst);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
            throw err;
          }
          await utimes(dst, st.atime, new Date(Math.round(st.mtimeMs)));
        }
        totals.count += 1;
        totals.bytes += st.size;
      }
    }
  };
  await walk('');
  return totals;
}

/** Times compared to the millisecond a copy keeps (utimes rounds through floating-point seconds). */
const sameMs = (a: number, b: number): boolean => Math.round(a) === Math.round(b);

export async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

export async function readManifest(backupPath: string): Promise<Manifest> {
  const text = await readFile(join(backupPath, MANIFEST), 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new Error(
      err.code === 'ENOENT'
        ? `${backupPath} is not a Trove backup (no ${MANIFEST})`
        : `cannot read manifest: ${err.message}`,
    );
  });
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== MANIFEST_FORMAT)
    throw new Error(`${backupPath}: manifest format ${manifest.format} is not the ${MANIFEST_FORMAT} this Trove reads`);
  return manifest;
}

/** The problems of a backup against its manifest (empty when it is intact): each store's sha256, the blob count. */
export async function verify(backupPath: string): Promise<string[]> {
  const manifest = await readManifest(backupPath);
  const problems: string[] = [];
  for (const s of manifest.stores) {
    const file = join(backupPath, s.file);
    const actual = await sha256(file).catch(() => undefined);
    if (actual === undefined) problems.push(`${s.file} is missing`);
    else if (actual !== s.sha256) problems.push(`${s.file}: sha256 ${actual}, the manifest says ${s.sha256}`);
  }
  for (const n of manifest.secrets)
    if (!(await lstat(join(backupPath, SECRETS, n)).catch(() => undefined))) problems.push(`secret ${n} is missing`);
  const blobs = await countFiles(join(backupPath, BLOBS));
  if (blobs.count !== manifest.blobs.count || blobs.bytes !== manifest.blobs.bytes)
    problems.push(
      `blobs: ${blobs.count} files of ${blobs.bytes} bytes, the manifest says ${manifest.blobs.count} of ${manifest.blobs.bytes}`,
    );
  return problems;
}

async function countFiles(dir: string): Promise<{ count: number; bytes: number }> {
  const out = { count: 0, bytes: 0 };
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [] as Dirent[])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isSymbolicLink()) out.count += 1;
      else if (e.isFile()) {
        out.count += 1;
        out.bytes += (await stat(p)).size;
      }
    }
  };
  await walk(dir);
  return out;
}

export class RestoreRefused extends Error {}

/**
 * Restores a backup into an empty (or missing) data directory: verifies it against its manifest first, then copies
 * the stores, the secrets and the blobs. A directory with anything in it is refused: a restore never merges into or
 * overwrites a library.
 */
export async function restore(options: { backupPath: string; dataDir: string }): Promise<Manifest> {
  const backupPath = resolve(options.backupPath);
  const dataDir = resolve(options.dataDir);
  const existing = await readdir(dataDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  if (existing.length)
    throw new RestoreRefused(
      `${dataDir} is not empty (${existing.slice(0, 5).join(', ')}${existing.length > 5 ? ', …' : ''}): a restore goes into an empty data directory only; move it aside or set TROVE_DATA_DIR to a new one`,
    );
  const manifest = await readManifest(backupPath);
  const problems = await verify(backupPath);
  if (problems.length) throw new RestoreRefused(`the backup ${backupPath} is damaged:\n  ${problems.join('\n  ')}`);
  await mkdir(dataDir, { recursive: true });
  await mkdir(join(dataDir, DOCSTORE), { recursive: true });
  for (const s of manifest.stores) await copyFile(join(backupPath, s.file), join(dataDir, s.file));
  if (manifest.secrets.length) {
    await mkdir(join(dataDir, SECRETS), { recursive: true, mode: 0o700 });
    for (const n of manifest.secrets) await copyFile(join(backupPath, SECRETS, n), join(dataDir, SECRETS, n));
  }
  await copyTree(join(backupPath, BLOBS), join(dataDir, BLOBS));
  return manifest;
}

async function copyTree(from: string, into: string): Promise<void> {
  await mkdir(into, { recursive: true });
  for (const e of await readdir(from, { withFileTypes: true }).catch(() => [] as Dirent[])) {
    const src = join(from, e.name);
    const dst = join(into, e.name);
    if (e.isDirectory()) await copyTree(src, dst);
    else if (e.isSymbolicLink()) await symlink(await readlink(src), dst);
    else if (e.isFile()) {
      await copyFile(src, dst);
      const st = await stat(src);
      await utimes(dst, st.atime, st.mtime);
    }
  }
}
