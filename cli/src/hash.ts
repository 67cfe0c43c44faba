import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** The SHA-256 (hex) of what the stream holds, read piece by piece: a video of several gigabytes never sits in memory. */
export async function sha256Of(stream: AsyncIterable<unknown>): Promise<string> {
  const hash = createHash('sha256');
  for await (const piece of stream) hash.update(piece as Buffer);
  return hash.digest('hex');
}

const HASH_READ_BYTES = 256 * 1024;
/**
 * Read buffers of finished hashes, for the next: reading into the same memory again costs no page faults, where a
 * stream's fresh buffer per piece did (and kept the garbage collector busy); one per hash running at once.
 */
const spareBuffers: Buffer[] = [];

/** The SHA-256 (hex) of a file, read in 256 KiB pieces into a buffer used over and over. */
export async function sha256File(file: string): Promise<string> {
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafeSlow(HASH_READ_BYTES);
  try {
    const handle = await open(file, 'r');
    try {
      const hash = createHash('sha256');
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) return hash.digest('hex');
        hash.update(buffer.subarray(0, bytesRead));
      }
    } finally {
      await handle.close();
    }
  } finally {
    spareBuffers.push(buffer);
  }
}
