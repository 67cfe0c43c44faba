/**
 * The files of a Google Takeout export, wherever they are: extracted folders, or the `.zip` parts themselves (read in
 * place with yauzl, never extracted to disk; a sidecar may sit in another part than its photo, so all parts make one
 * tree). Paths are POSIX, relative to the folder or zip given.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

export interface TakeoutEntry {
  /** `Takeout/Google Photos/Rome/IMG_1.jpg`. */
  path: string;
  size: number;
  open(): Promise<Readable>;
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

export async function openTakeout(inputs: readonly string[]): Promise<TakeoutFiles> {
  const zips: yauzl.ZipFile[] = [];
  const entries: TakeoutEntry[] = [];
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
        throw new Error(`${input}: .tgz exports are not read yet; extract it (tar xzf) and give the folder`);
      } else throw new Error(`${input}: not a Takeout .zip or folder`);
    }
  } catch (err) {
    for (const z of zips) z.close();
    throw err;
  }
  return {
    entries,
    close: async () => {
      for (const z of zips) z.close();
    },
  };
}
