/**
 * For the worker's tests only: a test frame, a file cut off in transfer, and
 * the ffmpeg arguments the tests use to make videos as cameras and phones tag them (the clips themselves come
 * from `@trove/kit/testing/media`). The pipeline's own (work items, loggers) are in pipeline/work-item.fake.ts.
 */
import { ffmpeg } from '@trove/kit/testing/media';

/** ffmpeg's arguments for one 64x48 frame of its test pattern, in the format the output's extension names. */
export const TEST_FRAME_ARGS: readonly string[] = ['-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1'];

/** One 64x48 frame of ffmpeg's test pattern written to `file` (a BMP for `.bmp`); resolves with `file`. */
export async function testFrame(file: string): Promise<string> {
  await ffmpeg([...TEST_FRAME_ARGS, file]);
  return file;
}

/** The first `fraction` of `bytes`: a file cut off in transfer. */
export const cutOff = (bytes: Buffer, fraction: number): Buffer =>
  bytes.subarray(0, Math.floor(bytes.length * fraction));

/** VP9 video as fast as libvpx makes it. */
export const VP9_ARGS: readonly string[] = ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8'];

/** VP9 at 100 kb/s with Opus sound: a WebM as browsers and phones' screen recorders write it. */
export const WEBM_ARGS: readonly string[] = [...VP9_ARGS, '-b:v', '100k', '-c:a', 'libopus'];

/** `-metadata key=value` for each tag, as ffmpeg writes them into the container. */
export const metadataArgs = (tags: Record<string, string>): string[] =>
  Object.entries(tags).flatMap(([key, value]) => ['-metadata', `${key}=${value}`]);

/**
 * ffmpeg output options of a QuickTime movie with Apple's keys (`com.apple.quicktime.<key>`, `tags` name them
 * without the prefix) in its metadata, as an iPhone writes the video of a Live Photo.
 */
export const appleMovArgs = (tags: Record<string, string>): string[] => [
  '-f',
  'mov',
  '-movflags',
  'use_metadata_tags',
  ...metadataArgs(
    Object.fromEntries(Object.entries(tags).map(([key, value]) => [`com.apple.quicktime.${key}`, value])),
  ),
];
