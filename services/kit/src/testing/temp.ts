import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  path: string;
  /** The path of `name` inside the directory. */
  file(name: string): string;
  /** Writes `data` to `name` inside the directory and returns its path. */
  write(name: string, data: Buffer | string): Promise<string>;
  remove(): Promise<void>;
}

/** A fresh directory under the OS temp dir, removed (recursively) by `remove()`. */
export async function tempDir(prefix = 'trove-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return {
    path,
    file: (name) => join(path, name),
    write: async (name, data) => {
      await writeFile(join(path, name), data);
      return join(path, name);
    },
    remove: () => rm(path, { recursive: true, force: true }),
  };
}
