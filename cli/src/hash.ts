import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The file's SHA-256 (hex), read as a stream: a video of several gigabytes never sits in memory. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(piece as Buffer);
  return hash.digest('hex');
}
