/** Videos made on the spot with ffmpeg (a test pattern and a sine tone), and ffprobe to read them back. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir, tempDirPerFile } from '../temp';
import type { TempDir } from '../temp';

const execFileAsync = promisify(execFile);

export async function ffmpeg(args: string[]): Promise<void> {
  await execFileAsync('ffmpeg', ['-v', 'error', '-y', ...args]);
}

export async function ffprobeJson(
  file: string,
): Promise<{ streams: Array<Record<string, unknown>>; format: Record<string, unknown> }> {
  const { stdout } = await execFileAsync('ffprobe', [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    '-show_format',
    file,
  ]);
  return JSON.parse(stdout) as { streams: Array<Record<string, unknown>>; format: Record<string, unknown> };
}

export interface ClipShape {
  seconds?: number;
  /** `WxH`, e.g. `320x240`. */
  size?: string;
  rate?: number;
  /** A sine tone beside the picture (default true). */
  audio?: boolean;
}

/** ffmpeg input arguments of a test pattern video: `-f lavfi testsrc` plus a sine tone unless `audio` is false. */
export function testClipArgs(opts: ClipShape = {}): string[] {
  const { seconds = 2, size = '320x240', rate = 30, audio = true } = opts;
  const video = ['-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=${size}:rate=${rate}`];
  return audio ? [...video, '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-shortest'] : video;
}

/** H.264 video in yuv420p (what browsers play), made as fast as ffmpeg can. */
export const H264_ARGS: readonly string[] = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/** A temporary directory for the tests of one file, holding a clip they share. */
export interface VideoTestDir {
  readonly dir: TempDir;
  /** `clip.mp4` in it: the 2 s test pattern and tone as H.264/AAC, its index after the media (ffmpeg's default, as cameras write it). */
  readonly mp4: string;
}

/**
 * Makes the directory and its clip before the tests of the file this is called in and removes them
 * after (jest's `beforeAll`/`afterAll`, registered here). Read its fields inside hooks and tests.
 */
export function videoTestDir(): VideoTestDir {
  const dir = tempDirPerFile('trove-video-', (made) =>
    ffmpeg([...testClipArgs(), ...H264_ARGS, '-c:a', 'aac', made.file('clip.mp4')]),
  );
  return {
    dir,
    get mp4() {
      return dir.file('clip.mp4');
    },
  };
}

/** How each kind of clip is encoded: `mp4` plays in browsers as it is, `mov` needs a transcode. */
const CODECS = {
  mp4: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-movflags', '+faststart'],
  mov: ['-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'pcm_s16le'],
} as const;

/**
 * A test-pattern clip with sound: `mp4` is web-playable H.264/AAC (index up front), `mov` is
 * MPEG-4 Part 2 video with PCM sound. `creationTime` (ISO 8601) goes into the container metadata.
 */
export async function clip(kind: 'mp4' | 'mov', opts: ClipShape & { creationTime?: string } = {}): Promise<Buffer> {
  const dir = await tempDir('trove-clip-');
  try {
    const out = join(dir.path, `${randomUUID()}.${kind}`);
    const metadata = opts.creationTime ? ['-metadata', `creation_time=${opts.creationTime}`] : [];
    await ffmpeg([...testClipArgs({ ...opts, audio: opts.audio ?? true }), ...CODECS[kind], ...metadata, out]);
    return await readFile(out);
  } finally {
    await dir.remove();
  }
}
