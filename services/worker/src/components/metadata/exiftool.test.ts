import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const compiled = path.resolve(__dirname, '../../../dist/components/metadata/exiftool.js');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it holds or `ms` pass; the state, not the time, is what the test waits for. */
async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

const linux = process.platform === 'linux' ? it : it.skip;

describe("the worker's ExifTool processes", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'trove-exiftool-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  linux(
    'die with a worker killed by SIGKILL (ExifTool itself would wait for ever on its closed stdin)',
    async () => {
      const file = path.join(dir, 'note.txt');
      writeFileSync(file, 'hello\n');
      // A worker in miniature: the compiled module reads one file, reports its ExifTool pids, then idles.
      const script = `const e = require(${JSON.stringify(compiled)}); e.readTags(${JSON.stringify(file)}).then(() => { console.log(JSON.stringify(e.exifToolPids())); setInterval(() => {}, 1000); });`;
      const worker = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const pids = await new Promise<number[]>((resolve, reject) => {
        let out = '';
        worker.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('\n')) resolve(JSON.parse(out) as number[]);
        });
        worker.on('exit', (code) => reject(new Error(`the worker exited (${code}) before reading`)));
      });
      expect(pids.length).toBeGreaterThan(0);
      expect(pids.every(alive)).toBe(true);

      worker.kill('SIGKILL');
      const gone = await until(() => !pids.some(alive), 10_000);
      if (!gone) for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL'); // leave nothing behind on failure
      expect(gone).toBe(true);
    },
    60_000,
  );
});
