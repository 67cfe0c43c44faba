/**
 * The files of a Google Takeout export, wherever they are: extracted folders, the `.zip` parts themselves (read in
 * place with yauzl, never extracted to disk) or its `.tgz` parts (read as streams, see tar.ts). A sidecar may sit in
 * another part than its photo, so all parts make one tree. Paths are POSIX, relative to the folder or archive given.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { JSON_CAP, TarReader, listTar } from './tar';

export interface TakeoutEntry {
  /** `Takeout/Google Photos/Rome/IMG_1.jpg`. */
  path: string;
  size: number;
  open(): Promise<Readable>;
  /** Known already: a `.tgz` part's photos and videos are hashed as the part is listed. */
  sha256?: string;
  /**
   * A `.tgz` part's entry (part: its place among the inputs; index: its place in the archive). Those can only be read
   * in archive order, so they are opened in that order (see `inArchiveOrder`).
   */
  sequence?: { part: number; index: number };
}

export interface TakeoutFiles {
  entries: TakeoutEntry[];
  close(): Promise<void>;
}

async function folderEntries(root: string): Promise<TakeoutEntry[]> {
  const out: TakeoutEntry[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) {
        const { size } = await stat(full);
        const { createReadStream } = await import('node:fs');
        out.push({
          path: path.relative(root, full).split(path.sep).join('/'),
          size,
          open: async () => createReadStream(full, { highWaterMark: 1 << 20 }),
        });
      }
    }
  };
  await visit(root);
  return out;
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: true }, (err, zip) =>
      err || !zip ? reject(err ?? new Error(`cannot open ${file}`)) : resolve(zip),
    ),
  );
}

async function zipEntries(zip: yauzl.ZipFile): Promise<TakeoutEntry[]> {
  const out: TakeoutEntry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) {
        out.push({
          path: entry.fileName,
          size: entry.uncompressedSize,
          open: () =>
            new Promise<Readable>((ok, fail) =>
              zip.openReadStream(entry, (err, stream) => (err || !stream ? fail(err) : ok(stream))),
            ),
        });
      }
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    zip.once('error', reject);
    zip.readEntry();
  });
  return out;
}

async function tgzEntries(file: string, part: number, reader: TarReader): Promise<TakeoutEntry[]> {
  const { files } = await listTar(file);
  return files.map(({ index, path: at, size, json, sha256 }): TakeoutEntry => {
    if (json) return { path: at, size, open: async () => Readable.from([json]) };
    // JSON too large to be a sidecar (kept out of memory): it reads as none.
    if (at.toLowerCase().endsWith('.json')) {
      return { path: at, size, open: () => Promise.reject(new Error(`${at}: larger than ${JSON_CAP} bytes`)) };
    }
    return {
      path: at,
      size,
      open: () => reader.open(index, at, size),
      sequence: { part, index },
      ...(sha256 ? { sha256 } : {}),
    };
  });
}

/**
 * Sorts items so that the `.tgz` entries come last, each part's in archive order (the others keep their order): the
 * upload opens files in the order it is given them, and a tar part is read front to back.
 */
export function inArchiveOrder<T>(items: readonly T[], entryOf: (item: T) => TakeoutEntry): T[] {
  return [...items].sort((a, b) => {
    const x = entryOf(a).sequence;
    const y = entryOf(b).sequence;
    if (!x || !y) return (x ? 1 : 0) - (y ? 1 : 0);
    return x.part - y.part || x.index - y.index;
  });
}

export async function openTakeout(inputs: readonly string[]): Promise<TakeoutFiles> {
  const zips: yauzl.ZipFile[] = [];
  const tars: TarReader[] = [];
  const entries: TakeoutEntry[] = [];
  const closeAll = () => {
    for (const z of zips) z.close();
    for (const t of tars) t.close();
  };
  try {
    for (const input of inputs) {
      const info = await stat(input).catch(() => null);
      if (!info) throw new Error(`no such file or folder: ${input}`);
      if (info.isDirectory()) entries.push(...(await folderEntries(input)));
      else if (/\.zip$/i.test(input)) {
        const zip = await openZip(input);
        zips.push(zip);
        entries.push(...(await zipEntries(zip)));
      } else if (/\.(tgz|tar\.gz)$/i.test(input)) {
        const reader = new TarReader(input);
        tars.push(reader);
        entries.push(...(await tgzEntries(input, tars.length, reader)));
      } else throw new Error(`${input}: not a Takeout .zip, .tgz or folder`);
    }
  } catch (err) {
    closeAll();
    throw err;
  }
  return { entries, close: async () => closeAll() };
}
