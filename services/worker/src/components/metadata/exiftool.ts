/**
 * The worker's ExifTool: a pool of long-lived `exiftool -stay_open` processes (exiftool-vendored, which
 * bundles ExifTool and runs it with the system's Perl; nothing is fetched at run time). One pool per worker
 * process, started on the first read. Reads only: nothing is ever written back to an original.
 *
 * A read that takes longer than its limit has its ExifTool process killed (a fresh one takes its place)
 * and rejects with a MediaError: the item is FAILED with that reason.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename } from 'node:path';
import { DefaultExiftoolArgs, ExifTool, exiftoolPath } from 'exiftool-vendored';
import { MediaError, errorMessage } from '../errors';

/** What one file's tags look like: `Group:Tag` (ExifTool's -G1 family-1 groups) → the -n (numeric) value. */
export type ExifTags = Record<string, unknown>;

export interface ExifToolOptions {
  /** ExifTool processes kept running (each ~20–30 MiB): TROVE_WORKER_EXIFTOOL_PROCS. */
  procs: number;
  /** Longest read of one file; past it, its process is killed: TROVE_WORKER_EXIFTOOL_TIMEOUT_SECONDS. */
  timeoutSeconds: number;
}

export const DEFAULT_EXIFTOOL_PROCS = 2;
/** A file whose metadata takes longer than this to read is failed (TROVE_WORKER_EXIFTOOL_TIMEOUT_SECONDS). */
export const DEFAULT_EXIFTOOL_TIMEOUT_SECONDS = 30;

/**
 * -G1: tags named by their specific group (ExifIFD:, XMP-exif:, Keys:…), so the mapping can say which
 * one it trusts; -n: numbers as numbers (signed degrees, seconds), dates as written; -a: duplicates kept;
 * large-file support: videos over 2 GiB. No -fast: trailers (motion photos, PNG chunks after IDAT) count.
 */
const READ_ARGS = ['-G1', '-n', '-a', '-api', 'largefilesupport=1'];

let options: ExifToolOptions = { procs: DEFAULT_EXIFTOOL_PROCS, timeoutSeconds: DEFAULT_EXIFTOOL_TIMEOUT_SECONDS };
let pool: ExifTool | null = null;

/** Sets the pool's size and time limit; takes effect on the next start (call before the first read, or after closeExifTool). */
export function configureExifTool(next: Partial<ExifToolOptions>): void {
  options = { ...options, ...next };
}

const SETPRIV = '/usr/bin/setpriv';

/**
 * ExifTool in -stay_open mode never exits when its stdin closes (it waits for more), so a worker killed with
 * SIGKILL (the OOM killer, a chaos test, a crash) would leave its ExifTool processes running for ever. On Linux
 * they are started through util-linux's `setpriv --pdeathsig KILL`: the kernel ends each one when the worker
 * dies. Elsewhere, exiftool-vendored's own spawn (undefined here).
 */
function tiedToWorker(): (() => Promise<ChildProcess>) | undefined {
  if (process.platform !== 'linux' || !existsSync(SETPRIV)) return undefined;
  return async () =>
    spawn(SETPRIV, ['--pdeathsig', 'KILL', '--', 'perl', await exiftoolPath(), ...DefaultExiftoolArgs], {
      stdio: 'pipe',
      env: { ...process.env, LANG: 'C' },
    });
}

function exiftool(): ExifTool {
  // minDelayBetweenSpawnMillis 0: a killed process is replaced at once; no retries: a slow file stays slow.
  pool ??= new ExifTool({
    maxProcs: options.procs,
    taskTimeoutMillis: options.timeoutSeconds * 1000,
    minDelayBetweenSpawnMillis: 0,
    taskRetries: 0,
    processFactory: tiedToWorker(),
  });
  return pool;
}

/** The ExifTool processes' ids (the bench counts their memory in the worker's). */
export function exifToolPids(): number[] {
  return pool ? pool.batchCluster.pids() : [];
}

/** Ends the pool's processes (a worker shutting down, a test's afterAll). */
export async function closeExifTool(): Promise<void> {
  const ending = pool;
  pool = null;
  await ending?.end();
}

/**
 * Every tag ExifTool reads from `filePath`. Rejects with a MediaError: 'corrupt' when the read ran past
 * the configured time limit (its process killed) — the item fails with that reason — or ExifTool cannot read it at all.
 */
export async function readTags(filePath: string): Promise<ExifTags> {
  const name = basename(filePath);
  const { timeoutSeconds } = options;
  try {
    return (await exiftool().readRaw(filePath, {
      readArgs: READ_ARGS,
      useMWG: false,
      ignoreMinorErrors: true,
    })) as ExifTags;
  } catch (err) {
    const message = errorMessage(err);
    if (/timeout|timed out/i.test(message)) {
      throw new MediaError(
        'corrupt',
        `${name}: reading its metadata took longer than ${timeoutSeconds} s (ExifTool stopped)`,
        { cause: err },
      );
    }
    throw new MediaError('corrupt', `${name}: ExifTool cannot read it: ${message}`, { cause: err });
  }
}

/**
 * A raw's largest embedded JPEG (JpgFromRaw, else PreviewImage, else OtherImage) written to `dest`, for the
 * previews when libvips cannot decode the raw itself. Resolves false when the raw has none.
 */
export async function extractRawPreview(filePath: string, dest: string): Promise<boolean> {
  return extractLargestPreview(filePath, dest, await readTags(filePath));
}

/** extractRawPreview with the raw's tags already read. */
async function extractLargestPreview(filePath: string, dest: string, tags: ExifTags): Promise<boolean> {
  const sizes = (['JpgFromRaw', 'PreviewImage', 'OtherImage'] as const)
    .map((tag) => ({ tag, length: lengthOf(tags, tag) }))
    .filter((c) => c.length > 0)
    .sort((a, b) => b.length - a.length);
  for (const { tag } of sizes) {
    try {
      await exiftool().extractBinaryTag(tag, filePath, dest);
      return true;
    } catch {
      // A preview whose offset points outside the file: try the next one.
    }
  }
  return false;
}

/**
 * The previews' raw preview source (see previews/image.ts `RawPreviewSource`): the largest embedded JPEG
 * ExifTool finds, with the raw's IFD0 orientation, or null when it has none. The JPEG goes through a file
 * beside the original (the item's temp directory) and is removed once read.
 */
export async function exifToolRawPreview(
  filePath: string,
): Promise<{ jpeg: Buffer; orientation: number | null } | null> {
  const dest = `${filePath}.embedded-preview.jpg`;
  try {
    // One read of the tags gives both the previews' sizes and the orientation.
    const tags = await readTags(filePath);
    if (!(await extractLargestPreview(filePath, dest, tags))) return null;
    const orientation = Number(tags['IFD0:Orientation']);
    return {
      jpeg: await readFile(dest),
      orientation: Number.isInteger(orientation) && orientation >= 1 && orientation <= 8 ? orientation : null,
    };
  } finally {
    await rm(dest, { force: true });
  }
}

/** With -n a binary tag reads "(Binary data N bytes, use -b option to extract)". */
function lengthOf(tags: ExifTags, tag: string): number {
  for (const [key, value] of Object.entries(tags)) {
    if (key !== tag && !key.endsWith(`:${tag}`)) continue;
    const m = /Binary data (\d+) bytes/.exec(String(value));
    if (m) return Number(m[1]);
  }
  return 0;
}
