/** The files of a stack's data directory (or any directory), for checks of what was written where. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Paths (relative to `root`, `/`-separated) of the files under `root/sub`, down to `maxDepth`
 * levels of folders. Folders that vanish or cannot be read while walking are skipped: other
 * processes keep writing.
 */
export async function filesUnder(root: string, sub = '', maxDepth = Infinity): Promise<string[]> {
  const out: string[] = [];
  const walk = async (relative: string, depth: number): Promise<void> => {
    const entries = await readdir(join(root, relative), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const path = relative ? `${relative}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (depth < maxDepth) await walk(path, depth + 1);
      } else out.push(path);
    }
  };
  await walk(sub, 0);
  return out.sort();
}
