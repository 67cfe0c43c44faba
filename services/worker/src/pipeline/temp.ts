/**
 * The worker's only local state: temp files of the items in progress, under one directory per
 * worker process, `<TMPDIR>/trove-worker-<pid>`. Naming it by the pid tells, at the next start,
 * which directories a killed worker left behind: those whose process no longer exists.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PROCESS_TEMP_PREFIX = 'trove-worker-';
/** Per-item directories of earlier versions, directly under TMPDIR; removed once six hours old. */
const LEGACY_TEMP_PREFIX = 'trove-work-';
const LEGACY_MAX_AGE_MS = 6 * 3600 * 1000;

/** Creates (if needed) and returns this process's temp directory under `root`. */
export async function processTempDir(root: string = tmpdir()): Promise<string> {
  const dir = join(root, `${PROCESS_TEMP_PREFIX}${process.pid}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * At start, before this process makes its own: removes the temp directories of worker processes
 * that no longer run. One named with our own pid is stale too (a restarted container often gets
 * the pid its predecessor had). Returns how many were removed.
 */
export async function sweepStaleTemp(root: string = tmpdir()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const path = join(root, name);
    try {
      if (
        name.startsWith(PROCESS_TEMP_PREFIX)
          ? isStale(name.slice(PROCESS_TEMP_PREFIX.length))
          : await isOldLegacy(name, path)
      ) {
        await rm(path, { recursive: true, force: true });
        removed++;
      }
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

function isStale(pidText: string): boolean {
  const pid = Number(pidText);
  if (!/^\d+$/.test(pidText) || !Number.isSafeInteger(pid) || pid <= 0) return false;
  return pid === process.pid || !isRunning(pid);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isOldLegacy(name: string, path: string): Promise<boolean> {
  return name.startsWith(LEGACY_TEMP_PREFIX) && (await stat(path)).mtimeMs < Date.now() - LEGACY_MAX_AGE_MS;
}
