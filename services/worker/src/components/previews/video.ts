/**
 * Videos: a poster frame through the same preview path as photos, and a web-playable copy when
 * the original is not one.
 */
import { basename } from 'node:path';
import { MediaError } from '../errors';
import { runFfmpeg, ToolFailure } from '../ffmpeg';
import { assertPixels, decodeLimits, DEFAULT_LIMITS, transcodeBudgetSeconds } from '../limits';
import type { ProcessingLimits } from '../limits';
import type { MediaMetadata } from '../metadata/types';
import { frameBounds, grabFrame } from './frame';
import type { Previews } from './image';
import { previewsFromImageBuffer } from './image';

/**
 * The poster is the frame 1 s in — past the black first frames and fade-ins of most clips — or
 * 10% in for clips under 10 s, so that short clips are not seeked past their end.
 */
export function posterTime(durationSeconds: number | null): number {
  if (!durationSeconds || durationSeconds <= 0) return 0;
  return Math.min(1, durationSeconds * 0.1);
}

export async function makeVideoPreviews(
  filePath: string,
  meta: MediaMetadata,
  limits: ProcessingLimits = DEFAULT_LIMITS,
): Promise<Previews> {
  const name = basename(filePath);
  // Refused from the size the probe read, before ffmpeg allocates a frame; -max_pixels holds if it lied.
  assertDeclaredPixels(meta, limits, name);
  const bounds = frameBounds(limits);
  const frameAt = (seconds: number) => grabFrame(filePath, seconds, name, bounds);
  // Seeking can land past the last frame of a clip whose duration the container overstates, or into a
  // damaged stretch ffmpeg refuses: the first frame is then tried before the file is given up on.
  const at = posterTime(meta.durationSeconds);
  const first = await frameAt(at).catch((err: unknown) => {
    if (at > 0 && err instanceof MediaError && err.kind === 'corrupt') return null;
    throw err;
  });
  const frame = first ?? (await frameAt(0));
  if (!frame) throw new MediaError('corrupt', `${name}: no frame could be decoded`);
  return previewsFromImageBuffer(frame, name);
}

const WEB_CONTAINERS = new Set(['mp4', 'mov', 'm4v']);
const WEB_PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);
const MAX_LONG_EDGE = 1920;
const MAX_SHORT_EDGE = 1080;

/**
 * Web-playable means every current browser plays it: an MP4/MOV/M4V container, H.264 video in
 * 8-bit 4:2:0 and AAC audio or none. HEVC is not: Chrome and Firefox on most systems cannot play it.
 */
export function isWebPlayable(meta: MediaMetadata): boolean {
  return (
    meta.container !== null &&
    WEB_CONTAINERS.has(meta.container) &&
    meta.videoCodec === 'h264' &&
    (meta.pixelFormat === null || WEB_PIXEL_FORMATS.has(meta.pixelFormat)) &&
    (meta.audioCodec === null || meta.audioCodec === 'aac')
  );
}

/**
 * No metadata of the original goes into a derived video: no global tags (where phones write the GPS
 * position: ©xyz, com.apple.quicktime.location.ISO6709, XMP), no stream tags, no chapters. The
 * rotation is stream side data, not a tag: a remux keeps it, a re-encode applies it.
 */
const STRIP_METADATA = ['-map_metadata', '-1', '-map_metadata:s', '-1', '-map_chapters', '-1'];

/**
 * Writes an H.264/AAC MP4 with the index up front (+faststart, so playback starts before the
 * download ends) to `outPath` and returns it, or returns null when the original plays as is and
 * has no GPS position (then it is served as its own preview). Video that is already 8-bit 4:2:0
 * H.264 within 1080p is only remuxed (a web-playable original with a position too, so that the
 * preview never carries it); anything else is encoded (veryfast, CRF 23, yuv420p) scaled to fit
 * 1920x1080 in either orientation, never upscaled, with even dimensions as 4:2:0 requires. The
 * rotation is applied by the re-encode, or kept as display-matrix side data by the remux; no
 * container or stream metadata is carried over (STRIP_METADATA).
 * The run has a budget from the video's duration and size (limits.ts transcodeBudgetSeconds); past
 * it ffmpeg is killed and the item FAILED as too costly: a READY video that no browser plays would
 * be a silent failure, and the original stays downloadable (docs: security model).
 */
