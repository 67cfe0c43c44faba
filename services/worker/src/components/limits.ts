/**
 * How much one item may cost a worker. Uploads may be up to 10 GiB and come from anyone with an
 * account, so every read is bounded in memory and every child process in time.
 */
import { MediaError } from './errors';

export interface ProcessingLimits {
  /**
   * Largest still image accepted. Most formats are read from disk in pieces; raws and HEVC-coded
   * HEIF are read whole (their readers need the bytes in memory), so this also bounds that.
   */
  maxImageBytes: number;
  /** One ffprobe run (reading a video's metadata). */
  probeTimeoutSeconds: number;
  /** One ffmpeg run that decodes a single frame (a poster, a BMP). */
  frameTimeoutSeconds: number;
  /** One ffmpeg run that makes the web-playable copy of a video. */
  transcodeTimeoutSeconds: number;
}

export const DEFAULT_LIMITS: ProcessingLimits = {
  maxImageBytes: 512 * 1024 ** 2,
  probeTimeoutSeconds: 60,
  frameTimeoutSeconds: 120,
  // Long enough for a 4K hour at veryfast on a small machine.
  transcodeTimeoutSeconds: 4 * 3600,
};

/** Refuses a still image above the size limit, before anything reads it. */
export function assertImageSize(bytes: number, limits: ProcessingLimits, name: string): void {
  if (bytes > limits.maxImageBytes) {
    throw new MediaError('too-large', `${name}: ${mebibytes(bytes)} is more than the ${mebibytes(limits.maxImageBytes)} a photo may have`);
  }
}

const mebibytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(bytes < 1024 ** 2 ? 3 : 0)} MiB`;
