import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The SHA-256 (hex) of what the stream holds, read piece by piece: a video of several gigabytes never sits in memory. */
export async function sha256Of(stream: AsyncIterable<unknown>): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of stream) hash.update(piece as Buffer);
  return hash.digest('hex');
}

export const sha256File = (file: string): Promise<string> =>
  sha256Of(createReadStream(file, { highWaterMark: 1 << 20 }));