export async function transcodeIfNeeded(
  filePath: string,
  meta: MediaMetadata,
  outPath: string,
  limits: ProcessingLimits = DEFAULT_LIMITS,
): Promise<string | null> {
  const playable = isWebPlayable(meta);
  if (playable && !hasPosition(meta)) return null;
  const name = basename(filePath);
  if (!meta.videoCodec) throw new MediaError('unsupported', `${name}: no video stream to transcode`);
  const video =
    playable || canCopyVideo(meta)
      ? ['-c:v', 'copy']
      : ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-vf', scaleFilter()];
  const audio = meta.audioCodec === 'aac' ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k'];
  const budget = transcodeBudgetSeconds(meta.durationSeconds, meta.width, meta.height, limits);
  // A remux (`-c:v copy`) decodes nothing; a re-encode decodes every frame.
  if (video[1] !== 'copy') assertDeclaredPixels(meta, limits, name);
  try {
    await runFfmpeg({
      maxPixels: decodeLimits(limits).ffmpegPixels,
      threads: limits.ffmpegThreads,
      input: filePath,
      outputOptions: [
        '-map',
        '0:v:0',
        '-map',
        '0:a:0?',
        ...STRIP_METADATA,
        '-sn',
        '-dn',
        ...video,
        ...audio,
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
      ],
      output: outPath,
      timeoutSeconds: budget,
      what: `${playable ? 'copy without metadata' : 'transcode'} of ${name}`,
    });
  } catch (err) {
    // Over its budget the file is what costs too much, whatever a retry would do: it fails for good.
    if (err instanceof MediaError && err.cause instanceof ToolFailure && err.cause.kind === 'timeout') {
      const declared = `${meta.durationSeconds ?? '?'} s at ${meta.width ?? '?'}x${meta.height ?? '?'}`;
      throw new MediaError(
        'too-large',
        `${name}: making a copy browsers play took longer than its budget of ${budget} s (${declared}); ffmpeg was killed`,
        { cause: err },
      );
    }
    throw err;
  }
  return outPath;
}

/** A video whose declared frame is beyond what ffmpeg may decode within the item's memory share: FAILED 'too-large'. */
function assertDeclaredPixels(meta: MediaMetadata, limits: ProcessingLimits, name: string): void {
  if (meta.width && meta.height) assertPixels(meta.width, meta.height, decodeLimits(limits).ffmpegPixels, name);
}

function hasPosition(meta: MediaMetadata): boolean {
  return meta.latitude !== null || meta.longitude !== null;
}

function canCopyVideo(meta: MediaMetadata): boolean {
  const long = Math.max(meta.width ?? Infinity, meta.height ?? Infinity);
  const short = Math.min(meta.width ?? Infinity, meta.height ?? Infinity);
  return (
    meta.videoCodec === 'h264' &&
    meta.pixelFormat !== null &&
    WEB_PIXEL_FORMATS.has(meta.pixelFormat) &&
    long <= MAX_LONG_EDGE &&
    short <= MAX_SHORT_EDGE
  );
}

/** One scale factor ≤ 1 that fits both limits, then each side rounded down to even. */
function scaleFilter(): string {
  const factor = `min(1,min(${MAX_LONG_EDGE}/max(iw,ih),${MAX_SHORT_EDGE}/min(iw,ih)))`;
  return `scale=w='max(2,trunc(iw*${factor}/2)*2)':h='max(2,trunc(ih*${factor}/2)*2)'`;
}
