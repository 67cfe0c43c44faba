import { randomUUID } from 'node:crypto';
import { close as closeCb, fsync as fsyncCb, open as openCb, type BigIntStats, type Dirent } from 'node:fs';
import { once } from 'node:events';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  readlink,
  rename,
  rm,
  rmdir,
  stat,
  statfs,
  symlink,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GATHER_BYTES, GatheredFileWriter } from './gathered-file';
import { ByteMeter } from './meter';
import {
  BlobNotFoundError,
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type GetResult,
  type PlacedBlob,
  type PutOptions,
  type PutResult,
  type StoreUsage,
} from './port';
import { assertValidKey, assertValidPrefix, assertValidRange, META_SUFFIX, servedRange, TEMP_DIR } from './validate';

/**
 * Filesystem adapter (the embedded default).
 *
 * Layout under `root`: each object is a plain file at `<root>/<key>`, with its content type in a
 * sidecar `<root>/<key>.meta.json`; in-flight writes live in `<root>/.tmp/` (same volume, so the
 * final `rename` is atomic). A put becomes visible only at that rename, after an fsync, so a crash
 * never leaves a half-written object under its final name.
 *
 * The sidecar is a symbolic link whose target is the JSON (`{"contentType":"image/jpeg"}`), the
 * way editors keep lock files: making it is one metadata operation, which the directory fsync makes
 * durable with the renames, where a file took an open, a write, an fsync (a journal commit of its
 * own) and a close on every put. Where the filesystem has no symbolic links (some SMB mounts) it is
 * a small JSON file, fsynced; both are read, as are the files earlier versions wrote.
 *
 * `etag` is a quoted HTTP entity-tag like S3's: `"<size hex>-<mtime ns hex>-<inode hex>"`. The inode is there
 * because file times tick coarsely (a few ms on Linux): two puts of the same size in one tick would share size
 * and mtime, but every put renames a new file into place, so its inode differs from the one it replaced.
 * Limitation of a directory tree: a key cannot also be a prefix directory of other keys
 * (`a` and `a/b` cannot coexist); such a put fails.
 */

export interface FsBlobStoreOptions {
  root: string;
  /** Remove directories a delete leaves empty (default true). */
  pruneEmptyDirs?: boolean;
}

/** Temp files untouched for this long are leftovers of a crash (an active write keeps mtime fresh). */
const STALE_TEMP_MS = 60 * 60 * 1000;

interface Sidecar {
  contentType?: string;
}

export async function openFsBlobStore(options: FsBlobStoreOptions): Promise<FsBlobStore> {
  const store = new FsBlobStore(options);
  await mkdir(store.tempDir, { recursive: true });
  await sweepStaleTemps(store.tempDir);
  return store;
}

export class FsBlobStore implements BlobStore {
  readonly kind = 'fs' as const;
  readonly root: string;
  readonly tempDir: string;
  private readonly pruneEmptyDirs: boolean;

  constructor(options: FsBlobStoreOptions) {
    this.root = options.root;
    this.tempDir = join(options.root, TEMP_DIR);
    this.pruneEmptyDirs = options.pruneEmptyDirs ?? true;
  }

  /** Absolute path of a (validated) key. */
  pathOf(key: string): string {
    return join(this.root, ...key.split('/'));
  }

  async put(key: string, body: Readable, options: PutOptions = {}): Promise<PutResult> {
    const { durable, ...result } = await this.place(key, body, options);
    await durable;
    return result;
  }

