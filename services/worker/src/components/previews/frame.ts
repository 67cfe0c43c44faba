/**
 * One decoded frame as PNG bytes, by ffmpeg: a video's poster, or a still in a format the
 * prebuilt libvips does not read (BMP). ffmpeg applies a video's display rotation while decoding.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegCommand, runFfmpeg } from '../ffmpeg';

const FRAME_TIMEOUT_SECONDS = 120;

/** The frame at `seconds`, or null when there is none there (ffmpeg then writes nothing). */
export async function grabFrame(filePath: string, seconds: number, name: string): Promise<Buffer | null> {
  const dir = await mkdtemp(join(tmpdir(), 'trove-frame-'));
  try {
    const out = join(dir, 'frame.png');
    const command = ffmpegCommand(filePath, FRAME_TIMEOUT_SECONDS)
      .seekInput(seconds)
      .noAudio()
      .outputOptions(['-frames:v', '1', '-f', 'image2', '-c:v', 'png'])
      .output(out);
    await runFfmpeg(command, `frame of ${name}`);
    const png = await readFile(out).catch(() => null);
    return png && png.length > 0 ? png : null;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
