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

/**
 * A temporary directory made before the tests of the file this is called in and removed after them (jest's
 * `beforeAll`/`afterAll`, registered here), `prepare`d (files put in it) once made. Use it inside hooks and tests.
 */
export function tempDirPerFile(prefix?: string, prepare?: (dir: TempDir) => Promise<unknown>): TempDir {
  let dir: TempDir | undefined;
  beforeAll(async () => {
    dir = await tempDir(prefix);
    await prepare?.(dir);
  });
  afterAll(() => dir?.remove());
  const made = (): TempDir => {
    if (!dir) throw new Error('the temporary directory is made before the tests: use it inside a test or a hook');
    return dir;
  };
  return {
    get path() {
      return made().path;
    },
    file: (name) => made().file(name),
    write: (name, data) => made().write(name, data),
    remove: () => made().remove(),
  };
}