  /**
   * The data and its sidecar are written to temp files and fsynced, then renamed into place: from
   * then on the object is whole and readable by every process. The renames become durable only with
   * the directory fsyncs, which `durable` awaits. A process crash meanwhile loses nothing (the renames
   * are done); a power loss before `durable` may undo them, though a journaling filesystem (ext4, XFS)
   * commits in order, so they are durable no later than a later write on the same filesystem that names the object.
   */
  async place(key: string, body: Readable, options: PutOptions = {}): Promise<PlacedBlob> {
    try {
      assertValidKey(key);
    } catch (err) {
      body.destroy();
      throw err;
    }
    const temp = join(this.tempDir, randomUUID());
    const metaTemp = temp + META_SUFFIX;
    const finalPath = this.pathOf(key);
    let file: GatheredFileWriter | undefined;
    // While the bytes stream in: the sidecar, made in place already when the key's directory is new.
    const preparing = this.prepareSidecar(metaTemp, finalPath, options.contentType);
    preparing.catch(() => undefined); // awaited below
    try {
      const meter = new ByteMeter(options.maxBytes);
      // Written in large writes, fsynced on its own descriptor before it closes (no second open to sync it),
      // counted and hashed by the writer as the pieces arrive.
      file = new GatheredFileWriter(temp, GATHER_BYTES, meter);
      await pipeline(body, file);
      const result = meter.result();
      // Data (and a sidecar file) durable before the renames below publish them, so a crash never
      // leaves lost bytes under the final name.
      let created: string | undefined;
      try {
        const prepared = await preparing;
        created = prepared.created;
        // Sidecar first: the data rename is the commit point, so a new object never appears without
        // its content type.
        if (!prepared.placed) created = await this.moveIntoPlace(metaTemp, finalPath + META_SUFFIX);
      } catch (err) {
        throw collisionError(key, err);
      }
      try {
        // Its directory exists now (unless a delete pruned it meanwhile: moveIntoPlace makes it again).
        created = (await this.moveIntoPlace(temp, finalPath, true)) ?? created;
      } catch (err) {
        // Fails when the key is a directory (other keys live under it): there was no object.
        await rm(finalPath + META_SUFFIX, { force: true });
        throw collisionError(key, err);
      }
      const durable = syncDirs(dirname(finalPath), created);
      durable.catch(() => undefined); // the caller's to await
      return { ...result, durable };
    } catch (err) {
      body.destroy();
      if (file && !file.closed) await once(file, 'close').catch(() => undefined); // Windows cannot unlink open files
      // Removed only once the sidecar's making is over; where it was already in place, it goes too.
      const prepared = await preparing.catch(() => undefined);
      await Promise.all([rm(temp, { force: true }), rm(metaTemp, { force: true })]);
      if (prepared?.placed && !(await statFile(finalPath))) {
        await rm(finalPath + META_SUFFIX, { force: true });
        if (this.pruneEmptyDirs) await this.pruneUpFrom(dirname(finalPath));
      }
      throw err;
    }
  }

