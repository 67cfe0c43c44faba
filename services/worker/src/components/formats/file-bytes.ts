/**
 * An original on disk, read in pieces: small reads (headers, chunk and box walks) are served from
 * one window of the file, scans go chunk by chunk. Nothing here holds more than a window of the
 * file unless `readAll` is asked for, so a multi-gigabyte upload costs no more memory than a photo.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

const WINDOW_BYTES = 1024 * 1024;

export class FileBytes {
  /** Reused by every read that fits it, so that scanning a large file does not churn memory. */
  private windowBuffer: Buffer | null = null;
  private window: Buffer = Buffer.alloc(0);
  private windowStart = 0;

  private constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  /** Opens the file at `path` for `use`, and closes it afterwards whatever happens. */
  static async with<T>(path: string, use: (file: FileBytes) => Promise<T>): Promise<T> {
    const handle = await open(path, 'r');
    try {
      return await use(new FileBytes(handle, (await handle.stat()).size));
    } finally {
      await handle.close();
    }
  }

  /** Up to `length` bytes at `offset` (fewer at the end of the file). Valid until the next read. */
  async read(offset: number, length: number): Promise<Buffer> {
    const end = Math.min(offset + length, this.size);
    if (offset < 0 || offset >= end) return Buffer.alloc(0);
    if (offset < this.windowStart || end > this.windowStart + this.window.length) {
      const size = Math.min(Math.max(length, WINDOW_BYTES), this.size - offset);
      this.window = Buffer.alloc(0); // until the new window is read in full
      const target =
        size <= WINDOW_BYTES ? (this.windowBuffer ??= Buffer.allocUnsafe(WINDOW_BYTES)) : Buffer.allocUnsafe(size);
      this.window = await this.readFully(offset, target);
      this.windowStart = offset;
    }
    return this.window.subarray(offset - this.windowStart, end - this.windowStart);
  }

  /** The file from `from` on, one window at a time; each chunk is valid until the next one. */
  async *chunks(from = 0): AsyncGenerator<Buffer> {
    for (let at = from; at < this.size; at += WINDOW_BYTES) yield await this.read(at, WINDOW_BYTES);
  }

  /** Whether `needle` occurs in the file from `from` on (also across chunk boundaries). */
  async includes(needle: Buffer, from = 0): Promise<boolean> {
    let tail = Buffer.alloc(0);
    for await (const chunk of this.chunks(from)) {
      if (chunk.includes(needle)) return true;
      if (tail.length && Buffer.concat([tail, chunk.subarray(0, needle.length - 1)]).includes(needle)) return true;
      tail = Buffer.from(chunk.subarray(Math.max(0, chunk.length - needle.length + 1)));
    }
    return false;
  }

  /** The whole file in memory: only for readers that need it, and only within a size limit checked first. */
  readAll(): Promise<Buffer> {
    return this.readFully(0, Buffer.allocUnsafe(this.size));
  }

  /** Fills `buf` (or what of it the file has) from `offset`. */
  private async readFully(offset: number, buf: Buffer): Promise<Buffer> {
    const length = Math.min(buf.length, this.size - offset);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await this.handle.read(buf, filled, length - filled, offset + filled);
      if (bytesRead === 0) break; // the file shrank under us
      filled += bytesRead;
    }
    return buf.subarray(0, filled);
  }
}
