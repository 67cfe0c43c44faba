/**
 * One decoded frame as PNG bytes, by ffmpeg: a video's poster, or a still in a format the
 * prebuilt libvips does not read (BMP). ffmpeg applies a video's display rotation while decoding.
 * The PNG comes back through a pipe: no temp file to clean up.
 */
import { runFfmpeg } from '../ffmpeg';
import { decodeLimits } from '../limits';
import type { ProcessingLimits } from '../limits';

/** An 8K frame as PNG is well under this; a larger one is not a frame we want. */
const MAX_FRAME_BYTES = 256 * 1024 ** 2;

/** What one frame may cost: time, pixels decoded (ffmpeg's -max_pixels), threads. */
export interface FrameBounds {
  timeoutSeconds: number;
  maxPixels: number;
  threads: number;
}

/** The frame bounds of an item from its limits. */
export function frameBounds(limits: ProcessingLimits): FrameBounds {
  return {
    timeoutSeconds: limits.frameTimeoutSeconds,
    maxPixels: decodeLimits(limits).ffmpegPixels,
    threads: limits.ffmpegThreads,
  };
}

/** The frame at `seconds`, or null when there is none there (ffmpeg then writes nothing). */
export async function grabFrame(
  filePath: string,
  seconds: number,
  name: string,
  bounds: FrameBounds,
): Promise<Buffer | null> {
  const { timeoutSeconds, maxPixels, threads } = bounds;
  const png = await runFfmpeg({
    maxPixels,
    threads,
    input: filePath,
    inputOptions: ['-ss', String(seconds)],
    outputOptions: ['-an', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png'],
    output: 'pipe:1',
    timeoutSeconds,
    what: `frame of ${name}`,
    maxOutputBytes: MAX_FRAME_BYTES,
  });
  return png.length > 0 ? png : null;
}
