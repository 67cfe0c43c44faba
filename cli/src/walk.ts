/**
 * What `trove upload PATH...` would send: the files under the given paths, in a stable order, leaving out hidden
 * files and folders (a name starting with `.`: `.DS_Store`, `.thumbnails`, `.git`) and files whose extension is not
 * one of the formats the server accepts, and counting both. A path named on the command line is taken even when
 * hidden. Symbolic links to files are followed; links to folders are not (they can make cycles), and count as hidden.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isSupportedName } from './extensions';

export interface FoundFile {
  /** Absolute path. */
  path: string;
  size: number;
  /** The absolute path of the folder holding it (its name names the album of `--album-per-folder`). */
  folder: string;
}

export interface WalkResult {
  files: FoundFile[];
  /** Hidden files and folders left out (a folder counts once, whatever it holds), and links to folders. */
  hidden: number;
  /** Files of a type the server does not take. */
  unsupported: number;
}

const isHidden = (name: string): boolean => name.startsWith('.');

export async function walk(paths: readonly string[]): Promise<WalkResult> {
  const result: WalkResult = { files: [], hidden: 0, unsupported: 0 };
  const seen = new Set<string>();

  const addFile = async (file: string, size: number): Promise<void> => {
    if (!isSupportedName(file)) {
      result.unsupported++;
      return;
    }
    // The same file named twice (overlapping arguments, a link beside its target) is sent once.
    const real = await realpath(file);
    if (seen.has(real)) return;
    seen.add(real);
    result.files.push({ path: file, size, folder: path.dirname(file) });
  };

  const visit = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      throw new Error(`cannot read folder ${dir}: ${(err as Error).message}`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (isHidden(entry.name)) {
        result.hidden++;
      } else if (entry.isDirectory()) {
        await visit(full);
      } else if (entry.isFile()) {
        await addFile(full, (await stat(full)).size);
      } else if (entry.isSymbolicLink()) {
        const target = await stat(full).catch(() => null);
        if (target?.isFile()) await addFile(full, target.size);
        else result.hidden++;
      }
    }
  };

  for (const given of paths) {
    const absolute = path.resolve(given);
    const info = await stat(absolute).catch((err: NodeJS.ErrnoException) => {
      throw new Error(
        err.code === 'ENOENT' ? `no such file or folder: ${given}` : `cannot read ${given}: ${err.message}`,
      );
    });
    if (info.isDirectory()) await visit(absolute);
    else if (info.isFile()) await addFile(absolute, info.size);
    else throw new Error(`not a file or folder: ${given}`);
  }
  return result;
}