  /**
   * Makes the sidecar (always one, even without a type: it replaces an older object's). Where the
   * key's directory did not exist (nothing can be under the key yet) it is made in place at once:
   * no rename after the last byte. Until the data's rename nothing is visible: an object exists only
   * as its data file.
   */
  private async prepareSidecar(
    metaTemp: string,
    finalPath: string,
    contentType: string | undefined,
  ): Promise<{ placed: boolean; created?: string }> {
    const created = await mkdir(dirname(finalPath), { recursive: true });
    await writeSidecar(created ? finalPath + META_SUFFIX : metaTemp, { contentType });
    return { placed: created !== undefined, created };
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    assertValidKey(key);
    if (range) assertValidRange(range);
    // Serve from one open handle: size, etag and bytes stay consistent even if the key is
    // overwritten (renamed over) meanwhile.
    const opened = await openFile(this.pathOf(key));
    if (!opened) throw new BlobNotFoundError(key);
    const { handle, stats } = opened;
    try {
      const info = await this.infoOf(key, stats, true);
      const served = range && servedRange(key, range, info.size);
      const body = handle.createReadStream(served ? { start: served.start, end: served.end } : {});
      return { body, info, range: served };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async head(key: string): Promise<BlobInfo | null> {
    assertValidKey(key);
    const stats = await statFile(this.pathOf(key));
    return stats ? this.infoOf(key, stats, true) : null;
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    const path = this.pathOf(key);
    // Data first: once it is gone the object is gone, whatever happens to the sidecar.
    await unlinkIfPresent(path);
    await unlinkIfPresent(path + META_SUFFIX);
    if (this.pruneEmptyDirs) await this.pruneUpFrom(dirname(path));
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    assertValidPrefix(prefix);
    const slash = prefix.lastIndexOf('/');
    yield* this.walk(slash < 0 ? '' : prefix.slice(0, slash), prefix);
  }

  /** Volume numbers of the filesystem holding the root (shared with anything else on it). */
  async usage(): Promise<StoreUsage> {
    const s = await statfs(this.root);
    return { total: s.blocks * s.bsize, free: s.bavail * s.bsize, used: (s.blocks - s.bfree) * s.bsize };
  }

  async close(): Promise<void> {
    // Nothing pooled: every handle belongs to a single call or to the stream it returned.
  }

  /**
   * Depth-first walk in key order. Plain per-directory name order is not key order ('a-c' sorts
   * before 'a/b' since '-' < '/'), so a directory is sorted as if its name ended with '/', and
   * names compare as UTF-8 bytes like S3 keys.
   */
  private async *walk(dirKey: string, prefix: string): AsyncGenerator<BlobInfo> {
    let entries: Dirent[];
    try {
      entries = await readdir(dirKey ? this.pathOf(dirKey) : this.root, { withFileTypes: true });
    } catch (err) {
      if (isCode(err, 'ENOENT', 'ENOTDIR')) return;
      throw err;
    }
    const items: { key: string; sortKey: string; isDir: boolean }[] = [];
    for (const entry of entries) {
      const key = dirKey ? `${dirKey}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        const sortKey = `${key}/`;
        if (key !== TEMP_DIR && (sortKey.startsWith(prefix) || prefix.startsWith(sortKey)))
          items.push({ key, sortKey, isDir: true });
      } else if (entry.isFile() && key.startsWith(prefix) && isValidKey(key)) {
        items.push({ key, sortKey: key, isDir: false });
      }
    }
    items.sort((a, b) => Buffer.compare(Buffer.from(a.sortKey), Buffer.from(b.sortKey)));
    for (const item of items) {
      if (item.isDir) {
        yield* this.walk(item.key, prefix);
        continue;
      }
      const stats = await statFile(this.pathOf(item.key));
      // Listing never reads sidecars (one extra read per object); S3 listings carry no type either.
      if (stats) yield await this.infoOf(item.key, stats, false);
    }
  }

  private async infoOf(key: string, stats: BigIntStats, withType: boolean): Promise<BlobInfo> {
    const info: BlobInfo = {
      key,
      size: Number(stats.size),
      etag: `"${stats.size.toString(16)}-${stats.mtimeNs.toString(16)}-${stats.ino.toString(16)}"`,
      lastModified: new Date(Number(stats.mtimeMs)),
    };
    if (withType) {
      const contentType = await readContentType(this.pathOf(key) + META_SUFFIX);
      if (contentType !== undefined) info.contentType = contentType;
    }
    return info;
  }

  /**
   * mkdir -p then rename (the mkdir left out at first when `dirExists`), retried when a concurrent
   * delete pruned the fresh directory in between. Returns the first directory it had to create, if any (for fsync).
   */
  private async moveIntoPlace(from: string, to: string, dirExists = false): Promise<string | undefined> {
    let created: string | undefined;
    for (let attempt = 0; ; attempt++) {
      if (!dirExists || attempt > 0) created = (await mkdir(dirname(to), { recursive: true })) ?? created;
      try {
        await rename(from, to);
        return created;
      } catch (err) {
        if (!isCode(err, 'ENOENT') || attempt >= 3) throw err;
      }
    }
  }

  private async pruneUpFrom(dir: string): Promise<void> {
    while (isStrictlyInside(this.root, dir)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone / raced with a put): stop here
      }
      dir = dirname(dir);
    }
  }
}

async function openFile(path: string): Promise<{ handle: FileHandle; stats: BigIntStats } | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if (isCode(err, 'ENOENT', 'ENOTDIR', 'EISDIR')) return null;
    throw err;
  }
  try {
    const stats = await handle.stat({ bigint: true });
    if (stats.isFile()) return { handle, stats };
  } catch (err) {
    await handle.close();
    throw err;
  }
  await handle.close(); // a directory: the key is only a prefix of other keys
  return null;
}

async function statFile(path: string): Promise<BigIntStats | null> {
  try {
    const stats = await stat(path, { bigint: true });
    return stats.isFile() ? stats : null;
  } catch (err) {
    if (isCode(err, 'ENOENT', 'ENOTDIR')) return null;
    throw err;
  }
}

/** A symbolic link holding the JSON, else (no symbolic links on this filesystem) a file. */
async function writeSidecar(path: string, sidecar: Sidecar): Promise<void> {
  const json = JSON.stringify(sidecar);
  try {
    await symlink(json, path);
  } catch (err) {
    // No symbolic links here (EPERM on Windows and some SMB mounts), or a type too long for a link target.
    if (!isCode(err, 'EPERM', 'EOPNOTSUPP', 'ENOSYS', 'ENOTSUP', 'ENAMETOOLONG')) throw err;
    await writeFileDurably(path, json);
  }
}

async function readSidecar(path: string): Promise<string> {
  try {
    return await readlink(path);
  } catch (err) {
    if (isCode(err, 'EINVAL')) return readFile(path, 'utf8'); // a file: no symbolic links here, or an older store
    throw err;
  }
}

async function readContentType(sidecarPath: string): Promise<string | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readSidecar(sidecarPath));
    const contentType = (parsed as Partial<Sidecar> | null)?.contentType;
    return typeof contentType === 'string' ? contentType : undefined;
  } catch {
    return undefined; // missing or unreadable sidecar: the bytes are still served
  }
}

async function writeFileDurably(path: string, data: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsync `dir`, and when directories were created for it, each of them up to the parent of the topmost. */
async function syncDirs(dir: string, createdTop: string | undefined): Promise<void> {
  const stopAt = createdTop ? dirname(createdTop) : dir;
  const dirs = [];
  for (let d = dir; ; d = dirname(d)) {
    dirs.push(d);
    if (d === stopAt || d === dirname(d)) break;
  }
  // Side by side: the put is acknowledged only once all are durable, whatever their order.
  await Promise.all(dirs.map(syncDir));
}

/** Callbacks rather than a FileHandle: this runs on every put, and each step is a thread-pool round trip anyway. */
function syncDir(dir: string): Promise<void> {
  // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic.
  const unsupported = (err: unknown) => isCode(err, 'EISDIR', 'EINVAL', 'EPERM', 'EBADF', 'EACCES');
  return new Promise((resolve, reject) => {
    openCb(dir, 'r', (openErr, fd) => {
      if (openErr) return unsupported(openErr) ? resolve() : reject(openErr);
      fsyncCb(fd, (syncErr) => {
        closeCb(fd, (closeErr) => {
          const err = syncErr && !unsupported(syncErr) ? syncErr : closeErr;
          if (err) reject(err);
          else resolve();
        });
      });
    });
  });
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (err) {
    // EISDIR/EPERM: the key is only a directory (prefix of other keys), i.e. no such object.
    if (!isCode(err, 'ENOENT', 'ENOTDIR', 'EISDIR', 'EPERM')) throw err;
  }
}

async function sweepStaleTemps(tempDir: string): Promise<void> {
  const cutoff = Date.now() - STALE_TEMP_MS;
  for (const name of await readdir(tempDir)) {
    const path = join(tempDir, name);
    try {
      // lstat: a sidecar link's own time (its target is JSON, not a path).
      if ((await lstat(path)).mtimeMs < cutoff) await rm(path, { force: true, recursive: true });
    } catch {
      // best effort: another process may be sweeping too
    }
  }
}

function collisionError(key: string, err: unknown): Error {
  if (isCode(err, 'EISDIR', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR')) {
    return new Error(
      `cannot store ${JSON.stringify(key)}: other keys exist under it (a key cannot also be a prefix directory on the filesystem store)`,
      { cause: err },
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

function isStrictlyInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep);
}

function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

function isCode(err: unknown, ...codes: string[]): boolean {
  return typeof err === 'object' && err !== null && codes.includes((err as NodeJS.ErrnoException).code ?? '');
}
