/**
 * ffprobe and ffmpeg through fluent-ffmpeg, as promises with MediaErrors. The binaries come from
 * PATH (or FFMPEG_PATH/FFPROBE_PATH); every run is time-bounded so a pathological file cannot hold
 * a worker forever.
 */
import ffmpeg from 'fluent-ffmpeg';
import type { FfmpegCommand, FfprobeData } from 'fluent-ffmpeg';
import { MediaError, errorMessage } from './errors';

export function ffprobe(filePath: string, name: string): Promise<FfprobeData> {
  return new Promise((resolve, reject) => {
    ffmpeg.ffprobe(filePath, (err: unknown, data: FfprobeData) => {
      if (!err) return resolve(data);
      const message = errorMessage(err);
      // A missing binary is the machine's problem, not the file's.
      const kind = /cannot find ffprobe|ENOENT|EACCES/i.test(message) ? 'tool' : 'corrupt';
      reject(new MediaError(kind, `${name}: ffprobe cannot read it: ${lastLines(message)}`, { cause: err }));
    });
  });
}

/** A command reading `input`, killed after `timeoutSeconds`. */
export function ffmpegCommand(input: string, timeoutSeconds: number): FfmpegCommand {
  return ffmpeg(input, { timeout: timeoutSeconds });
}

export function runFfmpeg(command: FfmpegCommand, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    command
      .on('error', (err: Error, _stdout: string | null, stderr: string | null) => {
        reject(new MediaError('tool', `${what}: ffmpeg failed: ${lastLines(stderr || err.message)}`, { cause: err }));
      })
      .on('end', () => resolve())
      .run();
  });
}

/** ffmpeg's stderr opens with its banner; the reason is at the end. */
function lastLines(text: string, n = 3): string {
  return text.trim().split('\n').slice(-n).join(' | ');
}
