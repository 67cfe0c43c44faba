import { spawn } from 'node:child_process';
import { mkdir, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { tempDir } from '@trove/kit/testing';
import type { TempDir } from '@trove/kit/testing';
import { processTempDir, sweepStaleTemp } from './temp';

let root: TempDir;
beforeEach(async () => {
  root = await tempDir('trove-worker-temp-');
});
afterEach(() => root.remove());

/** The pid of a process that has run and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('worker temp directories', () => {
  it('each process works under trove-worker-<pid>', async () => {
    const dir = await processTempDir(root.path);
    expect(dir).toBe(join(root.path, `trove-worker-${process.pid}`));
    expect(await processTempDir(root.path)).toBe(dir);
    expect(await readdir(root.path)).toEqual([`trove-worker-${process.pid}`]);
  });

  it('at start, removes at once the directories of processes that no longer run, and our own pid’s; keeps those of running workers', async () => {
    const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const dead = await deadPid();
      for (const name of [
        `trove-worker-${dead}`,
        `trove-worker-${process.pid}`,
        `trove-worker-${running.pid}`,
        'trove-worker-notapid',
        'someone-else',
      ]) {
        await mkdir(join(root.path, name, 'item-abc'), { recursive: true });
      }
      expect(await sweepStaleTemp(root.path)).toBe(2);
      expect((await readdir(root.path)).sort()).toEqual(
        ['someone-else', `trove-worker-${running.pid}`, 'trove-worker-notapid'].sort(),
      );
    } finally {
      running.kill('SIGKILL');
    }
  });

  it('removes per-item directories of earlier versions once they are six hours old', async () => {
    await mkdir(join(root.path, 'trove-work-old'));
    await mkdir(join(root.path, 'trove-work-new'));
    await mkdir(join(root.path, 'someone-else'));
    const past = new Date(Date.now() - 7 * 3600 * 1000);
    await utimes(join(root.path, 'trove-work-old'), past, past);
    await utimes(join(root.path, 'someone-else'), past, past);
    expect(await sweepStaleTemp(root.path)).toBe(1);
    expect((await readdir(root.path)).sort()).toEqual(['someone-else', 'trove-work-new']);
  });
});
